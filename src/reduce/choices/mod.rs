//! Reduction passes on choice sequences (Hypothesis-style).
//!
//! Every candidate is checked for shortlex progress ([`shortlex_lt`](super::shortlex_lt):
//! shorter, or as long and lexicographically smaller) *before* the oracle
//! runs, so every accepted step makes the sequence simpler and the passes
//! terminate. Because exhausted input reads as choice 0 and alternative 0 is
//! the simplest, zero bytes and truncation mean "simplest here".
//!
//! Passes (each a function from the current sequence to a smaller one):
//! * [`ddmin_pass`] — ddmin over the bytes; with `nop`, each removed chunk
//!   is replaced by one zero byte (choice-sequence-reduction.txt's NOP /
//!   default variant: the next decision falls back to its default);
//! * [`delete_runs`] — delete runs of 8, 4, 2, 1 choices at every position;
//! * [`minimize_nodes`] — replace a tree node's choice span by the zero
//!   bytes of its minimal expansion (largest nodes first); in text
//!   reduction [`lower_nodes`] does those that keep the text's length, at
//!   the pipeline's fixpoint;
//! * [`replace_by_descendant`] — replace a node's span by the span of a
//!   nearest descendant of the same nonterminal ([`crate::tree::Tree::choices`]),
//!   by a child hoisted through one-nonterminal alternatives, or by its
//!   minimal expansion, shortest result first;
//! * [`alternatives::switch_alternatives`] — switch a node to another
//!   alternative that its own children fill (`a JOIN b ON e` → `a, b`);
//! * [`restructure`] — rebuild a node through another alternative around
//!   one descendant (run at the pipeline's fixpoint);
//! * [`lower_bytes`] — set single bytes to 0;
//! * [`delete_text_runs`] — delete runs of the decoded text's tokens
//!   where the rest still parses, encoded back into choices (for an
//!   oracle that reads choices).
//!
//! Passes restart their scan after each success; candidates already tried
//! are answered by the [`Tester`]'s cache, so a restart costs no oracle runs.

pub mod alternatives;
pub mod chains;
mod restructure;
mod retext;

pub use restructure::restructure;
pub use retext::{delete_text_runs, MAX_RUN, PARSE_BUDGET};

use super::ddmin::ddmin;
use super::edit::{greedy, greedy_deferring, greedy_keeping, Edit, Piece};
use super::treeops::TreeCtx;
use super::Tester;
use crate::choice::width;
use crate::generate::{decode_tree, DecodeConfig};
use crate::grammar::{Elem, Grammar, RuleId, SymbolId};
use crate::tree::{Label, NodeId, Tree, NO_PARENT};
use std::ops::Range;

/// [`ddmin_lists`] works on lists of more than this many elements:
/// shorter lists are cheaper for the shortest-first replacements of
/// [`replace_by_descendant`], which also find a single element at once.
pub const MIN_LIST: usize = 16;

/// Whether node `n` (of symbol `sym`) starts a same-symbol region: its
/// parent, if any, has another symbol.
pub(super) fn is_list_head(t: &Tree, g: &Grammar, n: NodeId, sym: SymbolId) -> bool {
    let p = t.node(n).parent;
    p == NO_PARENT || t.symbol(g, NodeId(p)) != Some(sym)
}

/// The nodes of the list whose head is `n` (of symbol `sym`): `n`, then
/// while the last has exactly one child of its own symbol, that child.
pub(super) fn list_spine(t: &Tree, g: &Grammar, n: NodeId, sym: SymbolId) -> Vec<NodeId> {
    let mut spine = vec![n];
    let mut at = n;
    loop {
        let mut same = t.children(at).filter(|&c| t.symbol(g, c) == Some(sym));
        match (same.next(), same.next()) {
            (Some(c), None) => {
                spine.push(c);
                at = c;
            }
            _ => return spine,
        }
    }
}

/// The lists of a tree, longest first: each a chain of same-symbol nodes
/// from a head (a node whose parent has another symbol), every node in it
/// with exactly one child of its own symbol (`<value>, <elements>` or
/// `<list>, <item>`). Per list, its *rings*: for each node but the last,
/// the choice bytes that are the node's and not its same-symbol child's
/// (the alternative that continues the list and one element). Deleting a
/// ring's two ranges drops that element and leaves a sequence that decodes
/// to the rest of the list.
fn list_rings(ctx: &TreeCtx<'_>, t: &Tree, len: usize) -> Vec<Vec<[Range<usize>; 2]>> {
    let g = ctx.g;
    let frozen = ctx.frozen(t);
    let mut out = Vec::new();
    for i in 0..t.len() as u32 {
        let n = NodeId(i);
        let Some(sym) = t.symbol(g, n) else { continue };
        if !is_list_head(t, g, n, sym) || frozen.as_ref().is_some_and(|f| f[n.index()]) {
            continue;
        }
        let spine = list_spine(t, g, n, sym);
        if spine.len() > MIN_LIST {
            let rings = spine
                .windows(2)
                .map(|w| {
                    let (a, b) = (span(t, w[0], len), span(t, w[1], len));
                    [a.start..b.start, b.end..a.end]
                })
                .collect();
            out.push(rings);
        }
    }
    out.sort_by_key(|r: &Vec<_>| std::cmp::Reverse(r.len()));
    out
}

/// ddmin over the elements of every list of more than [`MIN_LIST`]
/// elements (longest first; a list is a chain of same-symbol nodes, each
/// with exactly one child of its own symbol): a long list needs
/// logarithmically many oracle runs to lose most of its elements, where
/// node-by-node replacement needs about one per element. Each candidate
/// deletes whole elements (an element's choice bytes and those of the
/// alternative that continues the list), so what remains decodes as
/// before, element by element.
pub fn ddmin_lists(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    let mut cur = cur.to_vec();
    let mut lists = list_rings(ctx, &decode_tree(g, &cur, cfg), cur.len());
    let mut k = 0;
    while !tester.stopped() {
        let Some(rings) = lists.get(k).cloned() else {
            break;
        };
        let base = cur.clone();
        let mut render = |kept: &[usize]| {
            let mut gone: Vec<Range<usize>> = Vec::new();
            let mut next = 0;
            for (i, r) in rings.iter().enumerate() {
                if next < kept.len() && kept[next] == i {
                    next += 1;
                } else {
                    gone.extend(r.iter().filter(|x| !x.is_empty()).cloned());
                }
            }
            gone.sort_by_key(|r| r.start);
            let mut out = Vec::with_capacity(base.len());
            let mut at = 0;
            for r in gone {
                out.extend_from_slice(&base[at..r.start.max(at)]);
                at = at.max(r.end);
            }
            out.extend_from_slice(&base[at..]);
            out
        };
        let all: Vec<usize> = (0..rings.len()).collect();
        let kept = ddmin(all, tester, &mut render, None);
        if kept.len() < rings.len() {
            cur = render(&kept);
            // Spans moved: list again (the lists done so far come first
            // or are shorter now; going on at `k + 1` is a heuristic).
            lists = list_rings(ctx, &decode_tree(g, &cur, cfg), cur.len());
        }
        k += 1;
    }
    cur
}

/// ddmin on the bytes (see the module docs for `nop`).
pub fn ddmin_pass(cur: &[u8], tester: &mut Tester<'_>, nop: bool) -> Vec<u8> {
    ddmin(
        cur.to_vec(),
        tester,
        &mut |u: &[u8]| u.to_vec(),
        nop.then_some(0),
    )
}

/// Deletes runs of 8, 4, 2 and 1 choices, from the end backwards.
pub fn delete_runs(cur: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = cur.to_vec();
    for k in [8usize, 4, 2, 1] {
        cur = greedy(cur, tester, |c| {
            (0..c.len().saturating_sub(k - 1))
                .rev()
                .map(|i| Edit::delete(i..i + k))
                .collect()
        });
    }
    cur
}

/// Sets single bytes to 0 (the simplest choice). Lowering to a non-zero
/// value would only swap one alternative for another of the same rank, which
/// rarely shortens the output, so it is not tried.
pub fn lower_bytes(cur: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    greedy(cur.to_vec(), tester, |c| {
        (0..c.len())
            .filter(|&i| c[i] > 0)
            .map(|i| Edit::replace(i..i + 1, vec![Piece::Zeros(1)]))
            .collect()
    })
}

/// Number of choice bytes the minimal expansion of a subtree consumes.
fn minimal_choice_len(ctx: &TreeCtx<'_>, t: &Tree) -> usize {
    t.nodes()
        .iter()
        .map(|n| match n.label() {
            Label::Rule(r) => width(ctx.g.num_alts(ctx.g.rule(r).lhs)),
            _ => 0,
        })
        .sum()
}

/// Rule nodes of the decoded tree with a non-empty choice span, largest
/// span first; without the nodes `ctx` freezes ([`TreeCtx::frozen`]) and
/// the middle links of deep nests ([`chains::nest_middles`]). `text`:
/// the tree's [`Tree::text_spans`], which every caller needs too.
pub(super) fn spans(ctx: &TreeCtx<'_>, t: &Tree, text: &[Range<usize>]) -> Vec<NodeId> {
    let frozen = ctx.frozen(t);
    let middles = chains::nest_middles(ctx.g, t, text);
    let mut v: Vec<NodeId> = (0..t.len() as u32)
        .map(NodeId)
        .filter(|&n| {
            matches!(t.node(n).label(), Label::Rule(_))
                && !t.choices(n).is_empty()
                && !frozen.as_ref().is_some_and(|f| f[n.index()])
                && !middles[n.index()]
        })
        .collect();
    v.sort_by_key(|&n| (std::cmp::Reverse(t.choices(n).len()), n.0));
    v
}

/// The choice span of node `n`, clamped to a sequence of `len` bytes (a
/// subtree may read past the end, where missing bytes decode as 0).
pub(super) fn span(t: &Tree, n: NodeId, len: usize) -> Range<usize> {
    let r = t.choices(n);
    (r.start as usize).min(len)..(r.end as usize).min(len)
}

/// Each symbol's minimal expansion, measured: its choice bytes and the
/// length of the text those zero bytes decode to.
pub(super) struct Minimal {
    pub(super) bytes: Vec<usize>,
    pub(super) text: Vec<usize>,
}

impl Minimal {
    pub(super) fn new(ctx: &TreeCtx<'_>, cfg: &DecodeConfig) -> Minimal {
        let bytes = minimal_lens(ctx);
        let text = (0..ctx.g.num_symbols())
            .map(|i| {
                let zeros = vec![0u8; bytes[i]];
                crate::generate::decode_tree_from(ctx.g, SymbolId(i as u32), &zeros, cfg)
                    .unparse(ctx.g)
                    .len()
            })
            .collect();
        Minimal { bytes, text }
    }

    /// Which nodes of `t` a minimal expansion would only *lower* in text
    /// reduction: their text is no longer than the minimal one (`a` → `*`
    /// as a result column). Only [`lower_nodes`] lists those, at the
    /// pipeline's fixpoint: the text does not get shorter, and taking one
    /// first can leave a local minimum; with `SELECT a FROM t1 JOIN t2 ON
    /// a` lowered to `SELECT * …`, the constraint `ON a` is needed, and
    /// `… FROM t1, t2` is out of reach. Choice-sequence reduction (not
    /// [`TreeCtx::for_text`]) lowers freely. `text`: `t`'s text spans.
    pub(super) fn lowerings<'a>(
        &'a self,
        ctx: &'a TreeCtx<'_>,
        t: &'a Tree,
        text: &'a [Range<usize>],
    ) -> impl Fn(NodeId) -> bool + 'a {
        move |n: NodeId| {
            ctx.for_text()
                && t.symbol(ctx.g, n)
                    .is_some_and(|s| text[n.index()].len() <= self.text[s.index()])
        }
    }
}

/// Choice bytes of each symbol's minimal expansion.
pub(super) fn minimal_lens(ctx: &TreeCtx<'_>) -> Vec<usize> {
    (0..ctx.g.num_symbols())
        .map(|i| minimal_choice_len(ctx, ctx.minimal(SymbolId(i as u32))))
        .collect()
}

/// Edits replacing each node's span by the zero bytes of its minimal
/// expansion (largest node first): those that only lower the node
/// ([`Minimal::lowerings`]) if `lowering`, the others if not. With
/// `swaps`, each node's minimal expansion is followed by its shortest
/// shorter swap ([`alternatives::Swaps`]: `0` where the minimal
/// expression is a name the program does not define).
fn minimize_candidates(
    ctx: &TreeCtx<'_>,
    t: &Tree,
    min: &Minimal,
    swaps: Option<&alternatives::Swaps>,
    len: usize,
    lowering: bool,
) -> Vec<Edit> {
    let text = t.text_spans(ctx.g);
    let lowers = min.lowerings(ctx, t, &text);
    let mut v: Vec<Edit> = Vec::new();
    for n in spans(ctx, t, &text) {
        let Some(sym) = t.symbol(ctx.g, n) else {
            continue;
        };
        if lowers(n) != lowering {
            continue;
        }
        let r = span(t, n, len);
        v.push(Edit::replace(
            r.clone(),
            vec![Piece::Zeros(min.bytes[sym.index()])],
        ));
        if let Some(s) = swaps {
            let tie = min.text[sym.index()] + 1;
            let len = text[n.index()].len().min(tie);
            if let Some((_, c)) = s.shorter(sym, len).next() {
                v.push(Edit::replace(r, vec![Piece::Lit(c.clone())]));
            }
        }
    }
    if lowering {
        v.extend(keyword_lowerings(ctx, t, &text, min, len));
    }
    v
}

/// Whether `sym` chooses among keywords: every alternative is terminals
/// only, and not all of them one byte long (a character class such as a
/// digit or a letter is the text polish's, byte by byte).
fn is_keyword_choice(g: &Grammar, sym: SymbolId) -> bool {
    g.num_alts(sym) > 1
        && g.rules_of(sym)
            .all(|r| g.body(r).iter().all(|e| matches!(e, Elem::T(_))))
        && g.rules_of(sym).any(|r| terminal_bytes(g, r) > 1)
}

/// Text reduction freezes lexical atoms ([`TreeCtx::frozen`]), keywords
/// among them; the polish deletes and shortens their bytes, but never
/// swaps one keyword for another as long. Lowering a keyword to its
/// symbol's first alternative does, where that is no longer: a trigger's
/// `UPDATE` event becomes `INSERT`, after which the statements that only
/// made the update happen can go. One candidate per keyword node that is
/// not its symbol's first alternative, in text order.
fn keyword_lowerings(
    ctx: &TreeCtx<'_>,
    t: &Tree,
    text: &[Range<usize>],
    min: &Minimal,
    len: usize,
) -> Vec<Edit> {
    let g = ctx.g;
    let Some(frozen) = ctx.frozen(t) else {
        return Vec::new();
    };
    (0..t.len() as u32)
        .map(NodeId)
        .filter_map(|n| {
            let Label::Rule(rule) = t.node(n).label() else {
                return None;
            };
            let sym = g.rule(rule).lhs;
            let r = span(t, n, len);
            let keep = frozen[n.index()]
                && g.alt_index(rule) > 0
                && !r.is_empty()
                && text[n.index()].len() >= min.text[sym.index()]
                && is_keyword_choice(g, sym);
            keep.then(|| Edit::replace(r, vec![Piece::Zeros(min.bytes[sym.index()])]))
        })
        .collect()
}

/// Every pair (`a`, `d`) where `d` is a nearest descendant of `a` with
/// `a`'s symbol (no node between them has it), i.e. `a` is `d`'s nearest
/// proper ancestor of its own symbol: one pre-order pass with, per
/// symbol, the innermost open node (O(nodes), where asking
/// [`super::treeops::frontier`] of every node would be O(nodes × depth)).
pub(super) fn same_symbol_pairs(t: &Tree, g: &Grammar) -> Vec<(NodeId, NodeId)> {
    const NONE: u32 = u32::MAX;
    let mut top = vec![NONE; g.num_symbols()];
    let mut anc = vec![NONE; t.len()];
    let mut open: Vec<(u32, u32)> = Vec::new(); // (node, end)
    let mut pairs = Vec::new();
    for i in 0..t.len() as u32 {
        while let Some(&(n, end)) = open.last() {
            if end > i {
                break;
            }
            open.pop();
            if let Some(s) = t.symbol(g, NodeId(n)) {
                top[s.index()] = anc[n as usize];
            }
        }
        let Some(s) = t.symbol(g, NodeId(i)) else {
            continue;
        };
        let a = top[s.index()];
        if a != NONE {
            pairs.push((NodeId(a), NodeId(i)));
        }
        anc[i as usize] = a;
        top[s.index()] = i;
        open.push((i, i + t.node(NodeId(i)).size));
    }
    pairs
}

/// Replaces node spans by the zero bytes of their minimal expansions; in
/// text reduction not those that keep the text's length ([`lower_nodes`]).
pub fn minimize_nodes(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    minimal_pass(ctx, cfg, cur, tester, false)
}

/// In text reduction, the minimal expansions [`minimize_nodes`] leaves
/// out: they keep the text's length (`7` → `0`, `a` → `*`). The pipeline
/// runs them at the fixpoint of the other passes, where nothing shorter
/// is left to find: a lowered text is simpler for the passes after it
/// (fewer distinct candidates), but taken first it can cost a shorter
/// result (`SELECT a … ON a` lowered to `SELECT * …` makes `ON a`
/// needed). Nothing to do in choice-sequence reduction, where
/// [`minimize_nodes`] lowers too.
pub fn lower_nodes(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    minimal_pass(ctx, cfg, cur, tester, true)
}

/// [`minimize_nodes`] (`lowering` false) or [`lower_nodes`].
fn minimal_pass(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
    lowering: bool,
) -> Vec<u8> {
    let min = Minimal::new(ctx, cfg);
    let swaps = (!lowering).then(|| alternatives::Swaps::new(ctx, cfg, &min, true));
    let by_text = tester.image_bounded() && !lowering;
    greedy_keeping(cur.to_vec(), tester, |c| {
        let t = decode_tree(ctx.g, c, cfg);
        let edits = minimize_candidates(ctx, &t, &min, swaps.as_ref(), c.len(), lowering);
        (edits, tree_progress(ctx.g, cfg, c, by_text))
    })
}

/// Progress for the tree passes: a shortlex-smaller sequence or, with
/// `by_text` (under the image bound: text reduction, where the decoded
/// text is what is reduced), a shorter text even where its choices are
/// longer. The shortest text of a symbol need not have the fewest choice
/// bytes: a JSON value's `0` reads five zero choices, its `{}` three, so
/// shortlex alone never turns `[{}, …]` into `[0, …]`. Text never grows
/// under the bound, so the rounds still terminate.
fn tree_progress<'a>(
    g: &'a Grammar,
    cfg: &'a DecodeConfig,
    base: &[u8],
    by_text: bool,
) -> impl FnMut(&[u8]) -> bool + 'a {
    let len = by_text.then(|| crate::generate::decode(g, base, cfg).len());
    let base = base.to_vec();
    move |x: &[u8]| {
        super::shortlex_lt(x, &base)
            || len.is_some_and(|l| crate::generate::decode(g, x, cfg).len() < l)
    }
}

/// Bytes of terminal text in rule `r`'s body.
pub(super) fn terminal_bytes(g: &Grammar, r: RuleId) -> usize {
    g.body(r)
        .iter()
        .map(|e| match e {
            Elem::T(t) => g.term(*t).len(),
            Elem::Nt(_) => 0,
        })
        .sum()
}

/// Replaces a node's span by a nearest same-symbol descendant's span, by a
/// child of another symbol hoisted through a chain of one-nonterminal
/// alternatives, or by its minimal expansion: one list, shortest first.
pub fn replace_by_descendant(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    let chains = chains::unit_chains(g);
    let min = Minimal::new(ctx, cfg);
    let by_text = tester.image_bounded();
    let features = |c: &[u8]| Some(ctx.rules_used(&decode_tree(g, c, cfg)));
    greedy_deferring(
        cur.to_vec(),
        tester,
        |c| {
            let t = decode_tree(g, c, cfg);
            let text = t.text_spans(g);
            let lowering = min.lowerings(ctx, &t, &text);
            let order = spans(ctx, &t, &text);
            let mut rank = vec![u32::MAX; t.len()];
            for (k, n) in order.iter().enumerate() {
                rank[n.index()] = k as u32;
            }
            // Per node (largest span first): its nearest same-symbol
            // descendants (kind 0), children of other symbols hoisted through
            // alternatives with one nonterminal (kind 1: Perses' compatible
            // nodes; one level per step, so the list stays short; at a list
            // head also the list's elements), and, after
            // all of those, every node's minimal expansion (kind 2). That is
            // the tie order within one candidate length.
            let mut keyed: Vec<((u32, u8, u32), Edit)> = Vec::new();
            for (a, d) in same_symbol_pairs(&t, g) {
                if rank[a.index()] != u32::MAX {
                    let e =
                        Edit::replace(span(&t, a, c.len()), vec![Piece::Src(span(&t, d, c.len()))]);
                    keyed.push(((rank[a.index()], 0, d.0), e));
                }
            }
            for (k, &n) in order.iter().enumerate() {
                let Some(sym) = t.symbol(g, n) else {
                    continue;
                };
                let r = span(&t, n, c.len());
                // Children of other symbols, hoisted; for a list head (a node
                // whose parent has another symbol) also the elements of the
                // list its same-symbol region spells (`f1 / f2 * f3 ...` as
                // nested <term>s), each hoisted alone to the head. Each region
                // is walked from its head only, so the candidates stay linear
                // in the tree's size.
                let head = is_list_head(&t, g, n, sym);
                let mut stack = vec![n];
                while let Some(s) = stack.pop() {
                    for d in t.children(s) {
                        let y = t.symbol(g, d);
                        if y == Some(sym) {
                            if head {
                                stack.push(d);
                            }
                        } else if let Some((_, prefix, _)) =
                            chains[sym.index()].iter().find(|(z, _, _)| Some(*z) == y)
                        {
                            let pieces =
                                vec![Piece::Lit(prefix.clone()), Piece::Src(span(&t, d, c.len()))];
                            keyed.push(((k as u32, 1, d.0), Edit::replace(r.clone(), pieces)));
                        }
                    }
                }
                if !lowering(n) {
                    let zeros = vec![Piece::Zeros(min.bytes[sym.index()])];
                    keyed.push(((u32::MAX, 2, k as u32), Edit::replace(r, zeros)));
                }
            }
            // Largest reduction first (shortest candidate): measured on the
            // benchmark suite this needs fewer oracle runs overall than
            // node-by-node order (BENCHMARKS.md).
            keyed.sort_by_cached_key(|(key, e)| (e.len_after(c), *key));
            let edits = keyed.into_iter().map(|(_, e)| e).collect();
            (edits, tree_progress(g, cfg, c, by_text))
        },
        features,
    )
}

#[cfg(test)]
pub(crate) mod tests;
