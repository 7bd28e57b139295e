//! Tests of the grammar-blind pipeline and its pair passes; the helpers
//! (`run_pass`, `numbers`, `balanced`) serve the passes' own tests too.

use super::*;
use crate::oracle::FnOracle;
use crate::reduce::tests::outcome;
use crate::reduce::{reduce_text, Strategy};

/// Runs `pass` on `input`, known interesting, with an oracle that
/// calls a candidate interesting iff `wanted`: the output and the
/// number of oracle runs.
pub(super) fn run_pass(
    pass: fn(&[u8], &mut Tester<'_>) -> Vec<u8>,
    input: &[u8],
    mut wanted: impl FnMut(&[u8]) -> bool,
) -> (Vec<u8>, u64) {
    let mut p = |c: &[u8]| outcome(wanted(c));
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    t.seed(input, Outcome::Interesting);
    let out = pass(input, &mut t);
    (out, t.stats().tests)
}

/// The numbers from 0 to `n - 1`, joined by `sep`: a long list.
pub(super) fn numbers(n: usize, sep: &str) -> String {
    (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(sep)
}

/// Grammar-blind `auto` on `input` with an oracle that calls a
/// candidate interesting iff `wanted`: the output and the number of
/// oracle runs.
fn blind_auto(input: &[u8], mut wanted: impl FnMut(&[u8]) -> bool) -> (Vec<u8>, u64) {
    let mut p = |c: &[u8]| outcome(wanted(c));
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    let r = reduce_text(None, input, Strategy::Auto, &mut t).unwrap();
    (r.output, t.stats().tests)
}

pub(super) fn balanced(c: &[u8]) -> bool {
    let n = |b: u8| c.iter().filter(|&&x| x == b).count();
    pairs(c).len() * 2 == n(b'(') + n(b')') + n(b'[') + n(b']') + n(b'{') + n(b'}')
}

/// Interesting iff `needle` occurs and every bracket is paired.
fn wants(needle: &'static [u8]) -> impl FnMut(&[u8]) -> Outcome {
    move |c: &[u8]| {
        if balanced(c) && c.windows(needle.len()).any(|w| w == needle) {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }
}

/// The sweeps are single passes; the rounds repeat until one changes
/// nothing, so a token freed by a later deletion still goes, and bytes
/// are swept once nothing else goes: the result is 1-minimal.
#[test]
fn rounds_of_single_passes_end_one_minimal() {
    let input = b"a(1) y(2) x(3) z(4)\nq r s\n";
    let (r, _) = blind_auto(input, |c| {
        let has = |w: u8| c.contains(&w);
        has(b'a') && has(b'z') && (!has(b'y') || has(b'x'))
    });
    assert_eq!(r, b"az");
}

#[test]
fn redundant_brackets_go_in_pairs() {
    let input = b"x = f([((1/0))]) + {2};";
    let mut p = wants(b"1/0");
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    let r = reduce_text(None, input, Strategy::Auto, &mut t).unwrap();
    assert_eq!(r.output, b"1/0");
    // Zeller's ddmin over tokens and bytes cannot drop a pair: each
    // bracket alone unbalances the text.
    let mut p = wants(b"1/0");
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    let r = reduce_text(None, input, Strategy::Ddmin, &mut t).unwrap();
    assert_eq!(r.output, b"([((1/0))])");
}

#[test]
fn statements_on_one_line_go_whole() {
    // Interesting iff the text is statements from a fixed set, ending
    // in `;`, among them the table `t` and the query.
    let known = [
        &b"CREATE TABLE t(a)"[..],
        b"CREATE TABLE u(b, c)",
        b"INSERT INTO u VALUES(1, 2)",
        b"SELECT a FROM t",
    ];
    let p = |c: &[u8]| {
        let ss: Vec<&[u8]> = c.split(|&b| b == b';').map(<[u8]>::trim_ascii).collect();
        c.ends_with(b";")
            && ss[..ss.len() - 1].iter().all(|s| known.contains(s))
            && ss.contains(&known[0])
            && ss.contains(&known[3])
    };
    let input =
        b"CREATE TABLE u(b, c);CREATE TABLE t(a); INSERT INTO u VALUES(1, 2);SELECT a FROM t;";
    assert_eq!(
        blind_auto(input, p).0,
        b"CREATE TABLE t(a);SELECT a FROM t;"
    );
}

#[test]
fn blind_ignores_a_grammar_that_does_not_parse_the_text() {
    let g = crate::grammar::Grammar::from_json_str(
        r#"{"<start>": ["<d>"], "<d>": ["0", "1"]}"#,
        &Default::default(),
    )
    .unwrap();
    let mut p = wants(b"1/0");
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    let input = b"x = ((1/0));";
    assert!(matches!(
        reduce_text(Some(&g), input, Strategy::Auto, &mut t),
        Err(crate::reduce::ReduceError::Unparseable { .. })
    ));
    let r = reduce_text(Some(&g), input, Strategy::Blind, &mut t).unwrap();
    assert_eq!(r.output, b"1/0");
}

#[test]
fn a_brace_block_goes_with_its_header() {
    // Interesting iff the text is function definitions `name(){...}`
    // only and one of them divides by zero.
    let p = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        let defs = s.split_inclusive('}').all(|d| {
            let d = d.trim();
            d.is_empty()
                || d.split_once("(){").is_some_and(|(name, body)| {
                    !name.is_empty()
                        && name.bytes().all(|b| b.is_ascii_alphabetic())
                        && body.ends_with('}')
                })
        });
        defs && s.contains("1/0")
    };
    let (out, runs) = run_pass(delete_pairs, b"f(){x}\ng(){1/0}\nh(){y}", p);
    assert_eq!(out, b"\ng(){1/0}\n");
    // Header, pair, brackets for f and h: the header goes first and
    // is kept; g's three ways and its `()` pair fail.
    assert!(runs <= 8, "{runs}");
}

#[test]
fn a_block_body_is_lifted_out_of_its_header() {
    // Interesting iff `boom()` is called outside every brace block.
    let p = |c: &[u8]| {
        let mut depth = 0i32;
        let mut outside = false;
        for (i, &b) in c.iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ if depth == 0 && c[i..].starts_with(b"boom()") => outside = true,
                _ => {}
            }
        }
        outside
    };
    let (out, _) = run_pass(delete_pairs, b"o.m=function(){boom()};o.m()", p);
    assert_eq!(out, b"boom();o.m");
}

#[test]
fn the_header_of_a_statement_without_braces_goes_alone() {
    // Interesting iff `boom($r)` is called outside any loop: the loop's
    // header goes, its statement stays. A call `g(1) h()` and a condition
    // before a brace block offer no such candidate.
    let p = |c: &[u8]| c.starts_with(b"g(1) h();boom($r);");
    let input = b"g(1) h();foreach ($s as $r) boom($r);";
    let (out, runs) = run_pass(delete_pairs, input, p);
    assert_eq!(out, b"g(1) h();boom($r);");
    // Two runs for `(1)` (cut, lifted), one for `()`, two for `(… as
    // …)` (cut, then the header), two for `($r)`.
    assert_eq!(runs, 7);
    assert_eq!(control_header(b"if (x) {y}", 3, 5), None);
    assert_eq!(control_header(b"a.if (x) y", 5, 7), None);
    assert_eq!(control_header(b"while(x)y", 5, 7), Some(0));
}

#[test]
fn top_level_commas_skip_nested_pairs() {
    let t = b"[1,[2,3],{a,b},4]";
    let ps = pairs_with_commas(t);
    assert_eq!(
        ps,
        [(0, 16, vec![2, 8, 14]), (3, 7, vec![5]), (9, 13, vec![11])]
    );
    let plain: Vec<(usize, usize)> = ps.iter().map(|p| (p.0, p.1)).collect();
    assert_eq!(plain, pairs(t));
}

#[test]
fn list_elements_go_with_their_comma() {
    // Valid JSON holding the number 3 somewhere.
    let p = |c: &[u8]| {
        let v: Result<serde_json::Value, _> = serde_json::from_slice(c);
        let has = |v: &serde_json::Value| {
            let mut stack = vec![v];
            while let Some(v) = stack.pop() {
                match v {
                    serde_json::Value::Number(n) if n.as_u64() == Some(3) => return true,
                    serde_json::Value::Array(a) => stack.extend(a),
                    serde_json::Value::Object(o) => stack.extend(o.values()),
                    _ => {}
                }
            }
            false
        };
        v.is_ok_and(|v| has(&v))
    };
    let input = br#"{"x": [1, {"a": 2}, 3, [4, 5]], "y": {"z": 0}}"#;
    let (out, _) = run_pass(delete_elements, input, p);
    assert_eq!(out, br#"{"x": [ 3]}"#);
    // Pair deletions alone cannot get there: `"y": {}` keeps its key.
    assert!(run_pass(delete_pairs, input, p).0.len() > out.len());
}

#[test]
fn a_long_list_loses_its_elements_in_few_runs() {
    // 50,000 numbers, of which only 777 matters.
    let input = format!("[{}]", numbers(50_000, ", "));
    let p = |c: &[u8]| {
        c.starts_with(b"[")
            && c.ends_with(b"]")
            && c[1..c.len() - 1]
                .split(|&b| b == b',')
                .any(|e| e.trim_ascii() == b"777")
    };
    let (out, runs) = blind_auto(input.as_bytes(), p);
    assert_eq!(out, b"[777]");
    assert!(runs < 200, "{runs}");
}

#[test]
fn a_name_goes_with_its_brackets() {
    // Interesting iff `boom` is there and every other word is followed
    // by `()`, and every `(` follows a word: neither `f` nor `()` goes
    // alone, and the aligned chunks of the sweeps split `f()`.
    let mut p = |c: &[u8]| {
        let toks = ddmin::tokens(c);
        let ok = toks.iter().enumerate().all(|(i, t)| match t[0] {
            b'(' => i > 0 && ddmin::is_word(toks[i - 1][0]),
            b if ddmin::is_word(b) => *t == b"boom" || toks[i + 1..].starts_with(&[b"(", b")"]),
            _ => true,
        });
        if ok && balanced(c) && c.windows(4).any(|w| w == b"boom") {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    };
    let mut o = FnOracle::new(&mut p);
    let mut t = Tester::new(&mut o);
    let r = reduce_text(None, b"f() boom", Strategy::Auto, &mut t).unwrap();
    assert_eq!(r.output, b"boom");
    drop(t);
    // The sweeps alone keep it.
    let mut t = Tester::new(&mut o);
    t.seed(b"f() boom", Outcome::Interesting);
    let swept = ddmin::chunk_sweep_from_end(ddmin::tokens(b"f() boom"), &mut t).concat();
    assert_eq!(swept, b"f()boom");
    assert_eq!(ddmin::delete_adjacent_tokens(&swept, &mut t), b"boom");
}

#[test]
fn a_list_keeps_its_brackets_until_its_element_is_small() {
    // Interesting iff the text is JSON whose "s" holds an object among
    // its values, as a list or as an object's values (jq's `.s[]`).
    let p = |c: &[u8]| {
        let v: serde_json::Value = match serde_json::from_slice(c) {
            Ok(v) => v,
            Err(_) => return false,
        };
        let vals: Vec<&serde_json::Value> = match &v["s"] {
            serde_json::Value::Array(a) => a.iter().collect(),
            serde_json::Value::Object(o) => o.values().collect(),
            _ => return false,
        };
        vals.iter().any(|v| v.is_object())
    };
    let input = br#"{"s": [{"name": "gateway", "env": {"LOG": "json"}}], "t": 1}"#;
    // Lifting the list's brackets first gives `{"s":{"":{}}}`, a
    // fixpoint three bytes longer.
    assert_eq!(blind_auto(input, p).0, br#"{"s":[{}]}"#);
}

#[test]
fn the_empty_text_is_tried_first() {
    let (out, runs) = blind_auto(b"anything at all\n", |_| true);
    assert_eq!(out, b"");
    assert_eq!(runs, 2, "the original and the empty text");
}

#[test]
fn header_starts_after_the_previous_statement() {
    assert_eq!(header_start(b"a; int f(int x) {", 16), 3);
    assert_eq!(header_start(b"x}\n  while (y) {", 15), 5);
    assert_eq!(header_start(b"{", 0), 0);
    // A brace opening its line: the line before is the header, unless it
    // ends a statement, a comment or opens a list.
    assert_eq!(header_start(b"x;\nint f(int a)\n{", 16), 3);
    assert_eq!(header_start(b"  .text :\n  {", 12), 2);
    for before in [&b"x;"[..], b"}", b"[", b"a,", b"/* c */"] {
        let t = [before, b"\n  {"].concat();
        assert_eq!(header_start(&t, t.len() - 1), t.len() - 1, "{t:?}");
    }
}

#[test]
fn a_trailer_without_brackets_ends_the_block() {
    let t = b"a : { b } >FLASH \nc";
    assert_eq!(trailer_end(t, 8), 16);
    assert_eq!(trailer_end(b"{ b };", 4), 6);
    assert_eq!(trailer_end(b"{ b } else {", 4), 5);
    assert_eq!(trailer_end(b"{ b }\n}", 4), 5);
}

#[test]
fn a_block_goes_with_its_header_on_the_line_before_and_its_trailer() {
    // A linker script's output section: `NAME :` on its own line, the
    // braces, then `>REGION`; neither the block alone nor the block with
    // a header on its line leaves a valid script.
    let text = b"S {\n  .a :\n  {\n    x(1);\n  } >F\n  .b :\n  {\n    y;\n  } >F\n}\n";
    let valid = |t: &[u8]| {
        let s = String::from_utf8_lossy(t);
        // Every `{` has its `NAME :` before it and its `>F` after it.
        s.matches('{').count() == 1 + s.matches(" :").count()
            && s.matches(" :").count() == s.matches(">F").count()
            && s.matches('(').count() == s.matches(')').count()
    };
    let (out, runs) = run_pass(delete_pairs, text, |t| {
        valid(t) && t.windows(2).any(|w| w == b"y;")
    });
    assert_eq!(out, b"S {\n  \n  .b :\n  {\n    y;\n  } >F\n}\n");
    // S: 4 ways; `.a`: 1, and `(1)` is gone with it; `.b`: 4 ways.
    assert!(runs <= 9, "{runs}");
}

#[test]
fn a_large_input_loses_its_needless_lines_in_logarithmic_runs() {
    // 3,000 one-line functions, each with a parameter list and a body,
    // and one line that matters: element and pair passes would spend a
    // run or more on every function; line chunks go first.
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "static int f{i}(int a, int b) {{ v = a * {i} + f{}(a, b); return 0; }}\n",
            (i * 7) % 3000
        ));
        if i == 1700 {
            text.push_str("int boom(int q) { return q / 0; }\n");
        }
    }
    let (out, runs) = blind_auto(text.as_bytes(), |c| c.windows(5).any(|w| w == b"q / 0"));
    assert_eq!(out, b"q / 0");
    assert!(runs < 150, "{runs} runs");
}

#[test]
fn a_bracket_in_a_string_leaves_the_structure_alone() {
    // The `[` in the string was an open bracket that swallowed every
    // closer after it: no pair was found past it, so the function could
    // not be inlined (awk: a regular expression built from `"["`).
    let input = br#"f(1,"[");function f(a,r){g(r,a)}"#;
    let (out, _) = run_pass(calls::inline_functions, input, |c| {
        let want = br#"g("[",1)"#;
        c.windows(want.len()).any(|w| w == want) || c == input
    });
    assert_eq!(out, br#"g("[",1);"#);
}

/// Comments go by kind in one run each; block comments that cannot all
/// go, in halving runs down to one at a time; markers inside strings and `#include` are no
/// comments.
#[test]
fn comments_go_by_kind_and_a_needed_one_stays() {
    let text = b"#include <a.h>\n/* one */ int x; /* two */\nchar *u = \"http://h\"; // three\n/* KEEP */ int y;\n";
    let mut runs = 0;
    let mut o = FnOracle::new(|c: &[u8]| {
        runs += 1;
        outcome(c.windows(4).any(|w| w == b"KEEP") && c.starts_with(b"#include"))
    });
    let mut t = Tester::new(&mut o);
    let out = comments::delete_comments(text, &mut t);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "#include <a.h>\nint x;\nchar *u = \"http://h\";\n/* KEEP */ int y;\n"
    );
    drop(t);
    // All block comments at once (fails), then KEEP (fails), two, one;
    // then the line comment.
    assert_eq!(runs, 5);
}

/// Block comments that cannot all go leave in runs of halving lengths:
/// 64 comments one of which is needed cost the failing run of all at
/// once and 8 more (lengths 32, 16, 8, 4, 2, 1 from the last; a run
/// that would delete every comment left is the first one, cached), not
/// a run per comment (a 400 KB text of block comments once took 4,049
/// runs).
#[test]
fn many_block_comments_one_needed_go_in_halving_runs() {
    let text: String = (0..64).map(|i| format!("/* c{i} */ x{i};\n")).collect();
    let mut runs = 0;
    let mut o = FnOracle::new(|c: &[u8]| {
        runs += 1;
        outcome(c.windows(6).any(|w| w == b"/* c9 "))
    });
    let mut t = Tester::new(&mut o);
    let out = comments::delete_comments(text.as_bytes(), &mut t);
    let want: String = (0..64)
        .map(|i| match i {
            9 => "/* c9 */ x9;\n".to_string(),
            _ => format!("x{i};\n"),
        })
        .collect();
    assert_eq!(String::from_utf8_lossy(&out), want);
    drop(t);
    assert_eq!(runs, 9);
}

/// A text of two lines, or of two statements on one line, loses either
/// one whole (the sweeps once skipped texts of fewer than three units,
/// and no token deletion keeps a line valid).
#[test]
fn either_of_two_lines_or_statements_goes_whole() {
    let whole_lines = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.lines().any(|l| l == "KEEP")
            && s.lines()
                .all(|l| ["KEEP", "alpha beta gamma", ""].contains(&l))
    };
    for input in [
        &b"alpha beta gamma\nKEEP\n"[..],
        b"KEEP\nalpha beta gamma\n",
    ] {
        let (r, _) = blind_auto(input, whole_lines);
        assert_eq!(String::from_utf8_lossy(&r).trim_end(), "KEEP");
    }
    let whole_statements = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("SELECT json(1)")
            && s.split(';')
                .all(|t| ["CREATE TABLE s(d)", "SELECT json(1)", ""].contains(&t.trim()))
    };
    let (r, _) = blind_auto(b"CREATE TABLE s(d);SELECT json(1)", whole_statements);
    assert_eq!(r, b"SELECT json(1)");
}

/// Two comments on one line: their spans do not overlap (the second
/// once began at the blank the first had taken, and the candidate
/// panicked).
#[test]
fn two_comments_on_one_line_go_together() {
    let (r, _) = blind_auto(b"/* a */ /* b */ x\n", |c| c.contains(&b'x'));
    assert_eq!(r, b"x");
    let mut o = FnOracle::new(|c: &[u8]| outcome(c.windows(6).any(|w| w == b"b */ x")));
    let mut t = Tester::new(&mut o);
    assert_eq!(
        comments::delete_comments(b"/* a */ /* b */ x\n", &mut t),
        b"/* b */ x\n"
    );
}

/// Lisp's and assembly's `;` comments go like `#` ones; a `;` that ends a
/// statement (`f(); g();`, `(f x);no`) opens none.
#[test]
fn semicolon_comments_go_and_statement_ends_stay() {
    let text = b";;; invoice.scm\n(define x 1) ; the rate\n(f x);no\nf(); g(); ;old\n";
    let mut o = FnOracle::new(|c: &[u8]| outcome(c.windows(5).any(|w| w == b"(f x)")));
    let mut t = Tester::new(&mut o);
    assert_eq!(
        String::from_utf8_lossy(&comments::delete_comments(text, &mut t)),
        "(define x 1)\n(f x);no\nf(); g();\n"
    );
}
