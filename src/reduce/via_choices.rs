//! Text reduction through the choice-sequence passes: the parse tree's
//! choice sequence is reduced with every candidate decoded and tested as
//! text, through the text tester's cache ([`via_choices`]).

use super::{choices, choices_pipeline, parse_tree, ReduceError, Strategy, Tester};
use crate::generate::{decode, DecodeConfig};
use crate::grammar::Grammar;
use crate::oracle::Outcome;
use crate::reduce::treeops::{Render, TreeCtx};
use crate::tree::Tree;

/// A text tester seen as an oracle on choice sequences: candidates are
/// decoded and tested (through the text cache) as text.
struct ChoicesAsText<'a, 'o> {
    g: &'a Grammar,
    cfg: DecodeConfig,
    text: &'a mut Tester<'o>,
}

impl ChoicesAsText<'_, '_> {
    /// Tests texts; the first interesting one (the one the choice pass
    /// takes: [`Tester::first_interesting`]) is offered to the text tester
    /// as its best so far (kept if shorter), so the observer — the CLI's
    /// best-so-far file — sees improvements during the choice passes, not
    /// only when they return, and the same ones with any `-j`.
    fn texts(&mut self, texts: &[&[u8]]) -> Vec<Outcome> {
        let outs = self.text.test_batch(texts);
        if let Some(i) = outs.iter().position(|&o| o == Outcome::Interesting) {
            self.text.accept(texts[i]);
        }
        outs
    }
}

impl crate::oracle::Oracle for ChoicesAsText<'_, '_> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        self.texts(&[&decode(self.g, candidate, &self.cfg)])[0]
    }

    fn parallelism(&self) -> usize {
        self.text.parallelism()
    }

    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let texts: Vec<Vec<u8>> = candidates
            .iter()
            .map(|c| decode(self.g, c, &self.cfg))
            .collect();
        let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
        self.texts(&refs)
    }

    fn runs(&self) -> Option<u64> {
        Some(self.text.runs())
    }
}

/// Runs `pass` (a choice-sequence reduction) on the choice sequence of
/// `tree`, with `tester` (a text tester) as the oracle through the text
/// cache; returns the smaller text found, or `None` (also when the tree
/// does not encode, e.g. hook text). The budgets are raised to fit the
/// tree ([`crate::encode::encode_auto`]).
pub(super) fn via_choices(
    g: &Grammar,
    tree: &Tree,
    tester: &mut Tester<'_>,
    pass: impl FnOnce(&TreeCtx<'_>, &DecodeConfig, &[u8], &mut Tester<'_>) -> Vec<u8>,
) -> Option<Vec<u8>> {
    let (start, cfg) = crate::encode::encode_auto(g, tree, &DecodeConfig::default()).ok()?;
    let before = decode(g, &start, &cfg);
    let ctx = TreeCtx::new(g, Render::Choices(cfg)).with_lexical_atoms();
    // As for choice artifacts under --cmd: keyed by text, and candidates
    // whose text is longer than the best so far are not run. Ctrl-C
    // reaches the choice passes through the shared stop flag.
    let stop = tester.stop_flag();
    let mut oracle = ChoicesAsText {
        g,
        cfg,
        text: tester,
    };
    let mut inner = Tester::new(&mut oracle)
        .with_cache_key(move |c| decode(g, c, &cfg))
        .with_image_bound();
    if let Some(flag) = stop {
        inner = inner.with_stop(flag);
    }
    inner.seed(&start, Outcome::Interesting);
    let out = pass(&ctx, &cfg, &start, &mut inner);
    // Anchors are texts here (the inner key is the decoded text): the text
    // passes that follow presume the same failures.
    let anchors = inner.anchors().to_vec();
    drop(inner);
    for a in &anchors {
        tester.anchor(a);
    }
    let text = decode(g, &out, &cfg);
    (text.len() < before.len()).then(|| {
        tester.accept(&text);
        text
    })
}

/// [`choices::restructure`] on the tree's choice sequence, tested as text.
pub(super) fn restructure_text(
    g: &Grammar,
    tree: &Tree,
    tester: &mut Tester<'_>,
) -> Option<Vec<u8>> {
    via_choices(g, tree, tester, |ctx, cfg, start, t| {
        choices::restructure(ctx, cfg, start, t)
    })
}

/// The choice-sequence passes on `tree`'s choices, tested as text (each
/// pass reported, then the phase as "choices"): the new tree and text if
/// they got smaller.
pub(super) fn choice_phase(
    g: &Grammar,
    tree: &Tree,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) -> Result<Option<(Tree, Vec<u8>)>, ReduceError> {
    let mut inner = Vec::new();
    let r = via_choices(g, tree, tester, |_, cfg, start, t| {
        match choices_pipeline(g, cfg, start, Strategy::Auto, true, t) {
            Ok(r) => {
                inner = r.passes;
                r.output
            }
            Err(_) => start.to_vec(),
        }
    });
    passes.extend(inner);
    let Some(text) = r else {
        return Ok(None);
    };
    let t = parse_tree(g, &text)?;
    passes.push(("choices", text.len(), tester.runs()));
    Ok(Some((t, text)))
}
