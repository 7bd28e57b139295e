//! Search along deep chains of nested same-symbol nodes, in O(log depth)
//! oracle runs per chain instead of one per level.
//!
//! A *chain* of symbol `A` is a path `V0 ⊃ V1 ⊃ … ⊃ V(L-1)` of `A` nodes,
//! each `V(i+1)` the largest nearest `A` descendant of `Vi` that is not
//! a child at either end of its body (a nesting level, not a list's
//! tail; the heavy
//! path: a JSON value nested 300 arrays deep, an expression in 40 pairs of
//! parentheses). Two families of candidates along it are *monotone* under
//! ddmin's assumption that a part of a failing input fails too:
//! * **cuts** — `Vj` replaced by `A`'s minimal expansion. `cut(j)` is a
//!   subsequence of `cut(j + 1)`, so if `cut(j)` is interesting, all deeper
//!   cuts are: the shallowest interesting cut is found by galloping (`j` =
//!   0, 1, 3, 7, … then bisection);
//! * **hoists** — `V0` replaced by `Vj`. `hoist(j + 1)` is a subsequence
//!   of `hoist(j)`: the deepest interesting hoist is found the same way,
//!   galloping from `j` = 1.
//!
//! The pass accepts the best of each, and gives the tester the failing
//! candidate next to it as an *anchor* ([`Tester::anchor`]): candidates
//! that are subsequences of it — the cuts above the turn, but also every
//! other replacement of a node above it by something small — are then
//! presumed failing without a run. Without that, the
//! shortest-first list of [`super::replace_by_descendant`] tries every
//! cut above the needed depth, one oracle run per level, after every
//! success below — the cost that made a 300-deep JSON input take
//! thousands of runs (BENCHMARKS.md). A presumption that is wrong (the
//! oracle need not be monotone) costs a missed reduction until the final
//! polish, which forgets every presumption
//! ([`Tester::forget_presumptions`]) and proves the result 1-minimal by
//! runs.
//!
//! Last, the chain's **spine**: one candidate in which every list on the
//! path from the root to the chain's deepest node keeps only the element
//! that path goes through — the noise beside every level of a deep input
//! in one run, where the other passes delete it element by element.

use super::super::edit::{Edit, Piece};
use super::super::treeops::TreeCtx;
use super::super::{shortlex_lt, Tester};
use super::{minimal_lens, same_symbol_pairs, span, terminal_bytes};
use crate::choice::encode_choice;
use crate::generate::{decode_tree, DecodeConfig};
use crate::grammar::Grammar;
use crate::grammar::SymbolId;
use crate::oracle::Outcome;
use crate::tree::{NodeId, Tree};
use std::ops::Range;

/// Chains shorter than this are left to the other passes (their linear
/// scans cost at most this many runs per chain).
pub const MIN_CHAIN: usize = 64;

/// Per symbol, its longest chain (see the module docs), if at least
/// [`MIN_CHAIN`] nodes long; longest first.
fn chains(t: &Tree, ctx: &TreeCtx<'_>) -> Vec<(SymbolId, Vec<NodeId>)> {
    let g = ctx.g;
    let n = t.len();
    // heavy[a] = a's largest nearest same-symbol descendant.
    let mut heavy: Vec<Option<NodeId>> = vec![None; n];
    let mut has_anc = vec![false; n];
    let size = |x: NodeId| t.choices(x).len();
    for (a, d) in same_symbol_pairs(t, g) {
        has_anc[d.index()] = true;
        if t.node(d).parent == a.0 {
            // A child at either end of its parent's body is a list's tail
            // (`<item> , <list>`), not a nesting level (`[ <n> , <v> ]`):
            // lists are ddmin's (`ddmin_lists`).
            let (first, last) = (t.children(a).next(), t.children(a).last());
            if first == Some(d) || last == Some(d) {
                continue;
            }
        }
        if heavy[a.index()].is_none_or(|h| size(d) > size(h)) {
            heavy[a.index()] = Some(d);
        }
    }
    // Chain length from each node; descendants come later in pre-order.
    let mut len = vec![1usize; n];
    for i in (0..n).rev() {
        if let Some(h) = heavy[i] {
            len[i] = 1 + len[h.index()];
        }
    }
    let mut best: Vec<Option<NodeId>> = vec![None; g.num_symbols()];
    for i in 0..n {
        let v = NodeId(i as u32);
        let Some(s) = t.symbol(g, v) else { continue };
        if has_anc[i] || ctx.is_token(s) || len[i] < MIN_CHAIN {
            continue;
        }
        if best[s.index()].is_none_or(|b| len[i] > len[b.index()]) {
            best[s.index()] = Some(v);
        }
    }
    let mut out: Vec<(SymbolId, Vec<NodeId>)> = best
        .iter()
        .enumerate()
        .filter_map(|(s, top)| {
            let mut path = vec![(*top)?];
            while let Some(h) = heavy[path.last()?.index()] {
                path.push(h);
            }
            Some((SymbolId(s as u32), path))
        })
        .collect();
    out.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
    out
}

/// The first index in `0..n` where `interesting` holds, assuming it holds
/// from some index on (galloping from 0, then bisection); `None` if it
/// holds nowhere (then every index was ruled out). `probe` answers one
/// index (an oracle run, or the cache).
fn first_true(n: usize, mut probe: impl FnMut(usize) -> Option<bool>) -> Option<usize> {
    let (mut lo, mut step) = (0usize, 1usize);
    // Gallop: lo = first index not yet ruled out.
    let hi = loop {
        let at = (lo + step - 1).min(n - 1);
        match probe(at)? {
            true => break at,
            false if at == n - 1 => return None,
            false => {
                lo = at + 1;
                step *= 2;
            }
        }
    };
    // Bisection in [lo, hi]: hi is interesting.
    let mut hi = hi;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if probe(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(hi)
}

/// One monotone family: `make(j)` is the candidate at index `j` of
/// `0..n`. With `rising`, the family is interesting from some index on,
/// and the first interesting candidate is the best (cuts); otherwise it is
/// interesting up to some index, and the last interesting one is the best
/// (hoists, shallowest first). Galloping from index 0 and bisection find
/// it; the failing candidate next to it becomes an anchor
/// ([`Tester::anchor`]), so the failing side is not run again. Returns the best candidate (run, and accepted), or
/// `None` when none is interesting or the tester stopped.
fn search(
    n: usize,
    rising: bool,
    tester: &mut Tester<'_>,
    make: impl Fn(usize) -> Vec<u8>,
) -> Option<Vec<u8>> {
    if n == 0 {
        return None;
    }
    let mut stopped = false;
    // The first index where the family turns: interesting (rising) or
    // failing (not rising).
    let turn = first_true(n, |j| {
        if tester.stopped() {
            stopped = true;
            return None;
        }
        Some((tester.test(&make(j)) == Outcome::Interesting) == rising)
    });
    if stopped {
        return None;
    }
    // The failing candidate next to the turn (the deepest failing cut,
    // the shallowest failing hoist) holds every failing one beyond it as
    // a subsequence, and so do other replacements of the chain's nodes
    // above the turn: it becomes the tester's anchor.
    let (best, failing) = match (rising, turn) {
        (true, None) => (None, Some(n - 1)),
        (true, Some(t)) => (Some(t), t.checked_sub(1)),
        (false, None) => (Some(n - 1), None),
        (false, Some(t)) => (t.checked_sub(1), Some(t)),
    };
    if let Some(f) = failing {
        tester.anchor(&make(f));
    }
    let c = make(best?);
    // Run before (the search ran it: a cache hit), so never accepted
    // untested.
    (tester.test(&c) == Outcome::Interesting).then(|| {
        tester.accept(&c);
        c
    })
}

/// The *spine* of `deep`: the sequence with every list on the path from
/// the root to `deep` cut down to the one element that path goes
/// through (a JSON value 256 arrays deep with noise beside every level
/// becomes the bare nesting). A list is a same-symbol region (see
/// [`super::list_rings`]); it is rebuilt as its last node's one-element
/// alternative holding the path's element, when that last node has one
/// rule child of the element's symbol. Other nodes on the path keep their
/// bytes. `None` if nothing would be cut.
fn spine(t: &Tree, ctx: &TreeCtx<'_>, cur: &[u8], deep: NodeId) -> Option<Vec<u8>> {
    let g = ctx.g;
    let len = cur.len();
    let mut path = vec![deep];
    while let Some(&n) = path.last() {
        let p = t.node(n).parent;
        if p == crate::tree::NO_PARENT {
            break;
        }
        path.push(NodeId(p));
    }
    path.reverse();
    // Text before and after the kept part, level by level: the candidate
    // is the heads in order, the deep node's bytes, the tails reversed.
    let (mut heads, mut tails): (Vec<Range<usize>>, Vec<Range<usize>>) = (vec![], vec![]);
    let mut cut = false;
    let mut i = 0;
    while i + 1 < path.len() {
        let n = path[i];
        // The list's spine below a head on the path.
        let w = match t.symbol(g, n) {
            Some(s) if super::is_list_head(t, g, n, s) => super::list_spine(t, g, n, s),
            _ => vec![n],
        };
        // The path follows the spine down to `path[i + k]`, then enters
        // the element at `path[i + k + 1]`.
        let k = w.iter().zip(&path[i..]).take_while(|(a, b)| a == b).count() - 1;
        let exit = path.get(i + k + 1).copied();
        let last = *w.last().expect("non-empty");
        let only_child = {
            let mut rules = t.children(last).filter(|&c| t.symbol(g, c).is_some());
            match (rules.next(), rules.next()) {
                (Some(x), None) => Some(x),
                _ => None,
            }
        };
        match (exit, only_child) {
            (Some(c), Some(x)) if w.len() > 1 && t.symbol(g, x) == t.symbol(g, c) => {
                let (ls, xs) = (span(t, last, len), span(t, x, len));
                let (ns, cs) = (span(t, n, len), span(t, c, len));
                heads.push(ls.start..xs.start);
                tails.push(xs.end..ls.end);
                cut |= ns.len() > (ls.len() - xs.len()) + cs.len();
                i += k + 1;
            }
            _ => {
                let (ns, cs) = (span(t, n, len), span(t, path[i + 1], len));
                heads.push(ns.start..cs.start);
                tails.push(cs.end..ns.end);
                i += 1;
            }
        }
    }
    if !cut {
        return None;
    }
    let mut out = Vec::with_capacity(len);
    for r in &heads {
        out.extend_from_slice(&cur[r.clone()]);
    }
    out.extend_from_slice(&cur[span(t, deep, len)]);
    for r in tails.iter().rev() {
        out.extend_from_slice(&cur[r.clone()]);
    }
    Some(out)
}

/// The pass: per chain (longest first, chains listed again after each
/// success), the deepest interesting hoist of its top node, then the
/// shallowest interesting cut (last, so its anchor is about the sequence
/// the next pass starts from), then its spine (see the module docs).
pub fn cut_chains(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    let min_bytes = minimal_lens(ctx);
    let mut cur = cur.to_vec();
    let first = chains(&decode_tree(g, &cur, cfg), ctx);
    for (sym, _) in first {
        for hoist in [true, false] {
            if tester.stopped() {
                return cur;
            }
            let t = decode_tree(g, &cur, cfg);
            let Some((_, path)) = chains(&t, ctx).into_iter().find(|(s, _)| *s == sym) else {
                break;
            };
            let spans: Vec<_> = path.iter().map(|&v| span(&t, v, cur.len())).collect();
            let base = cur.clone();
            let edit = |j: usize| {
                if hoist {
                    // hoist(j + 1), shallowest first.
                    Edit::replace(spans[0].clone(), vec![Piece::Src(spans[j + 1].clone())])
                } else {
                    Edit::replace(spans[j].clone(), vec![Piece::Zeros(min_bytes[sym.index()])])
                }
            };
            // Only candidates that are progress: cuts of nodes larger than
            // the minimal expansion (a prefix of the chain), hoists below
            // the top.
            let n = if hoist {
                spans.len() - 1
            } else {
                spans
                    .iter()
                    .take_while(|r| r.len() > min_bytes[sym.index()])
                    .count()
            };
            let make = |j: usize| edit(j).apply(&base);
            debug_assert!((0..n).all(|j| shortlex_lt(&make(j), &base)));
            if let Some(c) = search(n, !hoist, tester, make) {
                cur = c;
            }
        }
        if tester.stopped() {
            return cur;
        }
        let t = decode_tree(g, &cur, cfg);
        if let Some((_, path)) = chains(&t, ctx).into_iter().find(|(s, _)| *s == sym) {
            let deep = *path.last().expect("chains are long");
            if let Some(c) = spine(&t, ctx, &cur, deep) {
                if shortlex_lt(&c, &cur) && tester.test(&c) == Outcome::Interesting {
                    tester.accept(&c);
                    cur = c;
                }
            }
        }
    }
    cur
}

/// Bytes a nest's level may add around the next one (`(…)`, `[…]`,
/// `f(…)`, `if (a) {…}`).
const NEST_LEVEL: usize = 16;

/// Levels kept at each end of a nest by [`nest_middles`].
const NEST_ENDS: u32 = 2;

/// The middle links of deep nests: node `n` is a link when it has one
/// nearest descendant of its own symbol, with text both before and
/// after it (an enclosure, not a list's next element) and at most
/// [`NEST_LEVEL`] bytes of it; a middle link has [`NEST_ENDS`] links
/// above and below it in its nest. The per-node passes leave them out
/// (`spans`): emptying, swapping or hoisting level `k` of a 1,000-level
/// nest is the nest cut at depth `k`, which [`cut_chains`] tries many
/// levels at a time; one run per level found nothing on a stack-overflow
/// nest and took minutes.
pub(super) fn nest_middles(g: &Grammar, t: &Tree, text: &[Range<usize>]) -> Vec<bool> {
    const NONE: u32 = u32::MAX;
    let n = t.len();
    let (mut only, mut count) = (vec![NONE; n], vec![0u32; n]);
    for (a, d) in same_symbol_pairs(t, g) {
        count[a.index()] += 1;
        only[a.index()] = d.0;
    }
    let link = |i: usize| {
        let d = only[i];
        count[i] == 1 && {
            let (o, x) = (&text[i], &text[d as usize]);
            o.start < x.start && x.end < o.end && o.len() - x.len() <= NEST_LEVEL
        }
    };
    // Links above a node, in pre-order (a link's one descendant comes
    // after it); links from a node down, itself included, in reverse.
    let mut above = vec![0u32; n];
    for i in 0..n {
        if link(i) {
            let d = only[i] as usize;
            above[d] = above[i] + 1;
        }
    }
    let mut below = vec![0u32; n];
    for i in (0..n).rev() {
        if link(i) {
            below[i] = below[only[i] as usize] + 1;
        }
    }
    (0..n)
        .map(|i| above[i] >= NEST_ENDS && below[i] > NEST_ENDS)
        .collect()
}

/// Per symbol `A`, the symbols `Y` that `A` derives through a chain of
/// alternatives with exactly one nonterminal each (`<expr> ::= <term>`,
/// `<factor> ::= ( <expr> )`), with the choice bytes that select that
/// chain: the shortest chain per `Y`, at most [`MAX_CHAIN`] steps.
pub(super) fn unit_chains(g: &Grammar) -> Vec<Vec<(SymbolId, Vec<u8>, usize)>> {
    (0..g.num_symbols())
        .map(|i| {
            let a = SymbolId(i as u32);
            let mut out: Vec<(SymbolId, Vec<u8>, usize)> = Vec::new();
            let mut frontier = vec![(a, Vec::new(), 0)];
            for _ in 0..MAX_CHAIN {
                let mut next = Vec::new();
                for (x, prefix, text) in &frontier {
                    for r in g.rules_of(*x) {
                        let mut nts = g.body_nonterminals(r);
                        let (Some(y), None) = (nts.next(), nts.next()) else {
                            continue;
                        };
                        if y == a || out.iter().any(|(z, _, _)| *z == y) {
                            continue;
                        }
                        let mut p = prefix.clone();
                        encode_choice(g.alt_index(r), g.num_alts(*x), &mut p);
                        let text = text + terminal_bytes(g, r);
                        out.push((y, p.clone(), text));
                        next.push((y, p, text));
                    }
                }
                frontier = next;
            }
            out
        })
        .collect()
}

/// Longest chain [`unit_chains`] follows.
const MAX_CHAIN: usize = 3;

#[cfg(test)]
mod tests {
    use super::{first_true, nest_middles};
    use crate::generate::DecodeConfig;
    use crate::grammar::Grammar;
    use crate::oracle::{FnOracle, Outcome};
    use crate::reduce::treeops::{Render, TreeCtx};
    use crate::reduce::Tester;
    use proptest::prelude::*;

    fn nest_grammar() -> Grammar {
        let g = r#"{"<start>": ["<e>"], "<e>": ["(<e>)", "<l>"], "<l>": ["a", "a,<l>"]}"#;
        Grammar::from_json_str(g, &Default::default()).unwrap()
    }

    #[test]
    fn a_nest_has_middle_links_and_a_list_has_none() {
        let g = nest_grammar();
        let middles = |text: &[u8]| {
            let t = crate::parse::parse(&g, text).unwrap();
            let m = nest_middles(&g, &t, &t.text_spans(&g));
            m.iter().filter(|&&b| b).count()
        };
        // Seven `<e>` links around `a`: all but two at each end are middle.
        assert_eq!(middles(b"(((((((a)))))))"), 3);
        assert_eq!(middles(b"((((a))))"), 0);
        // A list's next element is no enclosure.
        assert_eq!(middles(b"a,a,a,a,a,a,a,a,a"), 0);
    }

    #[test]
    fn a_deep_nest_costs_the_per_node_passes_its_ends_only() {
        // 300 levels, interesting only with all 300: no level can go,
        // and minimizing each one was a run per level.
        let g = nest_grammar();
        let cfg = DecodeConfig::default();
        let ctx = TreeCtx::new(&g, Render::Text);
        let text = format!("{}a{}", "(".repeat(300), ")".repeat(300));
        let tree = crate::parse::parse(&g, text.as_bytes()).unwrap();
        let start = crate::encode::encode(&g, &tree, &cfg).unwrap();
        let depth = |c: &[u8]| {
            crate::generate::decode(&g, c, &cfg)
                .iter()
                .filter(|&&b| b == b'(')
                .count()
        };
        let mut o = FnOracle::new(|c: &[u8]| {
            if depth(c) >= 300 {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let out = super::super::minimize_nodes(&ctx, &cfg, &start, &mut t);
        assert_eq!(out, start);
        assert!(t.stats().tests <= 8, "{} runs", t.stats().tests);
    }

    proptest! {
        /// On a monotone predicate `first_true` finds the first true index
        /// in O(log) probes, and probes nothing out of range.
        #[test]
        fn first_true_finds_the_threshold_in_logarithmic_probes(
            n in 1usize..2000, t in 0usize..2100,
        ) {
            let mut probes = 0;
            let got = first_true(n, |j| {
                assert!(j < n);
                probes += 1;
                Some(j >= t)
            });
            prop_assert_eq!(got, (t < n).then_some(t));
            let log = (usize::BITS - n.leading_zeros()) as usize;
            prop_assert!(probes <= 2 * log + 2, "{} probes for n = {}", probes, n);
        }
    }
}
