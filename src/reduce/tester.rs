//! [`Tester`]: the cache, counters, cancellation and progress reporting
//! that sit between every reducer and its oracle.

use crate::oracle::{Oracle, Outcome};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Counters of one reduction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Oracle runs (cache misses).
    pub tests: u64,
    /// Candidates answered from the cache.
    pub cache_hits: u64,
    /// Runs that were interesting.
    pub interesting: u64,
    /// Runs that were invalid.
    pub invalid: u64,
    /// Runs that timed out.
    pub timeouts: u64,
}

/// What a [`Tester`] tells its observer.
#[derive(Debug)]
pub enum Event<'a> {
    /// A candidate was run by the oracle.
    Tested(&'a Stats),
    /// A smaller interesting candidate was accepted: the oracle's input
    /// bytes (text, or choices for choice-sequence reduction).
    Improved(&'a [u8]),
}

/// Shortlex order: shorter first, then lexicographically smaller.
///
/// ```
/// use grammar_min::reduce::shortlex_lt;
/// assert!(shortlex_lt(b"zz", b"aaa"));
/// assert!(shortlex_lt(b"ab", b"ac"));
/// assert!(!shortlex_lt(b"ab", b"ab"));
/// ```
pub fn shortlex_lt(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

type Observer<'o> = Box<dyn FnMut(Event<'_>) + 'o>;
type KeyFn<'o> = Box<dyn Fn(&[u8]) -> Vec<u8> + 'o>;

/// The cached, counted, cancellable front of an [`Oracle`].
pub struct Tester<'o> {
    oracle: &'o mut dyn Oracle,
    cache: HashMap<u128, Outcome>,
    stats: Stats,
    stop: Option<Arc<AtomicBool>>,
    observer: Option<Observer<'o>>,
    key_fn: Option<KeyFn<'o>>,
    best: Option<Vec<u8>>,
}

fn key(c: &[u8]) -> u128 {
    let mut a = DefaultHasher::new();
    c.hash(&mut a);
    let mut b = DefaultHasher::new();
    0xA5A5_u16.hash(&mut b);
    c.hash(&mut b);
    ((a.finish() as u128) << 64) | b.finish() as u128
}

impl<'o> Tester<'o> {
    /// Wraps `oracle` with an empty cache.
    pub fn new(oracle: &'o mut dyn Oracle) -> Self {
        Tester {
            oracle,
            cache: HashMap::new(),
            stats: Stats::default(),
            stop: None,
            observer: None,
            key_fn: None,
            best: None,
        }
    }

    /// Stops reducing (passes return their best so far) once `flag` is set.
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Calls `f` after every oracle run and every improvement.
    pub fn with_observer(mut self, f: impl FnMut(Event<'_>) + 'o) -> Self {
        self.observer = Some(Box::new(f));
        self
    }

    /// Caches by `f(candidate)` instead of the candidate: candidates with
    /// the same image share one oracle run. For a text oracle behind
    /// [`crate::oracle::Decoded`], `f` = decoding, so different choice
    /// sequences that decode to the same text are run once.
    pub fn with_cache_key(mut self, f: impl Fn(&[u8]) -> Vec<u8> + 'o) -> Self {
        self.key_fn = Some(Box::new(f));
        self
    }

    fn key_of(&self, c: &[u8]) -> u128 {
        match &self.key_fn {
            Some(f) => key(&f(c)),
            None => key(c),
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Has cancellation been requested?
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The smallest (shortlex) candidate accepted so far.
    pub fn best(&self) -> Option<&[u8]> {
        self.best.as_deref()
    }

    fn record(&mut self, k: u128, o: Outcome) {
        self.stats.tests += 1;
        match o {
            Outcome::Interesting => self.stats.interesting += 1,
            Outcome::Invalid => self.stats.invalid += 1,
            Outcome::Timeout => self.stats.timeouts += 1,
            Outcome::NotInteresting => {}
        }
        self.cache.insert(k, o);
        if let Some(f) = self.observer.as_mut() {
            f(Event::Tested(&self.stats));
        }
    }

    /// Records an outcome already known (e.g. from the reproduction check
    /// of the original) so the candidate is not run again.
    pub fn seed(&mut self, candidate: &[u8], outcome: Outcome) {
        let k = self.key_of(candidate);
        self.cache.insert(k, outcome);
    }

    /// Tests one candidate (through the cache).
    pub fn test(&mut self, candidate: &[u8]) -> Outcome {
        let k = self.key_of(candidate);
        if let Some(&o) = self.cache.get(&k) {
            self.stats.cache_hits += 1;
            return o;
        }
        let o = self.oracle.test(candidate);
        self.record(k, o);
        o
    }

    /// Marks `candidate` as the new best (if shortlex-smaller) and tells
    /// the observer.
    pub fn accept(&mut self, candidate: &[u8]) {
        if self
            .best
            .as_deref()
            .is_none_or(|b| shortlex_lt(candidate, b))
        {
            self.best = Some(candidate.to_vec());
            if let Some(f) = self.observer.as_mut() {
                f(Event::Improved(candidate));
            }
        }
    }

    /// Tests candidates in order and returns the first interesting one
    /// (accepted as the new best), or `None`. With a parallel oracle,
    /// batches of candidates run at once, but the answer is always the
    /// first interesting candidate *in order*, so the reduction is the same
    /// as with one job.
    pub fn first_interesting<T>(
        &mut self,
        candidates: impl IntoIterator<Item = (T, Vec<u8>)>,
    ) -> Option<(T, Vec<u8>)> {
        let jobs = self.oracle.parallelism().max(1);
        let mut it = candidates.into_iter();
        loop {
            if self.stopped() {
                return None;
            }
            let batch: Vec<(T, Vec<u8>)> = it.by_ref().take(jobs).collect();
            if batch.is_empty() {
                return None;
            }
            if jobs > 1 {
                let mut todo: Vec<&[u8]> = Vec::new();
                let mut keys: Vec<u128> = Vec::new();
                for (_, c) in &batch {
                    let k = self.key_of(c);
                    if !self.cache.contains_key(&k) && !keys.contains(&k) {
                        keys.push(k);
                        todo.push(c);
                    }
                }
                if !todo.is_empty() {
                    let outs = self.oracle.test_batch(&todo);
                    for (k, o) in keys.into_iter().zip(outs) {
                        self.record(k, o);
                    }
                }
                for (t, c) in batch {
                    if self.cache.get(&self.key_of(&c)) == Some(&Outcome::Interesting) {
                        self.accept(&c);
                        return Some((t, c));
                    }
                }
                continue;
            }
            for (t, c) in batch {
                if self.test(&c) == Outcome::Interesting {
                    self.accept(&c);
                    return Some((t, c));
                }
            }
        }
    }
}
