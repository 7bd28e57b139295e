//! The optimised walk against the reference walk.

use super::*;
use proptest::prelude::*;

/// The decoding walk as first written (one stack item per grammar
/// element, the lower bound kept as two counters): the specification
/// the optimised [`walk`] must match exactly.
fn reference_decode(g: &Grammar, choices: &[u8], cfg: &DecodeConfig) -> Tree {
    enum Item {
        Nt {
            sym: SymbolId,
            depth: u32,
            parent: u32,
        },
        T {
            term: TermId,
            parent: u32,
        },
    }
    let mut tree = Tree::new();
    let mut chooser = Chooser::new(choices);
    let mut stack = vec![Item::Nt {
        sym: g.start(),
        depth: 0,
        parent: NO_PARENT,
    }];
    let mut emitted: u64 = 0;
    let mut pending: u64 = g.symbol(g.start()).min_len;
    while let Some(item) = stack.pop() {
        match item {
            Item::T { term, parent } => {
                let bytes = g.term(term);
                tree.push(Label::Term(term), parent, chooser.position() as u32);
                emitted += bytes.len() as u64;
                pending -= bytes.len() as u64;
            }
            Item::Nt { sym, depth, parent } => {
                let info = g.symbol(sym);
                let restricted = depth > cfg.max_depth || emitted + pending > cfg.max_len as u64;
                let pos = chooser.position() as u32;
                let alt = if restricted {
                    g.restricted_alts(sym)[chooser.choose(info.min_depth_alts) as usize]
                } else {
                    chooser.choose(info.rules.end - info.rules.start)
                };
                let rule = RuleId(info.rules.start + alt);
                let id = tree.push(Label::Rule(rule), parent, pos);
                pending = pending - info.min_len + g.rule(rule).min_len;
                for e in g.body(rule).iter().rev() {
                    stack.push(match *e {
                        Elem::Nt(s) => Item::Nt {
                            sym: s,
                            depth: depth + 1,
                            parent: id,
                        },
                        Elem::T(t) => Item::T {
                            term: t,
                            parent: id,
                        },
                    });
                }
            }
        }
    }
    tree.finish(chooser.position() as u32);
    tree
}

fn grammars() -> Vec<Grammar> {
    [
        include_str!("../../grammars/expr.json"),
        include_str!("../../grammars/json.json"),
        include_str!("../../grammars/assign.json"),
        include_str!("../../grammars/html.json"),
        include_str!("../../grammars/sql.json"),
    ]
    .iter()
    .map(|s| Grammar::from_json_str(s, &Default::default()).unwrap())
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The optimised walk (frames, one running bound, hooks) decodes
    /// exactly as the reference walk, tree and text, on every shipped
    /// grammar, under generous and tight budgets.
    #[test]
    fn walk_matches_the_reference(
        choices in proptest::collection::vec(any::<u8>(), 0..600),
        max_depth in prop_oneof![Just(2048u32), 0u32..12],
        max_len in prop_oneof![Just(1usize << 20), 0usize..64],
    ) {
        let cfg = DecodeConfig { max_depth, max_len };
        for g in grammars() {
            let want = reference_decode(&g, &choices, &cfg);
            let tree = decode_tree(&g, &choices, &cfg);
            prop_assert_eq!(&tree, &want);
            let text = decode(&g, &choices, &cfg);
            prop_assert_eq!(&text, &want.unparse(&g));
            let mut out = b"prefix".to_vec();
            let used = decode_with_hooks(&g, &choices, &cfg, &mut NoHooks, &mut out);
            prop_assert_eq!(&out[6..], &text[..]);
            prop_assert_eq!(used as u32, want.node(want.root()).choices.end);
            prop_assert_eq!(&decode_tree_with_hooks(&g, &choices, &cfg, &mut NoHooks), &want);
        }
    }
}
