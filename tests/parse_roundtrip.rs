//! Parse ∘ unparse and decode ∘ encode ∘ parse round trips on every shipped
//! grammar, for random generated trees and for the reference examples.

use grammar_min::encode::{encode, encode_auto};
use grammar_min::generate::{decode, decode_tree, DecodeConfig};
use grammar_min::grammar::Grammar;
use grammar_min::parse::Parser;
use grammar_min::tree::{Label, Tree};
use proptest::prelude::*;
use std::path::PathBuf;

fn grammar_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("grammars")
}

fn shipped() -> Vec<(String, Grammar)> {
    let mut v: Vec<(String, Grammar)> = std::fs::read_dir(grammar_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let g = Grammar::from_path(&p, &Default::default()).unwrap();
            (p.file_stem().unwrap().to_string_lossy().into_owned(), g)
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(v.len() >= 5, "shipped grammars missing");
    v
}

fn load(name: &str) -> Grammar {
    Grammar::from_path(
        &grammar_dir().join(format!("{name}.json")),
        &Default::default(),
    )
    .unwrap()
}

/// Labels and parents: the shape of a tree, without choice spans.
fn shape(t: &Tree) -> Vec<(Label, u32)> {
    t.nodes().iter().map(|n| (n.label(), n.parent)).collect()
}

/// Parses `text`, checks it unparses to itself, encodes the tree and checks
/// that decoding gives back the same tree and text.
fn check_text(g: &Grammar, p: &Parser<'_>, text: &[u8], cfg: &DecodeConfig) {
    let tree = p
        .parse(text)
        .unwrap_or_else(|e| panic!("{:?} does not parse: {e}", String::from_utf8_lossy(text)));
    assert_eq!(tree.unparse(g), text);
    let (choices, used) = encode_auto(g, &tree, cfg).expect("parsed trees encode");
    assert_eq!(decode(g, &choices, &used), text);
    assert_eq!(shape(&decode_tree(g, &choices, &used)), shape(&tree));
    if used == *cfg {
        assert_eq!(encode(g, &tree, cfg).unwrap(), choices);
    }
}

#[test]
fn reference_examples_round_trip() {
    let cfg = DecodeConfig::default();
    for (grammar, text) in [
        ("expr", "1 + (2 * 3)"),
        ("expr", "1 + ((2 * 3 / 4))"),
        ("html", "<foo>\"bar</foo>"),
        ("int", "-1"),
        ("xyz", "2, 1, 3"),
        ("assign", "a = (b + 1);\nc = ((0 - d));\n"),
        (
            "sql",
            "SELECT a, count(*) FROM t1 WHERE b IS NOT NULL GROUP BY a;",
        ),
        ("json", "{\"a\": [1, 2.5e-3, \"x\\u00e9\", true, null]}"),
    ] {
        let g = load(grammar);
        check_text(&g, &Parser::new(&g), text.as_bytes(), &cfg);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random choice sequences decode to trees whose text parses back to
    /// the same text, and the parsed tree encodes to a sequence that decodes
    /// to it again — on every shipped grammar.
    #[test]
    fn generated_texts_round_trip(choices in proptest::collection::vec(any::<u8>(), 0..96)) {
        let cfg = DecodeConfig { max_depth: 24, max_len: 400 };
        for (_, g) in shipped() {
            let p = Parser::new(&g);
            let text = decode_tree(&g, &choices, &cfg).unparse(&g);
            check_text(&g, &p, &text, &cfg);
        }
    }

    /// A tree that came from the decoder encodes to a sequence that decodes
    /// to exactly that tree (no parsing involved).
    #[test]
    fn decoded_trees_encode_to_themselves(choices in proptest::collection::vec(any::<u8>(), 0..96)) {
        let cfg = DecodeConfig { max_depth: 16, max_len: 200 };
        for (_, g) in shipped() {
            let tree = decode_tree(&g, &choices, &cfg);
            let enc = encode(&g, &tree, &cfg).expect("decoded trees fit their own config");
            prop_assert_eq!(shape(&decode_tree(&g, &enc, &cfg)), shape(&tree));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Corrupted sentences (one byte replaced, deleted or inserted) never
    /// make the parser panic; an error points inside the input, a success
    /// reproduces the input.
    #[test]
    fn corrupted_texts_never_panic(
        choices in proptest::collection::vec(any::<u8>(), 0..64),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        op in 0..3u8,
    ) {
        let cfg = DecodeConfig { max_depth: 20, max_len: 300 };
        for (_, g) in shipped() {
            let p = Parser::new(&g);
            let mut text = decode_tree(&g, &choices, &cfg).unparse(&g);
            let i = at.index(text.len() + 1);
            match op {
                0 if i < text.len() => text[i] = byte,
                1 if i < text.len() => { text.remove(i); }
                _ => text.insert(i, byte),
            }
            match p.parse(&text) {
                Ok(t) => prop_assert_eq!(t.unparse(&g), text),
                Err(e) => {
                    prop_assert!(e.offset <= text.len());
                    prop_assert!(e.line >= 1 && e.column >= 1);
                    prop_assert!(!e.message.is_empty());
                }
            }
        }
    }
}

#[test]
fn budget_errors_name_the_value_needed() {
    let g = load("json");
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let tree = Parser::new(&g).parse(deep.as_bytes()).unwrap();
    let small = DecodeConfig {
        max_depth: 100,
        max_len: 1 << 20,
    };
    let e = encode(&g, &tree, &small).unwrap_err();
    assert!(e.message.contains("max_depth 100"), "{e}");
    let needed: u32 = e
        .message
        .split("needs max_depth >= ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .and_then(|s| s.parse().ok())
        .expect("message names the depth needed");
    let enough = DecodeConfig {
        max_depth: needed,
        ..small
    };
    let choices = encode(&g, &tree, &enough).unwrap();
    assert_eq!(decode(&g, &choices, &enough), deep.as_bytes());
    let too_little = DecodeConfig {
        max_depth: needed - 1,
        ..small
    };
    assert!(encode(&g, &tree, &too_little).is_err());

    let long = format!("[{}0]", "0, ".repeat(200));
    let tree = Parser::new(&g).parse(long.as_bytes()).unwrap();
    let e = encode(
        &g,
        &tree,
        &DecodeConfig {
            max_depth: 10_000,
            max_len: 50,
        },
    )
    .unwrap_err();
    assert!(e.message.contains("too long for max_len 50"), "{e}");
}

#[test]
fn hook_text_cannot_be_encoded() {
    let g = load("expr");
    let tree = Parser::new(&g).parse(b"1").unwrap();
    // Replace the <digit> subtree (rule node and its terminal) by hook text.
    let mut nodes = tree.nodes().to_vec();
    nodes.pop();
    let digit = g.symbol_by_name("<digit>").unwrap();
    let last = nodes.len() - 1;
    assert_eq!(
        tree.symbol(&g, grammar_min::tree::NodeId(last as u32)),
        Some(digit)
    );
    nodes[last].set_label(Label::Text(0));
    let hooked =
        Tree::from_preorder(nodes, vec![(digit, b"7".to_vec().into_boxed_slice())]).unwrap();
    let e = encode(&g, &hooked, &DecodeConfig::default()).unwrap_err();
    assert!(e.message.contains("hook"), "{e}");
}

/// A 10 MB document built from the JSON corpus; slow in debug builds, so
/// run it with `cargo test --release --test parse_roundtrip -- --ignored`
/// (the `parse` benchmark also parses a generated 10 MB document).
#[test]
#[ignore]
fn ten_megabyte_json_parses() {
    let g = load("json");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/json-corpus");
    let mut docs: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    docs.sort();
    let mut text = b"[\n".to_vec();
    'fill: loop {
        for d in &docs {
            if text.len() > 10_000_000 {
                break 'fill;
            }
            if text.len() > 2 {
                text.extend_from_slice(b",\n");
            }
            text.extend_from_slice(d);
        }
    }
    text.extend_from_slice(b"\n]");
    let tree = Parser::new(&g).parse(&text).unwrap();
    assert_eq!(tree.unparse(&g), text);
}
