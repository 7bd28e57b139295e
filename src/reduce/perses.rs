//! Perses (Sun et al., ICSE 2018) on our derivation trees.
//!
//! A priority queue holds nodes of the current tree, largest subtree
//! first. For a node of nonterminal `X` the candidates are: the empty
//! expansion (when `X` is nullable), its nearest descendants labelled `X`,
//! descendants of other symbols wrapped in an alternative of `X` with one
//! nonterminal, and `X`'s minimal expansion, tried shortest text first.
//! The first interesting candidate replaces the node, which is queued
//! again; when none is, the node's children are queued instead.
//! Atomic tokens ([`super::treeops`]) are never queued. Candidates render
//! without copying the tree; only accepted edits build a new one.

use super::treeops::{frontier, TreeCtx};
use super::Tester;
use crate::grammar::{Elem, Grammar, RuleId, SymbolId};
use crate::tree::{Label, Node, NodeId, Tree, NO_PARENT};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

enum Cand {
    Minimal,
    Desc(NodeId),
    Unit(Tree),
}

/// A new tree `rule(body)` whose only nonterminal is filled with a copy of
/// subtree `y` of `t` (terminals become fresh leaves).
fn build_unit(g: &Grammar, t: &Tree, rule: RuleId, y: NodeId) -> Tree {
    let mut nodes = vec![Node::new(Label::Rule(rule), NO_PARENT)];
    let mut texts = Vec::new();
    for e in g.body(rule) {
        match *e {
            Elem::T(term) => nodes.push(Node::new(Label::Term(term), 0)),
            Elem::Nt(_) => t.copy_subtree_into(y, 0, &mut nodes, &mut texts),
        }
    }
    Tree::from_preorder(nodes, texts).expect("built in pre-order")
}

/// Alternatives of `sym` with exactly one nonterminal `Y` (e.g.
/// `<expr> ::= <term>`, `<factor> ::= ( <expr> )`), filled with the
/// nearest `Y` descendants of `id`: Perses' normal form lets a node be
/// replaced by a descendant of another symbol through such unit chains.
fn unit_candidates(g: &Grammar, t: &Tree, id: NodeId, sym: SymbolId) -> Vec<Tree> {
    let mut out = Vec::new();
    let size = t.node(id).size;
    for r in g.rules_of(sym) {
        let nts: Vec<SymbolId> = g.body_nonterminals(r).collect();
        if nts.len() != 1 || nts[0] == sym {
            continue;
        }
        let y = nts[0];
        // Nearest descendants labelled `y`.
        let end = id.0 + size;
        let mut i = id.0 + 1;
        while i < end {
            let n = NodeId(i);
            if t.symbol(g, n) == Some(y) {
                let extra = g.body(r).len() as u32;
                if t.node(n).size + extra < size {
                    out.push(build_unit(g, t, r, n));
                }
                i += t.node(n).size;
            } else {
                i += 1;
            }
        }
    }
    out.sort_by_key(|u| u.len());
    out
}

/// Reduces `tree` with Perses; returns the smallest interesting tree found.
pub fn perses(ctx: &TreeCtx<'_>, mut tree: Tree, tester: &mut Tester<'_>) -> Tree {
    let g = ctx.g;
    let mut heap: BinaryHeap<(u32, Reverse<u32>)> = BinaryHeap::new();
    let push = |heap: &mut BinaryHeap<(u32, Reverse<u32>)>, t: &Tree, id: NodeId| {
        if let Label::Rule(r) = t.node(id).label() {
            if !ctx.is_token(g.rule(r).lhs) {
                heap.push((t.node(id).size, Reverse(id.0)));
            }
        }
    };
    if tree.is_empty() {
        return tree;
    }
    push(&mut heap, &tree, tree.root());
    let mut cur_len = match ctx.render_tree(&tree) {
        Some(t) => t.len(),
        None => return tree,
    };
    let mut layout = ctx.layout(&tree);
    while let Some((_, Reverse(raw))) = heap.pop() {
        if tester.stopped() {
            break;
        }
        let id = NodeId(raw);
        let Some(sym) = tree.symbol(g, id) else {
            continue;
        };
        let size = tree.node(id).size;
        let mut cands: Vec<Cand> = Vec::new();
        let minimal_ok = !ctx.is_minimal(&tree, id) && (ctx.minimal(sym).len() as u32) < size;
        if minimal_ok && g.symbol(sym).nullable {
            cands.push(Cand::Minimal);
        }
        let mut desc = frontier(&tree, g, id);
        // Shallowest first; all are below `id`, so depth below it orders
        // them as depth in the tree does.
        let below = tree.subtree_depths(id);
        desc.sort_by_key(|&d| (below[(d.0 - id.0) as usize], d.0));
        cands.extend(desc.into_iter().map(Cand::Desc));
        cands.extend(
            unit_candidates(g, &tree, id, sym)
                .into_iter()
                .map(Cand::Unit),
        );
        if minimal_ok && !g.symbol(sym).nullable {
            cands.push(Cand::Minimal);
        }
        let t = &tree;
        let l = layout.as_ref();
        let render = |c: &Cand| match c {
            Cand::Minimal => ctx.render_with_layout(t, l, id, ctx.minimal(sym), NodeId(0)),
            Cand::Desc(d) => ctx.render_with_layout(t, l, id, t, *d),
            Cand::Unit(u) => ctx.render_with_layout(t, l, id, u, NodeId(0)),
        };
        // Shortest text first (stable: ties keep the order above). On
        // the reduction suite this cut "text auto" from 41 to 11 oracle
        // runs on python-zerodiv (216 to 188 over the six program tasks):
        // the largest descendant first peels one level per oracle run.
        // Only lengths are kept for sorting; a candidate is rendered again
        // when it is tested, so a node with thousands of candidates does
        // not hold thousands of copies of the input.
        let mut sized: Vec<(usize, Cand)> = cands
            .into_iter()
            .filter_map(|c| {
                let n = render(&c)?.len();
                (n <= cur_len).then_some((n, c))
            })
            .collect();
        sized.sort_by_key(|(n, _)| *n);
        let rendered = sized
            .into_iter()
            .filter_map(|(_, c)| render(&c).map(|bytes| (c, bytes)));
        match tester.first_interesting(rendered) {
            Some((c, bytes)) => {
                let new = match c {
                    Cand::Minimal => tree.replace(id, ctx.minimal(sym), NodeId(0)),
                    Cand::Desc(d) => tree.replace(id, &tree, d),
                    Cand::Unit(u) => tree.replace(id, &u, NodeId(0)),
                };
                let new_size = new.node(id).size;
                let entries: Vec<_> = heap.drain().collect();
                for (_, Reverse(e)) in entries {
                    let e2 = if e < raw {
                        Some(e)
                    } else if e >= raw + size {
                        Some(e + new_size - size)
                    } else {
                        None
                    };
                    if let Some(e2) = e2 {
                        heap.push((new.node(NodeId(e2)).size, Reverse(e2)));
                    }
                }
                tree = new;
                layout = ctx.layout(&tree);
                cur_len = bytes.len();
                push(&mut heap, &tree, id);
            }
            None => {
                let kids: Vec<NodeId> = tree.children(id).collect();
                for k in kids {
                    push(&mut heap, &tree, k);
                }
            }
        }
    }
    tree
}
