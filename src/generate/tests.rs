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
            prop_assert_eq!(used as u32, want.choices(want.root()).end);
            prop_assert_eq!(&decode_tree_with_hooks(&g, &choices, &cfg, &mut NoHooks), &want);
        }
    }
}

/// One element of a random grammar: a terminal or a nonterminal number.
#[derive(Clone, Debug)]
enum Gen {
    T(Vec<u8>),
    Nt(u8),
    /// The nonterminal itself (outside alternative 0).
    Own,
    /// A later nonterminal (the same one in every alternative).
    Fwd(u8),
    /// Any nonterminal, also in alternative 0 (may make the grammar
    /// unproductive: such cases are skipped).
    Any(u8),
}

fn gen_elem() -> impl Strategy<Value = Gen> {
    prop_oneof![
        // Short and long terminals (the fast path treats literals of more
        // than 8 bytes apart).
        proptest::collection::vec(b'a'..=b'e', 1..12).prop_map(Gen::T),
        any::<u8>().prop_map(Gen::Nt),
        any::<u8>().prop_map(Gen::Nt),
    ]
}

/// A number of alternatives: a few, or past 256.
fn wide() -> impl Strategy<Value = usize> {
    prop_oneof![2usize..20, 250usize..300]
}

/// Alternatives of one nonterminal: a few bodies, or many one-byte (or
/// terminal-only) ones, up to past 256 so that choices read two bytes.
fn gen_alts() -> impl Strategy<Value = Vec<Vec<Gen>>> {
    prop_oneof![
        6 => proptest::collection::vec(proptest::collection::vec(gen_elem(), 0..4), 1..5),
        1 => wide().prop_map(|n| (0..n).map(|i| vec![Gen::T(vec![i as u8])]).collect()),
        2 => (wide(), any::<u8>()).prop_map(|(n, j)| (0..n)
            .map(|i| match i % 7 {
                3 => vec![Gen::T(vec![i as u8]), Gen::Nt(j)],
                _ => vec![Gen::T(vec![i as u8])],
            })
            .collect()),
        3 => proptest::collection::vec(
            proptest::collection::vec(b'x'..=b'z', 0..4).prop_map(|t| vec![Gen::T(t)]),
            2..6,
        ),
        // Byte classes.
        3 => (2u8..12).prop_map(|n| (0..n).map(|i| vec![Gen::T(vec![b'0' + i])]).collect()),
        // Right-recursive lists (`<l> ::= "" | <byte><l>` and the like).
        4 => (
            any::<bool>(),
            any::<u8>(),
            proptest::collection::vec((proptest::collection::vec(b'x'..=b'z', 0..3), any::<bool>()), 2..5),
        )
            .prop_map(|(item, j, alts)| alts
                .into_iter()
                .enumerate()
                .map(|(a, (lead, again))| {
                    let mut body = vec![Gen::T(lead)];
                    if item {
                        body.push(Gen::Fwd(j));
                    }
                    if a > 0 && again {
                        body.push(Gen::Own);
                    }
                    body
                })
                .collect()),
        // A single alternative leading anywhere, possibly back (a list's
        // recursion through an inlined nonterminal).
        2 => (proptest::collection::vec(b'x'..=b'z', 0..2), any::<u8>())
            .prop_map(|(t, j)| vec![vec![Gen::T(t), Gen::Any(j)]]),
    ]
}

/// A random grammar of `<s0>`..: alternative 0 of each nonterminal only
/// refers to later ones (but for [`Gen::Any`]), so that most are
/// productive; `None` if it is not.
fn random_grammar(spec: &[Vec<Vec<Gen>>]) -> Option<Grammar> {
    let k = spec.len();
    let mut b = crate::grammar::GrammarBuilder::new().start("<s0>");
    for (i, alts) in spec.iter().enumerate() {
        for (a, body) in alts.iter().enumerate() {
            let tokens =
                body.iter()
                    .map(|e| match e {
                        Gen::T(t) => crate::grammar::Token::T(t.clone()),
                        Gen::Nt(j) if a > 0 => {
                            crate::grammar::Token::Nt(format!("<s{}>", *j as usize % k))
                        }
                        Gen::Nt(j) | Gen::Fwd(j) if i + 1 < k => crate::grammar::Token::Nt(
                            format!("<s{}>", i + 1 + *j as usize % (k - i - 1)),
                        ),
                        Gen::Nt(j) | Gen::Fwd(j) => crate::grammar::Token::T(vec![b'0' + j % 10]),
                        Gen::Own if a > 0 => crate::grammar::Token::Nt(format!("<s{i}>")),
                        Gen::Own => crate::grammar::Token::T(b"o".to_vec()),
                        Gen::Any(j) => crate::grammar::Token::Nt(format!("<s{}>", *j as usize % k)),
                    })
                    .collect();
            b.push_alt(&format!("<s{i}>"), tokens);
        }
    }
    b.build().ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The fast path's compiled program (inlined single-alternative
    /// nonterminals, byte and pick nonterminals, choice tables, wide
    /// choices, long and fused literals) decodes exactly as the reference
    /// walk on random grammars.
    #[test]
    fn fast_path_matches_the_reference_on_random_grammars(
        spec in proptest::collection::vec(gen_alts(), 1..9),
        choices in proptest::collection::vec(any::<u8>(), 0..300),
        max_depth in prop_oneof![Just(2048u32), 0u32..12],
        max_len in prop_oneof![Just(1usize << 20), 0usize..64],
    ) {
        let g = random_grammar(&spec);
        prop_assume!(g.is_some(), "unproductive");
        let g = g.expect("assumed");
        let cfg = DecodeConfig { max_depth, max_len };
        let want = reference_decode(&g, &choices, &cfg);
        let mut out = b"prefix".to_vec();
        let used = decode_into_consumed(&g, &choices, &cfg, &mut out);
        prop_assert_eq!(&out[6..], &want.unparse(&g)[..]);
        prop_assert_eq!(used as u32, want.choices(want.root()).end);
        prop_assert_eq!(&decode_tree(&g, &choices, &cfg), &want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A list whose recursion passes through an inlined single-alternative
    /// nonterminal (two levels per round) is not compiled as a one-level
    /// loop: depths stay exact.
    #[test]
    fn list_recursing_through_an_inlined_nonterminal(
        choices in proptest::collection::vec(any::<u8>(), 0..64),
        max_depth in 0u32..12,
    ) {
        let g = crate::grammar::GrammarBuilder::new()
            .alt("<start>", &["<l>", "<l>"])
            .alt("<l>", &["x"])
            .alt("<l>", &["<d>", "<t>"])
            .alt("<l>", &["y", "<d>", "<l>"])
            .alt("<t>", &["<l>"])
            .alt("<d>", &["0"])
            .alt("<d>", &["1"])
            .build()
            .unwrap();
        let cfg = DecodeConfig { max_depth, max_len: 1 << 20 };
        let want = reference_decode(&g, &choices, &cfg);
        prop_assert_eq!(decode(&g, &choices, &cfg), want.unparse(&g));
    }
}
