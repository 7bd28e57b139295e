//! Grammar-aware mutation and crossover on choice sequences.
//!
//! The principal type is [`Mutator`]: given a choice sequence (libFuzzer's
//! bytes, as [`crate::generate`] reads them) it decodes the derivation tree,
//! picks a subtree and rewrites the *choice bytes* that produced it
//! ([`crate::tree::Tree::choices`]), so every mutant is again a sentence of
//! the grammar and the edit is a whole-subtree edit. The operators
//! ([`MutationKind`]):
//!
//! * **Regenerate** a random subtree from fresh random bytes.
//! * **Simplify** a subtree to its simplest form (all decisions 0).
//! * **Recursive expansion** (Nautilus): for a node `X` with a descendant
//!   `Y` of the same nonterminal, put `X`'s surroundings of `Y` around `Y`
//!   again, `k` times: `((y))` → `((((y))))`.
//! * **Splice** a subtree of the same nonterminal from elsewhere in the
//!   input itself, or from another input (a small pool of inputs the
//!   mutator saw recently), half and half.
//! * **Bytes**: a share of calls goes to a caller-supplied byte mutator
//!   (under libFuzzer, `libfuzzer_sys::fuzzer_mutate`), which keeps
//!   libFuzzer's comparison-guided tricks in play.
//!
//! [`Mutator::crossover`] splices a subtree of the second parent into the
//! first, at a node of the same nonterminal.
//!
//! # Exactness of span splicing
//!
//! A nonterminal decoded *unrestricted* consumes the same choices wherever
//! it stands, so replacing its span by the span another node of the same
//! nonterminal consumed reproduces that subtree exactly. Near the
//! [`DecodeConfig`] budgets the decoder restricts expansions by depth and
//! by pending length, so the same bytes can decode to a different subtree
//! in a different place; the mutator accepts this (a mutation is a
//! heuristic, and the result is still a valid sentence) and does not try
//! to repair it. Spans are computed on the input followed by explicit zero
//! bytes, which the decoder reads exactly like missing bytes, so a subtree
//! that ran past the end of its input is copied with the zeros it needed.
//! Results have their trailing zero bytes removed (again without changing
//! what they decode to), then are cut to `max_size`.
//!
//! # Determinism
//!
//! All randomness comes from a ChaCha8 generator seeded by the `seed`
//! argument: the same mutator state (pool), input and seed give the same
//! output.
//!
//! ```
//! use grammar_min::{grammar::Grammar, generate::{decode, DecodeConfig}, mutate::Mutator};
//! let g = Grammar::from_json_str(
//!     r#"{"<start>": ["<e>"], "<e>": ["x", "(<e>)", "<e>+<e>"]}"#,
//!     &Default::default())?;
//! let cfg = DecodeConfig::default();
//! let mut m = Mutator::new(&g, cfg);
//! // A byte mutator for tests; under libFuzzer pass `libfuzzer_sys::fuzzer_mutate`.
//! let mut flip = |d: &mut [u8], size: usize, _max: usize| {
//!     if size > 0 { d[0] ^= 1 }
//!     size
//! };
//! let (out, _kind) = m.mutate(&[2, 1, 1, 0], 64, 7, &mut flip);
//! assert!(out.len() <= 64);
//! let text = decode(&g, &out, &cfg);
//! assert!(!text.is_empty());
//! # Ok::<(), grammar_min::grammar::GrammarError>(())
//! ```

use crate::generate::{decode_tree, decode_tree_from, DecodeConfig};
use crate::grammar::{Grammar, SymbolId};
use crate::tree::{Label, NodeId, Tree, NO_PARENT};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::ops::Range;

/// Which operator produced a mutant; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MutationKind {
    /// A subtree regenerated from random bytes.
    Regenerate,
    /// A subtree replaced by its simplest form.
    Simplify,
    /// A recursive subtree repeated inside itself.
    RecursiveExpand,
    /// A same-nonterminal subtree from the pool spliced in.
    Splice,
    /// The caller's byte mutator.
    Bytes,
}

/// Where [`Mutator::crossover`] grafted: node `target` of the first parent
/// was replaced by node `donor` of the second (pre-order ids in the trees
/// decoded from each parent). In the result, node `target` is the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Splice {
    /// Node of the first parent that was replaced.
    pub target: NodeId,
    /// Node of the second parent that was copied.
    pub donor: NodeId,
}

/// Longest random byte string a regenerated subtree draws from.
const MAX_FRESH: usize = 64;
/// Most inner repetitions of a recursive expansion.
const MAX_REPEAT: usize = 4;
/// Random nodes tried before an operator gives up on an input.
const TRIES: usize = 16;

/// Grammar-aware mutator over choice sequences; see the module docs.
#[derive(Clone, Debug)]
pub struct Mutator<'g> {
    g: &'g Grammar,
    cfg: DecodeConfig,
    weights: Weights,
    pool: VecDeque<Vec<u8>>,
    pool_cap: usize,
}

/// A choice sequence with its tree; `padded` is the input followed by
/// zeros, so every node's span indexes into it.
struct Decoded {
    tree: Tree,
    padded: Vec<u8>,
    /// Length of the real input (before the padding).
    used: usize,
}

impl Decoded {
    fn new(g: &Grammar, cfg: &DecodeConfig, data: &[u8]) -> Decoded {
        let padded = pad(data, data.len().max(256));
        let tree = decode_tree(g, &padded, cfg);
        Decoded {
            tree,
            padded,
            used: data.len(),
        }
    }

    /// How many bytes a replacement of `span` may have for the result to
    /// stay within `max_size` (the part of `span` beyond the input is
    /// padding and costs nothing).
    fn room(&self, span: &Range<usize>, max_size: usize) -> usize {
        let inside = span.end.min(self.used) - span.start.min(self.used);
        max_size.saturating_sub(self.used - inside)
    }

    fn span(&self, id: NodeId) -> Range<usize> {
        let c = self.tree.choices(id);
        c.start as usize..c.end as usize
    }

    /// Nodes standing for a nonterminal (`Label::Rule`).
    fn rule_nodes(&self) -> Vec<NodeId> {
        (0..self.tree.len() as u32)
            .map(NodeId)
            .filter(|&n| matches!(self.tree.node(n).label(), Label::Rule(_)))
            .collect()
    }

    /// `padded` with `span` replaced by `with`.
    fn replaced(&self, span: Range<usize>, with: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.padded.len() + with.len());
        out.extend_from_slice(&self.padded[..span.start]);
        out.extend_from_slice(with);
        out.extend_from_slice(&self.padded[span.end..]);
        out
    }
}

fn pad(data: &[u8], zeros: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(data.len() + zeros);
    v.extend_from_slice(data);
    v.resize(data.len() + zeros, 0);
    v
}

/// Trailing zeros decode like missing bytes: drop them, then cut to size.
fn finish(mut out: Vec<u8>, max_size: usize) -> Vec<u8> {
    while out.last() == Some(&0) {
        out.pop();
    }
    out.truncate(max_size);
    out
}

impl<'g> Mutator<'g> {
    /// A mutator for `g` decoding under `cfg` (use the config the fuzz
    /// target decodes with), default [`Weights`] and a pool of 64 inputs.
    pub fn new(g: &'g Grammar, cfg: DecodeConfig) -> Mutator<'g> {
        Mutator {
            g,
            cfg,
            weights: Weights::default(),
            pool: VecDeque::new(),
            pool_cap: 64,
        }
    }

    /// Sets the operator weights.
    pub fn with_weights(mut self, weights: Weights) -> Mutator<'g> {
        self.weights = weights;
        self
    }

    /// Sets how many recent inputs are kept as splice donors (0 disables
    /// the pool).
    pub fn with_pool_capacity(mut self, cap: usize) -> Mutator<'g> {
        self.pool_cap = cap;
        self.pool.truncate(cap);
        self
    }

    /// Adds an input to the pool of splice donors, evicting the oldest.
    /// [`Mutator::mutate`] adds every input it is given.
    pub fn remember(&mut self, input: &[u8]) {
        if self.pool_cap == 0 || self.pool.iter().any(|p| p == input) {
            return;
        }
        if self.pool.len() == self.pool_cap {
            self.pool.pop_front();
        }
        self.pool.push_back(input.to_vec());
    }

    /// Inputs currently in the pool, oldest first.
    pub fn pool(&self) -> impl Iterator<Item = &[u8]> {
        self.pool.iter().map(Vec::as_slice)
    }

    /// Mutates `input` into a new choice sequence of at most `max_size`
    /// bytes. `byte_mutate` has `libfuzzer_sys::fuzzer_mutate`'s shape: it
    /// mutates `data[..size]` in place (the slice is `max(size, max_size)`
    /// long) and returns the new size. The input joins the splice pool
    /// *after* it is mutated.
    pub fn mutate(
        &mut self,
        input: &[u8],
        max_size: usize,
        seed: u64,
        byte_mutate: &mut dyn FnMut(&mut [u8], usize, usize) -> usize,
    ) -> (Vec<u8>, MutationKind) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let kind = self.pick_kind(&mut rng);
        let d = Decoded::new(self.g, &self.cfg, input);
        let tried = match kind {
            MutationKind::Bytes => Some(bytes_mutation(input, max_size, byte_mutate)),
            MutationKind::Simplify => self.simplify(&d, &mut rng),
            MutationKind::RecursiveExpand => self.recursive_expand(&d, max_size, &mut rng),
            MutationKind::Splice => self.splice_from_pool(&d, max_size, &mut rng),
            MutationKind::Regenerate => None,
        };
        let (out, kind) = match tried {
            Some(out) => (out, kind),
            None => (
                self.regenerate(&d, max_size, &mut rng),
                MutationKind::Regenerate,
            ),
        };
        self.remember(input);
        (finish(out, max_size), kind)
    }

    /// [`Mutator::mutate`] in libFuzzer's custom-mutator shape: mutates
    /// `data[..size]` in place (`data` is at least `max(size, max_size)`
    /// long) and returns the new size.
    pub fn mutate_in_place(
        &mut self,
        data: &mut [u8],
        size: usize,
        max_size: usize,
        seed: u32,
        byte_mutate: &mut dyn FnMut(&mut [u8], usize, usize) -> usize,
    ) -> usize {
        let limit = max_size.min(data.len());
        let (out, _) = self.mutate(
            &data[..size.min(data.len())],
            limit,
            seed as u64,
            byte_mutate,
        );
        data[..out.len()].copy_from_slice(&out);
        out.len()
    }

    /// Crossover: replaces a random subtree of `a` by a subtree of the same
    /// nonterminal taken from `b`. Returns the new choice sequence (at most
    /// `max_size` bytes) and where it grafted, or `a` cut to `max_size` and
    /// `None` when the parents share no nonterminal or no graft fits.
    pub fn crossover(
        &self,
        a: &[u8],
        b: &[u8],
        max_size: usize,
        seed: u64,
    ) -> (Vec<u8>, Option<Splice>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let da = Decoded::new(self.g, &self.cfg, a);
        let db = Decoded::new(self.g, &self.cfg, b);
        let targets = da.rule_nodes();
        for _ in 0..TRIES * 4 {
            let t = targets[rng.random_range(0..targets.len())];
            let room = da.room(&da.span(t), max_size);
            let Some(donor) = pick_same_symbol(self.g, &da.tree, t, &db, room, &mut rng) else {
                continue;
            };
            let out = da.replaced(da.span(t), &db.padded[db.span(donor)]);
            let out = finish(out, usize::MAX);
            if out.len() <= max_size {
                return (out, Some(Splice { target: t, donor }));
            }
        }
        (finish(a.to_vec(), max_size), None)
    }

    /// [`Mutator::crossover`] in libFuzzer's custom-crossover shape: writes
    /// into `out` (its length is the size limit) and returns the size.
    pub fn crossover_into(&self, a: &[u8], b: &[u8], out: &mut [u8], seed: u32) -> usize {
        let (v, _) = self.crossover(a, b, out.len(), seed as u64);
        out[..v.len()].copy_from_slice(&v);
        v.len()
    }

    fn pick_kind(&self, rng: &mut ChaCha8Rng) -> MutationKind {
        let w = self.weights;
        let table = [
            (w.regenerate, MutationKind::Regenerate),
            (w.simplify, MutationKind::Simplify),
            (w.recursive_expand, MutationKind::RecursiveExpand),
            (w.splice, MutationKind::Splice),
            (w.bytes, MutationKind::Bytes),
        ];
        let total: u32 = table.iter().map(|e| e.0).sum();
        if total == 0 {
            return MutationKind::Regenerate;
        }
        let mut r = rng.random_range(0..total);
        for (weight, kind) in table {
            if r < weight {
                return kind;
            }
            r -= weight;
        }
        MutationKind::Regenerate
    }

    /// The exact choice bytes of a fresh subtree of `sym` decoded from
    /// `fresh` (followed by zeros as needed).
    fn subtree_choices(&self, sym: SymbolId, fresh: &[u8]) -> Vec<u8> {
        let mut padded = pad(fresh, 1024);
        let t = decode_tree_from(self.g, sym, &padded, &self.cfg);
        padded.truncate(t.choices(t.root()).end as usize);
        padded
    }

    fn regenerate(&self, d: &Decoded, max_size: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
        // Prefer nodes that make a decision (regenerating a one-alternative
        // leaf changes nothing) and whose replacement can be non-empty
        // within `max_size`.
        let nodes: Vec<NodeId> = d
            .rule_nodes()
            .into_iter()
            .filter(|&n| self.g.num_alts(self.sym(&d.tree, n)) > 1 || !d.span(n).is_empty())
            .collect();
        if nodes.is_empty() {
            return d.padded.clone();
        }
        let mut n = nodes[rng.random_range(0..nodes.len())];
        for _ in 0..TRIES {
            if d.room(&d.span(n), max_size) > 0 {
                break;
            }
            n = nodes[rng.random_range(0..nodes.len())];
        }
        let span = d.span(n);
        let room = d.room(&span, max_size).max(1);
        // A fresh subtree may consume more bytes than it was given (the
        // zeros after them); of a few draws keep the first that fits, else
        // the smallest.
        let mut best: Option<Vec<u8>> = None;
        for _ in 0..4 {
            let len = rng.random_range(1..=MAX_FRESH.min(room));
            let mut fresh = vec![0u8; len];
            rng.fill(&mut fresh[..]);
            let new = self.subtree_choices(self.sym(&d.tree, n), &fresh);
            let fits = new.len() <= room;
            if best.as_ref().is_none_or(|b| new.len() < b.len()) {
                best = Some(new);
            }
            if fits {
                break;
            }
        }
        d.replaced(span, &best.unwrap_or_default())
    }

    fn simplify(&self, d: &Decoded, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
        for _ in 0..TRIES {
            let nodes = d.rule_nodes();
            let n = nodes[rng.random_range(0..nodes.len())];
            let span = d.span(n);
            if d.padded[span.clone()].iter().all(|&b| b == 0) {
                continue;
            }
            let new = self.subtree_choices(self.sym(&d.tree, n), &[]);
            return Some(d.replaced(span, &new));
        }
        None
    }

    fn recursive_expand(
        &self,
        d: &Decoded,
        max_size: usize,
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<u8>> {
        let t = &d.tree;
        for _ in 0..TRIES * 4 {
            let inner = NodeId(
                rng.random_range(1..t.len().max(2) as u32)
                    .min(t.len() as u32 - 1),
            );
            let Label::Rule(_) = t.node(inner).label() else {
                continue;
            };
            let sym = self.sym(t, inner);
            let mut up = t.node(inner).parent;
            let mut outer = None;
            // Bounded walk: deep trees are sampled, not searched.
            for _ in 0..256 {
                if up == NO_PARENT {
                    break;
                }
                if t.symbol(self.g, NodeId(up)) == Some(sym) {
                    outer = Some(NodeId(up));
                    break;
                }
                up = t.node(NodeId(up)).parent;
            }
            let Some(outer) = outer else { continue };
            let (o, i) = (d.span(outer), d.span(inner));
            let pre = &d.padded[o.start..i.start];
            let suf = &d.padded[i.end..o.end];
            if pre.len() + suf.len() == 0 {
                continue;
            }
            // Room for the extra layers beyond the inner subtree itself.
            let room = d.room(&i, max_size).saturating_sub(i.len());
            let layer = pre.len() + suf.len();
            if layer > room {
                continue;
            }
            let k = rng.random_range(1..=MAX_REPEAT).min(room / layer);
            let mut new = Vec::with_capacity(k * (pre.len() + suf.len()) + i.len());
            for _ in 0..k {
                new.extend_from_slice(pre);
            }
            new.extend_from_slice(&d.padded[i.clone()]);
            for _ in 0..k {
                new.extend_from_slice(suf);
            }
            return Some(d.replaced(i, &new));
        }
        None
    }

    fn splice_from_pool(
        &self,
        d: &Decoded,
        max_size: usize,
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<u8>> {
        // Half the splices take the donor from the input itself: copying a
        // name, an argument list or a statement from one place of a program
        // to another is how uses come to match definitions.
        let own = self.pool.is_empty() || rng.random_bool(0.5);
        let pooled;
        let donor = if own {
            d
        } else {
            pooled = Decoded::new(
                self.g,
                &self.cfg,
                &self.pool[rng.random_range(0..self.pool.len())],
            );
            &pooled
        };
        let targets = d.rule_nodes();
        for _ in 0..TRIES {
            let t = targets[rng.random_range(0..targets.len())];
            let room = d.room(&d.span(t), max_size);
            if let Some(src) = pick_same_symbol(self.g, &d.tree, t, donor, room, rng) {
                if own && src == t {
                    continue;
                }
                return Some(d.replaced(d.span(t), &donor.padded[donor.span(src)]));
            }
        }
        None
    }

    fn sym(&self, t: &Tree, n: NodeId) -> SymbolId {
        t.symbol(self.g, n).expect("rule nodes have a symbol")
    }
}

/// A random node of `donor` with the nonterminal of node `t` of `tree`
/// whose choice span is at most `max_span` bytes.
fn pick_same_symbol(
    g: &Grammar,
    tree: &Tree,
    t: NodeId,
    donor: &Decoded,
    max_span: usize,
    rng: &mut ChaCha8Rng,
) -> Option<NodeId> {
    let sym = tree.symbol(g, t)?;
    let same: Vec<NodeId> = (0..donor.tree.len() as u32)
        .map(NodeId)
        .filter(|&n| {
            matches!(donor.tree.node(n).label(), Label::Rule(_))
                && donor.tree.symbol(g, n) == Some(sym)
                && donor.span(n).len() <= max_span
        })
        .collect();
    (!same.is_empty()).then(|| same[rng.random_range(0..same.len())])
}

fn bytes_mutation(
    input: &[u8],
    max_size: usize,
    byte_mutate: &mut dyn FnMut(&mut [u8], usize, usize) -> usize,
) -> Vec<u8> {
    let size = input.len().min(max_size);
    let mut buf = vec![0u8; size.max(max_size)];
    buf[..size].copy_from_slice(&input[..size]);
    let n = byte_mutate(&mut buf, size, max_size).min(buf.len());
    buf.truncate(n);
    buf
}

mod weights;
pub use weights::{parse_tuning, Weights};

#[cfg(test)]
mod tests;
