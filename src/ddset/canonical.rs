//! Canonical form of a failing tree: each node lowered to the earliest
//! alternative of its symbol of the same length that still fails.
//!
//! A reducer stops at *a* minimum: among inputs of one length it keeps
//! whichever it met first. Artifacts of one bug then reduce to variants
//! (`"{\⏎"`, `",\⏎"`, `":\⏎"` where the character before the escape is any
//! of several), and DDSET, which abstracts a node only when *every*
//! expansion of its symbol fails, keeps each variant's character concrete:
//! one bug, four patterns. [`canonicalize`] lowers them all to the one the
//! grammar lists first (`"'\⏎"`), so the bug has one reproducer, and the
//! first pattern covers the others.
//!
//! Nodes are visited in pre-order. A node at alternative `k` of its symbol
//! tries alternatives `0..k` in order (simplest first, as
//! [`Grammar::rules_of`] lists them), each with the node's own children
//! in its slots where their symbols match (`0 % 0` → `0 / 0`), then
//! expanded minimally (what decoding that choice followed by zeros
//! gives), where the text is as long
//! as the node's (a shorter one is a reduction, which the reducer tried
//! already; a longer one is no canonical form), skipping texts tried
//! before; the
//! first that still fails replaces the node. A node whose subtree occurs
//! elsewhere too (`h` in `def h(a) = a; print h(0)`) is first lowered
//! together with every copy, since a name defined and used must change
//! in both places (`f`, then, for all crashes of that shape), and then
//! alone. Sweeps repeat until one changes nothing
//! or the budget is spent, so a canonical tree that had budget to spare
//! is its own canonical form.

use super::replace_all;
use super::twins::Twins;
use super::Verdict;
use crate::choice::encode_choice;
use crate::generate::{decode_tree_from, DecodeConfig};
use crate::grammar::Grammar;
use crate::tree::{Label, NodeId, Tree};
use std::collections::HashSet;

/// What [`canonicalize`] did.
#[derive(Clone, Debug)]
pub struct Canonical {
    /// The canonical tree (the input's when nothing could be lowered).
    pub tree: Tree,
    /// Oracle runs made.
    pub executions: u64,
    /// Nodes lowered.
    pub lowered: usize,
    /// The budget ran out before a sweep changed nothing.
    pub budget_spent: bool,
}

/// Lowers the nodes of the failing `tree` to earlier alternatives while it
/// still fails (see the module docs), with at most `max_executions` oracle
/// runs. The result fails (or is `tree` itself) and its text is as long
/// as `tree`'s.
pub fn canonicalize<F: FnMut(&Tree, &[u8]) -> Verdict>(
    g: &Grammar,
    tree: &Tree,
    max_executions: u64,
    oracle: F,
) -> Canonical {
    canonicalize_until(g, tree, max_executions, oracle, |_: &Tree| false)
}

/// [`canonicalize`], stopping early after a lowering that makes `done`
/// true (`bucket` stops once the tree fits a known pattern of its crash:
/// that is all it needs the canonical form for).
pub fn canonicalize_until<F, D>(
    g: &Grammar,
    tree: &Tree,
    max_executions: u64,
    mut oracle: F,
    mut done: D,
) -> Canonical
where
    F: FnMut(&Tree, &[u8]) -> Verdict,
    D: FnMut(&Tree) -> bool,
{
    let mut out = Canonical {
        tree: tree.clone(),
        executions: 0,
        lowered: 0,
        budget_spent: false,
    };
    // Texts run already (a lowering of one node can spell what a lowering
    // of another did), and the current text: another derivation of it
    // teaches nothing.
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(tree.unparse(g));
    let cfg = DecodeConfig::default();
    loop {
        let mut changed = false;
        let mut shape = Shape::of(g, &out.tree);
        let mut i = 0usize;
        'nodes: while i < out.tree.len() {
            let n = NodeId(i as u32);
            i += 1;
            let Label::Rule(rule) = out.tree.node(n).label() else {
                continue;
            };
            let sym = g.rule(rule).lhs;
            let k = g.alt_index(rule);
            if k == 0 {
                continue;
            }
            let len = shape.spans[n.index()].len();
            // Listed once a candidate is as long as the node.
            let mut twins: Option<Vec<NodeId>> = None;
            for j in 0..k {
                let mut head = Vec::new();
                encode_choice(j, g.num_alts(sym), &mut head);
                let minimal = decode_tree_from(g, sym, &head, &cfg);
                // The node's own children in the alternative's slots first
                // (`0 % 0` → `0 / 0`), then the minimal expansion.
                let kept = keep_children(g, &out.tree, n, &minimal);
                for sub in kept.iter().chain([&minimal]) {
                    // A shorter text is a reduction, which the reducer tried.
                    if sub.unparse(g).len() != len {
                        continue;
                    }
                    // With its twins first (a name defined and used), then
                    // alone.
                    let twins = twins.get_or_insert_with(|| shape.twins.of_node(n));
                    let together = (twins.len() > 1).then(|| {
                        let all: Vec<(NodeId, &Tree)> = twins.iter().map(|&m| (m, sub)).collect();
                        replace_all(&out.tree, &all)
                    });
                    let alone = out.tree.replace(n, sub, sub.root());
                    for cand in together.into_iter().chain([alone]) {
                        let text = cand.unparse(g);
                        if !seen.insert(text.clone()) {
                            continue;
                        }
                        if out.executions >= max_executions {
                            out.budget_spent = true;
                            return out;
                        }
                        out.executions += 1;
                        if oracle(&cand, &text) == Verdict::Fail {
                            out.tree = cand;
                            out.lowered += 1;
                            if done(&out.tree) {
                                return out;
                            }
                            changed = true;
                            shape = Shape::of(g, &out.tree);
                            continue 'nodes;
                        }
                    }
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// `minimal` (an alternative of `n`'s symbol, minimally expanded) with its
/// nonterminal slots filled by `n`'s children of the same symbols, in
/// order, each used once; `None` if no child fits a slot.
fn keep_children(g: &Grammar, t: &Tree, n: NodeId, minimal: &Tree) -> Option<Tree> {
    let mut kids = t.children(n).filter_map(|d| Some((t.symbol(g, d)?, d)));
    let mut pairs: Vec<(NodeId, NodeId)> = Vec::new();
    for slot in minimal.children(minimal.root()) {
        let Some(want) = minimal.symbol(g, slot) else {
            continue;
        };
        if let Some((_, d)) = kids.by_ref().find(|&(s, _)| s == want) {
            pairs.push((slot, d));
        }
    }
    if pairs.is_empty() {
        return None;
    }
    // Right to left, so the slots still to fill keep their ids.
    let mut out = minimal.clone();
    for &(slot, d) in pairs.iter().rev() {
        out = out.replace(slot, t, d);
    }
    Some(out)
}

/// Per node of one tree: its text span, and which nodes have the same
/// subtree.
struct Shape {
    spans: Vec<std::ops::Range<usize>>,
    twins: Twins,
}

impl Shape {
    fn of(g: &Grammar, t: &Tree) -> Shape {
        Shape {
            spans: t.text_spans(g),
            twins: Twins::of(t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::decode_tree;
    use proptest::prelude::*;

    /// A quoted character then an escape, as yaml-rust's scanner bug: the
    /// "crash" needs the escape and any of `b`, `d` (not `a`, `c`) before it.
    fn quoted() -> Grammar {
        let g = r#"{"<start>": ["\"<c><e>\""], "<c>": ["a", "b", "c", "d", "<c><c>"],
                   "<e>": ["", "\\n", "\\t"]}"#;
        Grammar::from_json_str(g, &Default::default()).unwrap()
    }

    fn crashes(text: &[u8]) -> Verdict {
        match text {
            [b'"', b'b' | b'd', b'\\', _, b'"'] => Verdict::Fail,
            _ => Verdict::Pass,
        }
    }

    fn tree_of(g: &Grammar, text: &[u8]) -> Tree {
        crate::parse::parse(g, text).unwrap()
    }

    #[test]
    fn variants_of_one_bug_lower_to_one_text() {
        let g = quoted();
        for text in [&b"\"d\\t\""[..], b"\"b\\t\"", b"\"d\\n\"", b"\"b\\n\""] {
            let mut runs = Vec::new();
            let c = canonicalize(&g, &tree_of(&g, text), 100, |_, s| {
                runs.push(s.to_vec());
                crashes(s)
            });
            assert_eq!(c.tree.unparse(&g), b"\"b\\n\"", "from {:?}", text);
            assert!(!c.budget_spent);
            assert_eq!(c.executions as usize, runs.len());
            // Every run is a text as long as the input, none twice.
            let distinct: HashSet<_> = runs.iter().collect();
            assert_eq!(distinct.len(), runs.len());
            assert!(runs.iter().all(|r| r.len() <= text.len()));
        }
    }

    #[test]
    fn a_name_is_lowered_where_it_is_defined_and_used_at_once() {
        let g = r#"{"<start>": ["<n>=1;<n>"], "<n>": ["f", "g", "h"]}"#;
        let g = Grammar::from_json_str(g, &Default::default()).unwrap();
        // Fails when the name used is the one defined.
        let same = |s: &[u8]| match s {
            [a, b'=', b'1', b';', b] if a == b => Verdict::Fail,
            _ => Verdict::Pass,
        };
        for text in [&b"h=1;h"[..], b"g=1;g"] {
            let c = canonicalize(&g, &tree_of(&g, text), 100, |_, s| same(s));
            assert_eq!(c.tree.unparse(&g), b"f=1;f", "from {:?}", text);
        }
    }

    #[test]
    fn an_operator_is_lowered_with_its_operands_kept() {
        let g = r#"{"<start>": ["<t>"], "<t>": ["<f>", "<t>*<f>", "<t>/<f>", "<t>%<f>"],
                    "<f>": ["a", "0", "1"]}"#;
        let g = Grammar::from_json_str(g, &Default::default()).unwrap();
        // A division by zero, whichever the operator.
        let div0 = |s: &[u8]| {
            if s.windows(2).any(|w| w == b"/0" || w == b"%0") {
                Verdict::Fail
            } else {
                Verdict::Pass
            }
        };
        for text in [&b"1%0"[..], b"0/0", b"a%0"] {
            let c = canonicalize(&g, &tree_of(&g, text), 100, |_, s| div0(s));
            assert_eq!(c.tree.unparse(&g), b"a/0", "from {:?}", text);
        }
    }

    #[test]
    fn the_canonical_form_of_a_canonical_tree_is_itself_and_costs_its_checks() {
        let g = quoted();
        let c = canonicalize(&g, &tree_of(&g, b"\"d\\t\""), 100, |_, s| crashes(s));
        let again = canonicalize(&g, &c.tree, 100, |_, s| crashes(s));
        assert_eq!(again.tree, c.tree);
        assert_eq!(again.lowered, 0);
        // `a` before the escape (the escape's `""` is shorter): 1 run.
        assert_eq!(again.executions, 1);
    }

    #[test]
    fn a_spent_budget_stops_with_the_best_so_far() {
        let g = quoted();
        let c = canonicalize(&g, &tree_of(&g, b"\"d\\t\""), 1, |_, s| crashes(s));
        assert!(c.budget_spent);
        assert_eq!(c.executions, 1);
        // The one run (`a` for `d`) passed: the input stands.
        assert_eq!(c.tree.unparse(&g), b"\"d\\t\"");
        let none = canonicalize(&g, &tree_of(&g, b"\"d\\t\""), 0, |_, _| unreachable!());
        assert!(none.budget_spent && none.executions == 0);
    }

    proptest! {
        /// For random trees and a random "contains this byte" failure, the
        /// canonical tree still fails, is a derivation of the grammar, is as
        /// long as the input, and (budget to spare) is its own canonical form.
        #[test]
        fn the_canonical_tree_fails_keeps_its_length_and_is_a_fixpoint(
            bytes in proptest::collection::vec(any::<u8>(), 0..40),
            needle in 0usize..4,
        ) {
            let g = crate::grammar::Grammar::from_path(
                std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json")),
                &Default::default(),
            ).unwrap();
            let t = decode_tree(&g, &bytes, &DecodeConfig::default());
            let text = t.unparse(&g);
            let b = [b'1', b'+', b'(', b'*'][needle];
            let fails = |s: &[u8]| if s.contains(&b) { Verdict::Fail } else { Verdict::Pass };
            prop_assume!(fails(&text) == Verdict::Fail);
            let c = canonicalize(&g, &t, 200, |_, s| fails(s));
            let out = c.tree.unparse(&g);
            prop_assert_eq!(fails(&out), Verdict::Fail);
            prop_assert_eq!(out.len(), text.len());
            if !c.budget_spent {
                let again = canonicalize(&g, &c.tree, 200, |_, s| fails(s));
                prop_assert_eq!(again.lowered, 0);
            }
            prop_assert_eq!(c.tree.find_invalid(&g), None);
            prop_assert!(c.executions <= 200);
        }
    }
}
