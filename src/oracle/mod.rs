//! Oracles: run a candidate input and say whether the failure reproduced.
//!
//! * [`Outcome`] — the four answers a test can give (Interesting,
//!   NotInteresting, Invalid, Timeout), as in Perses.
//! * [`Oracle`] — `test(&[u8]) -> Outcome`, plus an optional parallel batch
//!   entry point for subprocess oracles.
//! * [`FnOracle`] — a closure returning an [`Outcome`] (tests, library use).
//! * [`InProcessOracle`] — a closure that fails by panicking; panics are
//!   caught and compared with the original's panic ([`signature`]).
//! * [`process::CommandOracle`] — any program, creduce/picire style
//!   (`--cmd`); [`process::TargetOracle`] — a built cargo-fuzz target whose
//!   crash signature must equal the original's; [`persistent`] — one
//!   long-running fuzz-target process serving many candidates.
//! * [`Confirming`] — runs a candidate that failed again, for failures at
//!   a threshold (a stack overflow at the depth where it begins).
//! * [`discover`] — where cargo-fuzz keeps binaries, artifacts, grammars.
//!
//! Caching and statistics sit in front of every oracle in
//! [`crate::reduce::Tester`]. This module is the only place of the library
//! that starts processes or touches files.

mod confirm;
pub mod describe;
pub mod discover;
mod inprocess;
pub mod parallel;
pub mod persistent;
pub mod process;
pub mod signature;
pub mod split;
pub mod symbolize;

pub use confirm::{ConfirmStats, Confirming};
pub use inprocess::{catch_panic, CaughtPanic, FnOracle, InProcessOracle};

/// What one test of a candidate says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The failure reproduced (the same failure, for signature oracles).
    Interesting,
    /// The program ran and did not fail.
    NotInteresting,
    /// The candidate did not reach the failure: rejected input, or a
    /// *different* failure (reducing towards it would drift to another bug).
    Invalid,
    /// The run exceeded its time limit (treated as not interesting unless
    /// the original failure itself is a timeout).
    Timeout,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::Interesting => "interesting",
            Outcome::NotInteresting => "not interesting",
            Outcome::Invalid => "invalid",
            Outcome::Timeout => "timeout",
        })
    }
}

impl Outcome {
    /// Is this [`Outcome::Interesting`]?
    pub fn is_interesting(self) -> bool {
        self == Outcome::Interesting
    }
}

/// Runs candidates. Implementations must be deterministic for the
/// reduction to be (flaky programs make any reducer wander).
pub trait Oracle {
    /// Tests one candidate.
    fn test(&mut self, candidate: &[u8]) -> Outcome;

    /// How many candidates [`Oracle::test_batch`] runs at once (1 = no
    /// parallelism; reducers then test strictly one at a time).
    fn parallelism(&self) -> usize {
        1
    }

    /// Tests several candidates, possibly in parallel, returning one outcome
    /// per candidate in order. The default runs them one after another.
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        candidates.iter().map(|c| self.test(c)).collect()
    }

    /// The crash signature this oracle reproduces, for oracles that compare
    /// signatures (a fuzz target); `None` otherwise.
    fn signature(&self) -> Option<&signature::Signature> {
        None
    }

    /// Runs of the program under test so far, for an oracle that tests
    /// through another cache (text reduction's choice passes test decoded
    /// texts through the text tester, whose runs are the real ones);
    /// `None`: the tester in front of this oracle counts them.
    fn runs(&self) -> Option<u64> {
        None
    }
}

impl<O: Oracle + ?Sized> Oracle for &mut O {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        (**self).test(candidate)
    }
    fn runs(&self) -> Option<u64> {
        (**self).runs()
    }
    fn signature(&self) -> Option<&signature::Signature> {
        (**self).signature()
    }
    fn parallelism(&self) -> usize {
        (**self).parallelism()
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        (**self).test_batch(candidates)
    }
}

impl<O: Oracle + ?Sized> Oracle for Box<O> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        (**self).test(candidate)
    }
    fn runs(&self) -> Option<u64> {
        (**self).runs()
    }
    fn signature(&self) -> Option<&signature::Signature> {
        (**self).signature()
    }
    fn parallelism(&self) -> usize {
        (**self).parallelism()
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        (**self).test_batch(candidates)
    }
}

/// Keeps candidates inside a grammar: a text the grammar does not parse is
/// [`Outcome::Invalid`] without running `inner`, so a reduction's result
/// is a sentence of the grammar (`reduce --grammatical`), and the program
/// under test sees no text it would reject as malformed.
pub struct Parsed<'g, O> {
    inner: O,
    grammar: &'g crate::grammar::Grammar,
    runs: u64,
}

impl<'g, O: Oracle> Parsed<'g, O> {
    /// Wraps `inner`.
    pub fn new(inner: O, grammar: &'g crate::grammar::Grammar) -> Self {
        Parsed {
            inner,
            grammar,
            runs: 0,
        }
    }

    fn parses(&self, text: &[u8]) -> bool {
        crate::parse::parse(self.grammar, text).is_ok()
    }
}

impl<O: Oracle> Oracle for Parsed<'_, O> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        if !self.parses(candidate) {
            return Outcome::Invalid;
        }
        self.runs += 1;
        self.inner.test(candidate)
    }
    fn parallelism(&self) -> usize {
        self.inner.parallelism()
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let ok: Vec<bool> = candidates.iter().map(|c| self.parses(c)).collect();
        let run: Vec<&[u8]> = candidates
            .iter()
            .zip(&ok)
            .filter_map(|(c, &ok)| ok.then_some(*c))
            .collect();
        self.runs += run.len() as u64;
        let mut outcomes = self.inner.test_batch(&run).into_iter();
        ok.iter()
            .map(|&ok| {
                if ok {
                    outcomes.next().unwrap_or(Outcome::Invalid)
                } else {
                    Outcome::Invalid
                }
            })
            .collect()
    }
    fn signature(&self) -> Option<&signature::Signature> {
        self.inner.signature()
    }
    /// Runs of `inner`: candidates that did not parse cost none.
    fn runs(&self) -> Option<u64> {
        Some(self.inner.runs().unwrap_or(self.runs))
    }
}

/// Adapts an oracle that expects text to choice-sequence candidates: each
/// candidate is decoded with the grammar first. Reducers of choice
/// artifacts then work on choices while a `--cmd` program sees text.
pub struct Decoded<'g, O> {
    inner: O,
    grammar: &'g crate::grammar::Grammar,
    cfg: crate::generate::DecodeConfig,
}

impl<'g, O: Oracle> Decoded<'g, O> {
    /// Wraps `inner`.
    pub fn new(
        inner: O,
        grammar: &'g crate::grammar::Grammar,
        cfg: crate::generate::DecodeConfig,
    ) -> Self {
        Decoded {
            inner,
            grammar,
            cfg,
        }
    }
}

impl<O: Oracle> Oracle for Decoded<'_, O> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        let text = crate::generate::decode(self.grammar, candidate, &self.cfg);
        self.inner.test(&text)
    }
    fn parallelism(&self) -> usize {
        self.inner.parallelism()
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let texts: Vec<Vec<u8>> = candidates
            .iter()
            .map(|c| crate::generate::decode(self.grammar, c, &self.cfg))
            .collect();
        let refs: Vec<&[u8]> = texts.iter().map(|t| t.as_slice()).collect();
        self.inner.test_batch(&refs)
    }
}
