//! Parsing a text whose blanks or letter case differ from the grammar's
//! spelling.
//!
//! Real inputs come from editors and tools: they end with a newline, write
//! `1+2` where a fuzzingbook grammar spells `1 + 2`, put two spaces where
//! it has one, or write `select` where it has `SELECT`. Such a text does
//! not parse, although its tokens do. [`respace`] finds a text that
//! differs from the input only in blanks (ASCII whitespace) and, if asked,
//! in the case of the grammar's letters, and parses. The blanks change in
//! one of four ways ([`Blanks`]), most faithful first:
//! * [`Blanks::Trimmed`]: without leading and trailing blanks;
//! * [`Blanks::Lines`]: as `Runs` below, but a blank of the grammar's
//!   with a line end only matches blanks with one, and a blank without
//!   only blanks without, so line ends stay line ends: for a language
//!   whose line ends separate statements (awk, shell, Python), where
//!   `return 0⏎return x` must not become `return 0 return x`, nor a
//!   comment's space a line end. Tried when the grammar has a line end in
//!   a terminal; [`Blanks::TightLines`]
//!   is the same with `Tight`'s empty runs (`}function` for the grammar's
//!   `}⏎function`), tried before `Tight`;
//! * [`Blanks::Runs`]: parsed with a variant of the grammar in which each
//!   run of blanks in a terminal matches any run of one or more blanks (a
//!   newline for a space, two spaces for one), and blanks may lead and
//!   trail; an alternative that is only spaces or tabs (`<char> ::= " "`,
//!   a character of a comment or a string) stays as it is, so a comment
//!   cannot swallow the line after it;
//! * [`Blanks::Tight`]: the same with runs of zero or more blanks (`1+2`
//!   for `1 + 2`);
//! * [`Blanks::Removed`]: the input without any blank, parsed with a
//!   variant whose terminals have none either (`( 1 )` for a grammar that
//!   spells `(1)`; blanks inside strings are lost).
//!
//! With [`Respacing::fold_case`], every ASCII letter of the grammar's
//! terminals also matches its other case (keywords, and the letters of
//! identifier rules, which then take the grammar's case). [`Respacing::ALL`]
//! lists the eight ways, the four without folding first.
//!
//! Every way drops a leading UTF-8 byte-order mark (Windows editors write
//! one). In the first three the input's other bytes, blanks inside strings
//! included, stay as they are. Where blanks may vanish (the last two),
//! words can run together, and a grammar of blank-separated words becomes
//! so ambiguous that parsing 22 KB without blanks took five minutes: those
//! two are tried on inputs of at most [`AMBIGUOUS_MAX`] bytes only.
//!
//! The variants keep the grammar's nonterminals and alternatives, so their
//! parse tree is one of the grammar's derivations: the result is that
//! derivation spelled with the grammar's own terminals, parsed again with
//! the grammar. Whether it is still the same input is for the caller's
//! oracle to say: a blank or a letter's case can matter.

use super::parse;
use crate::grammar::{Elem, Grammar, GrammarBuilder, RuleId, SymbolId, Token};
use crate::tree::{Label, NodeId, Tree};
use std::collections::{BTreeSet, HashMap};

/// How [`respace`] changes the blanks (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blanks {
    /// Leading and trailing blanks removed.
    Trimmed,
    /// Runs of blanks matched to the grammar's blanks, line ends to line
    /// ends.
    Lines,
    /// As `Lines`, and blanks put where the grammar has them and the
    /// input has none.
    TightLines,
    /// Runs of blanks matched to the grammar's blanks.
    Runs,
    /// Blanks put where the grammar has them and the input has none.
    Tight,
    /// Every blank removed, then the grammar's blanks put back.
    Removed,
}

/// One way [`respace`] changes a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Respacing {
    /// What happens to blanks.
    pub blanks: Blanks,
    /// Whether the grammar's letters also match in the other case.
    pub fold_case: bool,
}

impl From<Blanks> for Respacing {
    fn from(blanks: Blanks) -> Respacing {
        Respacing {
            blanks,
            fold_case: false,
        }
    }
}

impl Respacing {
    /// All twelve, most faithful to the input first: the six ways with
    /// blanks, then the same with letters in either case.
    pub const ALL: [Respacing; 12] = {
        const fn r(blanks: Blanks, fold_case: bool) -> Respacing {
            Respacing { blanks, fold_case }
        }
        [
            r(Blanks::Trimmed, false),
            r(Blanks::Lines, false),
            r(Blanks::Runs, false),
            r(Blanks::TightLines, false),
            r(Blanks::Tight, false),
            r(Blanks::Removed, false),
            r(Blanks::Trimmed, true),
            r(Blanks::Lines, true),
            r(Blanks::Runs, true),
            r(Blanks::TightLines, true),
            r(Blanks::Tight, true),
            r(Blanks::Removed, true),
        ]
    };

    /// What was done, for messages.
    pub fn describe(self) -> String {
        let blanks = match self.blanks {
            Blanks::Trimmed => "leading and trailing blanks removed",
            Blanks::Lines => "blanks respaced as the grammar writes them, a line end as a line end",
            Blanks::TightLines => {
                "blanks put where the grammar writes them, a line end as a line end"
            }
            Blanks::Runs => "blanks respaced as the grammar writes them",
            Blanks::Tight => "blanks put where the grammar writes them",
            Blanks::Removed => "blanks removed, then put where the grammar writes them",
        };
        if self.fold_case {
            format!("{blanks}, letters in the grammar's case")
        } else {
            blanks.to_string()
        }
    }
}

/// Longest input [`Blanks::Tight`] and [`Blanks::Removed`] are tried on
/// (see the module docs; a libFuzzer artifact's default `-max_len`).
pub const AMBIGUOUS_MAX: usize = 4096;

/// A text that differs from the input in blanks (and letter case) only,
/// with its tree.
#[derive(Clone, Debug)]
pub struct Respaced {
    /// The text (the grammar's spelling of `tree`).
    pub text: Vec<u8>,
    /// Its parse tree.
    pub tree: Tree,
}

fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

/// What a variant grammar does with the blanks of the grammar's terminals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Kept as they are.
    Keep,
    /// Each run matches any run of blanks, empty too if `empty_too`.
    Runs { empty_too: bool },
    /// As `Runs`, but a run with a line end matches blanks with one, and
    /// a run without blanks without one.
    Lines { empty_too: bool },
    /// Removed.
    Strip,
}

/// The text `how` makes of `input`, if it differs from `input` and
/// parses with `g` (see the module docs).
pub fn respace(g: &Grammar, given: &[u8], how: impl Into<Respacing>) -> Option<Respaced> {
    let how: Respacing = how.into();
    // A UTF-8 byte-order mark (Windows editors) goes with the blanks, in
    // every way.
    let input = given.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(given);
    let through = |mode: Mode, text: &[u8]| {
        let v = variant(g, mode, how.fold_case)?;
        spell(g, &v, &parse(&v, text).ok()?)
    };
    let text = match how.blanks {
        Blanks::Tight | Blanks::TightLines | Blanks::Removed if input.len() > AMBIGUOUS_MAX => {
            return None
        }
        Blanks::Trimmed => {
            let start = input.iter().position(|&b| !is_blank(b))?;
            let end = input.iter().rposition(|&b| !is_blank(b))? + 1;
            let trimmed = &input[start..end];
            if how.fold_case {
                through(Mode::Keep, trimmed)?
            } else {
                trimmed.to_vec()
            }
        }
        Blanks::Lines | Blanks::TightLines => {
            if !g.terms().iter().any(|t| t.contains(&b'\n')) {
                return None;
            }
            let empty_too = how.blanks == Blanks::TightLines;
            through(Mode::Lines { empty_too }, input)?
        }
        Blanks::Runs => through(Mode::Runs { empty_too: false }, input)?,
        Blanks::Tight => through(Mode::Runs { empty_too: true }, input)?,
        Blanks::Removed => {
            let stripped: Vec<u8> = input.iter().copied().filter(|&b| !is_blank(b)).collect();
            through(Mode::Strip, &stripped)?
        }
    };
    if text == given || fuses_words(input, &text) {
        return None;
    }
    let tree = parse(g, &text).ok()?;
    Some(Respaced { text, tree })
}

/// `e`, the error of parsing `input` as written, or, if `e` stands on a
/// blank (a `\r` of a CRLF file, an indentation, a blank line), the
/// error of parsing it with any run of blanks where the grammar writes
/// one, if that gets further: the obstacle that is no blank, which
/// respacing cannot mend, with a note where the text as written stopped.
pub fn past_blanks(g: &Grammar, input: &[u8], e: super::ParseError) -> super::ParseError {
    if !input.get(e.offset).is_some_and(|&b| is_blank(b)) {
        return e;
    }
    let Some(v) = variant(g, Mode::Runs { empty_too: false }, false) else {
        return e;
    };
    match parse(&v, input) {
        Err(mut f) if f.offset > e.offset => {
            // The variant's own start symbol is no name the user knows.
            let (theirs, ours) = (v.name(v.start()), g.name(g.start()));
            f.message = format!(
                "{}\n(blanks aside: as written it stops earlier, on a blank at line {}, \
                 column {}, where the grammar writes none or another; respacing mends that, \
                 not this)",
                f.message
                    .replace(&format!("parsing {theirs};"), &format!("parsing {ours};")),
                e.line,
                e.column
            );
            f
        }
        _ => e,
    }
}

/// Whether `out`, `input` respaced, runs two words together that a blank
/// kept apart in `input` (`let x` as `letx`, a comment's last word and
/// the next line's first), or splits one (`Inventory` as `Inventor y`).
/// Such a text is another program: a line comment that swallowed the
/// rest, a string whose words ran together.
fn fuses_words(input: &[u8], out: &[u8]) -> bool {
    use crate::reduce::ddmin::is_word as word;
    // Each byte that is no blank, and whether a blank comes before it.
    let marks = |t: &[u8]| {
        let mut blank = false;
        let mut v = Vec::with_capacity(t.len());
        for &b in t {
            if is_blank(b) {
                blank = true;
            } else {
                v.push((b, std::mem::take(&mut blank)));
            }
        }
        v
    };
    let (a, b) = (marks(input), marks(out));
    a.len() == b.len()
        && a.windows(2)
            .zip(b.windows(2))
            .any(|(x, y)| x[1].1 != y[1].1 && word(x[0].0) && word(x[1].0))
}

/// The first of [`Respacing::ALL`] that makes `input` parse, with its
/// text: for callers without an oracle to check it (seeding, pattern
/// matching, error notes).
pub fn respace_first(g: &Grammar, input: &[u8]) -> Option<(Respacing, Respaced)> {
    Respacing::ALL
        .into_iter()
        .find_map(|how| respace(g, input, how).map(|r| (how, r)))
}

/// `g` with the blanks of its terminals treated as `mode` says (a run
/// becomes a new nonterminal matching runs of blanks, which then may also
/// lead and trail the start symbol), and, with `fold_case`, each ASCII
/// letter of a terminal a new nonterminal matching it in either case.
/// `g`'s nonterminals keep their ids; the new ones come after.
fn variant(g: &Grammar, mode: Mode, fold_case: bool) -> Option<Grammar> {
    let fresh = |base: &str| {
        (0..)
            .map(|i| format!("<{base}{i}>"))
            .find(|n| g.symbol_by_name(n).is_none())
            .unwrap_or_default()
    };
    let (some, any) = (fresh("blanks"), fresh("maybe-blanks"));
    let (inline, maybe_inline) = (fresh("inline-blanks"), fresh("maybe-inline-blanks"));
    let (line, maybe_line) = (fresh("line-blanks"), fresh("maybe-line-blanks"));
    let empty_too = matches!(
        mode,
        Mode::Runs { empty_too: true } | Mode::Lines { empty_too: true }
    );
    let run = if empty_too { &any } else { &some };
    let inline_run = if empty_too { &maybe_inline } else { &inline };
    let line_run = if empty_too { &maybe_line } else { &line };
    let case_names: Vec<String> = (b'a'..=b'z')
        .map(|c| fresh(&format!("case-{}", c as char)))
        .collect();
    let case = |c: u8| case_names[usize::from(c.to_ascii_lowercase() - b'a')].clone();
    let mut letters = BTreeSet::new();
    let mut b = GrammarBuilder::new();
    for s in 0..g.num_symbols() {
        b.declare(g.name(SymbolId(s as u32)), None);
    }
    for s in 0..g.num_symbols() {
        let sym = SymbolId(s as u32);
        let mut rules: Vec<RuleId> = g.rules_of(sym).collect();
        rules.sort_by_key(|&r| g.rule(r).source_index);
        // Single-letter alternatives whose other case is an alternative
        // too (`<letter> ::= "a" | "A" | …`) already match both: folding
        // them would spell every `A` as `a`.
        let single: BTreeSet<u8> = rules
            .iter()
            .filter_map(|&r| match g.body(r) {
                [Elem::T(t)] if g.term(*t).len() == 1 => Some(g.term(*t)[0]),
                _ => None,
            })
            .collect();
        let both = |c: u8| {
            let other = if c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            single.contains(&c) && single.contains(&other)
        };
        for r in rules {
            let exact_letter = match g.body(r) {
                [Elem::T(t)] if g.term(*t).len() == 1 => both(g.term(*t)[0]),
                _ => false,
            };
            // An alternative that is only spaces or tabs is a character
            // (of a comment, a string), not a separator: it stays as it is.
            // As a run of blanks it would match a line end too, and a
            // comment would swallow the line after it.
            if let ([Elem::T(t)], Mode::Runs { .. } | Mode::Lines { .. }) = (g.body(r), mode) {
                let term = g.term(*t);
                if !term.is_empty() && term.iter().all(|&c| c == b' ' || c == b'\t') {
                    b.push_alt(g.name(sym), vec![Token::T(term.to_vec())]);
                    continue;
                }
            }
            let mut tokens = Vec::new();
            for e in g.body(r) {
                let t = match *e {
                    Elem::Nt(x) => {
                        tokens.push(Token::Nt(g.name(x).to_string()));
                        continue;
                    }
                    Elem::T(t) => t,
                };
                for part in g.term(t).chunk_by(|a, b| is_blank(*a) == is_blank(*b)) {
                    if is_blank(part[0]) {
                        match mode {
                            Mode::Keep => tokens.push(Token::T(part.to_vec())),
                            Mode::Runs { .. } => tokens.push(Token::Nt(run.clone())),
                            Mode::Lines { .. } if part.contains(&b'\n') => {
                                tokens.push(Token::Nt(line_run.clone()))
                            }
                            Mode::Lines { .. } => tokens.push(Token::Nt(inline_run.clone())),
                            Mode::Strip => {}
                        }
                    } else if fold_case && !exact_letter {
                        for piece in
                            part.chunk_by(|a, b| a.is_ascii_alphabetic() == b.is_ascii_alphabetic())
                        {
                            if piece[0].is_ascii_alphabetic() {
                                for &c in piece {
                                    letters.insert(c.to_ascii_lowercase());
                                    tokens.push(Token::Nt(case(c)));
                                }
                            } else {
                                tokens.push(Token::T(piece.to_vec()));
                            }
                        }
                    } else {
                        tokens.push(Token::T(part.to_vec()));
                    }
                }
            }
            b.push_alt(g.name(sym), tokens);
        }
    }
    for c in letters {
        b.push_alt(&case(c), vec![Token::T(vec![c])]);
        b.push_alt(&case(c), vec![Token::T(vec![c.to_ascii_uppercase()])]);
    }
    if !matches!(mode, Mode::Runs { .. } | Mode::Lines { .. }) {
        return b.start(g.name(g.start())).build().ok();
    }
    // <maybe-blanks> ::= "" | c <maybe-blanks>; <blanks> ::= c <maybe-blanks>.
    b.push_alt(&any, Vec::new());
    for c in [b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c"] {
        b.push_alt(&any, vec![Token::T(c.to_vec()), Token::Nt(any.clone())]);
        b.push_alt(&some, vec![Token::T(c.to_vec()), Token::Nt(any.clone())]);
    }
    if matches!(mode, Mode::Lines { .. }) {
        // <maybe-inline-blanks> ::= "" | c <maybe-inline-blanks>;
        // <inline-blanks> ::= c <maybe-inline-blanks> (c not a line end);
        // <line-blanks> ::= <maybe-inline-blanks> "\n" <maybe-blanks>;
        // <maybe-line-blanks> ::= "" | <line-blanks>.
        b.push_alt(
            &line,
            vec![
                Token::Nt(maybe_inline.clone()),
                Token::T(b"\n".to_vec()),
                Token::Nt(any.clone()),
            ],
        );
        b.push_alt(&maybe_line, Vec::new());
        b.push_alt(&maybe_line, vec![Token::Nt(line.clone())]);
        b.push_alt(&maybe_inline, Vec::new());
        for c in [b" ", b"\t", b"\r", b"\x0b", b"\x0c"] {
            b.push_alt(
                &maybe_inline,
                vec![Token::T(c.to_vec()), Token::Nt(maybe_inline.clone())],
            );
            b.push_alt(
                &inline,
                vec![Token::T(c.to_vec()), Token::Nt(maybe_inline.clone())],
            );
        }
    }
    let start = fresh("start");
    let around = vec![
        Token::Nt(any.clone()),
        Token::Nt(g.name(g.start()).to_string()),
        Token::Nt(any),
    ];
    b.push_alt(&start, around);
    b.start(&start).build().ok()
}

/// The text of `vt` (a tree of the variant `v` of `g`) spelled with `g`'s
/// terminals: each node of one of `g`'s nonterminals is written as the
/// alternative of `g` it stands for, whose nonterminals take the node's
/// children of `g`'s nonterminals in order (the variant's terminals and
/// blank runs, nonterminals of its own, are skipped). `None` if the shapes
/// disagree.
fn spell(g: &Grammar, v: &Grammar, vt: &Tree) -> Option<Vec<u8>> {
    let own = |s: SymbolId| s.index() < g.num_symbols();
    let mut rule_of: HashMap<(SymbolId, u32), RuleId> = HashMap::new();
    for r in 0..g.num_rules() {
        let rule = g.rule(RuleId(r as u32));
        rule_of.insert((rule.lhs, rule.source_index), RuleId(r as u32));
    }
    // The node of g's start symbol: the root, or under the variant's start.
    let mut root = vt.root();
    if !vt.symbol(v, root).is_some_and(own) {
        root = vt
            .children(root)
            .find(|&c| vt.symbol(v, c).is_some_and(own))?;
    }
    enum Work {
        Node(NodeId),
        Bytes(crate::grammar::TermId),
    }
    let mut out = Vec::new();
    let mut stack = vec![Work::Node(root)];
    while let Some(w) = stack.pop() {
        let n = match w {
            Work::Bytes(t) => {
                out.extend_from_slice(g.term(t));
                continue;
            }
            Work::Node(n) => n,
        };
        let Label::Rule(vr) = vt.node(n).label() else {
            return None;
        };
        let vrule = v.rule(vr);
        let r = *rule_of.get(&(vrule.lhs, vrule.source_index))?;
        let mut kids = vt.children(n).filter(|&c| {
            vt.symbol(v, c).is_some_and(own) && matches!(vt.node(c).label(), Label::Rule(_))
        });
        let mut items = Vec::new();
        for e in g.body(r) {
            items.push(match *e {
                Elem::Nt(_) => Work::Node(kids.next()?),
                Elem::T(t) => Work::Bytes(t),
            });
        }
        if kids.next().is_some() {
            return None;
        }
        stack.extend(items.into_iter().rev());
    }
    Some(out)
}

#[cfg(test)]
mod tests;
