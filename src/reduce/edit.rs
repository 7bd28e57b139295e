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
use std::ops::Range;

/// What replaces part of an edited range.
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
pub fn greedy_keeping<F: FnMut(&[u8]) -> bool>(
    mut cur: Vec<u8>,
    tester: &mut Tester<'_>,
    mut make: impl FnMut(&[u8]) -> (Vec<Edit>, F),
) -> Vec<u8> {
    loop {
        if tester.stopped() {
            return cur;
        }
        let (edits, mut keep) = make(&cur);
        let base = &cur;
        let cands = edits
            .iter()
            .map(|e| e.apply(base))
            .filter(|c| keep(c))
            .map(|c| ((), c));
        match tester.first_interesting(cands) {
            Some(((), c)) => cur = c,
            None => return cur,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    }
}
