//! Self-fuzzing the Earley parser: arbitrary text never panics, and a parse
//! tree unparses to the text it came from. The second half also parses the
//! sentence the same bytes decode to, which must succeed once the parser is
//! implemented (until then `parse` returns an error for everything).
#![no_main]

use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::Grammar;
use grammar_min::parse::parse;
use std::sync::OnceLock;

fn grammars() -> &'static [Grammar] {
    static G: OnceLock<Vec<Grammar>> = OnceLock::new();
    G.get_or_init(|| grammar_min_fuzz::shipped_grammars(&["expr", "json"]))
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((g, rest)) = grammar_min_fuzz::pick_grammar(grammars(), data) else {
        return;
    };
    if let Ok(tree) = parse(g, rest) {
        assert_eq!(
            tree.unparse(g),
            rest,
            "parse tree does not unparse to its input"
        );
    }
    let sentence = decode(
        g,
        rest,
        &DecodeConfig {
            max_depth: 32,
            max_len: 512,
        },
    );
    // A parser that accepts the simplest sentence is implemented; from then
    // on every decoded sentence must parse.
    let implemented = parse(g, &decode(g, b"", &DecodeConfig::default())).is_ok();
    match parse(g, &sentence) {
        Ok(tree) => assert_eq!(tree.unparse(g), sentence),
        Err(e) => assert!(!implemented, "a decoded sentence does not parse: {e}"),
    }
});
