//! Running several oracle calls at once (`-j N`): a batch of candidates,
//! or repeated runs of one input.

use super::Outcome;

/// Runs a batch with up to `jobs` candidates at once; `f` must be
/// thread-safe. Order of results = order of candidates.
pub fn parallel_batch<F: Fn(&[u8]) -> Outcome + Sync>(
    jobs: usize,
    candidates: &[&[u8]],
    f: F,
) -> Vec<Outcome> {
    let mut out = vec![Outcome::NotInteresting; candidates.len()];
    for (ci, chunk) in candidates.chunks(jobs.max(1)).enumerate() {
        std::thread::scope(|s| {
            let handles: Vec<_> = chunk.iter().map(|c| s.spawn(|| f(c))).collect();
            for (k, h) in handles.into_iter().enumerate() {
                out[ci * jobs.max(1) + k] = h.join().unwrap_or(Outcome::Invalid);
            }
        });
    }
    out
}

/// Runs `f` `times` times (at least once), up to `jobs` at once; results
/// in run order. The reproduction check of the original uses it: its runs
/// are independent, so with `-j 2` two of them cost one run's wall time.
pub fn repeat_runs<T: Send, F: Fn() -> T + Sync>(times: usize, jobs: usize, f: F) -> Vec<T> {
    let times = times.max(1);
    let mut out = Vec::with_capacity(times);
    let mut left = times;
    while left > 0 {
        let n = left.min(jobs.max(1));
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n).map(|_| s.spawn(&f)).collect();
            for h in handles {
                match h.join() {
                    Ok(v) => out.push(v),
                    Err(p) => std::panic::resume_unwind(p),
                }
            }
        });
        left -= n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn repeat_runs_runs_exactly_the_asked_number_of_times() {
        for (times, jobs) in [(0, 1), (1, 4), (2, 2), (3, 2), (5, 1)] {
            let n = AtomicUsize::new(0);
            let out = repeat_runs(times, jobs, || n.fetch_add(1, Ordering::SeqCst));
            let want = times.max(1);
            assert_eq!(out.len(), want, "times {times} jobs {jobs}");
            assert_eq!(n.load(Ordering::SeqCst), want);
            let mut seen = out.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..want).collect::<Vec<_>>());
        }
    }

    #[test]
    fn batch_results_follow_the_candidates_order() {
        let cands: Vec<&[u8]> = vec![b"a", b"bb", b"c", b"dd", b"e"];
        for jobs in [1, 2, 3, 8] {
            let out = parallel_batch(jobs, &cands, |c| {
                if c.len() == 2 {
                    Outcome::Interesting
                } else {
                    Outcome::NotInteresting
                }
            });
            let want: Vec<Outcome> = cands
                .iter()
                .map(|c| {
                    if c.len() == 2 {
                        Outcome::Interesting
                    } else {
                        Outcome::NotInteresting
                    }
                })
                .collect();
            assert_eq!(out, want, "jobs {jobs}");
        }
    }
}
