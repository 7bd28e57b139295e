//! How `generalize` and `bucket` see an input as a derivation tree, and
//! a candidate tree as the oracle's input and DDSET's verdict.

use crate::session::{InputKind, Session};
use anyhow::{Context, Result};
use grammar_min::ddset::Verdict;
use grammar_min::encode::encode;
use grammar_min::generate::decode_tree;
use grammar_min::oracle::{Oracle, Outcome};
use grammar_min::tree::Tree;
use std::path::Path;

impl Session {
    /// The derivation tree of an input of this session's kind; for a text
    /// whose blanks differ from the grammar's spelling, the tree of the
    /// grammar's spelling ([`grammar_min::parse::respace`]).
    pub fn tree_of(&self, bytes: &[u8], what: &Path) -> Result<Tree> {
        let g = self
            .grammar
            .as_ref()
            .context("generalising needs a grammar: pass --grammar FILE")?;
        Ok(match self.kind {
            InputKind::Choices => decode_tree(g, bytes, &self.cfg),
            _ => crate::common::parse_text(
                g,
                bytes,
                what,
                "fix the grammar or the input; tree-based steps need a parse",
            )?,
        })
    }

    /// The bytes the oracle takes for a candidate tree: its choice sequence
    /// for choice artifacts (None if the decoder's budgets cannot produce
    /// it), else its text.
    pub fn candidate_bytes(&self, tree: &Tree, text: &[u8]) -> Option<Vec<u8>> {
        match (self.kind, &self.grammar) {
            (InputKind::Choices, Some(g)) => encode(g, tree, &self.cfg).ok(),
            _ => Some(text.to_vec()),
        }
    }

    /// Runs a candidate tree through `oracle`, as DDSET sees it.
    pub fn verdict(&self, oracle: &mut dyn Oracle, tree: &Tree, text: &[u8]) -> Verdict {
        // A fuzz target's "invalid" is a different crash: an instance that
        // hits another bug does not show this one, so it counts against
        // the pattern (as a `--cmd` oracle's `--invalid-exit` does not).
        let other_crash = oracle.signature().is_some();
        match self.candidate_bytes(tree, text) {
            None => Verdict::Invalid,
            Some(b) => match oracle.test(&b) {
                Outcome::Interesting => Verdict::Fail,
                Outcome::NotInteresting => Verdict::Pass,
                Outcome::Invalid if other_crash => Verdict::Pass,
                Outcome::Invalid | Outcome::Timeout => Verdict::Invalid,
            },
        }
    }
}
