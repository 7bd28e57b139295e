//! Choice artifacts reduced through the text pipeline
//! ([`reduce_choices_as_text`]): the artifact's text is reduced as a text
//! input is, and every candidate text is parsed and encoded back into a
//! choice sequence before the oracle, which reads choices, sees it.

use super::{check_original, reduce_text, ReduceError, Reduced, Strategy, Tester};
use crate::encode::encode;
use crate::generate::{decode, DecodeConfig};
use crate::grammar::Grammar;
use crate::oracle::{Oracle, Outcome};
use crate::parse::Parser;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The Earley chart items per byte of the artifact's text above which the
/// text stage is left out ([`crate::parse::Parser::chart_items`]): the
/// fuzz targets' artifacts stay below 27 (evalexpr's ambiguous grammar;
/// calc and SQL below 3), an XML grammar with `<lt-run> ::= <lt-run>
/// <lt-run>` on 255 `<` reaches 1,531 (80 ms a parse).
pub(crate) const MAX_ITEMS_PER_BYTE: usize = 256;

/// Whether parsing `text` costs at most [`MAX_ITEMS_PER_BYTE`] chart items
/// per byte, so that parsing each candidate of a pass is affordable.
pub(crate) fn parses_cheaply(parser: &Parser<'_>, text: &[u8]) -> bool {
    parser.chart_items(text) <= MAX_ITEMS_PER_BYTE * text.len().max(1)
}

/// Chart items the parses of one text stage's rejected candidates may
/// cost in all ([`Parser::sentence_within`]'s count), about a minute and
/// a half of parsing: past it, the stage stops and keeps what it found.
/// On an artifact of a few kilobytes this is hundreds of thousands of
/// rejected candidates, far more than a reduction tries; on a text whose
/// candidates almost never parse and each cost a long parse (40 KB of
/// `{a: ` that the grammar derives only as a whole, where every deletion
/// of the polish sweep parses to the end and fails), the stage would
/// otherwise parse for hours.
pub(crate) const REJECTED_ITEMS_BUDGET: usize = 1 << 31;

/// The pass [`reduce_choices_as_text`] reports when the budget stopped
/// its text stage.
pub const PARSE_BUDGET_SPENT: &str = "text-stage-stopped:parse-budget";

/// A candidate text's choice sequence, if it parses within
/// [`MAX_ITEMS_PER_BYTE`] chart items per byte and encodes under `cfg`,
/// with the chart items its parse cost: the test every text candidate of
/// an oracle that reads choices goes through.
pub(crate) fn encode_cheaply(
    parser: &Parser<'_>,
    cfg: &DecodeConfig,
    text: &[u8],
) -> (Option<Vec<u8>>, usize) {
    let max = MAX_ITEMS_PER_BYTE.saturating_mul(text.len().max(1));
    let (tree, items) = parser.sentence_within(text, max);
    let seq = tree.and_then(|t| encode(parser.grammar(), &t, cfg).ok());
    (seq, items)
}

/// A choice-sequence tester seen as an oracle on texts: a candidate text
/// is parsed and encoded under the artifact's budgets, and the sequence
/// is tested through the choice tester's cache; a text outside the
/// grammar's language (or beyond the budgets) has no sequence, so it is
/// invalid and costs no run. Each parse may hold at most
/// [`MAX_ITEMS_PER_BYTE`] chart items per byte (a candidate the grammar's
/// ambiguity makes costlier is rejected, so memory stays bounded), and the
/// rejected parses together at most a budget ([`REJECTED_ITEMS_BUDGET`]), after
/// which every candidate is rejected unparsed and `stage_stop` is raised.
struct TextAsChoices<'a, 'o> {
    cfg: DecodeConfig,
    parser: Parser<'a>,
    choices: &'a mut Tester<'o>,
    /// Chart items spent on candidates that did not parse, and how many
    /// they may cost ([`REJECTED_ITEMS_BUDGET`]).
    rejected_items: usize,
    budget: usize,
    /// Raised when the budget is spent, or when `user_stop` is: the text
    /// stage's tester stops on it.
    stage_stop: Arc<AtomicBool>,
    user_stop: Option<Arc<AtomicBool>>,
}

impl TextAsChoices<'_, '_> {
    fn encoded(&mut self, text: &[u8]) -> Option<Vec<u8>> {
        if self.budget_spent() {
            return None;
        }
        let (seq, items) = encode_cheaply(&self.parser, &self.cfg, text);
        if seq.is_none() {
            self.rejected_items = self.rejected_items.saturating_add(items);
            if self.budget_spent() {
                self.stage_stop.store(true, Ordering::SeqCst);
            }
        }
        seq
    }

    fn budget_spent(&self) -> bool {
        self.rejected_items > self.budget
    }
}

impl Oracle for TextAsChoices<'_, '_> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        self.test_batch(&[candidate])[0]
    }

    fn parallelism(&self) -> usize {
        self.choices.parallelism()
    }

    /// The first interesting sequence of the batch (the one the text pass
    /// takes: [`Tester::first_interesting`]) is offered to the choice
    /// tester as its best so far, so its observer (the CLI's best-so-far
    /// files) follows the text passes as they go.
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        if self
            .user_stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
        {
            self.stage_stop.store(true, Ordering::SeqCst);
        }
        let seqs: Vec<Option<Vec<u8>>> = candidates.iter().map(|t| self.encoded(t)).collect();
        let run: Vec<&[u8]> = seqs.iter().flatten().map(Vec::as_slice).collect();
        self.choices.note_unparsed((seqs.len() - run.len()) as u64);
        let outs = if run.is_empty() {
            Vec::new()
        } else {
            self.choices.test_batch(&run)
        };
        if let Some(i) = outs.iter().position(|&o| o == Outcome::Interesting) {
            self.choices.accept(run[i]);
        }
        let mut outs = outs.into_iter();
        seqs.iter()
            .map(|s| match s {
                Some(_) => outs.next().unwrap_or(Outcome::Invalid),
                None => Outcome::Invalid,
            })
            .collect()
    }

    fn runs(&self) -> Option<u64> {
        Some(self.choices.runs())
    }
}

/// Reduces a choice-sequence artifact (the oracle behind `tester` reads
/// choices) by reducing the text it decodes to with [`reduce_text`]: every
/// candidate text that parses and encodes under `cfg` runs as its choice
/// sequence, the others cost nothing. The text pipeline's passes (subtree
/// edits tested as text, the polish, the grammar-blind finish: a
/// definition inlined into its use, a wrapper call into its body) thus
/// serve an oracle that reads choices, within the grammar's language.
/// The output is the best sequence the choice tester accepted, never
/// longer in text than the input's.
///
/// # Errors
/// The original is not interesting.
pub fn reduce_choices_as_text(
    g: &Grammar,
    cfg: &DecodeConfig,
    input: &[u8],
    strategy: Strategy,
    tester: &mut Tester<'_>,
) -> Result<Reduced, ReduceError> {
    reduce_within(g, cfg, input, strategy, tester, REJECTED_ITEMS_BUDGET)
}

/// [`reduce_choices_as_text`] whose rejected parses may cost `budget`
/// chart items in all.
fn reduce_within(
    g: &Grammar,
    cfg: &DecodeConfig,
    input: &[u8],
    strategy: Strategy,
    tester: &mut Tester<'_>,
    budget: usize,
) -> Result<Reduced, ReduceError> {
    check_original(input, tester)?;
    let text = decode(g, input, cfg);
    let stop = tester.stop_flag();
    let mut oracle = TextAsChoices {
        cfg: *cfg,
        parser: Parser::new(g),
        choices: &mut *tester,
        rejected_items: 0,
        budget,
        stage_stop: Arc::new(AtomicBool::new(false)),
        user_stop: stop,
    };
    // A text the decoder's budgets cannot take back (an ambiguous
    // grammar's parse deeper than `max_depth`) leaves nothing to do here:
    // its candidates would mostly not encode either. Nor does a text whose
    // parse costs far more than its length (`encoded` gives up past
    // [`MAX_ITEMS_PER_BYTE`]): every candidate costs a parse (on a rule
    // `X ::= X X`, cubic in time), and the stage would spend minutes where
    // the choice stage spends seconds.
    if oracle.encoded(&text).is_none() {
        return Ok(Reduced {
            output: input.to_vec(),
            passes: Vec::new(),
            spelled: None,
        });
    }
    let stage_stop = oracle.stage_stop.clone();
    let mut passes = {
        let mut t = Tester::new(&mut oracle).with_stop(stage_stop);
        t.seed(&text, Outcome::Interesting);
        match reduce_text(Some(g), &text, strategy, &mut t) {
            Ok(r) => r.passes,
            // The decoder writes sentences, so this does not happen;
            // should the parser not take one back, the choice stage of
            // [`super::reduce_choices`] still reduces the artifact.
            Err(ReduceError::Unparseable { .. }) => Vec::new(),
            Err(e) => return Err(e),
        }
    };
    if oracle.budget_spent() {
        // Reported as a pass, so the summary says why the text stayed.
        let size = passes.last().map_or(text.len(), |p| p.1);
        passes.push((PARSE_BUDGET_SPENT, size, oracle.choices.runs()));
    }
    let mut output = input.to_vec();
    if let Some(b) = tester.best() {
        if tester.better(b, &output) {
            output = b.to_vec();
        }
    }
    Ok(Reduced {
        output,
        passes,
        spelled: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{choices_pipeline, reduce_choices};
    use super::*;
    use crate::oracle::FnOracle;
    use std::collections::HashMap;

    /// Statements `v = N;` and `f(v);` / `f(N);`.
    fn grammar() -> Grammar {
        Grammar::from_json_str(
            r#"{"<start>": ["<stmts>"],
                "<stmts>": ["<stmt>;", "<stmt>; <stmts>"],
                "<stmt>": ["f(<arg>, <arg>)", "g()", "let <var> = <val>"],
                "<arg>": ["<var>", "<val>"],
                "<val>": ["<num>", "-<num>"],
                "<var>": ["a", "b", "x"],
                "<num>": ["<digit>", "<digit><num>"],
                "<digit>": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]}"#,
            &Default::default(),
        )
        .unwrap()
    }

    /// Whether the program calls `f` with the values 77 and 5 (a
    /// variable's value at the call).
    fn calls_f_with_77(text: &[u8]) -> bool {
        let text = String::from_utf8_lossy(text);
        let mut vars: HashMap<&str, &str> = HashMap::new();
        text.split(';').map(str::trim).any(|s| {
            if let Some((v, n)) = s.strip_prefix("let ").and_then(|s| s.split_once(" = ")) {
                vars.insert(v, n);
                return false;
            }
            let args = s.strip_prefix("f(").and_then(|s| s.strip_suffix(')'));
            let value = |a| *vars.get(a).unwrap_or(&a);
            args.and_then(|a| a.split_once(", "))
                .is_some_and(|(a, b)| value(a) == "77" && value(b) == "5")
        })
    }

    /// An oracle on choices: interesting iff the decoded text holds `byte`.
    fn text_contains<'a>(
        g: &'a Grammar,
        cfg: &'a DecodeConfig,
        byte: u8,
    ) -> impl FnMut(&[u8]) -> Outcome + 'a {
        move |c| {
            if decode(g, c, cfg).contains(&byte) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        }
    }

    fn encoded(g: &Grammar, text: &[u8], cfg: &DecodeConfig) -> Vec<u8> {
        encode(g, &crate::parse::parse(g, text).unwrap(), cfg).unwrap()
    }

    #[test]
    fn a_definition_goes_into_its_use_for_an_oracle_that_reads_choices() {
        let g = grammar();
        let cfg = DecodeConfig::default();
        let start = encoded(
            &g,
            b"let x = 77; let a = 5; let b = 3; f(b, b); f(a, x); f(x, a);",
            &cfg,
        );
        let text = |c: &[u8]| decode(&g, c, &cfg);
        let run = |f: &dyn Fn(&mut Tester<'_>) -> Reduced| {
            let mut runs = 0;
            let mut o = FnOracle::new(|c: &[u8]| {
                runs += 1;
                if calls_f_with_77(&decode(&g, c, &cfg)) {
                    Outcome::Interesting
                } else {
                    Outcome::NotInteresting
                }
            });
            let mut t = Tester::new(&mut o).with_image(text).with_image_bound();
            let r = f(&mut t);
            let tests = t.stats().tests;
            drop(t);
            // Every run was counted: candidate texts outside the language
            // never reached the oracle, and cost no test.
            assert_eq!(tests, runs);
            (text(&r.output), runs, r)
        };
        // The choice passes alone replace and delete subtrees: the value
        // stays in its definition.
        let (alone, _, _) =
            run(&|t| choices_pipeline(&g, &cfg, &start, Strategy::Auto, false, t).unwrap());
        assert_eq!(alone, b"let x = 77; let a = 5; f(x, a);");
        let (out, _, r) = run(&|t| reduce_choices(&g, &cfg, &start, Strategy::Auto, t).unwrap());
        assert_eq!(out, b"f(77, 5);");
        // Pass sizes are bytes of text.
        assert_eq!(r.passes.last().unwrap().1, out.len());
        assert!(r.passes.iter().any(|p| p.0 == "inline-definitions"));
    }

    #[test]
    fn a_text_whose_parse_costs_far_more_than_its_length_skips_the_text_stage() {
        // `<r> ::= <r><r>` on 600 bytes: a chart of 601 items per
        // byte, so no candidate of the text stage is parsed or run.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<r>"], "<r>": ["a", "b", "<r><r>"]}"#,
            &Default::default(),
        )
        .unwrap();
        let cfg = DecodeConfig {
            max_depth: 4096,
            ..DecodeConfig::default()
        };
        let text = [vec![b'a'; 300], b"b".to_vec(), vec![b'a'; 299]].concat();
        assert!(Parser::new(&g).chart_items(&text) > MAX_ITEMS_PER_BYTE * text.len());
        let start = encoded(&g, &text, &cfg);
        let mut o = FnOracle::new(text_contains(&g, &cfg, b'b'));
        let mut t = Tester::new(&mut o);
        let r = reduce_choices_as_text(&g, &cfg, &start, Strategy::Auto, &mut t).unwrap();
        assert!(r.passes.is_empty() && r.output == start);
        let r = reduce_choices(&g, &cfg, &start, Strategy::Auto, &mut t).unwrap();
        assert_eq!(decode(&g, &r.output, &cfg), b"b");
    }

    #[test]
    fn a_text_whose_parse_is_too_deep_is_left_to_the_choice_passes() {
        // `<e>+<e>` is ambiguous: the decoder builds a balanced tree
        // within the depth budget, the parser a chain deeper than it, so
        // the text stage can encode none of the artifact's texts; the
        // choice passes after it still reduce.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<e>"], "<e>": ["1", "2", "<e>+<e>"]}"#,
            &Default::default(),
        )
        .unwrap();
        let cfg = DecodeConfig {
            max_depth: 4,
            ..DecodeConfig::default()
        };
        // Balanced: every `<e>` above depth 3 is a sum, below it `1`,
        // but for one `2`.
        let start = [255, 255, 255, 0, 128, 255, 0, 0, 255, 255, 0, 0, 255, 0, 0];
        let text = decode(&g, &start, &cfg);
        assert_eq!(text, b"1+2+1+1+1+1+1+1");
        let parsed = crate::parse::parse(&g, &text).unwrap();
        assert!(encode(&g, &parsed, &cfg).is_err());
        let mut o = FnOracle::new(text_contains(&g, &cfg, b'2'));
        let mut t = Tester::new(&mut o);
        let r = reduce_choices(&g, &cfg, &start, Strategy::Auto, &mut t).unwrap();
        assert_eq!(decode(&g, &r.output, &cfg), b"2");
    }

    #[test]
    fn a_text_stage_whose_candidates_do_not_parse_stops_at_its_budget() {
        // The grammar derives 48 `(` or `[` only as a whole: every deletion of
        // the text stage leaves parentheses open and parses to its end in
        // vain, as 40 KB of `{a: ` did for a YAML grammar.
        let g = Grammar::from_json_str(
            r#"{"<start>": ["<x>", "<d2>"], "<x>": ["a", "(<x>)"],
                "<d2>": ["<d1><d1><d1><d1>"], "<d1>": ["<p><p><p><p><p><p><p><p><p><p><p><p>"],
                "<p>": ["(", "["]}"#,
            &Default::default(),
        )
        .unwrap();
        let cfg = DecodeConfig::default();
        let text = b"([".repeat(24);
        let start = encoded(&g, &text, &cfg);
        let deep = |c: &[u8]| decode(&g, c, &cfg).iter().filter(|&&b| b != b'a').count() >= 48;
        let run = |budget: usize| {
            let mut o = FnOracle::new(|c: &[u8]| match deep(c) {
                true => Outcome::Interesting,
                false => Outcome::NotInteresting,
            });
            let mut t = Tester::new(&mut o);
            let r = reduce_within(&g, &cfg, &start, Strategy::Auto, &mut t, budget).unwrap();
            (r, t.stats().unparsed)
        };
        let (free, unparsed_free) = run(REJECTED_ITEMS_BUDGET);
        assert!(deep(&free.output) && unparsed_free >= 48, "{unparsed_free}");
        assert!(!free.passes.iter().any(|p| p.0 == PARSE_BUDGET_SPENT));
        // A budget of three parses of the text stops the stage after a
        // handful of candidates.
        let (r, unparsed) = run(3 * Parser::new(&g).chart_items(&text));
        assert!(deep(&r.output) && r.output.len() <= start.len());
        assert!(
            unparsed * 4 < unparsed_free,
            "{unparsed} of {unparsed_free}"
        );
        let last = r.passes.last().unwrap();
        assert_eq!(last.0, PARSE_BUDGET_SPENT);
        assert_eq!(last.1, 48);
    }
}
