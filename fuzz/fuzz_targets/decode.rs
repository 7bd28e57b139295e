//! Self-fuzzing: decoding is total on the shipped grammars, the fast path
//! agrees with the tree path, and node choice spans nest.
#![no_main]

use grammar_min::generate::{decode, decode_tree};
use grammar_min::grammar::Grammar;
use std::sync::OnceLock;

fn grammars() -> &'static [Grammar] {
    static G: OnceLock<Vec<Grammar>> = OnceLock::new();
    G.get_or_init(|| grammar_min_fuzz::shipped_grammars(&["expr", "json", "sql", "calc"]))
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((g, choices)) = grammar_min_fuzz::pick_grammar(grammars(), data) else {
        return;
    };
    let cfg = grammar_min_fuzz::SELF_FUZZ_CONFIG;
    let text = decode(g, choices, &cfg);
    let tree = decode_tree(g, choices, &cfg);
    assert_eq!(tree.unparse(g), text, "tree and fast path disagree");
    for (i, n) in tree.nodes().iter().enumerate() {
        let c = tree.choices(grammar_min::tree::NodeId(i as u32));
        assert!(c.start <= c.end && c.end as usize <= choices.len());
        if n.parent != grammar_min::tree::NO_PARENT {
            let p = tree.choices(grammar_min::tree::NodeId(n.parent));
            assert!(
                p.start <= c.start && c.end <= p.end,
                "child span outside parent"
            );
        }
    }
});
