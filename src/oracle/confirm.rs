//! Confirming interesting outcomes of a flaky oracle.
//!
//! Some failures happen only past a threshold the program does not fix
//! exactly: a stack overflow needs a nest deep enough for a stack whose
//! start moves with address-space randomisation, a timeout or an
//! out-of-memory kill needs enough work. A reducer drives the input to
//! that threshold, where the failure comes one run in two: it accepts a
//! candidate that failed once, and the result it leaves does not
//! reproduce (yaml-rust 0.3.5 on 4,888 `{`: 5 overflows in 8 runs).
//! [`Confirming`] runs a candidate that failed again, `times` in all, and
//! calls it interesting only if every run failed, so the reducer stops
//! short of the threshold, where the failure is reliable.

use super::{signature, Oracle, Outcome};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a [`Confirming`] oracle did, shared with whoever reports it (the
/// oracle itself is usually behind a `Box<dyn Oracle>`).
#[derive(Debug, Default)]
pub struct ConfirmStats {
    /// Runs made to confirm an interesting outcome (beyond the first).
    pub extra_runs: AtomicU64,
    /// Candidates that failed at first and then not on a confirming run.
    pub refuted: AtomicU64,
}

impl ConfirmStats {
    /// (extra runs, candidates refuted) so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.extra_runs.load(Ordering::Relaxed),
            self.refuted.load(Ordering::Relaxed),
        )
    }
}

/// An oracle whose interesting outcomes must repeat `times` runs in a
/// row (see the module docs); other outcomes pass through after one run.
/// A refuted candidate is [`Outcome::NotInteresting`].
pub struct Confirming<O> {
    inner: O,
    times: u32,
    stats: Arc<ConfirmStats>,
}

impl<O: Oracle> Confirming<O> {
    /// Wraps `inner`; `times` below 2 confirms nothing.
    pub fn new(inner: O, times: u32, stats: Arc<ConfirmStats>) -> Self {
        Confirming {
            inner,
            times,
            stats,
        }
    }

    /// Runs `c` again until `times` runs failed in all, or one did not.
    fn confirm(&mut self, c: &[u8]) -> Outcome {
        for _ in 1..self.times {
            self.stats.extra_runs.fetch_add(1, Ordering::Relaxed);
            if self.inner.test(c) != Outcome::Interesting {
                self.stats.refuted.fetch_add(1, Ordering::Relaxed);
                return Outcome::NotInteresting;
            }
        }
        Outcome::Interesting
    }
}

impl<O: Oracle> Oracle for Confirming<O> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        match self.inner.test(candidate) {
            Outcome::Interesting => self.confirm(candidate),
            o => o,
        }
    }

    fn parallelism(&self) -> usize {
        self.inner.parallelism()
    }

    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let mut out = self.inner.test_batch(candidates);
        for (o, c) in out.iter_mut().zip(candidates) {
            if *o == Outcome::Interesting {
                *o = self.confirm(c);
            }
        }
        out
    }

    fn signature(&self) -> Option<&signature::Signature> {
        self.inner.signature()
    }

    fn runs(&self) -> Option<u64> {
        self.inner.runs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::FnOracle;

    #[test]
    fn an_outcome_is_interesting_only_if_every_run_fails() {
        // Fails on every other run, as a crash at its threshold does.
        let mut n = 0;
        let flaky = FnOracle::new(move |_: &[u8]| {
            n += 1;
            if n % 2 == 1 {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let stats = Arc::new(ConfirmStats::default());
        let mut o = Confirming::new(flaky, 2, stats.clone());
        assert_eq!(o.test(b"x"), Outcome::NotInteresting);
        assert_eq!(stats.get(), (1, 1));
        // A reliable failure is confirmed; a pass is not run again.
        let stats = Arc::new(ConfirmStats::default());
        let mut o = Confirming::new(
            FnOracle::new(|c: &[u8]| {
                if c == b"crash" {
                    Outcome::Interesting
                } else {
                    Outcome::NotInteresting
                }
            }),
            3,
            stats.clone(),
        );
        assert_eq!(
            o.test_batch(&[b"crash", b"fine"]),
            [Outcome::Interesting, Outcome::NotInteresting]
        );
        assert_eq!(stats.get(), (2, 0));
    }
}
