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
    for n in tree.nodes() {
        assert!(n.choices.start <= n.choices.end && n.choices.end as usize <= choices.len());
        if n.parent != grammar_min::tree::NO_PARENT {
            let p = &tree.nodes()[n.parent as usize].choices;
            assert!(
                p.start <= n.choices.start && n.choices.end <= p.end,
                "child span outside parent"
            );
        }
    }
});
