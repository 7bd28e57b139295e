//! Properties of the grammar-aware mutator and crossover, outside libFuzzer.

use grammar_min::generate::{decode, decode_tree, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::mutate::{MutationKind, Mutator, Splice, Weights};
use grammar_min::tree::{NodeId, Tree};
use proptest::prelude::*;
use std::collections::HashSet;

fn load(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(std::path::Path::new(&path), &LoadOptions::default()).unwrap()
}

const CFG: DecodeConfig = DecodeConfig {
    max_depth: 40,
    max_len: 400,
};

/// A stand-in for `libfuzzer_sys::fuzzer_mutate`: deterministic in its
/// input, sometimes growing, sometimes shrinking, always within `max`.
fn byte_mutate(d: &mut [u8], size: usize, max: usize) -> usize {
    if size == 0 {
        return 0;
    }
    let h = d[..size]
        .iter()
        .fold(7u32, |h, &b| h.wrapping_mul(31).wrapping_add(b as u32));
    d[h as usize % size] ^= 0x5a;
    match h % 3 {
        0 if size < max => {
            d[size] = h as u8;
            size + 1
        }
        1 => size - 1,
        _ => size,
    }
}

/// Recogniser for `grammars/expr.json`, written independently of the
/// library: `expr := term (" + " | " - ") expr | term`,
/// `term := factor (" * " | " / ") term | factor`,
/// `factor := ("+"|"-") factor | "(" expr ")" | int "." int | int`.
fn is_expr(s: &[u8]) -> bool {
    fn expr(s: &[u8], i: usize) -> Option<usize> {
        let i = term(s, i)?;
        for op in [&b" + "[..], b" - "] {
            if s[i..].starts_with(op) {
                return expr(s, i + 3);
            }
        }
        Some(i)
    }
    fn term(s: &[u8], i: usize) -> Option<usize> {
        let i = factor(s, i)?;
        for op in [&b" * "[..], b" / "] {
            if s[i..].starts_with(op) {
                return term(s, i + 3);
            }
        }
        Some(i)
    }
    fn int(s: &[u8], i: usize) -> Option<usize> {
        let n = s[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        (n > 0).then_some(i + n)
    }
    fn factor(s: &[u8], i: usize) -> Option<usize> {
        match s.get(i)? {
            b'+' | b'-' => factor(s, i + 1),
            b'(' => {
                let j = expr(s, i + 1)?;
                (s.get(j) == Some(&b')')).then_some(j + 1)
            }
            _ => {
                let j = int(s, i)?;
                if s.get(j) == Some(&b'.') {
                    int(s, j + 1)
                } else {
                    Some(j)
                }
            }
        }
    }
    expr(s, 0) == Some(s.len())
}

/// Is the Earley parser implemented yet? (`parse` is a placeholder that
/// rejects everything until the parse work lands; from then on every
/// mutant must parse.)
fn parser_works(g: &Grammar) -> bool {
    grammar_min::parse::parse(g, &decode(g, b"", &CFG)).is_ok()
}

fn labels(t: &Tree, id: NodeId) -> Vec<grammar_min::tree::Label> {
    t.subtree(id).map(|n| t.node(n).label()).collect()
}

fn seeded_mutator<'g>(g: &'g Grammar, pool: &[Vec<u8>]) -> Mutator<'g> {
    let mut m = Mutator::new(g, CFG);
    for p in pool {
        m.remember(p);
    }
    m
}

#[test]
fn recogniser_accepts_decoded_sentences_and_rejects_others() {
    let g = load("expr");
    for seed in 0u8..64 {
        let bytes: Vec<u8> = (0..40u8)
            .map(|i| seed.wrapping_mul(37).wrapping_add(i.wrapping_mul(11)))
            .collect();
        assert!(is_expr(&decode(&g, &bytes, &CFG)));
    }
    for bad in [&b""[..], b"1 +", b"(1", b"1.", b"1+2", b"()"] {
        assert!(!is_expr(bad), "{}", String::from_utf8_lossy(bad));
    }
}

#[test]
fn every_operator_is_used() {
    let g = load("expr");
    let mut m = seeded_mutator(&g, &[vec![9, 200, 3, 77, 150], vec![250, 250, 1, 2, 3]]);
    let mut seen = HashSet::new();
    for seed in 0..400 {
        let (_, kind) = m.mutate(&[200, 100, 255, 7, 180, 90, 3], 128, seed, &mut byte_mutate);
        seen.insert(kind);
    }
    for k in [
        MutationKind::Regenerate,
        MutationKind::Simplify,
        MutationKind::RecursiveExpand,
        MutationKind::Splice,
        MutationKind::Bytes,
    ] {
        assert!(seen.contains(&k), "{k:?} never chosen");
    }
}

#[test]
fn recursive_expansion_deepens_json() {
    let g = load("json");
    let only = Weights {
        regenerate: 0,
        simplify: 0,
        recursive_expand: 1,
        splice: 0,
        bytes: 0,
    };
    let mut m = Mutator::new(&g, DecodeConfig::default()).with_weights(only);
    // Find an input whose tree has a recursive pair, then expand it.
    let input: Vec<u8> = (0..64u8)
        .map(|i| i.wrapping_mul(97).wrapping_add(13))
        .collect();
    let before = decode_tree(&g, &input, &DecodeConfig::default()).depth();
    let deeper = (0..32).any(|seed| {
        let (out, kind) = m.mutate(&input, 4096, seed, &mut byte_mutate);
        kind == MutationKind::RecursiveExpand
            && decode_tree(&g, &out, &DecodeConfig::default()).depth() > before
    });
    assert!(deeper);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn mutants_are_sentences_within_max_size(
        input in proptest::collection::vec(any::<u8>(), 0..80),
        pool in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..4),
        max_size in 0usize..120,
        seed in any::<u64>(),
    ) {
        let g = load("expr");
        let check_parse = parser_works(&g);
        let mut m = seeded_mutator(&g, &pool);
        let (out, kind) = m.mutate(&input, max_size, seed, &mut byte_mutate);
        prop_assert!(out.len() <= max_size, "{kind:?} gave {} > {max_size} bytes", out.len());
        let text = decode(&g, &out, &CFG);
        prop_assert!(is_expr(&text), "{kind:?}: {}", String::from_utf8_lossy(&text));
        if check_parse {
            prop_assert!(grammar_min::parse::parse(&g, &text).is_ok());
        }
        // The libFuzzer-shaped entry point agrees and respects the buffer.
        let mut m2 = seeded_mutator(&g, &pool);
        let mut buf = input.clone();
        buf.resize(input.len().max(max_size), 0);
        let n = m2.mutate_in_place(&mut buf, input.len(), max_size, seed as u32, &mut byte_mutate);
        prop_assert!(n <= max_size);
    }

    #[test]
    fn same_seed_same_mutant(
        input in proptest::collection::vec(any::<u8>(), 0..80),
        pool in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..4),
        seed in any::<u64>(),
    ) {
        let g = load("json");
        let mut a = seeded_mutator(&g, &pool);
        let mut b = a.clone();
        let ra = a.mutate(&input, 256, seed, &mut byte_mutate);
        let rb = b.mutate(&input, 256, seed, &mut byte_mutate);
        prop_assert_eq!(ra, rb);
        let c = Mutator::new(&g, CFG);
        prop_assert_eq!(c.crossover(&input, &[7, 7, 200], 256, seed), c.crossover(&input, &[7, 7, 200], 256, seed));
    }

    #[test]
    fn crossover_grafts_a_subtree_of_the_second_parent(
        a in proptest::collection::vec(any::<u8>(), 0..60),
        b in proptest::collection::vec(any::<u8>(), 0..60),
        seed in any::<u64>(),
    ) {
        // Default budgets: nothing is restricted at these sizes, so span
        // splicing is exact (see the module docs of `mutate`).
        let cfg = DecodeConfig::default();
        let g = load("json");
        let m = Mutator::new(&g, cfg);
        let (out, splice) = m.crossover(&a, &b, 1 << 16, seed);
        // Both parents have a <start> node, so a graft always exists.
        let Splice { target, donor } = splice.expect("parents share <start>");
        let ta = decode_tree(&g, &a, &cfg);
        let tb = decode_tree(&g, &b, &cfg);
        let to = decode_tree(&g, &out, &cfg);
        prop_assert_eq!(ta.symbol(&g, target), tb.symbol(&g, donor));
        prop_assert_eq!(labels(&to, target), labels(&tb, donor));
        prop_assert_eq!(to.node_text(&g, target), tb.node_text(&g, donor));
        // Everything before the graft is the first parent's.
        for i in 0..target.0 {
            prop_assert_eq!(to.node(NodeId(i)).label(), ta.node(NodeId(i)).label());
        }
        let text = decode(&g, &out, &cfg);
        let mut expect = Vec::new();
        ta.unparse_with(&g, target, Some((&tb, donor)), &mut expect);
        prop_assert_eq!(text, expect);
    }
}
