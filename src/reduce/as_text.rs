//! Choice artifacts reduced through the text pipeline
//! ([`reduce_choices_as_text`]): the artifact's text is reduced as a text
//! input is, and every candidate text is parsed and encoded back into a
//! choice sequence before the oracle, which reads choices, sees it.

use super::{check_original, reduce_text, Reduced, ReduceError, Strategy, Tester};
use crate::encode::encode;
use crate::generate::{decode, DecodeConfig};
use crate::grammar::Grammar;
use crate::oracle::{Oracle, Outcome};
use crate::parse::Parser;

/// A choice-sequence tester seen as an oracle on texts: a candidate text
/// is parsed and encoded under the artifact's budgets, and the sequence
/// is tested through the choice tester's cache; a text outside the
/// grammar's language (or beyond the budgets) has no sequence, so it is
/// invalid and costs no run.
struct TextAsChoices<'a, 'o> {
    g: &'a Grammar,
    cfg: DecodeConfig,
    parser: Parser<'a>,
    choices: &'a mut Tester<'o>,
}

impl TextAsChoices<'_, '_> {
    fn encoded(&self, text: &[u8]) -> Option<Vec<u8>> {
        let tree = self.parser.parse(text).ok()?;
        encode(self.g, &tree, &self.cfg).ok()
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
        let seqs: Vec<Option<Vec<u8>>> = candidates.iter().map(|t| self.encoded(t)).collect();
        let run: Vec<&[u8]> = seqs.iter().flatten().map(Vec::as_slice).collect();
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
    check_original(input, tester)?;
    let text = decode(g, input, cfg);
    let stop = tester.stop_flag();
    let mut oracle = TextAsChoices {
        g,
        cfg: *cfg,
        parser: Parser::new(g),
        choices: &mut *tester,
    };
    let passes = {
        let mut t = Tester::new(&mut oracle);
        if let Some(flag) = stop {
            t = t.with_stop(flag);
        }
        t.seed(&text, Outcome::Interesting);
        match reduce_text(Some(g), &text, strategy, &mut t) {
            Ok(r) => r.passes,
            // The grammar's parser does not take back the text its
            // decoder wrote (hook text): nothing to do here.
            Err(ReduceError::Unparseable { .. }) => Vec::new(),
            Err(e) => return Err(e),
        }
    };
    let mut output = input.to_vec();
    if let Some(b) = tester.best() {
        if tester.better(b, &output) {
            output = b.to_vec();
        }
    }
    Ok(Reduced {
        output,
        passes,
        sizes_in_text: true,
    })
}
