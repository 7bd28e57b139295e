use super::*;

fn load(src: &str) -> Result<Grammar, GrammarError> {
    Grammar::from_json_str(src, &LoadOptions::default())
}

const EXPR: &str = r#"{
"<start>": ["<expr>"],
"<expr>": ["<term> + <expr>", "<term> - <expr>", "<term>"],
"<term>": ["<factor> * <term>", "<factor> / <term>", "<factor>"],
"<factor>": ["+<factor>", "-<factor>", "(<expr>)", "<integer>.<integer>", "<integer>"],
"<integer>": ["<digit><integer>", "<digit>"],
"<digit>": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
}"#;

#[test]
fn expr_analysis_matches_limitfuzzer_costs() {
    let g = load(EXPR).unwrap();
    let cost = |n: &str| g.symbol(g.symbol_by_name(n).unwrap()).min_depth;
    // LimitFuzzer: digit 1, integer 2, factor 3, term 4, expr 5, start 6.
    assert_eq!(cost("<digit>"), 1);
    assert_eq!(cost("<integer>"), 2);
    assert_eq!(cost("<factor>"), 3);
    assert_eq!(cost("<term>"), 4);
    assert_eq!(cost("<expr>"), 5);
    assert_eq!(cost("<start>"), 6);
    let expr = g.symbol_by_name("<expr>").unwrap();
    assert_eq!(g.rule_to_string(g.alt(expr, 0)), "<expr> ::= <term>");
    assert_eq!(g.symbol(expr).min_len, 1);
    assert!(g.symbol(expr).recursive);
    assert!(!g.symbol(g.symbol_by_name("<digit>").unwrap()).recursive);
    let factor = g.symbol_by_name("<factor>").unwrap();
    // "<integer>" (depth 3, len 1) first; "+<factor>" has depth 4.
    assert_eq!(g.rule_to_string(g.alt(factor, 0)), "<factor> ::= <integer>");
    assert_eq!(g.symbol(factor).min_depth_alts, 2); // <integer> and <integer>.<integer>
    assert!(g.warnings().is_empty());
    assert_eq!(g.format(), GrammarFormat::Fuzzingbook);
}

#[test]
fn token_list_format_and_nullable() {
    let g = load(
        r#"{"<start>": [["<a>", "<b>"]], "<a>": [[], ["x", "<a>"]], "<b>": [["<", "b", ">"]]}"#,
    )
    .unwrap();
    assert_eq!(g.format(), GrammarFormat::TokenList);
    let a = g.symbol_by_name("<a>").unwrap();
    assert!(g.symbol(a).nullable);
    assert!(!g.symbol(g.start()).nullable);
    assert_eq!(g.symbol(g.start()).min_len, 3);
}

#[test]
fn literal_angle_brackets_in_fuzzingbook_strings() {
    let g = load(r#"{"<start>": ["a < b", "<", "<>", "x<y z>"]}"#).unwrap();
    let lens: Vec<u64> = g.rules_of(g.start()).map(|r| g.rule(r).min_len).collect();
    assert_eq!(lens, vec![1, 2, 5, 6]);
}

#[test]
fn every_problem_reported_at_once() {
    let err = load(
        r#"{
        "<start>": ["<expr>", "<undefined>"],
        "<expr>": ["<expr> + <loop>"],
        "<loop>": ["<loop>"],
        "<empty>": [],
        "<island>": ["x"]
    }"#,
    )
    .unwrap_err();
    let codes: Vec<&str> = err.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"undefined-nonterminal"), "{err}");
    assert!(codes.contains(&"no-alternatives"), "{err}");
    let text = err.to_string();
    assert!(text.contains("<undefined>"), "{text}");
    assert!(text.contains("in <start>, alternative 2"), "{text}");
}

#[test]
fn unproductive_and_unreachable() {
    let err = load(r#"{"<start>": ["<a>"], "<a>": ["<a>x"], "<u>": ["y"]}"#).unwrap_err();
    let d: Vec<String> = err.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(
        d.iter()
            .any(|s| s.starts_with("error[unproductive]") && s.contains("<a>")),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|s| s.starts_with("error[unproductive]") && s.contains("<start>")),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|s| s.starts_with("warning[unreachable]") && s.contains("<u>")),
        "{d:?}"
    );
    let ok = load(r#"{"<start>": ["x"], "<u>": ["y"]}"#).unwrap();
    assert_eq!(ok.warnings().len(), 1);
    assert_eq!(ok.warnings()[0].code, "unreachable");
}

#[test]
fn cycles_without_input_are_warned_about_once_each() {
    // <a> ⇒ <b><c> ⇒ <c> ⇒ <a>: <b> is nullable, so the cycle consumes
    // nothing; <p> ⇒ ( <p> ) consumes parentheses and is no cycle.
    let g = load(
        r#"{"<start>": ["<a>x", "<p>"], "<a>": ["<b><c>", "y"], "<b>": ["", "z"],
            "<c>": ["<a>", "w"], "<p>": ["(<p>)", "q"]}"#,
    )
    .unwrap();
    let d: Vec<String> = g.warnings().iter().map(|d| d.to_string()).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].starts_with("warning[cycle]"), "{d:?}");
    assert!(d[0].contains("(<a> → <c> → <a>)"), "{d:?}");
    // A self-loop through a nullable sibling, and none when the sibling
    // must consume input.
    let g = load(r#"{"<start>": ["<start><start>", "x", ""]}"#).unwrap();
    assert_eq!(g.warnings()[0].code, "cycle");
    assert!(load(r#"{"<start>": ["<s><start>", "x"], "<s>": ["y"]}"#)
        .unwrap()
        .warnings()
        .is_empty());
}

#[test]
fn json_errors_have_positions() {
    let err = load("{\n  \"<start>\": [\"a\",]\n}").unwrap_err();
    let d = &err.diagnostics[0];
    assert_eq!(d.code, "invalid-json");
    assert_eq!(d.line, Some(2));
    let err = load("[1, 2]").unwrap_err();
    assert_eq!(err.diagnostics[0].code, "wrong-type");
}

#[test]
fn alternatives_differing_in_an_undefined_name_are_no_duplicates() {
    let err = load(r#"{"<start>": ["<a>x", "<b>x", "<c>x", "<a>x"], "<a>": ["1"]}"#).unwrap_err();
    let dups: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.code == "duplicate-alternative")
        .map(|d| d.message.clone())
        .collect();
    // `<b>x` and `<c>x` are two undefined names, not one body twice; the
    // real duplicate is still found.
    assert_eq!(
        dups,
        ["same as alternative 1: the grammar is ambiguous; remove one"]
    );
}

#[test]
fn duplicate_keys_and_start_option() {
    let err = load(r#"{"<start>": ["a"], "<start>": ["b"]}"#).unwrap_err();
    assert_eq!(err.diagnostics[0].code, "duplicate-key");
    assert_eq!(err.diagnostics[0].line, Some(1));
    // On one line, the column tells the keys apart.
    assert_eq!(err.diagnostics[0].column, Some(20));
    let err = load("{\"<start>\": [\"<u>\"],\n  \"<a>\": [\"<v>\"]}").unwrap_err();
    let at: Vec<_> = err.errors().map(|d| (d.line, d.column)).collect();
    assert_eq!(at, [(Some(1), Some(2)), (Some(2), Some(3))]);
    // One check lists every problem: an undefined name, and an
    // unproductive nonterminal it does not cause.
    let err = load(r#"{"<start>": ["<u> <x>"], "<x>": ["<x>a"]}"#).unwrap_err();
    let codes: Vec<_> = err
        .errors()
        .map(|d| (d.code, d.nonterminal.clone()))
        .collect();
    assert!(codes.contains(&("undefined-nonterminal", Some("<start>".into()))));
    assert!(
        codes.contains(&("unproductive", Some("<x>".into()))),
        "{codes:?}"
    );
    let g = Grammar::from_json_str(
        r#"{"<s>": ["<t>"], "<t>": ["t"]}"#,
        &LoadOptions {
            start: Some("<s>".into()),
        },
    )
    .unwrap();
    assert_eq!(g.name(g.start()), "<s>");
    let err = load(r#"{"<s>": ["x"]}"#).unwrap_err();
    assert_eq!(err.diagnostics[0].code, "missing-start");
}

#[test]
fn typo_suggestion() {
    let err = load(r#"{"<start>": ["<exprr>"], "<expr>": ["1"]}"#).unwrap_err();
    assert!(err.to_string().contains("did you mean `<expr>`"), "{err}");
}

#[test]
fn deep_unit_chain_is_analysed_without_recursion() {
    // 100,000 nonterminals in a chain: analysis must be iterative.
    let n = 100_000;
    let mut b = GrammarBuilder::new();
    b.push_alt("<start>", vec![build::Token::Nt("<n0>".into())]);
    for i in 0..n {
        let next = if i + 1 < n {
            build::Token::Nt(format!("<n{}>", i + 1))
        } else {
            build::Token::T(b"x".to_vec())
        };
        b.push_alt(&format!("<n{i}>"), vec![next]);
    }
    let g = b.build().unwrap();
    assert_eq!(g.symbol(g.start()).min_depth, n + 1);
}

#[test]
fn a_class_is_one_alternative_per_character_and_comments_are_skipped() {
    let g = load(
        r##"{
"// a string": "double-quoted, no escapes",
"<start>": ["\"<chars>\""],
"<chars>": ["", "<char><chars>"],
"# the characters": null,
"<char>": {"class": "[^\"\\\\\n]"}
}"##,
    )
    .unwrap();
    let c = g.symbol_by_name("<char>").unwrap();
    assert_eq!(
        g.symbol(c).rules.len(),
        crate::grammar::class::UNIVERSE.len() - 3
    );
    assert_eq!(g.rule_to_string(g.alt(c, 0)), "<char> ::= \"a\"");
    assert!(g.symbol_by_name("// a string").is_none());
    assert!(crate::parse::parse(&g, b"\"it's a 'string'\t(of sorts)\"").is_ok());
    assert!(crate::parse::parse(&g, b"\"no \"quote\"").is_err());
    assert!(crate::parse::parse(&g, b"\"a\\b\"").is_err());
    // A bad class is an error where it stands.
    let err = load("{\n\"<start>\": {\"class\": \"[z-a]\"}}").unwrap_err();
    assert_eq!(err.diagnostics[0].code, "bad-class");
    // The one error: no second one for the symbol's lost alternatives.
    assert_eq!(err.diagnostics.len(), 1, "{err}");
    assert!(err.to_string().contains("2:1"), "{err}");
    assert!(err.to_string().contains("runs backwards"), "{err}");
    // Among other alternatives too, and its errors say which one.
    let g = load(r#"{"<start>": ["\\<e>", {"class": "[a-c]"}], "<e>": {"class": "[n]"}}"#).unwrap();
    let s = g.symbol_by_name("<start>").unwrap();
    assert_eq!(g.symbol(s).rules.len(), 4);
    assert!(crate::parse::parse(&g, b"\\n").is_ok() && crate::parse::parse(&g, b"c").is_ok());
    let err = load(r#"{"<start>": ["a", {"class": 7}]}"#).unwrap_err();
    assert!(err.to_string().contains("alternative 2"), "{err}");
    assert!(err.to_string().contains("write it as a string"), "{err}");
    let err = load("{\"<start>\": {\"chars\": \"[a]\"}}").unwrap_err();
    assert!(err.to_string().contains(r#"{"class": "[a-z_]"}"#), "{err}");
}
