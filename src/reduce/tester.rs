//! [`Tester`]: the cache, counters, cancellation and progress reporting
//! that sit between every reducer and its oracle.

use crate::oracle::{Oracle, Outcome};
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
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
    /// Candidates not run because their image was too long
    /// ([`Tester::with_image_bound`]).
    pub skipped: u64,
    /// Candidates presumed not interesting without a run
    /// ([`Tester::anchor`]).
    pub presumed: u64,
    /// Candidate texts of a stage that tests through this tester which
    /// did not parse, so never reached it ([`Tester::note_unparsed`]).
    pub unparsed: u64,
}

/// What a [`Tester`] tells its observer.
#[derive(Debug)]
pub enum Event<'a> {
    /// A candidate was run by the oracle (or, [`Tester::note_unparsed`],
    /// rejected unparsed by a stage testing through this tester).
    Tested(&'a Stats),
    /// A smaller interesting candidate was accepted: the oracle's input
    /// bytes (text, or choices for choice-sequence reduction).
    Improved(&'a [u8]),
}

/// Whether `a` is a subsequence of `b` (`b` with some bytes deleted).
fn is_subsequence(a: &[u8], b: &[u8]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
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

/// Outcomes a [`Tester`] has seen, keyed by its cache key; carried from
/// one tester to another with [`Tester::cache`] and [`Tester::with_cache`]
/// when both key candidates the same way (e.g. a choice-sequence tester
/// keyed by decoded text and a text tester polishing that text).
#[derive(Clone, Debug, Default)]
pub struct OutcomeCache(HashMap<u128, Outcome>);

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
    /// The image ([`Tester::with_image`]), where it is not the cache key.
    image_fn: Option<KeyFn<'o>>,
    best: Option<Vec<u8>>,
    best_image_len: usize,
    image_bound: bool,
    anchors: Vec<Vec<u8>>,
    /// Cache keys whose outcome an anchor presumed (not run): dropped by
    /// [`Tester::forget_presumptions`] and left out of [`Tester::cache`].
    presumed_keys: HashSet<u128>,
}

/// A 128-bit hash of `c` (two independent 64-bit hashes): the cache key,
/// also used to remember texts already seen without keeping them.
pub(crate) fn key(c: &[u8]) -> u128 {
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
            image_fn: None,
            best: None,
            best_image_len: usize::MAX,
            image_bound: false,
            anchors: Vec::new(),
            presumed_keys: HashSet::new(),
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

    /// With a cache key (see [`Tester::with_cache_key`]), skips candidates
    /// whose image is longer than the image of the best candidate so far
    /// without running the oracle: when the oracle's input is the decoded
    /// text, a choice sequence that is shorter but decodes to more text is
    /// no progress for the user.
    pub fn with_image_bound(mut self) -> Self {
        self.image_bound = true;
        self
    }

    /// The image of candidates without caching by it: for an oracle that
    /// reads the candidate itself (a fuzz target reading choices, whose
    /// outcome may depend on more than the text they decode to), the
    /// decoded text the user reads, for [`Tester::with_image_bound`].
    pub fn with_image(mut self, f: impl Fn(&[u8]) -> Vec<u8> + 'o) -> Self {
        self.image_fn = Some(Box::new(f));
        self
    }

    /// The function giving a candidate's image: [`Tester::with_image`]'s,
    /// else the cache key's.
    fn image_fn(&self) -> Option<&KeyFn<'o>> {
        self.image_fn.as_ref().or(self.key_fn.as_ref())
    }

    /// Whether the oracle reads the image itself: it is the cache key
    /// ([`Tester::with_cache_key`]) and not set apart
    /// ([`Tester::with_image`]), as for a `--cmd` program given a choice
    /// artifact's decoded text.
    pub fn reads_image(&self) -> bool {
        self.key_fn.is_some() && self.image_fn.is_none()
    }

    /// Whether [`Tester::with_image_bound`] is on (with an image or a
    /// cache key): then "smaller" means a shorter image first (see
    /// [`Tester::better`]).
    pub fn image_bounded(&self) -> bool {
        self.image_bound && self.image_fn().is_some()
    }

    /// Whether `a` is a better result than `b`: shortlex-smaller, or, with
    /// [`Tester::with_image_bound`], a shorter image (the decoded text the
    /// user reduces) and shortlex-smaller among equal image lengths.
    pub fn better(&self, a: &[u8], b: &[u8]) -> bool {
        match (self.image_fn(), self.image_bound) {
            (Some(f), true) => {
                let (x, y) = (f(a).len(), f(b).len());
                x < y || (x == y && shortlex_lt(a, b))
            }
            _ => shortlex_lt(a, b),
        }
    }

    /// Starts from the outcomes in `cache` (see [`OutcomeCache`]); they
    /// count as cache hits, not as tests.
    pub fn with_cache(mut self, cache: OutcomeCache) -> Self {
        self.cache.extend(cache.0);
        self
    }

    /// A copy of the outcomes seen so far (run or seeded; not the ones
    /// an anchor presumed).
    pub fn cache(&self) -> OutcomeCache {
        let mut c = self.cache.clone();
        c.retain(|k, _| !self.presumed_keys.contains(k));
        OutcomeCache(c)
    }

    /// The cache key of `c`, or `None` (counted as skipped) when the image
    /// bound rules it out.
    fn admit(&mut self, c: &[u8]) -> Option<u128> {
        let k = self.peek_key(c);
        if k.is_none() {
            self.stats.skipped += 1;
        }
        k
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

    /// Runs of the program under test so far, as pass reports count them:
    /// this tester's tests, or, when its oracle tests through another
    /// tester ([`Oracle::runs`]), that tester's.
    pub fn runs(&self) -> u64 {
        self.oracle.runs().unwrap_or(self.stats.tests)
    }

    /// Counts candidates a stage testing through this tester rejected
    /// without a run (texts that do not parse, for a tester of choice
    /// sequences), and tells the observer, so progress shows while no
    /// candidate runs.
    pub fn note_unparsed(&mut self, n: u64) {
        if n == 0 {
            return;
        }
        self.stats.unparsed += n;
        if let Some(f) = self.observer.as_mut() {
            f(Event::Tested(&self.stats));
        }
    }

    /// The stop flag ([`Tester::with_stop`]), to share with a tester that
    /// runs through this one.
    pub fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        self.stop.clone()
    }

    /// Has cancellation been requested?
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The best candidate accepted so far (see [`Tester::better`]).
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
        if let (Some(f), Outcome::Interesting) = (self.image_fn(), outcome) {
            self.best_image_len = self.best_image_len.min(f(candidate).len());
        }
        let k = self.key_of(candidate);
        self.cache.insert(k, outcome);
    }

    /// Records a failing candidate (tested, not interesting) as an
    /// *anchor*: from now on a candidate whose image is a subsequence of an
    /// anchor's is presumed not interesting without a run (ddmin's
    /// monotonicity assumption: a part of a failing input fails), counted
    /// in [`Stats::presumed`]. For monotone searches that know where a
    /// family of candidates stops being interesting
    /// ([`super::choices::chains`]); anchors stay valid while the reduction
    /// only deletes.
    pub fn anchor(&mut self, failing: &[u8]) {
        let image = match &self.key_fn {
            Some(f) => f(failing),
            None => failing.to_vec(),
        };
        if !self.anchors.contains(&image) {
            self.anchors.push(image);
        }
    }

    /// The anchors' images (see [`Tester::anchor`]): for a tester keyed by
    /// decoded text, texts to hand on to the text tester behind it.
    pub fn anchors(&self) -> &[Vec<u8>] {
        &self.anchors
    }

    /// Whether candidate `c` (cache key `k`, not cached) is presumed not
    /// interesting by an anchor; if so, caches that.
    fn presumed(&mut self, c: &[u8], k: u128) -> bool {
        if self.anchors.is_empty() {
            return false;
        }
        let image = match &self.key_fn {
            Some(f) => f(c),
            None => c.to_vec(),
        };
        if !self.anchors.iter().any(|a| is_subsequence(&image, a)) {
            return false;
        }
        self.cache.insert(k, Outcome::NotInteresting);
        self.presumed_keys.insert(k);
        self.stats.presumed += 1;
        true
    }

    /// Drops every anchor and every outcome an anchor presumed, so that
    /// from now on each "not interesting" is a run's. For a proof of
    /// 1-minimality: the monotonicity an anchor assumes does not hold for
    /// every oracle (a deletion's text can be a subsequence of a failing
    /// anchor's and still fail for another reason, or still pass).
    pub fn forget_presumptions(&mut self) {
        for k in self.presumed_keys.drain() {
            self.cache.remove(&k);
        }
        self.anchors.clear();
    }

    /// Tests one candidate (through the cache).
    pub fn test(&mut self, candidate: &[u8]) -> Outcome {
        let Some(k) = self.admit(candidate) else {
            return Outcome::NotInteresting;
        };
        if let Some(&o) = self.cache.get(&k) {
            self.stats.cache_hits += 1;
            return o;
        }
        if self.presumed(candidate, k) {
            return Outcome::NotInteresting;
        }
        let o = self.oracle.test(candidate);
        self.record(k, o);
        o
    }

    /// Marks `candidate` as the new best (if [`Tester::better`]) and tells
    /// the observer.
    pub fn accept(&mut self, candidate: &[u8]) {
        if self
            .best
            .as_deref()
            .is_none_or(|b| self.better(candidate, b))
        {
            self.best = Some(candidate.to_vec());
            if let Some(f) = self.image_fn() {
                self.best_image_len = f(candidate).len();
            }
            if let Some(f) = self.observer.as_mut() {
                f(Event::Improved(candidate));
            }
        }
    }

    /// How many candidates the oracle runs at once (1 = one at a time).
    pub fn parallelism(&self) -> usize {
        self.oracle.parallelism().max(1)
    }

    /// Tests several candidates through the cache, the uncached ones (each
    /// distinct image once) in one [`Oracle::test_batch`], so a parallel
    /// oracle runs them at once; one outcome per candidate, in order.
    /// Candidates the image bound rules out are not interesting.
    pub fn test_batch(&mut self, candidates: &[&[u8]]) -> Vec<Outcome> {
        let keys: Vec<Option<u128>> = candidates.iter().map(|c| self.admit(c)).collect();
        let mut todo: Vec<&[u8]> = Vec::new();
        let mut todo_keys: Vec<u128> = Vec::new();
        for (c, k) in candidates.iter().zip(&keys) {
            if let Some(k) = *k {
                if self.cache.contains_key(&k) || todo_keys.contains(&k) {
                    self.stats.cache_hits += 1;
                } else if !self.presumed(c, k) {
                    todo_keys.push(k);
                    todo.push(c);
                }
            }
        }
        if !todo.is_empty() {
            let outs = if todo.len() == 1 {
                vec![self.oracle.test(todo[0])]
            } else {
                self.oracle.test_batch(&todo)
            };
            for (k, o) in todo_keys.into_iter().zip(outs) {
                self.record(k, o);
            }
        }
        keys.iter()
            .map(|k| k.map_or(Outcome::NotInteresting, |k| self.cache[&k]))
            .collect()
    }

    /// Tests candidates in order and returns the first interesting one
    /// (accepted as the new best), or `None`. With a parallel oracle, each
    /// round gathers candidates until it holds as many uncached ones as
    /// the oracle runs at once (or a cached interesting one) and runs them
    /// together, but the answer is always the first interesting candidate
    /// *in order*, so the reduction is the same as with one job; only the
    /// count of oracle runs can differ (candidates after the answer in its
    /// round ran for nothing).
    pub fn first_interesting<T>(
        &mut self,
        candidates: impl IntoIterator<Item = (T, Vec<u8>)>,
    ) -> Option<(T, Vec<u8>)> {
        let jobs = self.parallelism();
        let mut it = candidates.into_iter();
        loop {
            if self.stopped() {
                return None;
            }
            if jobs == 1 {
                let (t, c) = it.next()?;
                if self.test(&c) == Outcome::Interesting {
                    self.accept(&c);
                    return Some((t, c));
                }
                continue;
            }
            // The image bound does not move within a round (only an
            // accepted candidate moves it), so admitting here and again in
            // `test_batch` agrees.
            let mut batch: Vec<(T, Vec<u8>)> = Vec::new();
            let mut fresh: Vec<u128> = Vec::new();
            while fresh.len() < jobs {
                let Some((t, c)) = it.next() else { break };
                let k = self.peek_key(&c);
                batch.push((t, c));
                match k.map(|k| (k, self.cache.get(&k))) {
                    Some((_, Some(Outcome::Interesting))) => break,
                    Some((k, None)) if !fresh.contains(&k) => fresh.push(k),
                    _ => {}
                }
            }
            if batch.is_empty() {
                return None;
            }
            let refs: Vec<&[u8]> = batch.iter().map(|(_, c)| c.as_slice()).collect();
            let outs = self.test_batch(&refs);
            let hit = outs.iter().position(|&o| o == Outcome::Interesting);
            if let Some(i) = hit {
                let (t, c) = batch.swap_remove(i);
                self.accept(&c);
                return Some((t, c));
            }
        }
    }

    /// The cache key `c` would get, or `None` when the image bound rules it
    /// out; unlike [`Tester::admit`], counts nothing.
    fn peek_key(&self, c: &[u8]) -> Option<u128> {
        let Some(f) = self.image_fn().filter(|_| self.image_bound) else {
            return Some(self.key_of(c));
        };
        let image = f(c);
        if image.len() > self.best_image_len {
            return None;
        }
        // The image is the cache key unless it was set apart.
        Some(if self.image_fn.is_some() {
            self.key_of(c)
        } else {
            key(&image)
        })
    }
}

#[cfg(test)]
mod tests;
