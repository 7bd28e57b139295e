use super::*;
use crate::generate::{decode_tree, DecodeConfig};
use crate::grammar::{Grammar, LoadOptions};
use rand::{RngExt, SeedableRng};

fn expr() -> Grammar {
    Grammar::from_path(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json")),
        &LoadOptions::default(),
    )
    .unwrap()
}

fn double_paren(_: &crate::tree::Tree, s: &[u8]) -> Verdict {
    paren_text(s)
}

fn paren_text(s: &[u8]) -> Verdict {
    let s = String::from_utf8_lossy(s);
    match (s.find("(("), s.rfind("))")) {
        (Some(a), Some(b)) if a < b => Verdict::Fail,
        _ => Verdict::Pass,
    }
}

fn rand_bytes(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let len = rng.random_range(0..40);
    let mut b = vec![0u8; len];
    rand::Rng::fill_bytes(rng, &mut b);
    b
}

/// The tree of `((1))`: expr→term→factor "(<expr>)" twice, then digit 1.
/// `(<expr>)` is alternative 4 of 5 of `<factor>` (simplest first), chosen
/// by byte ceil(4*256/5) = 205; digit 1 of 10 by ceil(256/10) = 26.
fn double_paren_tree(g: &Grammar) -> crate::tree::Tree {
    let t = decode_tree(
        g,
        &[0, 0, 205, 0, 0, 205, 0, 0, 0, 0, 26],
        &DecodeConfig::default(),
    );
    assert_eq!(t.unparse(g), b"((1))");
    t
}

/// A decoded expr tree whose text satisfies `pred`, found by seeded search.
fn find_tree(g: &Grammar, pred: impl Fn(&[u8]) -> bool) -> crate::tree::Tree {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..100_000 {
        let len = rng.random_range(0..40);
        let mut b = vec![0u8; len];
        rand::Rng::fill_bytes(&mut rng, &mut b);
        let t = decode_tree(g, &b, &DecodeConfig::default());
        if pred(&t.unparse(g)) {
            return t;
        }
    }
    panic!("no tree found");
}

#[test]
fn double_parentheses_generalise_to_expr_hole_with_both_variants() {
    let g = expr();
    // A small tree like "((1))": both variants must find ((<expr>)).
    let t = double_paren_tree(&g);
    for variant in [Variant::Simple, Variant::Paper] {
        for seed in 0..5 {
            let cfg = GeneralizeConfig {
                variant,
                seed,
                ..Default::default()
            };
            let r = generalize(&g, &t, &cfg, double_paren);
            let p = r.pattern.render(&g);
            assert!(p.starts_with("((") && p.ends_with("))"), "{variant:?}: {p}");
            assert!(
                p.contains('<'),
                "{variant:?} seed {seed}: nothing abstracted in {p}"
            );
            assert!(r.executions > 0);
            let prec = precision(&g, &r.pattern, 200, 1, &cfg.instance, double_paren);
            assert_eq!(prec.ratio(), 1.0, "{p}");
        }
    }
}

#[test]
fn nothing_abstract_when_every_change_passes() {
    let g = expr();
    let t = find_tree(&g, |s| s.len() > 3);
    let text = t.unparse(&g);
    let r = generalize(
        &g,
        &t,
        &GeneralizeConfig::default(),
        |_: &crate::tree::Tree, s: &[u8]| {
            if s == text.as_slice() {
                Verdict::Fail
            } else {
                Verdict::Pass
            }
        },
    );
    assert!(r.pattern.abstract_nodes().is_empty());
    assert_eq!(r.pattern.render(&g).as_bytes(), text.as_slice());
}

#[test]
fn always_failing_abstracts_the_root() {
    let g = expr();
    let t = find_tree(&g, |s| s.len() > 3);
    let r = generalize(
        &g,
        &t,
        &GeneralizeConfig::default(),
        |_: &crate::tree::Tree, _: &[u8]| Verdict::Fail,
    );
    assert_eq!(r.pattern.render(&g), "<start>");
}

#[test]
fn invalid_outcomes_are_bounded() {
    let g = expr();
    let t = find_tree(&g, |s| s.len() > 3);
    let text = t.unparse(&g);
    let cfg = GeneralizeConfig {
        max_invalid: 5,
        ..Default::default()
    };
    let r = generalize(&g, &t, &cfg, |_: &crate::tree::Tree, s: &[u8]| {
        if s == text.as_slice() {
            Verdict::Fail
        } else {
            Verdict::Invalid
        }
    });
    assert!(r.pattern.abstract_nodes().is_empty());
    assert!(!r.gave_up.is_empty());
    assert!(r.invalid > 0);
}

#[test]
fn pattern_matches_its_instances_and_not_others() {
    let g = expr();
    let t = double_paren_tree(&g);
    let r = generalize(&g, &t, &GeneralizeConfig::default(), double_paren);
    assert!(r.pattern.matches(&g, &t));
    // An instance tree: the abstract node replaced by a random <expr>.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..20 {
        let hole = r.pattern.abstract_nodes()[0];
        let sym = t.symbol(&g, hole).unwrap();
        let fresh = crate::generate::decode_tree_from(
            &g,
            sym,
            &rand_bytes(&mut rng),
            &DecodeConfig::default(),
        );
        assert!(r
            .pattern
            .matches(&g, &t.replace(hole, &fresh, fresh.root())));
    }
    let other = find_tree(&g, |s| paren_text(s) == Verdict::Pass && s.len() > 2);
    assert!(!r.pattern.matches(&g, &other));
}

#[test]
fn pattern_file_round_trips_through_json() {
    let g = expr();
    let t = double_paren_tree(&g);
    let r = generalize(&g, &t, &GeneralizeConfig::default(), double_paren);
    let f = r.pattern.to_file(&g);
    let json = serde_json::to_string(&f).unwrap();
    let back: PatternFile = serde_json::from_str(&json).unwrap();
    let p = Pattern::from_file(&g, &back).unwrap();
    assert_eq!(p.abstract_nodes(), r.pattern.abstract_nodes());
    let labels = |t: &crate::tree::Tree| {
        t.nodes()
            .iter()
            .map(|n| (n.label(), n.parent))
            .collect::<Vec<_>>()
    };
    assert_eq!(labels(p.tree()), labels(r.pattern.tree()));
    assert!(p.matches(&g, r.pattern.tree()));
    assert_eq!(f.pattern, r.pattern.render(&g));
}

#[test]
fn pattern_file_errors_name_the_node() {
    let g = expr();
    let bad = PatternFile {
        pattern: String::new(),
        nodes: vec![PatternNode {
            symbol: Some("<nope>".into()),
            alternative: Some(0),
            text: None,
            bytes: None,
            parent: None,
            is_abstract: false,
        }],
    };
    let e = Pattern::from_file(&g, &bad).unwrap_err();
    assert!(e.contains("node 0") && e.contains("<nope>"), "{e}");
}

#[test]
fn generalisation_is_deterministic() {
    let g = expr();
    let t = double_paren_tree(&g);
    let a = generalize(&g, &t, &GeneralizeConfig::default(), double_paren);
    let b = generalize(&g, &t, &GeneralizeConfig::default(), double_paren);
    assert_eq!(a.pattern, b.pattern);
    assert_eq!(a.executions, b.executions);
}

#[test]
fn refine_leaves_a_precise_pattern_alone() {
    let g = expr();
    let t = double_paren_tree(&g);
    let r = generalize(&g, &t, &GeneralizeConfig::default(), double_paren);
    let before = r.pattern.render(&g);
    let refined = refine(
        &g,
        r.pattern,
        60,
        3,
        &InstanceConfig::default(),
        double_paren,
    );
    assert_eq!(refined.pattern.render(&g), before);
    assert_eq!(refined.concretised, 0);
    assert_eq!(refined.precision.pass, 0);
    // Each failing instance once.
    let f = &refined.failing;
    assert!(!f.is_empty() && f.len() as u64 <= refined.precision.fail);
    assert!(f.iter().enumerate().all(|(i, x)| !f[..i].contains(x)));
    assert_eq!(refined.executions, 60);
}

#[test]
fn refine_makes_only_the_disproved_abstraction_concrete() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<d>-<d>-<d>"], "<d>": ["0", "1", "2", "3", "4"]}"#,
        &LoadOptions::default(),
    )
    .unwrap();
    let t = decode_tree(&g, &[60, 60, 60], &DecodeConfig::default());
    assert_eq!(t.unparse(&g), b"1-1-1");
    let digits: Vec<_> = t
        .children(t.root())
        .filter(|&n| t.symbol(&g, n).is_some())
        .collect();
    let all = Pattern::with_abstract(t.clone(), &digits);
    // Passes when the middle digit is 2, whatever the others are.
    let middle_two = |_: &crate::tree::Tree, s: &[u8]| {
        if s[2] == b'2' {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    };
    for seed in 0..8 {
        let r = refine(
            &g,
            all.clone(),
            30,
            seed,
            &InstanceConfig::default(),
            middle_two,
        );
        assert_eq!(r.pattern.render(&g), "<d>-1-<d>", "seed {seed}");
        assert_eq!(
            (r.precision.fail, r.precision.pass, r.concretised),
            (30, 0, 1)
        );
        assert!(r.failing.iter().all(|f| r.pattern.matches(&g, f)));
    }
}

/// A list of letters, the tree of `abab…` (30 letters), and an oracle
/// that fails iff the text is at least 30 letters long: each `<x>` may be
/// any letter, all of them at once too, and the last list any nonempty
/// list.
fn thirty_letters() -> (Grammar, Tree) {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<xs>"], "<xs>": ["<x>", "<x><xs>"], "<x>": ["a", "b", "c"]}"#,
        &LoadOptions::default(),
    )
    .unwrap();
    let text = "ab".repeat(15);
    let t = crate::parse::Parser::new(&g)
        .parse(text.as_bytes())
        .unwrap();
    (g, t)
}

fn long(_: &Tree, s: &[u8]) -> Verdict {
    match s.len() >= 30 {
        true => Verdict::Fail,
        false => Verdict::Pass,
    }
}

#[test]
fn abstractions_that_hold_together_are_verified_at_once() {
    let (g, t) = thirty_letters();
    let r = generalize(&g, &t, &GeneralizeConfig::default(), long);
    assert_eq!(r.pattern.render(&g), "<x>".repeat(29) + "<xs>");
    // Judging each node alone costs about 3 runs per `<x>` (3 letters);
    // then one judgement of the whole pattern (10 runs), where verifying
    // one candidate more at a time took 10 runs per candidate (370 in
    // all).
    assert!(r.executions < 150, "{} executions", r.executions);
}

#[test]
fn a_spent_budget_leaves_the_rest_concrete_and_the_pattern_sound() {
    // 40 of the 51 executions the whole generalisation takes: judging
    // stops at three quarters of them, before the last list, which stays
    // concrete; the letters, judged one of each kind early (their twins
    // share the verdict), are verified together in the quarter left.
    let (g, t) = thirty_letters();
    let free = generalize(&g, &t, &GeneralizeConfig::default(), long);
    assert!(
        !free.budget_spent && free.executions > 40,
        "{}",
        free.executions
    );
    let budget = 40;
    let cfg = GeneralizeConfig {
        max_executions: budget,
        ..Default::default()
    };
    let r = generalize(&g, &t, &cfg, long);
    assert!(
        r.budget_spent && r.executions <= budget,
        "{} executions",
        r.executions
    );
    assert_eq!(free.pattern.render(&g), "<x>".repeat(29) + "<xs>");
    assert_eq!(r.pattern.render(&g), "<x>".repeat(30));
    // What it abstracted still holds: every instance fails.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        let i = r
            .pattern
            .instantiate(&g, &mut rng, &InstanceConfig::default());
        assert_eq!(long(&i, &i.unparse(&g)), Verdict::Fail);
    }
}

#[test]
fn each_kind_of_subtree_is_judged_once() {
    // `abab…`: 30 letters of two kinds. The first `a` and the first `b`
    // are judged (10 runs each); the other 28 take their verdict. Judging
    // every letter alone took more than 60 runs in all.
    let (g, t) = thirty_letters();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    let r = generalize(&g, &t, &GeneralizeConfig::default(), |t, s| {
        texts.push(s.to_vec());
        long(t, s)
    });
    assert_eq!(r.pattern.render(&g), "<x>".repeat(29) + "<xs>");
    assert!(r.executions <= 55, "{} executions", r.executions);
    // No run changes the third letter alone: it is the first `a`'s twin.
    let alone = |s: &Vec<u8>| {
        s.len() == 30 && s[2] != b'a' && s[..2] == *b"ab" && s[3..] == t.unparse(&g)[3..]
    };
    assert!(!texts.iter().any(alone));
}

#[test]
fn a_twin_whose_borrowed_verdict_fails_stays_concrete_cheaply() {
    // Thirty `a`s fail while all but the first stay `a`: the first may be
    // any letter, its 29 twins not. They borrow its verdict, the joint
    // check refutes it, and the judged one stands alone, where checking
    // the 29 one by one took a run each.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<s>"], "<s>": ["<c>", "<c><s>"],
            "<c>": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]}"#,
        &LoadOptions::default(),
    )
    .unwrap();
    let t = crate::parse::Parser::new(&g).parse(&[b'a'; 30]).unwrap();
    let r = generalize(&g, &t, &GeneralizeConfig::default(), |_, s| {
        if s.len() == 30 && s[1..].iter().all(|&c| c == b'a') {
            Verdict::Fail
        } else {
            Verdict::Pass
        }
    });
    assert_eq!(r.pattern.render(&g), format!("<c>{}", "a".repeat(29)));
    assert!(r.executions <= 50, "{} executions", r.executions);
}
