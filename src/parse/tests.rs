use super::*;
use crate::grammar::Grammar;
use crate::tree::Label;

fn load(src: &str) -> Grammar {
    Grammar::from_json_str(src, &Default::default()).unwrap()
}

fn shipped(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(path.as_ref(), &Default::default()).unwrap()
}

fn roundtrip(g: &Grammar, text: &[u8]) -> Tree {
    let t = parse(g, text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.unparse(g), text);
    // Every rule node's children match its body.
    crate::encode::needs(g, &t).expect("well-formed tree");
    t
}

/// The tree in bracket notation: `<sym>(children)` / `"term"`.
fn show(g: &Grammar, t: &Tree) -> String {
    let mut s = String::new();
    let mut close: Vec<u32> = Vec::new();
    for (i, n) in t.nodes().iter().enumerate() {
        while close.last().is_some_and(|&e| e as usize <= i) {
            close.pop();
            s.push(')');
        }
        match n.label() {
            Label::Rule(r) => {
                s.push_str(g.name(g.rule(r).lhs));
                s.push('(');
                close.push(i as u32 + n.size);
            }
            Label::Term(x) => s.push_str(&String::from_utf8_lossy(g.term(x))),
            Label::Text(..) => s.push('?'),
        }
    }
    for _ in close {
        s.push(')');
    }
    s
}

#[test]
fn expr_examples() {
    let g = shipped("expr");
    for text in ["1 + (2 * 3)", "1 + ((2 * 3 / 4))", "-1.5 * +2", "12345"] {
        roundtrip(&g, text.as_bytes());
    }
}

#[test]
fn ambiguity_prefers_lowest_alternative() {
    // "<a>" is alternative 0 of <s> and also derivable as "<b>".
    let g = load(r#"{"<start>": ["<s>"], "<s>": ["<a>", "<b>"], "<a>": ["x"], "<b>": ["x"]}"#);
    let t = roundtrip(&g, b"x");
    assert_eq!(show(&g, &t), "<start>(<s>(<a>(x)))");
}

#[test]
fn left_recursion_and_ambiguous_splits() {
    let g = load(r#"{"<start>": ["<e>"], "<e>": ["1", "<e>+<e>", "<e>-1"]}"#);
    for text in ["1", "1+1", "1+1+1+1", "1-1-1+1-1"] {
        roundtrip(&g, text.as_bytes());
    }
    let long = vec!["1"; 300].join("+");
    roundtrip(&g, long.as_bytes());
}

#[test]
fn epsilon_rules_and_nullable_cycles() {
    let g = load(
        r#"{"<start>": ["<a><b><a>"], "<a>": ["", "<a><a>", "x"], "<b>": ["", "<b>y", "<a>"]}"#,
    );
    for text in ["", "x", "y", "xyx", "xxyyxx", "yyy"] {
        roundtrip(&g, text.as_bytes());
    }
}

#[test]
fn cyclic_unit_rules() {
    let g = load(r#"{"<start>": ["<a>"], "<a>": ["x", "<b>", "(<a>)"], "<b>": ["y", "<a>"]}"#);
    for text in ["x", "y", "((y))", "(x)"] {
        roundtrip(&g, text.as_bytes());
    }
}

#[test]
fn multibyte_terminals_and_classes() {
    let g = shipped("sql");
    for text in [
        "SELECT * FROM t1;",
        "CREATE TABLE IF NOT EXISTS t2 (a INTEGER PRIMARY KEY, b TEXT);\nSELECT count(*) FROM t2 WHERE a BETWEEN 1 AND 9;",
    ] {
        roundtrip(&g, text.as_bytes());
    }
}

#[test]
fn json_documents() {
    let g = shipped("json");
    for text in [
        "{}",
        "[]",
        " [ ] ",
        "{\"a\": [1, -2.5e+3, true, false, null, \"x\\u00e9\\n\"]}",
        "\"caf\u{e9} \u{65e5}\u{672c} \u{1F600}\"",
        "0",
    ] {
        roundtrip(&g, text.as_bytes());
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let g = shipped("json");
    let n = 100_000;
    let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
    let t = roundtrip(&g, text.as_bytes());
    assert!(t.depth() > n as u32);
    let long_string = format!("\"{}\"", "ab".repeat(100_000));
    roundtrip(&g, long_string.as_bytes());
}

#[test]
fn parse_as_other_nonterminal() {
    let g = shipped("expr");
    let term = g.symbol_by_name("<term>").unwrap();
    let t = parse_from(&g, term, b"2 * 3").unwrap();
    assert_eq!(t.symbol(&g, t.root()), Some(term));
    let digit = g.symbol_by_name("<digit>").unwrap();
    let t = parse_from(&g, digit, b"7").unwrap();
    assert_eq!(show(&g, &t), "<digit>(7)");
    assert!(parse_from(&g, digit, b"77").is_err());
}

#[test]
fn errors_name_position_and_expected_terminals() {
    let g = shipped("expr");
    let e = parse(&g, b"1 + (2 * )").unwrap_err();
    assert_eq!((e.offset, e.line, e.column), (9, 1, 10));
    assert!(
        e.message
            .starts_with("unexpected \")\" at line 1, column 10"),
        "{}",
        e.message
    );
    assert!(e.message.contains("\"(\""), "{}", e.message);
    assert!(
        e.message.contains("1 | 1 + (2 * )\n  |          ^"),
        "{}",
        e.message
    );
    // A carriage return the error is about is shown, under the caret.
    let e = parse(&g, b"1 +\r\n 2").unwrap_err();
    assert!(e.message.contains("1 | 1 +\\r\n  |    ^"), "{}", e.message);

    let e = parse(&g, b"1 +").unwrap_err();
    assert_eq!(e.offset, 3);
    assert!(
        e.message.starts_with("unexpected end of input"),
        "{}",
        e.message
    );

    let e = parse(&g, b"1\n2").unwrap_err();
    assert_eq!((e.line, e.column), (1, 2));
    assert!(
        e.message.contains("expected end of input or one of"),
        "{}",
        e.message
    );

    let j = shipped("json");
    let e = parse(&j, b"{\"a\":\n  tru }").unwrap_err();
    assert_eq!((e.line, e.column), (2, 6));
    assert!(
        e.message.contains("\"e\" (the rest of \"true\")"),
        "{}",
        e.message
    );
}

#[test]
fn never_panics_on_odd_input() {
    let g = shipped("json");
    for text in [&b""[..], b"\xff\xfe", b"\"\xc3\"", b"[[[[", b"]]", b"\0"] {
        let _ = parse(&g, text);
    }
    let e = parse(&g, b"").unwrap_err();
    assert_eq!(e.offset, 0);
}

#[test]
fn cycle_detection_ignores_self_loops() {
    let t = |src: &str| super::tables::Tables::new(&load(src)).cyclic;
    assert!(t(
        r#"{"<start>": ["<a>"], "<a>": ["x", "<b>"], "<b>": ["y", "<a>"]}"#
    ));
    assert!(!t(
        r#"{"<start>": ["<a>"], "<a>": ["", "<c><a>"], "<c>": ["", "x"]}"#
    ));
    // A self-loop with a nullable tail can cover the same text again.
    assert!(t(r#"{"<start>": ["<a>"], "<a>": ["", "<a><a>", "x"]}"#));
    assert!(!t(&std::fs::read_to_string(format!(
        "{}/grammars/json.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()));
}

#[test]
fn reused_parser_gives_the_same_results_as_fresh_ones() {
    // A `Parser` keeps its last chart's memory; nothing else may leak from
    // one parse into the next (long, short, failing, other start symbol).
    let g = shipped("json");
    let p = Parser::new(&g);
    let long = format!("[{}1]", "{\"k\": [true, \"v\u{e9}\"]}, ".repeat(200));
    let value = g.symbol_by_name("<value>").unwrap();
    let inputs: [&[u8]; 7] = [
        long.as_bytes(),
        b"[1, 2]",
        b"[1, ",
        b"{\"a\": null}",
        long.as_bytes(),
        b"",
        b"  \"x\"  ",
    ];
    for _ in 0..2 {
        for text in inputs {
            let fresh = Parser::new(&g);
            assert_eq!(p.parse(text), fresh.parse(text));
            assert_eq!(p.parse_from(value, text), fresh.parse_from(value, text));
            assert_eq!(
                p.recognises(g.start(), text),
                fresh.recognises(g.start(), text)
            );
        }
    }
}
