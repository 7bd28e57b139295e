//! Hierarchical delta debugging with fixpoint (HDD*, Misherghi & Su 2006;
//! Kiss et al.'s fixpoint iteration).
//!
//! Level by level from the root, ddmin runs over the nonterminal nodes of
//! one depth: a configuration keeps some of them and replaces every other
//! by its symbol's minimal expansion (alternative 0 everywhere, from
//! [`crate::generate::decode_tree_from`] on no choices), which keeps the
//! tree a valid sentence. Before ddmin, replacing *all* nodes of the level
//! is tried at once. Rounds repeat until a whole round changes nothing.
//! Nodes that already are minimal expansions, and atomic tokens, are not
//! units.

use super::ddmin::ddmin;
use super::treeops::{apply_edits, TreeCtx};
use super::Tester;
use crate::tree::{Label, NodeId, Tree};

/// Reduces `tree` with HDD*; returns the smallest interesting tree found.
pub fn hdd(ctx: &TreeCtx<'_>, mut tree: Tree, tester: &mut Tester<'_>) -> Tree {
    let g = ctx.g;
    loop {
        let mut changed = false;
        let mut level = 0;
        loop {
            // The tree changes between levels: depths are taken afresh.
            let depths = tree.depths();
            if level > depths.iter().copied().max().unwrap_or(0) {
                break;
            }
            if tester.stopped() {
                return tree;
            }
            let nodes: Vec<NodeId> = (0..tree.len() as u32)
                .map(NodeId)
                .filter(|&n| {
                    let node = tree.node(n);
                    depths[n.index()] == level
                        && matches!(node.label(), Label::Rule(r) if !ctx.is_token(g.rule(r).lhs))
                        && !ctx.is_minimal(&tree, n)
                })
                .collect();
            level += 1;
            if nodes.is_empty() {
                continue;
            }
            let t = &tree;
            let edits_for = |keep: &[NodeId]| -> Vec<(NodeId, &Tree)> {
                nodes
                    .iter()
                    .filter(|n| keep.binary_search(n).is_err())
                    .map(|&n| (n, ctx.minimal(t.symbol(g, n).expect("rule node"))))
                    .collect()
            };
            // Everything at this level minimal at once: the big step.
            let all = edits_for(&[]);
            let keep = match ctx
                .render(t, &all)
                .and_then(|b| tester.first_interesting([((), b)]))
            {
                Some(_) => Vec::new(),
                None => {
                    let mut render =
                        |keep: &[NodeId]| ctx.render(t, &edits_for(keep)).unwrap_or_default();
                    ddmin(nodes.clone(), tester, &mut render, None)
                }
            };
            if keep.len() < nodes.len() {
                let edits = edits_for(&keep);
                tree = apply_edits(&tree, &edits);
                changed = true;
            }
        }
        if !changed {
            return tree;
        }
    }
}
