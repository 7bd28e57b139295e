//! Property: whatever JSON-ish text the loader is given, it never panics, and
//! anything it accepts is a consistent grammar.

use grammar_min::grammar::{Grammar, LoadOptions};
use proptest::prelude::*;

/// Tokens that make "almost grammars" likely.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"<start>\"",
        "\"<a>\"",
        "\"<b>\"",
        "\"x\"",
        "\"\"",
        "\"<a> <b>\"",
        "\"<\"",
        "\"<a\"",
        "1",
        "-3",
        "300",
        "1.5",
        "null",
        "true",
        " ",
        "\n",
        "\"\\u00ff\"",
        "\"\\ud800\"",
        "\"<start><start>\"",
        "{\"<start>\": [",
        "]}",
    ])
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..400).prop_map(Value::from),
        prop::sample::select(vec![
            "<start>", "<a>", "<b>", "x", "", "<a><b>", "(<a>)", "<"
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["<start>", "<a>", "<b>", "x"]),
                    inner
                ),
                0..4
            )
            .prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

fn check_consistent(g: &Grammar) {
    let start = g.start();
    assert!(g.symbol(start).productive);
    for s in g.symbols() {
        // Alternatives are sorted simplest first.
        let rules: Vec<_> = (s.rules.start..s.rules.end).collect();
        for w in rules.windows(2) {
            let a = g.rule(grammar_min::grammar::RuleId(w[0]));
            let b = g.rule(grammar_min::grammar::RuleId(w[1]));
            assert!((a.min_depth, a.min_len) <= (b.min_depth, b.min_len));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn token_soup_never_panics(toks in prop::collection::vec(token(), 0..40)) {
        let src: String = toks.concat();
        if let Ok(g) = Grammar::from_json_str(&src, &LoadOptions::default()) {
            check_consistent(&g);
        }
    }

    #[test]
    fn arbitrary_json_values_never_panic(v in json_value()) {
        let src = v.to_string();
        if let Ok(g) = Grammar::from_json_str(&src, &LoadOptions::default()) {
            check_consistent(&g);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
        let _ = Grammar::from_json_str(&src, &LoadOptions::default());
    }
}
