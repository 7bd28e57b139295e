//! Seeded random generation: random choice sequences, decoded.
//!
//! * [`generate`] / [`Generator`] — an iterator of [`Sample`]s (choice
//!   sequence + text) from a seed; the same seed gives the same samples,
//!   and the first `n` samples do not depend on how many are asked for.
//! * [`random_choices`] / [`random_len`] — the building blocks, for callers
//!   with their own RNG.
//!
//! There is no hidden randomness: all of it comes from the
//! [`ChaCha8Rng`] seeded by the caller, and the decoding itself is the
//! deterministic [`super::decode_into`].
//!
//! # Length distribution
//!
//! A sample's choice sequence has a *log-uniform* length ([`random_len`]):
//! a bit width `k` uniform in `0..=bits(max_choices)`, then a length uniform
//! in `0..2^k`, capped at `max_choices`. Short sequences (which decode to
//! small, near-minimal inputs) are as common as long ones, so a batch mixes
//! tiny inputs that exercise edge cases with large ones that exercise
//! depth. Each byte is uniform, so every alternative of a nonterminal is
//! equally likely wherever the budget allows it.

use super::{decode_into_consumed, DecodeConfig};
use crate::grammar::Grammar;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Settings for [`generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// Budgets of the decoder.
    pub decode: DecodeConfig,
    /// Longest random choice sequence (see the module docs).
    pub max_choices: usize,
}

impl Default for GenerateConfig {
    /// Default decoder budgets; choice sequences of up to 4096 bytes.
    fn default() -> GenerateConfig {
        GenerateConfig {
            decode: DecodeConfig::default(),
            max_choices: 4096,
        }
    }
}

/// One generated input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The choice bytes the decoder read (random bytes it did not read are
    /// dropped, so `decode(choices) == text`).
    pub choices: Vec<u8>,
    /// The decoded sentence.
    pub text: Vec<u8>,
}

/// `len` uniform random bytes: a random choice sequence.
///
/// ```
/// use grammar_min::generate::random_choices;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// assert_eq!(random_choices(&mut rng, 16).len(), 16);
/// ```
pub fn random_choices<R: Rng + ?Sized>(rng: &mut R, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// A log-uniform length in `0..=max` (see the module docs).
///
/// ```
/// use grammar_min::generate::random_len;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// assert!((0..100).all(|_| random_len(&mut rng, 300) <= 300));
/// assert_eq!(random_len(&mut rng, 0), 0);
/// ```
pub fn random_len<R: Rng + ?Sized>(rng: &mut R, max: usize) -> usize {
    let bits = usize::BITS - max.leading_zeros();
    let k = rng.random_range(0..=bits);
    let below = 1usize.checked_shl(k).unwrap_or(usize::MAX);
    rng.random_range(0..below).min(max)
}

/// Random inputs of `g` from `seed`; see the module docs.
///
/// ```
/// use grammar_min::generate::{decode, generate, GenerateConfig};
/// use grammar_min::grammar::Grammar;
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d>", "<d><start>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let cfg = GenerateConfig::default();
/// let a: Vec<_> = generate(&g, 42, &cfg).take(5).collect();
/// let b: Vec<_> = generate(&g, 42, &cfg).take(5).collect();
/// assert_eq!(a, b);
/// for s in &a {
///     assert_eq!(decode(&g, &s.choices, &cfg.decode), s.text);
/// }
/// ```
pub fn generate<'g>(g: &'g Grammar, seed: u64, cfg: &GenerateConfig) -> Generator<'g> {
    Generator {
        g,
        rng: ChaCha8Rng::seed_from_u64(seed),
        cfg: *cfg,
    }
}

/// Infinite iterator of random [`Sample`]s; see [`generate`].
#[derive(Clone, Debug)]
pub struct Generator<'g> {
    g: &'g Grammar,
    rng: ChaCha8Rng,
    cfg: GenerateConfig,
}

impl Iterator for Generator<'_> {
    type Item = Sample;

    fn next(&mut self) -> Option<Sample> {
        let len = random_len(&mut self.rng, self.cfg.max_choices);
        let mut choices = random_choices(&mut self.rng, len);
        let mut text = Vec::new();
        let used = decode_into_consumed(self.g, &choices, &self.cfg.decode, &mut text);
        choices.truncate(used);
        Some(Sample { choices, text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_log_uniform() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let lens: Vec<usize> = (0..4000).map(|_| random_len(&mut rng, 4096)).collect();
        assert!(lens.iter().all(|&l| l <= 4096));
        let short = lens.iter().filter(|&&l| l <= 16).count();
        let long = lens.iter().filter(|&&l| l >= 1024).count();
        // 4096 has 13 bits, so 14 widths: widths 0..=4 (5/14, ~36%) always
        // give <= 15; width 11 half the time and widths 12, 13 always give
        // >= 1024 (2.5/14, ~18%).
        assert!(short > 1200 && long > 550, "short {short} long {long}");
        assert!(lens.contains(&0) && lens.contains(&4096));
    }

    #[test]
    fn first_samples_do_not_depend_on_the_count() {
        let g = Grammar::from_json_str(
            include_str!("../../grammars/expr.json"),
            &Default::default(),
        )
        .unwrap();
        let cfg = GenerateConfig::default();
        let a: Vec<Sample> = generate(&g, 9, &cfg).take(3).collect();
        let b: Vec<Sample> = generate(&g, 9, &cfg).take(10).collect();
        assert_eq!(a[..], b[..3]);
        let c: Vec<Sample> = generate(&g, 10, &cfg).take(10).collect();
        assert_ne!(b, c);
    }
}
