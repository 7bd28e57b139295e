//! Property tests: for random generated inputs and random predicates
//! ("contains token A, later token B"), every strategy returns an
//! interesting input no larger than its input, and tree strategies return
//! sentences of the grammar.

mod common;

use common::*;
use grammar_min::generate::{decode, decode_tree, DecodeConfig};
use grammar_min::oracle::{FnOracle, Outcome};
use grammar_min::reduce::treeops::{Render, TreeCtx};
use grammar_min::reduce::{
    ddmin, grabr, hdd, perses, reduce_choices, reduce_text, shortlex_lt, Strategy, Tester,
};
use grammar_min::tree::Tree;
use proptest::prelude::*;

fn in_order(text: &[u8], a: &[u8], b: &[u8]) -> bool {
    let find = |h: &[u8], n: &[u8]| h.windows(n.len()).position(|w| w == n);
    match find(text, a) {
        Some(p) => find(&text[p + a.len()..], b).is_some(),
        None => false,
    }
}

const CFG: DecodeConfig = DecodeConfig {
    max_depth: 8,
    max_len: 200,
};

type TreeFn = fn(&TreeCtx<'_>, Tree, &mut Tester<'_>) -> Tree;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_strategy_stays_interesting_and_no_larger(
        choices in proptest::collection::vec(any::<u8>(), 4..48),
        pick in any::<(u16, u16)>(),
    ) {
        let g = expr_grammar();
        let text = decode(&g, &choices, &CFG);
        let toks: Vec<&[u8]> = ddmin::tokens(&text).into_iter().filter(|t| t != b" ").collect();
        prop_assume!(toks.len() >= 2);
        let i = pick.0 as usize % (toks.len() - 1);
        let j = i + 1 + pick.1 as usize % (toks.len() - 1 - i);
        let (a, b) = (toks[i].to_vec(), toks[j].to_vec());
        prop_assume!(in_order(&text, &a, &b));
        let pred = |c: &[u8]| if in_order(c, &a, &b) { Outcome::Interesting } else { Outcome::NotInteresting };

        // Text ddmin.
        let mut p = pred;
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, &text, Strategy::Ddmin, &mut t).unwrap();
        prop_assert!(in_order(&r.output, &a, &b) && r.output.len() <= text.len());

        // Text auto (choice passes on the parse tree's choice sequence,
        // Perses, HDD*, restructure, polish): interesting and no larger;
        // with an oracle that rejects non-sentences, a sentence.
        for strict in [false, true] {
            let mut p = |c: &[u8]| {
                if strict && parse_expr(&g, c).is_none() { Outcome::Invalid } else { pred(c) }
            };
            let mut o = FnOracle::new(&mut p);
            let mut t = Tester::new(&mut o);
            let r = reduce_text(Some(&g), &text, Strategy::Auto, &mut t).unwrap();
            prop_assert!(in_order(&r.output, &a, &b));
            prop_assert!(r.output.len() <= text.len());
            if strict {
                prop_assert!(parse_expr(&g, &r.output).is_some());
            }
        }

        // Tree reducers on the decoded tree: valid sentences.
        let passes: [TreeFn; 3] = [perses::perses, hdd::hdd, grabr::grabr];
        for f in passes {
            let mut p = |c: &[u8]| if parse_expr(&g, c).is_some() { pred(c) } else { Outcome::Invalid };
            let mut o = FnOracle::new(&mut p);
            let mut t = Tester::new(&mut o);
            let ctx = TreeCtx::new(&g, Render::Text);
            let out = f(&ctx, decode_tree(&g, &choices, &CFG), &mut t).unparse(&g);
            prop_assert!(in_order(&out, &a, &b));
            prop_assert!(out.len() <= text.len());
            prop_assert!(parse_expr(&g, &out).is_some(), "not a sentence: {:?}", String::from_utf8_lossy(&out));
            prop_assert_eq!(t.stats().invalid, 0, "tree edits must stay valid");
        }

        // Choice-sequence strategies: outputs decode to interesting text.
        for s in [Strategy::Ddmin, Strategy::Choices, Strategy::Auto] {
            let mut p = |c: &[u8]| pred(&decode(&g, c, &CFG));
            let mut o = FnOracle::new(&mut p);
            let mut t = Tester::new(&mut o);
            let r = reduce_choices(&g, &CFG, &choices, s, &mut t).unwrap();
            prop_assert!(!shortlex_lt(&choices, &r.output));
            let out = decode(&g, &r.output, &CFG);
            prop_assert!(in_order(&out, &a, &b));
            prop_assert!(parse_expr(&g, &out).is_some());
        }
    }
}
