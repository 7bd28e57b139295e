//! Progress of a long step that has no progress of its own: an oracle
//! wrapper that counts runs and, every [`EVERY`], prints what the step is
//! doing (`bucket`'s reduction, DDSET and precision runs, `generalize`'s).
//! A stack-overflow crash costs a second a run, and DDSET on a reduced
//! tree of a thousand nodes then takes many minutes: without this the
//! terminal stayed silent for all of them.

use grammar_min::oracle::{signature::Signature, Oracle, Outcome};
use std::time::{Duration, Instant};

/// How often a line is printed while a step runs.
const EVERY: Duration = Duration::from_secs(20);

/// An oracle that reports its runs as it goes (see the module docs).
pub struct Heartbeat<O> {
    inner: O,
    /// Lines are printed (not with --json).
    show: bool,
    stage: &'static str,
    stage_runs: u64,
    stage_started: Instant,
    last: Instant,
    /// The caller's line (`[1/6] artifact `) is still open: the first
    /// progress line starts a new one.
    line_open: bool,
}

impl<O: Oracle> Heartbeat<O> {
    /// `show`: print the lines (not with --json); `line_open`: the
    /// terminal's current line is the caller's, unfinished.
    pub fn new(inner: O, show: bool, line_open: bool) -> Heartbeat<O> {
        let now = Instant::now();
        Heartbeat {
            inner,
            show,
            stage: "running",
            stage_runs: 0,
            stage_started: now,
            last: now,
            line_open,
        }
    }

    /// Names the step the next runs belong to (`"reducing"`), counting
    /// its runs and time from now.
    pub fn stage(&mut self, name: &'static str) {
        self.stage = name;
        self.stage_runs = 0;
        self.stage_started = Instant::now();
        self.last = self.stage_started;
    }

    fn tick(&mut self, runs: u64) {
        self.stage_runs += runs;
        if self.show && self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            let nl = if std::mem::take(&mut self.line_open) {
                "\n"
            } else {
                ""
            };
            eprintln!(
                "{nl}  … {}: {} runs in {:.0}s",
                self.stage,
                self.stage_runs,
                self.stage_started.elapsed().as_secs_f64()
            );
        }
    }
}

impl<O: Oracle> Oracle for Heartbeat<O> {
    fn test(&mut self, candidate: &[u8]) -> Outcome {
        let o = self.inner.test(candidate);
        self.tick(1);
        o
    }
    fn parallelism(&self) -> usize {
        self.inner.parallelism()
    }
    fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let o = self.inner.test_batch(candidates);
        self.tick(candidates.len() as u64);
        o
    }
    fn signature(&self) -> Option<&Signature> {
        self.inner.signature()
    }
    fn runs(&self) -> Option<u64> {
        self.inner.runs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grammar_min::oracle::FnOracle;

    #[test]
    fn runs_are_forwarded_and_counted_per_stage() {
        let mut h = Heartbeat::new(
            FnOracle::new(|c: &[u8]| match c.first() {
                Some(b'a') => Outcome::Interesting,
                _ => Outcome::NotInteresting,
            }),
            false,
            false,
        );
        h.stage("reducing");
        assert_eq!(h.test(b"a"), Outcome::Interesting);
        assert_eq!(
            h.test_batch(&[b"b", b"a"]),
            [Outcome::NotInteresting, Outcome::Interesting]
        );
        assert_eq!(h.stage_runs, 3);
        h.stage("generalising");
        h.test(b"x");
        assert_eq!((h.stage, h.stage_runs), ("generalising", 1));
    }
}
