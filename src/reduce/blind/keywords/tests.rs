//! Tests of the keyword blocks.
use super::super::tests::run_pass;
use super::*;

fn spans(text: &[u8]) -> Vec<(String, Vec<String>)> {
    blocks(text)
        .iter()
        .map(|b| {
            let s = |a: usize, e: usize| String::from_utf8_lossy(&text[a..e]).into_owned();
            (
                s(b.start, b.end),
                b.bodies.iter().map(|&(a, e)| s(a, e)).collect(),
            )
        })
        .collect()
}

#[test]
fn shell_blocks_nest() {
    let text = b"for d in y\ndo\n  if p; then x; elif q; then z; fi\ndone\necho done";
    let got = spans(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].0.starts_with("for d") && got[0].0.ends_with("fi\ndone"));
    assert_eq!(got[0].1, ["\n  if p; then x; elif q; then z; fi\n"]);
    assert_eq!(got[1].0, "if p; then x; elif q; then z; fi");
    assert_eq!(got[1].1, [" x; ", " z; "]);
}

#[test]
fn end_blocks_of_ruby_and_lua() {
    let text = b"def f(x)\n  return 1 if x\n  y.each do |v|\n    p v\n  end\nend\nlocal function g() end\nwhile c do h() end";
    let got = spans(text);
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[0].0.starts_with("def f(x)") && got[0].0.ends_with("end\nend"));
    assert_eq!(
        got[0].1,
        ["  return 1 if x\n  y.each do |v|\n    p v\n  end\n"]
    );
    assert_eq!(got[1].1, [" |v|\n    p v\n  "]);
    assert_eq!(got[2].0, "function g() end");
    assert!(got[2].1.is_empty());
    assert_eq!(got[3].1, [" h() "]);
    let b = &blocks(text)[2];
    assert_eq!(&text[b.stmt..b.start], b"local ");
    // After a closed block a line starts a statement.
    let b = &blocks(text)[3];
    assert_eq!(b.stmt, b.start);
}

#[test]
fn a_conditional_joined_to_the_statement_before_still_opens_a_block() {
    // A sweep took the line break before `if`: its `then` marks it.
    let text = b"function f(e) d=e.retry.b if 2 then x() end end\nreturn 1 if y\n";
    let got = spans(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1].0, "if 2 then x() end");
    assert_eq!(got[1].1, [" x() "]);
    // The modifier `if` has no `then` on its line.
    assert!(got[0].0.ends_with("end end"));
}

#[test]
fn sql_blocks_in_capitals() {
    let text = b"CREATE TABLE s(c);\nCREATE TRIGGER n INSERT ON s\nBEGIN\n  UPDATE y SET y = u;\nEND;\nSELECT CASE WHEN 1 THEN 2 END;";
    let got = spans(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].0.starts_with("BEGIN") && got[0].0.ends_with("END"));
    assert_eq!(got[0].1, ["\n  UPDATE y SET y = u;\n"]);
    let b = &blocks(text)[0];
    assert!(text[b.stmt..].starts_with(b"CREATE TRIGGER"));
    assert!(got[1].0.starts_with("CASE") && got[1].0.ends_with("END"));
}

#[test]
fn end_x_closes_x() {
    // CMake: `endX()` closes `X(…)`, its `()` included, in any case;
    // `foreach` opens a block only because `endforeach` is there.
    let text = b"function(t r)\n  if(a)\n    set(x)\n  endif()\nendfunction()\nFOREACH(t IN LISTS S)\n  e()\nENDFOREACH()\n";
    let got = spans(text);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got[0].0.starts_with("function(t r)") && got[0].0.ends_with("endif()\nendfunction()"));
    assert_eq!(got[1].0, "if(a)\n    set(x)\n  endif()");
    assert_eq!(got[1].1, ["    set(x)\n  "]);
    assert_eq!(got[2].0, "FOREACH(t IN LISTS S)\n  e()\nENDFOREACH()");
    // Vim script.
    let got = spans(b"function! S(x)\n  return a:x\nendfunction\n");
    assert_eq!(got[0].1, ["  return a:x\n"]);
    // A word after `end` that opens nothing, and `endl`: no block.
    assert!(blocks(b"x = endpoint(1);\nstd::cout << std::endl;\n").is_empty());
}

#[test]
fn words_that_are_no_keywords() {
    assert!(blocks(b"end = 3; x.end; $done; if (a) { b }").is_empty());
    assert!(blocks(b"echo if fi").is_empty());
}

/// Interesting iff the text holds `boom` and its shell keywords are
/// balanced the way a shell needs them.
fn shellish(c: &[u8]) -> bool {
    let words: Vec<&[u8]> = ddmin::tokens(c)
        .into_iter()
        .filter(|t| ddmin::is_word(t[0]))
        .collect();
    let n = |w: &[u8]| words.iter().filter(|x| **x == w).count();
    let ok = n(b"if") == n(b"fi")
        && n(b"if") + n(b"elif") == n(b"then")
        && n(b"for") + n(b"while") == n(b"do")
        && n(b"do") == n(b"done")
        && c.windows(4).any(|w| w == b"boom");
    ok
}

#[test]
fn a_body_leaves_its_block_and_a_condition_its_keywords() {
    let input = b"for d in y; do if boom; then x; else y; fi; done";
    let (out, _) = run_pass(delete_keyword_blocks, input, shellish);
    // The loop's body is lifted, then the `if` loses its keywords.
    assert_eq!(String::from_utf8_lossy(&out), "  boom;  x; ; ");
    let input = b"while c; do a; done; if z; then b; else boom; fi";
    let (out, runs) = run_pass(delete_keyword_blocks, input, shellish);
    assert_eq!(String::from_utf8_lossy(&out), ";  boom; ");
    // Each block: at most its statement, itself, two bodies, keywords.
    assert!(runs <= 6, "{runs}");
}

#[test]
fn a_block_body_takes_its_statements_place() {
    // Ruby: the call with a block goes for the block's body, the
    // block's parameters left out, where the body alone still fails.
    let input = b"R.new(s)\ns.map do |l| fmt l, 0 end\nputs 1";
    let wanted = |c: &[u8]| {
        let t = String::from_utf8_lossy(c);
        t.contains("fmt l, 0") && !t.contains("map") && !t.contains('|')
    };
    let (out, _) = run_pass(delete_keyword_blocks, input, wanted);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "R.new(s)\n fmt l, 0 \nputs 1"
    );
    assert_eq!(
        without_params(b" |a, b| x"),
        (&b" x"[..], vec![&b"a"[..], b"b"])
    );
    assert_eq!(without_params(b" |a\n x|"), (&b" |a\n x|"[..], vec![]));
    // A pair closed before the opener belongs to the statement.
    let t = b"x(1)\n(s.e 0).map do |l| p l end";
    let b = &blocks(t)[0];
    assert_eq!(&t[b.stmt..b.start], b"(s.e 0).map ");
    // The parameters as `0` where the body needs a value.
    let wanted = |c: &[u8]| String::from_utf8_lossy(c).contains("fmt 0, 0");
    let (out, _) = run_pass(delete_keyword_blocks, b"s.map do |l| fmt l, 0 end", wanted);
    assert_eq!(String::from_utf8_lossy(&out), " fmt 0, 0 ");
}

#[test]
fn a_closer_glued_to_a_number_still_closes() {
    // Ruby reads `0end` as `0 end`: the class goes for its body.
    let input = b"def f e\nend\nclass R\nf 0,0end";
    let wanted = |c: &[u8]| String::from_utf8_lossy(c).ends_with("\nf 0,0");
    let (out, _) = run_pass(delete_keyword_blocks, input, wanted);
    assert_eq!(String::from_utf8_lossy(&out), "def f e\nend\nf 0,0");
    // A word that is no number keeps its closer: `x0end` is a name.
    assert!(blocks(b"class R\nx0end").is_empty());
}

#[test]
fn a_block_goes_with_the_comma_that_joins_it() {
    // escript: a dead `case … end` between two expressions of a body.
    let want = |c: &[u8]| {
        c.starts_with(b"main(_)->y()") && c.ends_with(b"ok.") && !c.windows(2).any(|w| w == b",,")
    };
    let input = b"main(_)->y(),case a of\nC->i\nend,ok.";
    let (out, _) = run_pass(delete_keyword_blocks, input, want);
    assert_eq!(out, b"main(_)->y(),ok.");
    let input = b"main(_)->y(),case a of\nC->i\nend.";
    let want = |c: &[u8]| c.starts_with(b"main(_)->y()") && c.ends_with(b".") && !c.contains(&b',');
    let (out, _) = run_pass(delete_keyword_blocks, input, want);
    assert_eq!(out, b"main(_)->y().");
}
