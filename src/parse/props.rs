//! Property tests: the optimised tables give the same trees and the same
//! errors as the general ones ([`super::Parser::general`]) on random
//! grammars (empty rules, left and right recursion, ambiguity, multi-byte
//! terminals, byte classes) and on random inputs, valid and invalid.

use super::Parser;
use crate::generate::{decode, DecodeConfig};
use crate::grammar::Grammar;
use proptest::prelude::*;

/// Terminals drawn from a small alphabet so random inputs often parse.
const TERMS: &[&str] = &["a", "b", "ab", "ba", "c"];
const SYMS: usize = 5;

/// An element: a terminal, or nonterminal `<n0>`..`<n4>` (`<n4>` is a
/// byte class, `<n3>` a right-recursive list when drawn so).
fn elem() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..TERMS.len()).prop_map(|i| format!("{:?}", TERMS[i])),
        (0..SYMS).prop_map(|i| format!("\"<n{i}>\"")),
    ]
}

fn grammar_src() -> impl Strategy<Value = String> {
    let alt = prop::collection::vec(elem(), 0..4);
    let alts = prop::collection::vec(alt, 1..4);
    prop::collection::vec(alts, SYMS - 1).prop_map(|syms| {
        let mut out = String::from(r#"{"<start>": [["<n0>"], ["<n0>", "<n3>"]]"#);
        for (i, alts) in syms.iter().enumerate() {
            let alts: Vec<String> = alts.iter().map(|a| format!("[{}]", a.join(", "))).collect();
            out.push_str(&format!(r#", "<n{i}>": [{}]"#, alts.join(", ")));
        }
        out.push_str(r#", "<n4>": [["a"], ["c"]]}"#);
        out
    })
}

fn check(g: &Grammar, text: &[u8]) {
    let fast = Parser::new(g);
    let general = Parser::general(g);
    let a = fast.parse(text);
    let b = general.parse(text);
    assert_eq!(
        a.as_ref().map(|t| t.nodes()),
        b.as_ref().map(|t| t.nodes()),
        "{:?}",
        String::from_utf8_lossy(text)
    );
    assert_eq!(a.map_err(|e| e.message), b.map_err(|e| e.message));
    for s in 0..g.num_symbols() {
        let s = crate::grammar::SymbolId(s as u32);
        let a = fast.parse_from(s, text);
        let b = general.parse_from(s, text);
        assert_eq!(a, b, "as {}", g.name(s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn same_trees_and_errors_as_the_general_tables(
        src in grammar_src(),
        choices in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 1..6),
        noise in prop::collection::vec(prop::collection::vec(0..TERMS.len(), 0..12), 0..4),
    ) {
        let Ok(g) = Grammar::from_json_str(&src, &Default::default()) else {
            return Ok(()); // unproductive symbols etc.: not a grammar
        };
        let cfg = DecodeConfig { max_depth: 12, max_len: 60 };
        for c in &choices {
            check(&g, &decode(&g, c, &cfg));
        }
        for n in &noise {
            let text: String = n.iter().map(|&i| TERMS[i]).collect();
            check(&g, text.as_bytes());
        }
    }
}

#[test]
fn shipped_grammars_give_the_same_trees() {
    for name in ["json", "expr", "sql", "html"] {
        let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let cfg = DecodeConfig {
            max_depth: 40,
            max_len: 400,
        };
        for seed in 0..40u8 {
            let choices: Vec<u8> = (0..300u32)
                .map(|k| (k.wrapping_mul(2_654_435_761) >> 13) as u8 ^ seed.wrapping_mul(97))
                .collect();
            let text = decode(&g, &choices, &cfg);
            check(&g, &text);
            // A damaged copy: same errors.
            let mut bad = text.clone();
            if !bad.is_empty() {
                let k = seed as usize % bad.len();
                bad[k] = b"x\"{]1 "[seed as usize % 6];
                check(&g, &bad);
            }
        }
    }
}
