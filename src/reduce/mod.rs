//! Reducers: shrink a failing input while the oracle stays interesting.
//!
//! * [`Tester`] — cache, counters, cancellation, progress in front of an
//!   [`Oracle`](crate::oracle::Oracle); [`Tester::first_interesting`]
//!   evaluates candidates (in parallel batches for `-j N`) and accepts the
//!   first interesting one in order, so results do not depend on `N`.
//! * [`ddmin`] — Zeller's ddmin over bytes, tokens, lines, choices, nodes.
//! * [`choices`] — Hypothesis-style passes on choice sequences.
//! * [`perses`], [`hdd`], [`grabr`] — derivation-tree reducers.
//! * [`reduce_text`] / [`reduce_choices`] — the pipelines behind
//!   `cargo grammar-min reduce`: named passes run to a joint fixpoint.
//!
//! ```
//! use grammar_min::oracle::{FnOracle, Outcome};
//! use grammar_min::reduce::{reduce_text, Strategy, Tester};
//! let mut o = FnOracle::new(|c: &[u8]| {
//!     let s = String::from_utf8_lossy(c);
//!     match (s.find('('), s.find(')')) {
//!         (Some(a), Some(b)) if a < b => Outcome::Interesting,
//!         _ => Outcome::NotInteresting,
//!     }
//! });
//! let mut t = Tester::new(&mut o);
//! let r = reduce_text(None, b"1 + (2 * 3)", Strategy::Ddmin, &mut t).unwrap();
//! assert_eq!(r.output, b"()");
//! ```

mod as_text;
pub mod blind;
pub mod choices;
pub mod ddmin;
pub mod edit;
pub mod grabr;
pub mod hdd;
pub mod perses;
mod polish;
mod respace;
mod tester;
pub mod treeops;
mod via_choices;
pub mod words;

pub use as_text::{reduce_choices_as_text, PARSE_BUDGET_SPENT};
pub use polish::polish;
pub use respace::first_difference;
pub use tester::{shortlex_lt, Event, OutcomeCache, Stats, Tester};

use crate::generate::{decode, decode_tree, DecodeConfig};
use crate::grammar::Grammar;
use crate::oracle::Outcome;
use crate::tree::Tree;
use polish::polish_into;
use respace::parse_respaced;
use treeops::{Render, TreeCtx};
#[cfg(test)]
use via_choices::via_choices;
use via_choices::{choice_phase, restructure_text};

/// Which reducers run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// For text, the choice passes on the parse tree's choice sequence,
    /// then line, token and byte ddmin and the grammar-blind finish;
    /// repeated to a joint fixpoint. For choice artifacts, the same on
    /// the decoded text (each candidate encoded back), then the choice
    /// passes on the sequence, in turn ([`reduce_choices`]). (Perses and
    /// HDD* are not part of `auto`: after the choice passes they found
    /// nothing on the benchmarks and cost up to half the runs;
    /// BENCHMARKS.md.) For text without a grammar, [`Strategy::Blind`].
    #[default]
    Auto,
    /// ddmin only (lines, tokens, then bytes; bytes of choice artifacts).
    Ddmin,
    /// The grammar-blind pipeline ([`blind`]: bracket pairs, lines,
    /// tokens, bytes, to a fixpoint), what `auto` does without a grammar;
    /// for text the grammar does not parse. On choice artifacts, as
    /// `ddmin`.
    Blind,
    /// Choice-sequence passes only, with Hypothesis' grammar-blind ones
    /// (ddmin on the choices, run deletion, zeroing) every round.
    Choices,
    /// Perses only.
    Perses,
    /// HDD* only.
    Hdd,
    /// fuzzingbook's GrammarReducer only.
    Grabr,
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "auto" => Strategy::Auto,
            "ddmin" => Strategy::Ddmin,
            "blind" => Strategy::Blind,
            "choices" => Strategy::Choices,
            "perses" => Strategy::Perses,
            "hdd" => Strategy::Hdd,
            "grabr" => Strategy::Grabr,
            _ => {
                return Err(format!(
                    "unknown strategy `{s}`; use auto, blind, ddmin, choices, perses, hdd or grabr"
                ))
            }
        })
    }
}

/// Why a reduction could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReduceError {
    /// The original input is not interesting.
    #[error("the original input is not interesting (the oracle said: {0}); nothing to reduce")]
    NotReproduced(Outcome),
    /// The strategy needs a grammar.
    #[error("strategy {0:?} needs a grammar (--grammar FILE)")]
    NeedsGrammar(Strategy),
    /// A text artifact does not parse with the grammar.
    #[error("the input does not parse with the grammar: {message}")]
    Unparseable {
        /// Byte offset.
        offset: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's explanation.
        message: String,
    },
}

/// Result of a reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The oracle's input that was reduced (text, or choice bytes).
    pub output: Vec<u8>,
    /// Passes run, each with the size it ended at and the oracle runs so
    /// far: `(name, size, tests)`. Sizes are bytes of text, but choices
    /// for a choice artifact reduced by any strategy other than `auto`.
    pub passes: Vec<(&'static str, usize, u64)>,
    /// With `output` the input, as a text respaced (`1+2` for `1 + 2`)
    /// reduced to a longer sentence: that sentence, for tree steps.
    pub spelled: Option<Vec<u8>>,
}

fn check_original(input: &[u8], tester: &mut Tester<'_>) -> Result<(), ReduceError> {
    match tester.test(input) {
        Outcome::Interesting => Ok(()),
        o => Err(ReduceError::NotReproduced(o)),
    }
}

fn parse_tree(g: &Grammar, text: &[u8]) -> Result<Tree, ReduceError> {
    crate::parse::parse(g, text).map_err(unparseable)
}

fn unparseable(e: crate::parse::ParseError) -> ReduceError {
    ReduceError::Unparseable {
        offset: e.offset,
        line: e.line,
        column: e.column,
        message: e.message,
    }
}

/// Reduces a text input. `grammar` is needed by every strategy but
/// [`Strategy::Ddmin`], [`Strategy::Blind`] and [`Strategy::Auto`], which
/// without a grammar runs the grammar-blind pipeline ([`blind`]: lines, bracket pairs,
/// tokens, bytes); tree strategies parse the text first.
///
/// # Errors
/// The original is not interesting, no grammar, or the text does not
/// parse.
pub fn reduce_text(
    grammar: Option<&Grammar>,
    input: &[u8],
    strategy: Strategy,
    tester: &mut Tester<'_>,
) -> Result<Reduced, ReduceError> {
    check_original(input, tester)?;
    let mut passes = Vec::new();
    let mut cur = input.to_vec();
    if strategy == Strategy::Ddmin {
        polish_into(&mut cur, None, tester, &mut passes);
        return Ok(Reduced {
            output: cur,
            passes,
            spelled: None,
        });
    }
    if strategy == Strategy::Blind || (strategy == Strategy::Auto && grammar.is_none()) {
        blind::blind_into(&mut cur, tester, &mut passes);
        return Ok(Reduced {
            output: cur,
            passes,
            spelled: None,
        });
    }
    let g = grammar.ok_or(ReduceError::NeedsGrammar(strategy))?;
    let ctx = TreeCtx::new(g, Render::Text).with_lexical_atoms();
    let keywords = ddmin::keywords(g);
    // A text whose blanks or letter case differ from the grammar's (a
    // trailing newline, `1+2` for `1 + 2`, `select` for `SELECT`) is
    // reduced in the grammar's spelling, if that still fails; the result
    // is never longer than the input (below).
    let (mut tree, respelled) = parse_respaced(g, &cur, tester)?;
    let respaced = respelled.is_some();
    if let Some(text) = respelled {
        // The input is the best so far until something beats it: the
        // grammar's spelling can be longer.
        tester.accept(input);
        cur = text;
        tester.accept(&cur);
        passes.push(("respace-blanks", cur.len(), tester.runs()));
    }
    if strategy == Strategy::Auto {
        // Blanks squeezed first, lines joined if that keeps the failure,
        // else kept: one run or two, and only texts the grammar still
        // parses. Otherwise the tree passes delete them one whitespace node
        // per run, each after the shorter candidates that fail (a 40-line
        // JSON list whose every value is needed: 2,339 runs without this).
        for squeezed in [ddmin::squeeze_lines(&cur), ddmin::squeeze_blanks(&cur)] {
            if squeezed.len() >= cur.len() {
                continue;
            }
            let Ok(t) = parse_tree(g, &squeezed) else {
                continue;
            };
            if tester.test(&squeezed) == Outcome::Interesting {
                tester.accept(&squeezed);
                cur = squeezed;
                tree = t;
                passes.push(("squeeze-blanks", cur.len(), tester.runs()));
                break;
            }
        }
        // The choice-sequence passes: their one shortest-first list of
        // replacements over the whole tree needs fewer oracle runs than
        // Perses' node-by-node queue, and after them Perses found nothing
        // on any benchmark (BENCHMARKS.md).
        if let Some((t, text)) = choice_phase(g, &tree, tester, &mut passes)? {
            (tree, cur) = (t, text);
        }
    }
    // The grammar passes to their fixpoint, then (auto) the grammar-blind
    // finish; if that changed the text and it still parses, both again.
    loop {
        grammar_rounds(
            g,
            &ctx,
            strategy,
            &keywords,
            tree,
            &mut cur,
            tester,
            &mut passes,
        )?;
        if strategy != Strategy::Auto || tester.stopped() {
            break;
        }
        // What one subtree edit at a time cannot keep valid: a wrapper
        // function inlined into its caller, a definition into its use, a
        // bracket pair dropped around its contents, a table's column cut
        // from it and from every row inserted into it. The grammar-blind
        // passes do these, and are cheap on the small text left now.
        // Their fixpoint's own pair hoisting, adjacent tokens … are left
        // to the subtree edits only while the text is in the language —
        // blanks aside (`0/0` for `0 / 0`), and its end (a sentence's
        // final `;` cut): the polish can leave it (`<?php` cut to `<?`:
        // php_nullcall 34 bytes instead of 16).
        let before = cur.clone();
        let outside = crate::parse::parse(g, &cur).is_err_and(|e| e.offset < cur.len())
            && crate::parse::respace_first(g, &cur).is_none();
        blind::finish(&mut cur, &keywords, outside, tester, &mut passes);
        if cur == before || tester.stopped() {
            break;
        }
        // Their edits can open new subtree edits (an inlined body next to
        // the block it came from, two blocks to join): the grammar passes
        // again — on the grammar's spelling if the text lost a blank the
        // grammar writes (`}END{` for `}⏎END{`), one run to check it.
        match crate::parse::parse(g, &cur) {
            Ok(t) => tree = t,
            Err(_) => match crate::parse::respace_first(g, &cur) {
                Some((_, r)) if tester.test(&r.text) == Outcome::Interesting => {
                    tree = r.tree;
                    cur = r.text;
                }
                // The blind edits took the text out of the language.
                _ if outside => break,
                _ => {
                    blind::finish(&mut cur, &keywords, true, tester, &mut passes);
                    break;
                }
            },
        }
        if let Some((t, text)) = choice_phase(g, &tree, tester, &mut passes)? {
            (tree, cur) = (t, text);
        }
    }
    // A respaced round can end longer than the text it started from.
    let mut spelled = None;
    if let Some(best) = tester.best().filter(|b| b.len() < cur.len()) {
        spelled = (respaced && best == input).then(|| cur.clone());
        cur = best.to_vec();
    }
    if cur.len() > input.len() {
        // Respaced longer and reduced no further: the input is smaller.
        spelled = Some(std::mem::replace(&mut cur, input.to_vec()));
    }
    Ok(Reduced {
        output: cur,
        passes,
        spelled,
    })
}

/// The grammar passes of `reduce_text` to their fixpoint: the tree
/// strategy (for `auto`, `restructure` to its fixpoint, then the choice
/// passes again if it rebuilt a node), the polish, a re-parse, until the
/// polish changes nothing or the text leaves the language. Other
/// strategies run once. Leaves the result in `cur` (`tree` is `cur`'s
/// parse tree on entry).
#[allow(clippy::too_many_arguments)]
fn grammar_rounds(
    g: &Grammar,
    ctx: &TreeCtx<'_>,
    strategy: Strategy,
    keywords: &[Vec<u8>],
    mut tree: Tree,
    cur: &mut Vec<u8>,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) -> Result<(), ReduceError> {
    loop {
        let before = cur.clone();
        match strategy {
            Strategy::Perses => tree = perses::perses(ctx, tree, tester),
            Strategy::Hdd => tree = hdd::hdd(ctx, tree, tester),
            Strategy::Grabr => tree = grabr::grabr(ctx, tree, tester),
            // No Perses or HDD* here: after the choice passes they found
            // nothing on any benchmark and cost up to half the runs
            // (BENCHMARKS.md, 2026-11-26). Before ddmin leaves the
            // language: the choice pipeline's restructure pass on the
            // tree's choice sequence, tested as text, to its fixpoint.
            _ => {
                let mut rebuilt = false;
                while !tester.stopped() {
                    match restructure_text(g, &tree, tester).map(|t| parse_tree(g, &t)) {
                        Some(Ok(t)) => {
                            tree = t;
                            rebuilt = true;
                            passes.push(("restructure", tree.unparse(g).len(), tester.runs()));
                        }
                        _ => break,
                    }
                }
                // A rebuilt node can leave siblings behind that only
                // served the old one: the deletions again.
                if rebuilt && strategy == Strategy::Auto && !tester.stopped() {
                    if let Some((t, _)) = choice_phase(g, &tree, tester, passes)? {
                        tree = t;
                    }
                }
            }
        }
        *cur = tree.unparse(g);
        if strategy != Strategy::Auto {
            passes.push((
                match strategy {
                    Strategy::Perses => "perses",
                    Strategy::Hdd => "hdd",
                    _ => "grabr",
                },
                cur.len(),
                tester.runs(),
            ));
            break;
        }
        polish_into(cur, Some(keywords), tester, passes);
        if *cur == before || tester.stopped() {
            break;
        }
        // ddmin may leave the language; the tree passes then stop.
        match crate::parse::parse(g, cur) {
            Ok(t) => tree = t,
            Err(_) => break,
        }
    }
    Ok(())
}

/// What a speculative pass may spend per call on `text` — candidates for
/// `restructure`, `switch_alternatives` and `join_lists`: as many as its
/// tokens, at least 32. On an input whose every part is needed such
/// passes list thousands of failing candidates; their good ones come
/// early in their orders (half of the earlier budget, twice the tokens
/// and at least 64, changed no result on the suite, the generalisation
/// check or the JavaScript tasks of `benches/blind`, and saved up to 16 %
/// of the runs: BENCHMARKS.md).
pub(crate) fn pass_budget(text: &[u8]) -> usize {
    32.max(ddmin::tokens(text).len())
}

/// Reduces a choice-sequence artifact (the oracle receives choice bytes;
/// wrap a text oracle in [`crate::oracle::Decoded`]). `auto` alternates
/// two stages until the second changes nothing: the text it decodes to
/// is reduced as text is ([`reduce_choices_as_text`]: every candidate
/// parsed and encoded back, so a definition goes into its use and a
/// wrapper into its call), then the structural choice passes edit the
/// sequence itself (inside tokens too: digits lowered, which the text
/// polish does not do) and delete runs of its tokens within the
/// language ([`choices::delete_text_runs`]); they also reduce a text
/// whose parse the decoder's budgets do not allow. The other strategies
/// work on the sequence alone; tree strategies re-encode candidate trees
/// with [`crate::encode::encode`].
///
/// # Errors
/// The original is not interesting.
pub fn reduce_choices(
    g: &Grammar,
    cfg: &DecodeConfig,
    input: &[u8],
    strategy: Strategy,
    tester: &mut Tester<'_>,
) -> Result<Reduced, ReduceError> {
    if strategy != Strategy::Auto {
        return choices_pipeline(g, cfg, input, strategy, false, tester);
    }
    check_original(input, tester)?;
    let mut cur = input.to_vec();
    let mut passes = Vec::new();
    loop {
        let r = reduce_choices_as_text(g, cfg, &cur, strategy, tester)?;
        passes.extend(r.passes);
        cur = r.output;
        if tester.stopped() {
            break;
        }
        let r = choices_pipeline(g, cfg, &cur, strategy, false, tester)?;
        passes.extend(r.passes);
        let changed = r.output != cur;
        cur = r.output;
        if !changed || tester.stopped() {
            break;
        }
    }
    Ok(Reduced {
        output: cur,
        passes,
        spelled: None,
    })
}

/// The choice-sequence passes: for a choice artifact ([`reduce_choices`])
/// or, `in_text`, on a text's parse tree inside a text reduction
/// ([`via_choices`]). `auto` runs the structural passes to a fixpoint,
/// then lowers nodes, joins lists and restructures; for an artifact it
/// ends with [`choices::delete_text_runs`], the polish of an oracle that
/// reads choices. Hypothesis' grammar-blind passes (ddmin on the
/// choices, run deletion, zeroing: [`blind_passes`]) run only in
/// `choices`: after the text stage of [`reduce_choices`] they cost 13–29 %
/// of its runs on the fuzz targets' artifacts and took 13 bytes of 1,333
/// (BENCHMARKS.md), and on a text's sequence they shift every later
/// choice, so their candidates are unrelated texts. Perses is a strategy
/// of its own. `in_text`, lexical tokens stay whole (the text polish
/// deletes their bytes). Pass sizes are bytes of text for `auto` and
/// `in_text`, else choices.
pub(crate) fn choices_pipeline(
    g: &Grammar,
    cfg: &DecodeConfig,
    input: &[u8],
    strategy: Strategy,
    in_text: bool,
    tester: &mut Tester<'_>,
) -> Result<Reduced, ReduceError> {
    let sizes_in_text = in_text || strategy == Strategy::Auto;
    check_original(input, tester)?;
    let ctx = TreeCtx::new(g, Render::Choices(*cfg));
    let ctx = if in_text {
        ctx.with_lexical_atoms()
    } else {
        ctx
    };
    let mut passes = Vec::new();
    // Pass reports: text bytes (or choices) and the program's runs
    // ([`Tester::runs`]), as the text passes report theirs.
    let size = |c: &[u8]| {
        if sizes_in_text {
            decode(g, c, cfg).len()
        } else {
            c.len()
        }
    };
    let mut cur = input.to_vec();
    let tree_pass = |f: fn(&TreeCtx<'_>, Tree, &mut Tester<'_>) -> Tree,
                     cur: &[u8],
                     tester: &mut Tester<'_>| {
        let t = f(&ctx, decode_tree(g, cur, cfg), tester);
        match crate::encode::encode(g, &t, cfg) {
            Ok(c) if shortlex_lt(&c, cur) && tester.test(&c) == Outcome::Interesting => c,
            _ => cur.to_vec(),
        }
    };
    loop {
        let before = cur.clone();
        match strategy {
            Strategy::Ddmin | Strategy::Blind => {
                cur = choices::ddmin_pass(&cur, tester, false);
                passes.push(("ddmin-choices", size(&cur), tester.runs()));
                break;
            }
            Strategy::Perses => cur = tree_pass(perses::perses, &cur, tester),
            Strategy::Hdd => cur = tree_pass(hdd::hdd, &cur, tester),
            Strategy::Grabr => cur = tree_pass(grabr::grabr, &cur, tester),
            Strategy::Auto | Strategy::Choices => {
                cur = choices::ddmin_lists(&ctx, cfg, &cur, tester);
                passes.push(("ddmin-lists", size(&cur), tester.runs()));
                cur = choices::chains::cut_chains(&ctx, cfg, &cur, tester);
                passes.push(("cut-chains", size(&cur), tester.runs()));
                cur = choices::replace_by_descendant(&ctx, cfg, &cur, tester);
                passes.push(("replace-by-descendant", size(&cur), tester.runs()));
                cur = choices::minimize_nodes(&ctx, cfg, &cur, tester);
                passes.push(("minimize-nodes", size(&cur), tester.runs()));
                cur = choices::alternatives::switch_alternatives(&ctx, cfg, &cur, tester);
                passes.push(("switch-alternatives", size(&cur), tester.runs()));
                if strategy == Strategy::Choices {
                    cur = blind_passes(&cur, tester, &mut passes, &size);
                }
            }
        }
        if cur == before && strategy == Strategy::Auto && !tester.stopped() {
            // At the fixpoint of the structural passes: lowering nodes,
            // then rebuilding them through other alternatives; on success
            // the cheaper passes run again.
            cur = choices::lower_nodes(&ctx, cfg, &cur, tester);
            passes.push(("lower-nodes", size(&cur), tester.runs()));
            if cur == before {
                cur = choices::alternatives::join_lists(&ctx, cfg, &cur, tester);
                passes.push(("join-lists", size(&cur), tester.runs()));
            }
            if cur == before {
                cur = choices::restructure(&ctx, cfg, &cur, tester);
                passes.push(("restructure", size(&cur), tester.runs()));
            }
        }
        if cur == before && !in_text && strategy == Strategy::Auto && !tester.stopped() {
            // At the fixpoint of all the others, the final polish: token
            // runs of the text, within the grammar's language (a text
            // reduction's polish may leave it, since its oracle reads the
            // text). Its deletions can open new subtree edits (`let w =
            // [1];⏎w.f()` polished to `let w = [].f()`, whose `let w =`
            // goes next): if it changed anything, all again.
            cur = choices::delete_text_runs(g, cfg, &cur, tester);
            passes.push(("delete-text-runs", size(&cur), tester.runs()));
        }
        if cur == before || tester.stopped() {
            break;
        }
    }
    if let Some(b) = tester.best() {
        if tester.better(b, &cur) {
            cur = b.to_vec();
        }
    }
    Ok(Reduced {
        output: cur,
        passes,
        spelled: None,
    })
}

/// Hypothesis' grammar-blind passes on a choice sequence: ddmin over
/// choices, deletion of runs of 8, 4, 2 and 1 choices, zeroing single
/// choices.
fn blind_passes(
    cur: &[u8],
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
    size: &dyn Fn(&[u8]) -> usize,
) -> Vec<u8> {
    let mut cur = choices::ddmin_pass(cur, tester, false);
    passes.push(("ddmin-choices", size(&cur), tester.runs()));
    cur = choices::delete_runs(&cur, tester);
    passes.push(("delete-runs", size(&cur), tester.runs()));
    cur = choices::lower_bytes(&cur, tester);
    passes.push(("lower-bytes", size(&cur), tester.runs()));
    cur
}

/// The text a choice sequence stands for (convenience for reports).
pub fn choices_text(g: &Grammar, cfg: &DecodeConfig, choices: &[u8]) -> Vec<u8> {
    decode(g, choices, cfg)
}

#[cfg(test)]
mod tests;
