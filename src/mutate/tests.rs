//! Unit tests of the operators' internals.

use super::*;
use crate::generate::decode;

fn grammar() -> Grammar {
    Grammar::from_json_str(
        r#"{"<start>": ["<e>"], "<e>": ["x", "(<e>)", "[<e>]", "<e>+<e>"]}"#,
        &Default::default(),
    )
    .unwrap()
}

fn no_bytes(_: &mut [u8], size: usize, _: usize) -> usize {
    size
}

#[test]
fn recursive_expansion_nests_the_recursive_subtree() {
    let g = grammar();
    let cfg = DecodeConfig::default();
    let only = Weights {
        regenerate: 0,
        simplify: 0,
        recursive_expand: 1,
        splice: 0,
        bytes: 0,
    };
    let mut m = Mutator::new(&g, cfg).with_weights(only);
    // "(x)": <e> → (<e>) → x
    let input = [100u8, 0];
    assert_eq!(decode(&g, &input, &cfg), b"(x)");
    let mut grew = false;
    for seed in 0..32 {
        let (out, kind) = m.mutate(&input, 64, seed, &mut no_bytes);
        assert_eq!(kind, MutationKind::RecursiveExpand);
        let text = decode(&g, &out, &cfg);
        let depth = text.iter().filter(|&&c| c == b'(').count();
        assert!(text.ends_with(b"x") || text.contains(&b'x'));
        grew |= depth >= 2;
    }
    assert!(grew);
}

#[test]
fn simplify_of_whole_input_gives_simplest_sentence() {
    let g = grammar();
    let cfg = DecodeConfig::default();
    let m = Mutator::new(&g, cfg);
    let d = Decoded::new(&g, &cfg, &[255, 100, 0]);
    let new = m.subtree_choices(g.start(), &[]);
    let out = finish(d.replaced(d.span(d.tree.root()), &new), 64);
    assert_eq!(decode(&g, &out, &cfg), b"x");
    assert!(out.is_empty());
}

#[test]
fn finish_drops_trailing_zeros_and_cuts() {
    assert_eq!(finish(vec![1, 0, 2, 0, 0], 10), vec![1, 0, 2]);
    assert_eq!(finish(vec![1, 2, 3], 2), vec![1, 2]);
}

#[test]
fn splice_with_an_empty_pool_copies_within_the_input() {
    let g = grammar();
    let cfg = DecodeConfig::default();
    let only = Weights {
        regenerate: 0,
        simplify: 0,
        recursive_expand: 0,
        splice: 1,
        bytes: 0,
    };
    // "(x)+[x]": two <e> subtrees of different shapes.
    let input = [255u8, 100, 0, 150];
    assert_eq!(decode(&g, &input, &cfg), b"(x)+[x]");
    let mut seen = std::collections::HashSet::new();
    for seed in 0..64 {
        let mut m = Mutator::new(&g, cfg)
            .with_weights(only)
            .with_pool_capacity(0);
        let (out, kind) = m.mutate(&input, 64, seed, &mut no_bytes);
        assert_eq!(kind, MutationKind::Splice);
        seen.insert(decode(&g, &out, &cfg));
    }
    // Copies of the input's own subtrees: e.g. "(x)+(x)" and "[x]+[x]".
    assert!(seen.contains(&b"(x)+(x)"[..]), "{seen:?}");
    assert!(seen.contains(&b"[x]+[x]"[..]), "{seen:?}");
}
