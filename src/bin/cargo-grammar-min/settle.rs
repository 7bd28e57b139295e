//! The result of a reduction whose failures were confirmed (`--confirm`,
//! a stack overflow): checked once more, and if it fails only now and
//! then, given up for the smallest earlier result that fails every time.
//!
//! Confirming each candidate twice slows the drift to the threshold where
//! the failure comes and goes, but does not stop it: among hundreds of
//! candidates at even odds, some fail twice by luck (yaml-rust 0.3.5: a
//! `{a:` nest that overflowed in 9 runs of 20 after 300 candidates).
//! [`settle`] runs the result [`SETTLE_RUNS`] times; if one does not
//! fail, it probes the earlier results (every improvement kept by
//! [`History`]) newest first, one, two, four, … back, then bisects
//! between the last that failed only now and then and the first that
//! failed every time. The original reproduced `--repeat` times and is the
//! last resort.

use grammar_min::oracle::{Oracle, Outcome};

/// Runs a result must fail, all of them, to stand.
pub const SETTLE_RUNS: u32 = 4;

/// The improvements of a reduction, oldest first: each kept when it is at
/// least 1/200 smaller than the last kept (a few hundred at most, however
/// many small steps the reduction took).
#[derive(Default)]
pub struct History {
    kept: Vec<Vec<u8>>,
}

impl History {
    /// Records an improvement.
    pub fn push(&mut self, bytes: &[u8]) {
        if self
            .kept
            .last()
            .is_none_or(|l| bytes.len() * 200 <= l.len() * 199)
        {
            self.kept.push(bytes.to_vec());
        }
    }
}

/// What [`settle`] found.
pub struct Settled {
    /// The smallest result that failed every run (`None`: the result did).
    pub fallback: Option<Vec<u8>>,
    /// Of the result's own check: runs that failed, runs made.
    pub result_failed: (u32, u32),
    /// Oracle runs made in all.
    pub runs: u64,
}

/// Runs of one candidate, counted.
struct Probe<'a> {
    oracle: &'a mut dyn Oracle,
    runs: u64,
}

impl Probe<'_> {
    /// Runs `c` [`SETTLE_RUNS`] times, or (`all` false) until one run does
    /// not fail: (runs that failed, runs made).
    fn check(&mut self, c: &[u8], all: bool) -> (u32, u32) {
        let (mut failed, mut made) = (0, 0);
        while made < SETTLE_RUNS {
            made += 1;
            self.runs += 1;
            if self.oracle.test(c) == Outcome::Interesting {
                failed += 1;
            } else if !all {
                break;
            }
        }
        (failed, made)
    }
}

/// Checks `result` (see the module docs); `original` is the last resort.
pub fn settle(
    oracle: &mut dyn Oracle,
    history: &History,
    result: &[u8],
    original: &[u8],
) -> Settled {
    let mut probe = Probe { oracle, runs: 0 };
    // The result's own check runs every time, to say how flaky it is.
    let result_failed = probe.check(result, true);
    if result_failed.0 == SETTLE_RUNS {
        return Settled {
            fallback: None,
            result_failed,
            runs: probe.runs,
        };
    }
    // Newest first, then the original (which reproduced: no runs).
    let mut earlier: Vec<&[u8]> = history
        .kept
        .iter()
        .rev()
        .map(|v| v.as_slice())
        .filter(|v| *v != result)
        .collect();
    earlier.push(original);
    let last = earlier.len() - 1;
    let mut reliable = |i: usize| i == last || probe.check(earlier[i], false).0 == SETTLE_RUNS;
    // Steps 0, 1, 3, 7, …: `flaky` is the last index seen failing only
    // now and then (-1: the result), `good` the first seen reliable.
    let (mut flaky, mut good) = (-1i64, last);
    let mut step = 1usize;
    let mut i = 0usize;
    while i < last {
        if reliable(i) {
            good = i;
            break;
        }
        flaky = i as i64;
        i += step;
        step *= 2;
    }
    // Bisect between them for the newest reliable one.
    while (good as i64) - flaky > 1 {
        let mid = ((flaky + good as i64) / 2) as usize;
        if reliable(mid) {
            good = mid;
        } else {
            flaky = mid as i64;
        }
    }
    let runs = probe.runs;
    Settled {
        fallback: Some(earlier[good].to_vec()),
        result_failed,
        runs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grammar_min::oracle::FnOracle;

    #[test]
    fn a_flaky_result_gives_way_to_the_newest_reliable_one() {
        // Inputs of 10 bytes and more fail every time; shorter ones every
        // other run.
        let mut n = 0u32;
        let mut o = FnOracle::new(move |c: &[u8]| {
            n += 1;
            if c.len() >= 10 || n % 2 == 0 {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut h = History::default();
        for len in (3..=40).rev() {
            h.push(&vec![b'x'; len]);
        }
        let s = settle(&mut o, &h, &[b'x'; 3], &[b'x'; 50]);
        assert_eq!(s.fallback.map(|f| f.len()), Some(10));
        assert_eq!(s.result_failed.1, SETTLE_RUNS);
        // A reliable result stands, after its own runs.
        let s = settle(&mut o, &h, &[b'x'; 12], &[b'x'; 50]);
        assert!(s.fallback.is_none());
        assert_eq!((s.result_failed, s.runs), ((4, 4), 4));
    }

    #[test]
    fn the_history_keeps_steps_of_half_a_percent() {
        let mut h = History::default();
        for len in (1..=1000).rev() {
            h.push(&vec![0; len]);
        }
        // 1000, 995, 990, …: each at least 1/200 below the last kept.
        assert!(h.kept.len() < 700, "{}", h.kept.len());
        assert!(h
            .kept
            .windows(2)
            .all(|w| w[1].len() * 200 <= w[0].len() * 199));
    }
}
