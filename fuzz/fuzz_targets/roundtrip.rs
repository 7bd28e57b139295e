//! Self-fuzzing decode → encode → decode: whenever the encoder succeeds,
//! its choice sequence decodes to the same tree. (The encoder is a
//! placeholder that always fails until the parse work lands.)
#![no_main]

use grammar_min::encode::encode;
use grammar_min::generate::decode_tree;
use grammar_min::grammar::Grammar;
use grammar_min::tree::Tree;
use std::sync::OnceLock;

fn grammars() -> &'static [Grammar] {
    static G: OnceLock<Vec<Grammar>> = OnceLock::new();
    G.get_or_init(|| grammar_min_fuzz::shipped_grammars(&["expr", "json", "calc"]))
}

/// Tree shape and labels, without choice spans (which differ when the
/// encoder picks other bytes for the same decisions).
fn shape(t: &Tree) -> Vec<(grammar_min::tree::Label, u32)> {
    t.nodes().iter().map(|n| (n.label(), n.parent)).collect()
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((g, choices)) = grammar_min_fuzz::pick_grammar(grammars(), data) else {
        return;
    };
    let cfg = grammar_min_fuzz::SELF_FUZZ_CONFIG;
    let tree = decode_tree(g, choices, &cfg);
    if let Ok(bytes) = encode(g, &tree, &cfg) {
        let again = decode_tree(g, &bytes, &cfg);
        assert_eq!(
            shape(&again),
            shape(&tree),
            "encode/decode round trip changed the tree"
        );
    }
});
