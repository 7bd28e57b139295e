//! Running several oracle calls at once (`-j N`): a batch of candidates,
//! or repeated runs of one input.

use super::Outcome;

/// Runs `f(0)`, …, `f(n - 1)` up to `jobs` at once, on scoped threads;
/// results in index order (a call that panicked gives `Err`).
fn chunked<T: Send>(
    n: usize,
    jobs: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<std::thread::Result<T>> {
    let jobs = jobs.max(1);
    let mut out = Vec::with_capacity(n);
    for start in (0..n).step_by(jobs) {
        std::thread::scope(|s| {
            let handles: Vec<_> = (start..n.min(start + jobs))
                .map(|i| {
                    let f = &f;
                    s.spawn(move || f(i))
                })
                .collect();
            out.extend(handles.into_iter().map(|h| h.join()));
        });
    }
    out
}

/// Runs a batch with up to `jobs` candidates at once; `f` must be
/// thread-safe. Order of results = order of candidates; a run that
/// panicked is [`Outcome::Invalid`].
pub fn parallel_batch<F: Fn(&[u8]) -> Outcome + Sync>(
    jobs: usize,
    candidates: &[&[u8]],
    f: F,
) -> Vec<Outcome> {
    chunked(candidates.len(), jobs, |i| f(candidates[i]))
        .into_iter()
        .map(|r| r.unwrap_or(Outcome::Invalid))
        .collect()
}

/// Runs `f` `times` times (at least once), up to `jobs` at once; results
/// in run order. The reproduction check of the original uses it: its runs
/// are independent, so with `-j 2` two of them cost one run's wall time.
pub fn repeat_runs<T: Send, F: Fn() -> T + Sync>(times: usize, jobs: usize, f: F) -> Vec<T> {
    chunked(times.max(1), jobs, |_| f())
        .into_iter()
        .map(|r| r.unwrap_or_else(|p| std::panic::resume_unwind(p)))
        .collect()
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

    fn two(c: &[u8]) -> Outcome {
        if c.len() == 2 {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }

    #[test]
    fn batch_results_follow_the_candidates_order() {
        let cands: Vec<&[u8]> = vec![b"a", b"bb", b"c", b"dd", b"e"];
        for jobs in [1, 2, 3, 8] {
            let out = parallel_batch(jobs, &cands, two);
            let want: Vec<Outcome> = cands.iter().map(|c| two(c)).collect();
            assert_eq!(out, want, "jobs {jobs}");
        }
    }
}
