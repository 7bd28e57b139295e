//! Candidate edits of a choice sequence: described small, built one at a
//! time.
//!
//! [`Edit`] says which range of the current sequence is replaced, and by
//! what ([`Piece`]s: literal bytes, a copy of another range, zeros). The
//! choice passes list edits instead of whole candidate sequences, so a
//! round over a sequence of `n` bytes with `m` candidates needs O(m) memory
//! instead of O(m × n), and only the candidates the oracle actually sees
//! are built ([`greedy`]). Sorting by [`Edit::len_after`] gives the same
//! order as sorting the built candidates by length.

use super::{shortlex_lt, Tester};
use std::collections::{HashSet, VecDeque};
use std::ops::Range;

/// What replaces part of an edited range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// These bytes.
    Lit(Vec<u8>),
    /// A copy of this range of the sequence being edited; positions past
    /// its end read as zero (as the decoder reads missing bytes).
    Src(Range<usize>),
    /// This many zero bytes (the simplest choices).
    Zeros(usize),
}

impl Piece {
    fn len(&self) -> usize {
        match self {
            Piece::Lit(b) => b.len(),
            Piece::Src(r) => r.len(),
            Piece::Zeros(k) => *k,
        }
    }

    /// Trailing zero bytes of this piece within `base`, and whether the
    /// piece is all zeros.
    fn trailing_zeros(&self, base: &[u8]) -> (usize, bool) {
        let (bytes, pad) = match self {
            Piece::Lit(b) => (b.as_slice(), 0),
            Piece::Src(r) => {
                let b = src(base, r);
                (b, r.len() - b.len())
            }
            Piece::Zeros(k) => return (*k, true),
        };
        let z = trailing_zeros(bytes);
        (pad + z, z == bytes.len())
    }
}

/// The part of `base[r]` inside `base` (the rest reads as zeros).
fn src<'a>(base: &'a [u8], r: &Range<usize>) -> &'a [u8] {
    &base[r.start.min(base.len())..r.end.min(base.len())]
}

fn trailing_zeros(b: &[u8]) -> usize {
    b.iter().rev().take_while(|&&x| x == 0).count()
}

/// One candidate: `base[range]` replaced by `pieces`; with `trim`, trailing
/// zero bytes of the result are dropped (missing bytes decode as zero, so
/// the candidate stands for the same input and is shorter).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The replaced range of the base sequence.
    pub range: Range<usize>,
    /// What replaces it, in order.
    pub pieces: Vec<Piece>,
    /// Drop trailing zero bytes of the result.
    pub trim: bool,
}

impl Edit {
    /// Deletes `range`.
    pub fn delete(range: Range<usize>) -> Edit {
        Edit {
            range,
            pieces: Vec::new(),
            trim: false,
        }
    }

    /// Replaces `range` by `pieces`.
    pub fn replace(range: Range<usize>, pieces: Vec<Piece>) -> Edit {
        Edit {
            range,
            pieces,
            trim: false,
        }
    }

    /// Length of [`Edit::apply`]`(base)`, without building it.
    pub fn len_after(&self, base: &[u8]) -> usize {
        let untrimmed =
            base.len() - self.range.len() + self.pieces.iter().map(Piece::len).sum::<usize>();
        if !self.trim {
            return untrimmed;
        }
        // Trailing zeros: the suffix, then the pieces backwards, then the
        // prefix.
        let suffix = &base[self.range.end..];
        let mut z = trailing_zeros(suffix);
        if z < suffix.len() {
            return untrimmed - z;
        }
        for p in self.pieces.iter().rev() {
            let (pz, all) = p.trailing_zeros(base);
            z += pz;
            if !all {
                return untrimmed - z;
            }
        }
        untrimmed - z - trailing_zeros(&base[..self.range.start])
    }

    /// This edit restated for the sequence `acc` produced (`acc` applied
    /// to the same base, without trimming): ranges before `acc`'s stay,
    /// ranges after it move by what it removed or added, ranges inside a
    /// range `acc` copies ([`Piece::Src`], e.g. a hoisted descendant) move
    /// with the copy, ranges holding all of `acc`'s range hold its result
    /// (a failed hoist of a node whose descendant `acc` simplified is the
    /// same hoist of the simplified node); `None` when a range is cut by
    /// `acc` (part of it changed).
    pub fn shifted_past(&self, acc: &Edit) -> Option<Edit> {
        if acc.trim {
            return None;
        }
        let r = &acc.range;
        let added = acc.pieces.iter().map(Piece::len).sum::<usize>();
        let map = |x: &Range<usize>| -> Option<Range<usize>> {
            if x.end <= r.start {
                return Some(x.clone());
            }
            if x.start >= r.end {
                return Some(x.start - r.len() + added..x.end - r.len() + added);
            }
            let mut out = r.start;
            for p in &acc.pieces {
                if let Piece::Src(d) = p {
                    if d.start <= x.start && x.end <= d.end {
                        let at = out + (x.start - d.start);
                        return Some(at..at + x.len());
                    }
                }
                out += p.len();
            }
            if x.start <= r.start && r.end <= x.end {
                return Some(x.start..x.end - r.len() + added);
            }
            None
        };
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for p in &self.pieces {
            pieces.push(match p {
                Piece::Src(x) => Piece::Src(map(x)?),
                other => other.clone(),
            });
        }
        Some(Edit {
            range: map(&self.range)?,
            pieces,
            trim: self.trim,
        })
    }

    /// The candidate sequence.
    pub fn apply(&self, base: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len_after(base));
        out.extend_from_slice(&base[..self.range.start]);
        for p in &self.pieces {
            match p {
                Piece::Lit(b) => out.extend_from_slice(b),
                Piece::Src(r) => {
                    out.extend_from_slice(src(base, r));
                    out.resize(out.len() + r.len() - src(base, r).len(), 0);
                }
                Piece::Zeros(k) => out.resize(out.len() + k, 0),
            }
        }
        out.extend_from_slice(&base[self.range.end..]);
        if self.trim {
            out.truncate(out.len() - trailing_zeros(&out));
        }
        out
    }
}

/// Runs `make(cur)` repeatedly: each call lists edits of the current
/// sequence; the first interesting shortlex-smaller candidate is accepted
/// and the next round starts from it. Candidates are built lazily.
pub fn greedy(
    cur: Vec<u8>,
    tester: &mut Tester<'_>,
    mut make: impl FnMut(&[u8]) -> Vec<Edit>,
) -> Vec<u8> {
    greedy_filtered(cur, tester, |c| (make(c), |_: &[u8]| true))
}

/// [`greedy`] with a per-round filter: `make` also returns a predicate
/// that a built candidate must pass before it reaches the oracle (it may
/// keep state, e.g. texts already seen this round).
pub fn greedy_filtered<F: FnMut(&[u8]) -> bool>(
    cur: Vec<u8>,
    tester: &mut Tester<'_>,
    mut make: impl FnMut(&[u8]) -> (Vec<Edit>, F),
) -> Vec<u8> {
    greedy_keeping(cur, tester, |c| {
        let (edits, mut keep) = make(c);
        let base = c.to_vec();
        (edits, move |x: &[u8]| shortlex_lt(x, &base) && keep(x))
    })
}

/// [`greedy_filtered`] without the shortlex check: the filter alone
/// decides what is progress, and must make the rounds terminate (e.g. by
/// admitting only candidates with a shorter image).
///
/// Within one call an edit is tried once, not again in every round: the
/// edits a round passed over before the accepted one are remembered,
/// restated for the new sequence ([`Edit::shifted_past`]), and skipped in
/// later rounds unless the accepted edit cut one of their ranges. An edit
/// whose range holds the accepted one's is kept: the failed hoist of a
/// node whose descendant was simplified since is presumed to fail again
/// (ddmin's monotonicity assumption). Without this, a deep tree whose many
/// candidates all fail (each at its own node, so each a new text after any
/// change below it) costs their full count again for every success. A
/// skipped edit that might now succeed is left to the next call: the
/// pipelines rerun their passes until nothing changes.
pub fn greedy_keeping<F: FnMut(&[u8]) -> bool>(
    cur: Vec<u8>,
    tester: &mut Tester<'_>,
    make: impl FnMut(&[u8]) -> (Vec<Edit>, F),
) -> Vec<u8> {
    greedy_deferring(cur, tester, make, |_: &[u8]| None)
}

/// [`greedy_keeping`] that learns from a round's failures: `features`
/// gives a candidate's features (sorted, without repeats; `None`: none
/// known), and a candidate whose features are all among those of one
/// tried before it in the round waits until the round's other candidates
/// have been tried. When the next candidate is asked for, every one given
/// before it has failed (else the round would have ended), so this
/// ordering is the same with `-j N` as with one job. With the grammar
/// rules of a derivation as features: after `0 - 0` failed, `580 - 0`
/// (the same rules, another number) waits, and `(580 * 13.619 / 0 - 0)`,
/// which has a rule no failed candidate had (`/`), goes first.
pub fn greedy_deferring<F: FnMut(&[u8]) -> bool>(
    mut cur: Vec<u8>,
    tester: &mut Tester<'_>,
    mut make: impl FnMut(&[u8]) -> (Vec<Edit>, F),
    features: impl Fn(&[u8]) -> Option<Vec<u32>>,
) -> Vec<u8> {
    let mut failed: HashSet<Edit> = HashSet::new();
    loop {
        if tester.stopped() {
            return cur;
        }
        let (edits, mut keep) = make(&cur);
        let base = &cur;
        let skip = &failed;
        let cands = edits
            .iter()
            .enumerate()
            .filter(|(_, e)| !skip.contains(e))
            .map(|(i, e)| (i, e.apply(base)))
            .filter(|(_, c)| keep(c));
        let mut order = Deferring {
            inner: cands,
            features: &features,
            seen: Vec::new(),
            given: Vec::new(),
            waiting: VecDeque::new(),
        };
        let Some((i, c)) = tester.first_interesting(&mut order) else {
            return cur;
        };
        // Passed over: those before it in the list that were tried or
        // never reached the oracle (filtered), not those left waiting; and,
        // if it was one that waited, those given before it that come after
        // it in the list. Not those given after it: with -j N the tester
        // draws a whole batch, and what the result is must not depend on N.
        let waiting: HashSet<usize> = order.waiting.iter().map(|(j, _)| *j).collect();
        let acc = &edits[i];
        let before = order.given.iter().position(|&j| j == i).unwrap_or(0);
        let late = order.given[..before]
            .iter()
            .filter(|&&j| j > i)
            .map(|&j| &edits[j]);
        failed = failed
            .iter()
            .chain(
                edits[..i]
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| !waiting.contains(j))
                    .map(|(_, e)| e),
            )
            .chain(late)
            .filter_map(|e| e.shifted_past(acc))
            .collect();
        cur = c;
    }
}

/// The candidate order of [`greedy_deferring`].
struct Deferring<'f, I, G> {
    inner: I,
    features: &'f G,
    /// Features of the candidates given so far that had any.
    seen: Vec<Vec<u32>>,
    /// The candidates given, by index, in order.
    given: Vec<usize>,
    /// Candidates held back, in order.
    waiting: VecDeque<(usize, Vec<u8>)>,
}

impl<I, G> Iterator for Deferring<'_, I, G>
where
    I: Iterator<Item = (usize, Vec<u8>)>,
    G: Fn(&[u8]) -> Option<Vec<u32>>,
{
    type Item = (usize, Vec<u8>);

    fn next(&mut self) -> Option<(usize, Vec<u8>)> {
        let (i, c) = loop {
            let Some((i, c)) = self.inner.next() else {
                break self.waiting.pop_front()?;
            };
            if let Some(f) = (self.features)(&c) {
                if self.seen.iter().any(|s| is_subset(&f, s)) {
                    self.waiting.push_back((i, c));
                    continue;
                }
                self.seen.push(f);
            }
            break (i, c);
        };
        self.given.push(i);
        Some((i, c))
    }
}

/// Whether every element of sorted `a` is in sorted `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{FnOracle, Oracle};
    use proptest::prelude::*;

    fn arb_edit(n: usize) -> impl Strategy<Value = Edit> {
        let piece = prop_oneof![
            proptest::collection::vec(0u8..3, 0..4).prop_map(Piece::Lit),
            (0..=n + 3, 0..=n + 3).prop_map(|(a, b)| Piece::Src(a.min(b)..a.max(b))),
            (0usize..4).prop_map(Piece::Zeros),
        ];
        (
            0..=n,
            0..=n,
            proptest::collection::vec(piece, 0..4),
            any::<bool>(),
        )
            .prop_map(|(a, b, pieces, trim)| Edit {
                range: a.min(b)..a.max(b),
                pieces,
                trim,
            })
    }

    proptest! {
        /// `len_after` is the length of `apply`, and `apply` is the
        /// spliced sequence (trimmed when asked).
        #[test]
        fn len_after_matches_apply(
            (base, e) in proptest::collection::vec(0u8..3, 0..24)
                .prop_flat_map(|b| { let n = b.len(); (Just(b), arb_edit(n)) })
        ) {
            let got = e.apply(&base);
            prop_assert_eq!(e.len_after(&base), got.len());
            let mut want = base[..e.range.start].to_vec();
            for p in &e.pieces {
                match p {
                    Piece::Lit(b) => want.extend_from_slice(b),
                    Piece::Src(r) => want.extend(r.clone().map(|i| base.get(i).copied().unwrap_or(0))),
                    Piece::Zeros(k) => want.extend(std::iter::repeat_n(0, *k)),
                }
            }
            want.extend_from_slice(&base[e.range.end..]);
            if e.trim {
                while want.last() == Some(&0) {
                    want.pop();
                }
            }
            prop_assert_eq!(got, want);
        }

        /// `shifted_past`: every range of the restated edit holds, in the
        /// sequence `acc` produced, what the original range held in the
        /// base (so the restated edit is the same change); ranges `acc`
        /// cut give `None`; a trimming `acc` restates nothing.
        #[test]
        fn shifted_edits_address_the_same_content(
            (base, e, acc) in proptest::collection::vec(0u8..3, 0..24)
                .prop_flat_map(|b| { let n = b.len(); (Just(b), arb_edit(n), arb_edit(n)) })
        ) {
            let read = |s: &[u8], r: &Range<usize>| -> Vec<u8> {
                r.clone().map(|i| s.get(i).copied().unwrap_or(0)).collect()
            };
            let ranges = |x: &Edit| -> Vec<Range<usize>> {
                std::iter::once(x.range.clone())
                    .chain(x.pieces.iter().filter_map(|p| match p {
                        Piece::Src(r) => Some(r.clone()),
                        _ => None,
                    }))
                    .collect()
            };
            let new = acc.apply(&base);
            match e.shifted_past(&acc) {
                Some(m) => {
                    prop_assert!(!acc.trim);
                    prop_assert_eq!(m.pieces.len(), e.pieces.len());
                    let r = &acc.range;
                    let added = new.len() + r.len() - base.len();
                    for (x, y) in ranges(&e).iter().zip(ranges(&m)) {
                        // The same content, or (x holds all of acc's
                        // range) that content with acc's result inside.
                        let got = read(&new, &y);
                        let holds = x.start <= r.start && r.end <= x.end;
                        let with_acc = holds.then(|| {
                            [
                                read(&base, &(x.start..r.start)),
                                new[r.start..r.start + added].to_vec(),
                                read(&base, &(r.end..x.end)),
                            ]
                            .concat()
                        });
                        prop_assert!(got == read(&base, x) || Some(&got) == with_acc.as_ref());
                    }
                }
                None => {
                    let r = &acc.range;
                    let cut = ranges(&e).iter().any(|x| {
                        x.end > r.start && x.start < r.end && !(x.start <= r.start && r.end <= x.end)
                    });
                    prop_assert!(acc.trim || cut);
                }
            }
        }
    }

    #[test]
    fn a_hoist_carries_edits_inside_the_hoisted_range() {
        // acc: [2, 8) replaced by a copy of [4, 6); e inside [4, 6).
        let acc = Edit::replace(2..8, vec![Piece::Lit(vec![9]), Piece::Src(4..6)]);
        let e = Edit::replace(5..6, vec![Piece::Zeros(1)]);
        assert_eq!(
            e.shifted_past(&acc),
            Some(Edit::replace(4..5, vec![Piece::Zeros(1)]))
        );
        // After acc: moved back by 6 - 3; across acc's range: gone.
        assert_eq!(
            Edit::delete(9..10).shifted_past(&acc),
            Some(Edit::delete(6..7))
        );
        assert_eq!(Edit::delete(1..3).shifted_past(&acc), None);
        // Holding all of acc's range: the range shrinks by what acc took,
        // and so does a copy that holds it (hoisting [0, 12) to [1, 11)
        // after acc simplified inside [1, 11)).
        let hoist = Edit::replace(0..12, vec![Piece::Src(1..11)]);
        assert_eq!(
            hoist.shifted_past(&acc),
            Some(Edit::replace(0..9, vec![Piece::Src(1..8)]))
        );
    }

    /// The texts `greedy_deferring` tries on `abcd` with whole-text
    /// replacements `a`, `aa`, `ab`, `c` (features: the distinct bytes),
    /// and what it accepts, for an oracle that wants `want`.
    fn deferring_run(want: &'static [u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
        use crate::oracle::Outcome;
        let mut seen = Vec::new();
        let mut o = FnOracle::new(|c: &[u8]| {
            seen.push(c.to_vec());
            if c.windows(want.len()).any(|w| w == want) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let start = b"abcd".to_vec();
        let out = greedy_deferring(
            start.clone(),
            &mut t,
            |c| {
                let edits = if c == b"abcd" {
                    [&b"a"[..], b"aa", b"ab", b"c"]
                        .iter()
                        .map(|x| Edit::replace(0..4, vec![Piece::Lit(x.to_vec())]))
                        .collect()
                } else {
                    Vec::new()
                };
                (edits, |_: &[u8]| true)
            },
            |c: &[u8]| {
                let mut f: Vec<u32> = c.iter().map(|&b| u32::from(b)).collect();
                f.sort_unstable();
                f.dedup();
                Some(f)
            },
        );
        drop(t);
        (seen, out)
    }

    /// Claims to run two candidates at once; interesting iff the text
    /// holds `bc`.
    struct TwoAtOnce;

    impl crate::oracle::Oracle for TwoAtOnce {
        fn test(&mut self, c: &[u8]) -> crate::oracle::Outcome {
            if c.windows(2).any(|w| w == b"bc") {
                crate::oracle::Outcome::Interesting
            } else {
                crate::oracle::Outcome::NotInteresting
            }
        }
        fn parallelism(&self) -> usize {
            2
        }
    }

    #[test]
    fn a_batch_drawn_past_the_accepted_candidate_is_not_counted_failed() {
        // On `abcd` the deletions of `a` and of `d`, then every single
        // byte's. `a` goes first; with two at once `d`'s deletion is drawn
        // (and interesting) in the same batch, and must still be tried in
        // the next round, as with one at a time, or the result would
        // depend on -j.
        let mut results = Vec::new();
        for jobs in [1, 2] {
            let mut one = FnOracle::new(|c: &[u8]| TwoAtOnce.test(c));
            let mut two = TwoAtOnce;
            let mut t = if jobs == 1 {
                Tester::new(&mut one)
            } else {
                Tester::new(&mut two)
            };
            let out = greedy_deferring(
                b"abcd".to_vec(),
                &mut t,
                |c| {
                    let edits = if c == b"abcd" {
                        vec![Edit::delete(0..1), Edit::delete(3..4)]
                    } else {
                        (0..c.len()).map(|i| Edit::delete(i..i + 1)).collect()
                    };
                    (edits, |_: &[u8]| true)
                },
                |_: &[u8]| None,
            );
            results.push(out);
        }
        assert_eq!(results, [b"bc".to_vec(), b"bc".to_vec()]);
    }

    #[test]
    fn a_candidate_like_a_failed_one_waits() {
        // `aa` has nothing `a` lacked: after `a` failed it waits, and `ab`
        // is found one run sooner.
        let (seen, out) = deferring_run(b"b");
        assert_eq!(seen, [b"a".to_vec(), b"ab".to_vec()]);
        assert_eq!(out, b"ab");
        // Waiting is not skipping: `aa` is tried after the rest.
        let (seen, out) = deferring_run(b"aa");
        assert_eq!(seen, [&b"a"[..], b"ab", b"c", b"aa"].map(<[u8]>::to_vec));
        assert_eq!(out, b"aa");
    }
}
