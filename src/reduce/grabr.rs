//! Fuzzingbook's `GrammarReducer` (GRABR) with its depth-oriented strategy.
//!
//! For every child of a node, the reductions of the child's symbol are
//! tried smallest-last as fuzzingbook orders them: first subtrees of the
//! child with the same symbol, then *alternative expansions* of the symbol
//! whose elements are filled with subtrees of the child (the first
//! combination that is smaller), all restricted to one relative depth. The
//! depth starts at 0 and grows while nothing reduces, and drops back to 0
//! after a reduction. The recursion over children of the original is an
//! explicit stack of child-index paths (stable under edits elsewhere).

use super::treeops::TreeCtx;
use super::Tester;
use crate::grammar::{Elem, RuleId};
use crate::tree::{Label, Node, NodeId, Tree, NO_PARENT};

/// Cap on the combinations tried per alternative expansion.
const MAX_COMBINATIONS: usize = 256;

/// A reduction of a child: one of its own subtrees, or a new small tree.
enum Red {
    Sub(NodeId),
    New(Tree),
}

/// Does node `n` of `t` carry element `e`?
fn matches_elem(ctx: &TreeCtx<'_>, t: &Tree, n: NodeId, e: Elem) -> bool {
    match (t.node(n).label(), e) {
        (Label::Rule(r), Elem::Nt(s)) => ctx.g.rule(r).lhs == s,
        (Label::Text(i), Elem::Nt(x)) => t.text_symbol(i) == x,
        (Label::Term(a), Elem::T(b)) => ctx.g.term(a) == ctx.g.term(b),
        _ => false,
    }
}

/// fuzzingbook's `subtrees_with_symbol(tree, symbol, depth)`: descendants
/// of `root` (not `root`) carrying `e`, at exactly relative depth `depth`
/// (`None` = any depth), in pre-order.
fn subtrees_with(
    ctx: &TreeCtx<'_>,
    t: &Tree,
    root: NodeId,
    e: Elem,
    depth: Option<u32>,
) -> Vec<NodeId> {
    let below = match depth {
        Some(_) => t.subtree_depths(root),
        None => Vec::new(),
    };
    t.subtree(root)
        .skip(1)
        .filter(|&n| {
            depth.is_none_or(|d| below[(n.0 - root.0) as usize] == d) && matches_elem(ctx, t, n, e)
        })
        .collect()
}

/// A new tree `rule(children...)` with the children copied from `t`.
fn build(t: &Tree, rule: RuleId, children: &[NodeId]) -> Tree {
    let mut nodes = vec![Node::new(Label::Rule(rule), NO_PARENT)];
    let mut texts = Vec::new();
    for &c in children {
        t.copy_subtree_into(c, 0, &mut nodes, &mut texts);
    }
    Tree::from_preorder(nodes, texts).expect("children copied in pre-order")
}

/// fuzzingbook's `alternate_reductions`.
fn alternate_reductions(
    ctx: &TreeCtx<'_>,
    t: &Tree,
    child: NodeId,
    depth: Option<u32>,
) -> Vec<Tree> {
    let g = ctx.g;
    let Some(sym) = t.symbol(g, child) else {
        return vec![];
    };
    let mut rules: Vec<RuleId> = g.rules_of(sym).collect();
    rules.sort_by_key(|&r| (g.body(r).len(), g.rule(r).source_index));
    let size = t.node(child).size;
    let mut out = Vec::new();
    for r in rules {
        let lists: Vec<Vec<NodeId>> = g
            .body(r)
            .iter()
            .map(|&e| subtrees_with(ctx, t, child, e, depth))
            .collect();
        if lists.is_empty() || lists.iter().any(|l| l.is_empty()) {
            continue;
        }
        // Lexicographic walk over the product, first smaller one wins.
        let mut idx = vec![0usize; lists.len()];
        for _ in 0..MAX_COMBINATIONS {
            let pick: Vec<NodeId> = idx.iter().zip(&lists).map(|(&i, l)| l[i]).collect();
            let n: u32 = 1 + pick.iter().map(|&p| t.node(p).size).sum::<u32>();
            if n < size {
                out.push(build(t, r, &pick));
                break;
            }
            let mut k = lists.len();
            loop {
                if k == 0 {
                    break;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < lists[k].len() {
                    break;
                }
                idx[k] = 0;
            }
            if idx.iter().all(|&i| i == 0) {
                break;
            }
        }
    }
    out.sort_by_key(|t| t.len());
    out
}

fn same_structure(a: &Tree, ai: NodeId, b: &Tree, bi: NodeId) -> bool {
    let (sa, sb) = (a.node(ai).size, b.node(bi).size);
    sa == sb
        && (0..sa).all(|k| {
            let (x, y) = (a.node(NodeId(ai.0 + k)), b.node(NodeId(bi.0 + k)));
            x.label() == y.label() && x.size == y.size
        })
}

/// fuzzingbook's `symbol_reductions`, duplicates removed.
fn symbol_reductions(ctx: &TreeCtx<'_>, t: &Tree, child: NodeId, depth: Option<u32>) -> Vec<Red> {
    let Some(sym) = t.symbol(ctx.g, child) else {
        return vec![];
    };
    let mut out: Vec<Red> = subtrees_with(ctx, t, child, Elem::Nt(sym), depth)
        .into_iter()
        .map(Red::Sub)
        .collect();
    for a in alternate_reductions(ctx, t, child, depth) {
        let dup = out.iter().any(|r| match r {
            Red::Sub(s) => same_structure(t, *s, &a, NodeId(0)),
            Red::New(b) => same_structure(b, NodeId(0), &a, NodeId(0)),
        });
        if !dup {
            out.push(Red::New(a));
        }
    }
    out
}

fn resolve(t: &Tree, path: &[u32]) -> NodeId {
    let mut n = t.root();
    for &i in path {
        n = t.children(n).nth(i as usize).expect("path stays valid");
    }
    n
}

/// One `reduce_subtree(tree, tree, depth)` pass; returns whether anything
/// was reduced.
fn reduce_pass(
    ctx: &TreeCtx<'_>,
    tree: &mut Tree,
    depth: Option<u32>,
    tester: &mut Tester<'_>,
) -> bool {
    let mut reduced = false;
    let mut stack: Vec<Vec<u32>> = vec![vec![]];
    while let Some(path) = stack.pop() {
        if tester.stopped() {
            return reduced;
        }
        let node = resolve(tree, &path);
        if tree.node(node).size == 1 {
            continue;
        }
        loop {
            let mut reduced_child = false;
            let nkids = tree.children(resolve(tree, &path)).count();
            for i in 0..nkids {
                let child = tree.children(resolve(tree, &path)).nth(i).expect("child");
                let csize = tree.node(child).size as usize;
                let reds = symbol_reductions(ctx, tree, child, depth);
                let t = &*tree;
                let cands = reds.into_iter().filter_map(|r| {
                    let (n, bytes) = match &r {
                        Red::Sub(s) => (t.node(*s).size as usize, ctx.render_with(t, child, t, *s)),
                        Red::New(nt) => (nt.len(), ctx.render_with(t, child, nt, NodeId(0))),
                    };
                    if n >= csize {
                        return None;
                    }
                    bytes.map(|b| (r, b))
                });
                if let Some((r, _)) = tester.first_interesting(cands) {
                    *tree = match r {
                        Red::Sub(s) => tree.replace(child, tree, s),
                        Red::New(nt) => tree.replace(child, &nt, NodeId(0)),
                    };
                    reduced = true;
                    reduced_child = true;
                }
            }
            if !reduced_child || tester.stopped() {
                break;
            }
        }
        let n = resolve(tree, &path);
        let nkids = tree.children(n).count() as u32;
        for i in (0..nkids).rev() {
            let mut p = path.clone();
            p.push(i);
            stack.push(p);
        }
    }
    reduced
}

/// Reduces `tree` with GRABR's depth-oriented strategy.
pub fn grabr(ctx: &TreeCtx<'_>, mut tree: Tree, tester: &mut Tester<'_>) -> Tree {
    if tree.is_empty() {
        return tree;
    }
    let mut depth = 0;
    while depth < tree.depth() + 1 {
        if tester.stopped() {
            break;
        }
        if reduce_pass(ctx, &mut tree, Some(depth), tester) {
            depth = 0;
        } else {
            depth += 1;
        }
    }
    tree
}
