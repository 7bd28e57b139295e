//! Byte strings read as choice sequences.
//!
//! A [`Chooser`] turns libFuzzer's raw bytes into a stream of decisions. The
//! encoding is the contract between the decoder ([`crate::generate`]), the
//! encoder ([`crate::encode`]), the mutator and the choice-sequence reducers:
//!
//! * A choice among `n <= 1` options consumes nothing and yields 0.
//! * A choice among `2..=256` options reads one byte `b` and yields
//!   `(b * n) >> 8`; among `257..=65536` options two bytes (big-endian
//!   `v`, yielding `(v * n) >> 16`); more than that, four bytes. Every
//!   option is reachable and the split is as even as the width allows, so
//!   nonterminals with thousands of alternatives (unicode ranges) do not
//!   collapse onto a few.
//! * The mapping is **monotone**: a lower byte never yields a higher choice.
//!   Together with alternatives ordered simplest first this is what makes
//!   "lower the bytes" a simplification.
//! * Exhausted input yields 0 (missing bytes read as zero). It is never an
//!   error, so every byte string — including the empty one — decodes, and
//!   truncating a sequence only ever replaces decisions by the simplest ones.
//!
//! ```
//! use grammar_min::choice::{Chooser, encode_choice};
//!
//! let mut c = Chooser::new(&[0, 255, 128]);
//! assert_eq!(c.choose(3), 0);
//! assert_eq!(c.choose(3), 2);
//! assert_eq!(c.choose(1), 0); // one option: nothing consumed
//! assert_eq!(c.choose(2), 1);
//! assert_eq!(c.choose(7), 0); // exhausted
//! let mut buf = Vec::new();
//! encode_choice(5, 7, &mut buf);
//! assert_eq!(Chooser::new(&buf).choose(7), 5);
//! ```

/// Reads choices from a byte slice. Cheap to create; never fails.
#[derive(Clone, Debug)]
pub struct Chooser<'a> {
    data: &'a [u8],
    pos: usize,
}

/// Number of bytes a choice among `n` options consumes.
#[inline]
pub fn width(n: u32) -> usize {
    match n {
        0 | 1 => 0,
        2..=256 => 1,
        257..=65536 => 2,
        _ => 4,
    }
}

impl<'a> Chooser<'a> {
    /// A chooser at the start of `data`.
    pub fn new(data: &'a [u8]) -> Chooser<'a> {
        Chooser { data, pos: 0 }
    }

    /// Picks one of `n` options (`0..n`); `n == 0` is treated as 1.
    #[inline]
    pub fn choose(&mut self, n: u32) -> u32 {
        // The one-byte case is the decoder's hot path; same result as the
        // general loop below.
        if n <= 256 {
            if n <= 1 {
                return 0;
            }
            let b = match self.data.get(self.pos) {
                Some(&b) => {
                    self.pos += 1;
                    b as u32
                }
                None => 0,
            };
            return (b * n) >> 8;
        }
        self.choose_wide(n)
    }

    fn choose_wide(&mut self, n: u32) -> u32 {
        let w = width(n);
        let mut v: u64 = 0;
        for _ in 0..w {
            let b = self.data.get(self.pos).copied().unwrap_or(0);
            v = (v << 8) | b as u64;
            if self.pos < self.data.len() {
                self.pos += 1;
            }
        }
        ((v * n as u64) >> (8 * w)) as u32
    }

    /// Bytes consumed so far (never more than the input's length).
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Have all bytes been consumed?
    pub fn is_exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The underlying bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
}

/// Appends the shortest byte encoding that makes [`Chooser::choose`]`(n)`
/// return `k`: the smallest `v` with `(v * n) >> bits == k`.
///
/// # Panics
/// If `k >= n` (a caller bug, never input-dependent).
pub fn encode_choice(k: u32, n: u32, out: &mut Vec<u8>) {
    assert!(k < n.max(1), "choice {k} out of range 0..{n}");
    let w = width(n);
    if w == 0 {
        return;
    }
    let bits = 8 * w as u32;
    let v = ((k as u64) << bits).div_ceil(n as u64);
    for i in (0..w).rev() {
        out.push((v >> (8 * i)) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_is_inverse_of_choose_for_every_option() {
        for n in [
            1u32,
            2,
            3,
            7,
            10,
            255,
            256,
            257,
            1000,
            65535,
            65536,
            65537,
            1 << 20,
        ] {
            let ks: Vec<u32> = if n <= 2000 {
                (0..n).collect()
            } else {
                vec![0, 1, n / 3, n / 2, n - 2, n - 1]
            };
            for k in ks {
                let mut buf = Vec::new();
                encode_choice(k, n, &mut buf);
                assert_eq!(buf.len(), width(n));
                assert_eq!(Chooser::new(&buf).choose(n), k, "n={n} k={k}");
            }
        }
    }

    #[test]
    fn monotone_in_the_byte() {
        for n in [2u32, 3, 5, 26, 100, 256] {
            let mut last = 0;
            for b in 0..=255u8 {
                let c = Chooser::new(&[b]).choose(n);
                assert!(c >= last);
                last = c;
            }
            assert_eq!(last, n - 1);
        }
    }

    #[test]
    fn wide_choices_reach_every_option_evenly() {
        // 1000 options over two bytes: each option gets 65 or 66 values.
        let mut counts = vec![0u32; 1000];
        for v in 0..=65535u32 {
            counts[Chooser::new(&[(v >> 8) as u8, v as u8]).choose(1000) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c == 65 || c == 66));
    }

    #[test]
    fn exhausted_input_yields_zero_and_position_saturates() {
        let mut c = Chooser::new(&[200]);
        assert_eq!(c.choose(1000), 781); // 200*256 * 1000 >> 16
        assert!(c.is_exhausted());
        assert_eq!(c.position(), 1);
        assert_eq!(c.choose(9), 0);
        assert_eq!(c.position(), 1);
    }
}
