//! Tests of the tester: cache, image bound, anchors, batches.
use super::*;
use crate::oracle::FnOracle;

/// Image = the candidate without its `x` bytes; interesting iff it
/// contains `a`.
fn oracle() -> FnOracle<impl FnMut(&[u8]) -> Outcome> {
    FnOracle::new(|c: &[u8]| {
        if c.contains(&b'a') {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    })
}

fn strip(c: &[u8]) -> Vec<u8> {
    c.iter().copied().filter(|&b| b != b'x').collect()
}

#[test]
fn image_bound_skips_longer_images_without_running() {
    let mut o = oracle();
    let mut t = Tester::new(&mut o).with_cache_key(strip).with_image_bound();
    t.seed(b"ab", Outcome::Interesting);
    // Image "abc" is longer than the best image "ab": not run.
    assert_eq!(t.test(b"abc"), Outcome::NotInteresting);
    assert_eq!((t.stats().tests, t.stats().skipped), (0, 1));
    // Same image length: run.
    assert_eq!(t.test(b"xxba"), Outcome::Interesting);
    assert_eq!(t.stats().tests, 1);
    let got = t.first_interesting([((), b"abc".to_vec()), ((), b"a".to_vec())]);
    assert_eq!(got.map(|g| g.1), Some(b"a".to_vec()));
}

#[test]
fn an_image_apart_from_the_cache_key_bounds_and_orders_without_sharing_runs() {
    let mut o = oracle();
    let mut t = Tester::new(&mut o).with_image(strip).with_image_bound();
    t.seed(b"xab", Outcome::Interesting);
    // Image "abc" is longer than "ab": not run.
    assert_eq!(t.test(b"abc"), Outcome::NotInteresting);
    assert_eq!((t.stats().tests, t.stats().skipped), (0, 1));
    // Same image as the seed, other bytes: run (the key is the
    // candidate), where a cache key `strip` would answer from the cache.
    assert_eq!(t.test(b"axb"), Outcome::Interesting);
    assert_eq!((t.stats().tests, t.stats().cache_hits), (1, 0));
    // A shorter image is better though its bytes are longer.
    assert!(t.better(b"xxxa", b"ab"));
    assert!(!t.better(b"ab", b"xxxa"));
}

#[test]
fn anchors_presume_exactly_their_subsequences() {
    let mut o = oracle();
    let mut t = Tester::new(&mut o).with_cache_key(strip);
    t.anchor(b"bxcab");
    // Images "ba" and "cb" are subsequences of "bcab": presumed, though
    // the oracle would call "ba" interesting.
    assert_eq!(t.test(b"ba"), Outcome::NotInteresting);
    assert_eq!(t.test(b"xcxb"), Outcome::NotInteresting);
    assert_eq!((t.stats().tests, t.stats().presumed), (0, 2));
    // Not subsequences: run.
    assert_eq!(t.test(b"aab"), Outcome::Interesting);
    assert_eq!(t.test(b"bcabc"), Outcome::Interesting);
    assert_eq!(t.stats().tests, 2);
    // A tested outcome wins over a later anchor; batches presume alike.
    t.anchor(b"aabca");
    assert_eq!(t.test(b"aab"), Outcome::Interesting);
    let outs = t.test_batch(&[b"aa", b"ca", b"aaaa"]);
    use Outcome::*;
    assert_eq!(outs, [NotInteresting, NotInteresting, Interesting]);
    assert_eq!((t.stats().tests, t.stats().presumed), (3, 4));
    assert_eq!(t.anchors(), &[b"bcab".to_vec(), b"aabca".to_vec()]);
}

#[test]
fn forgotten_presumptions_are_run_and_never_carried() {
    let mut o = oracle();
    let mut t = Tester::new(&mut o).with_cache_key(strip);
    t.anchor(b"bcab");
    assert_eq!(t.test(b"ba"), Outcome::NotInteresting);
    assert_eq!(t.test(b"cb"), Outcome::NotInteresting);
    assert_eq!((t.stats().tests, t.stats().presumed), (0, 2));
    // A carried cache holds runs only.
    assert_eq!(t.cache().0.len(), 0);
    t.forget_presumptions();
    assert!(t.anchors().is_empty());
    // Now the oracle answers: "ba" is interesting after all.
    assert_eq!(t.test(b"ba"), Outcome::Interesting);
    assert_eq!(t.test(b"ba"), Outcome::Interesting);
    assert_eq!((t.stats().tests, t.stats().cache_hits), (1, 1));
    assert_eq!(t.cache().0.len(), 1);
}

#[test]
fn carried_cache_answers_without_running() {
    let mut o = oracle();
    let mut t = Tester::new(&mut o);
    assert_eq!(t.test(b"ba"), Outcome::Interesting);
    let cache = t.cache();
    drop(t);
    let mut o2 = FnOracle::new(|_: &[u8]| -> Outcome { panic!("must come from the cache") });
    let mut t2 = Tester::new(&mut o2).with_cache(cache);
    assert_eq!(t2.test(b"ba"), Outcome::Interesting);
    assert_eq!((t2.stats().tests, t2.stats().cache_hits), (0, 1));
}

/// `oracle()` claiming to run `jobs` candidates at once.
struct Jobs<O>(O, usize);

impl<O: Oracle> Oracle for Jobs<O> {
    fn test(&mut self, c: &[u8]) -> Outcome {
        self.0.test(c)
    }
    fn parallelism(&self) -> usize {
        self.1
    }
}

#[test]
fn image_bound_gives_the_same_answer_with_parallel_batches() {
    // "xxab" decodes to "ab", longer than the best image "a": skipped,
    // although its image is cached as interesting.
    let cands = || {
        [&b"xxab"[..], b"xxxb", b"xa", b"ya"]
            .map(|c| ((), c.to_vec()))
            .into_iter()
    };
    let mut answers = Vec::new();
    for jobs in [1, 2, 4] {
        let mut o = Jobs(oracle(), jobs);
        let mut t = Tester::new(&mut o).with_cache_key(strip).with_image_bound();
        t.seed(b"ab", Outcome::Interesting);
        t.seed(b"a", Outcome::Interesting);
        t.accept(b"a");
        answers.push(t.first_interesting(cands()).map(|g| g.1));
    }
    assert_eq!(answers, vec![Some(b"xa".to_vec()); 3]);
}

#[test]
fn unparsed_candidates_are_counted_and_shown_as_progress() {
    let mut o = oracle();
    let mut seen = Vec::new();
    let mut t = Tester::new(&mut o).with_observer(|e| {
        if let Event::Tested(s) = e {
            seen.push((s.tests, s.unparsed));
        }
    });
    t.note_unparsed(0);
    t.note_unparsed(3);
    t.test(b"a");
    let s = t.stats();
    assert_eq!((s.tests, s.unparsed), (1, 3));
    drop(t);
    // No event for nothing; one for the unparsed, one for the run.
    assert_eq!(seen, [(0, 3), (1, 3)]);
}
