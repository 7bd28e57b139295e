//! Tests of respacing.
use super::*;

fn expr() -> Grammar {
    Grammar::from_path("grammars/expr.json".as_ref(), &Default::default()).unwrap()
}

#[test]
fn a_trailing_newline_is_trimmed() {
    let g = expr();
    let r = respace(&g, b"1 + 2\n", Blanks::Trimmed).unwrap();
    assert_eq!(r.text, b"1 + 2");
    assert_eq!(r.tree.unparse(&g), b"1 + 2");
    // Nothing to trim, or the trimmed text does not parse either.
    assert!(respace(&g, b"1 + 2", Blanks::Trimmed).is_none());
    assert!(respace(&g, b"1+2\n", Blanks::Trimmed).is_none());
    // A byte-order mark goes too.
    let r = respace(&g, b"\xEF\xBB\xBF1 + 2\r\n", Blanks::Trimmed).unwrap();
    assert_eq!(r.text, b"1 + 2");
}

#[test]
fn a_byte_order_mark_goes_in_every_way() {
    // A grammar whose lines end in a line end: trimming takes the last
    // one, so the mark must go in the other ways too.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<line>", "<line><start>"], "<line>": ["a = <v>\n"],
            "<v>": ["1", "[<v>]"]}"#,
        &Default::default(),
    )
    .unwrap();
    let input = b"\xEF\xBB\xBFa = 1\na = [1]\n";
    assert!(respace(&g, input, Blanks::Trimmed).is_none());
    for how in [Blanks::Lines, Blanks::Runs] {
        let r = respace(&g, input, how).unwrap();
        assert_eq!(r.text, b"a = 1\na = [1]\n");
    }
    let (_, r) = respace_first(&g, input).unwrap();
    assert_eq!(r.text, b"a = 1\na = [1]\n");
}

#[test]
fn blanks_are_respaced_as_the_grammar_writes_them() {
    let g = expr();
    let want = b"1 + 2 * (3 - 4)";
    // Other runs of blanks where the grammar has one.
    for input in [&b"  1  +\n2 * (3\t-  4)"[..], b"1 + 2 * (3 - 4)\t\n"] {
        let r = respace(&g, input, Blanks::Runs).unwrap();
        assert_eq!(r.text, want, "{:?}", String::from_utf8_lossy(input));
    }
    // None where the grammar has one: Tight, not Blanks.
    assert!(respace(&g, b"1+2*(3 -4)\n", Blanks::Runs).is_none());
    let r = respace(&g, b"1+2*(3 -4)\n", Blanks::Tight).unwrap();
    assert_eq!(r.text, want);
    // A blank where the grammar has none: only NoBlanks.
    assert!(respace(&g, b"( 1 )", Blanks::Tight).is_none());
    let r = respace(&g, b"( 1 )+2", Blanks::Removed).unwrap();
    assert_eq!(r.text, b"(1) + 2");
}

#[test]
fn line_ends_stay_line_ends_where_the_grammar_has_them() {
    // Statements end at a line end, and an expression may be two
    // expressions side by side (awk's concatenation): `Runs` is free
    // to read the input's line end as the space between them.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmts>"], "<stmts>": ["<stmt>", "<stmt>\n<stmts>"],
            "<stmt>": ["return <expr>", "<expr>"],
            "<expr>": ["<atom>", "<atom> <expr>"], "<atom>": ["0", "x", "return"]}"#,
        &Default::default(),
    )
    .unwrap();
    let input = b"return  0\n\n  return x";
    let r = respace(&g, input, Blanks::Lines).unwrap();
    assert_eq!(r.text, b"return 0\nreturn x");
    let runs = respace(&g, input, Blanks::Runs).unwrap();
    assert_eq!(
        runs.text, b"return 0 return x",
        "the ambiguity this guards against"
    );
    // A space of the input is never a line end of the grammar's.
    let r = respace(&g, b"return 0  return x", Blanks::Lines).unwrap();
    assert_eq!(r.text, b"return 0 return x");
    // Where the input has no blank at all, TightLines puts the grammar's.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<item>", "<item>\n<start>"], "<item>": ["{<expr>}", "f{<expr>}"],
            "<expr>": ["x", "x <expr>"]}"#,
        &Default::default(),
    )
    .unwrap();
    assert!(respace(&g, b"{x}f{x\nx}", Blanks::TightLines).is_none());
    let r = respace(&g, b"{x  x}f{x}", Blanks::TightLines).unwrap();
    assert_eq!(r.text, b"{x x}\nf{x}");
    // No line end in the grammar's terminals: nothing to keep apart.
    assert!(respace(&expr(), b"1 +\n2", Blanks::Lines).is_none());
    assert!(respace(&expr(), b"1 +\n2", Blanks::Runs).is_some());
}

#[test]
fn a_comment_does_not_swallow_the_next_line() {
    // A comment's characters include a space; the statement after it
    // starts on its own line, indented where the grammar has no blank.
    let g = Grammar::from_json_str(
        r##"{"<start>": ["<line><start>", ""], "<line>": ["# <c>\n", "<w>\n"],
            "<c>": ["", "<ch><c>"], "<ch>": ["a", "w", " "], "<w>": ["w", "a"]}"##,
        &Default::default(),
    )
    .unwrap();
    let r = respace(&g, b"# a a\n  w\n", Blanks::Runs).unwrap();
    assert_eq!(r.text, b"# a a\nw\n");
    // Before, the space alternative matched "\n  " and the next line
    // became comment text: `# a a\n  w` read as one comment.
    assert_eq!(r.tree.unparse(&g), b"# a a\nw\n");
}

#[test]
fn blanks_inside_tokens_stay() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<s>", "<s> + <start>"], "<s>": ["'<c>'"],
            "<c>": ["", "<ch><c>"], "<ch>": ["a", "b", " "]}"#,
        &Default::default(),
    )
    .unwrap();
    let r = respace(&g, b"'a b'  + 'b'\n", Blanks::Runs).unwrap();
    assert_eq!(r.text, b"'a b' + 'b'");
    let r = respace(&g, b"'a b'+'b'", Blanks::Tight).unwrap();
    assert_eq!(r.text, b"'a b' + 'b'");
    // Removing every blank would run the string's words together (`'ab'`):
    // another program, refused.
    assert!(respace(&g, b"'a b'+ 'b'", Blanks::Removed).is_none());
    let r = respace(&g, b"'ab'+ 'b'", Blanks::Removed).unwrap();
    assert_eq!(r.text, b"'ab' + 'b'");
}

#[test]
fn words_that_blanks_separate_stay_apart_in_long_inputs() {
    // Without blanks the words of this grammar run together: on long
    // inputs only the trimmed and one-or-more-blanks ways are tried.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<w>", "<w> <start>"], "<w>": ["<l>", "<l><w>"], "<l>": ["a", "b"]}"#,
        &Default::default(),
    )
    .unwrap();
    let long = "ab  ba\n".repeat(AMBIGUOUS_MAX / 4);
    let r = respace(&g, long.as_bytes(), Blanks::Runs).unwrap();
    assert_eq!(
        r.text,
        "ab ba ".repeat(AMBIGUOUS_MAX / 4).trim_end().as_bytes()
    );
    for how in [Blanks::Tight, Blanks::Removed] {
        assert!(respace(&g, long.as_bytes(), how).is_none(), "{how:?}");
        assert!(respace(&g, b"ab  ba!", how).is_none(), "{how:?}");
    }
    assert_eq!(
        respace(&g, b"ab ba\n", Blanks::Trimmed).unwrap().text,
        b"ab ba"
    );
}

#[test]
fn letters_take_the_grammars_case_only_when_asked() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["SELECT <id> FROM t<d>"], "<id>": ["<l>", "<l><id>"],
            "<l>": ["a", "b"], "<d>": ["1", "2"]}"#,
        &Default::default(),
    )
    .unwrap();
    let input = b"select ab\nfrom T1\n";
    for how in &Respacing::ALL[..6] {
        assert!(respace(&g, input, *how).is_none(), "{how:?}");
    }
    let fold = |blanks| Respacing {
        blanks,
        fold_case: true,
    };
    // The identifier's letters are the grammar's `a` and `b`: `AB` is
    // spelled `ab`.
    assert_eq!(
        respace(&g, b"select AB from T1", fold(Blanks::Trimmed))
            .unwrap()
            .text,
        b"SELECT ab FROM t1"
    );
    assert_eq!(
        respace(&g, input, fold(Blanks::Runs)).unwrap().text,
        b"SELECT ab FROM t1"
    );
    // Where the grammar has both cases of a letter, it keeps the
    // input's.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["SELECT <id>"], "<id>": ["<l>", "<l><id>"], "<l>": ["a", "A", "b"]}"#,
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        respace(&g, b"Select aAB", fold(Blanks::Trimmed))
            .unwrap()
            .text,
        b"SELECT aAb"
    );
    assert!(Respacing::ALL[..6].iter().all(|r| !r.fold_case));
    assert!(Respacing::ALL[6..].iter().all(|r| r.fold_case));
}

#[test]
fn text_that_no_spacing_fixes_is_left_alone() {
    let g = expr();
    for how in Respacing::ALL {
        assert!(respace(&g, b"1 + * 2", how).is_none(), "{how:?}");
        assert!(respace(&g, b"", how).is_none(), "{how:?}");
    }
}

#[test]
fn no_respacing_runs_two_words_together() {
    // A line comment, and statements whose words the grammar writes with
    // one space; the `'o'` is not in the grammar, so nothing parses as
    // written. Removing every blank would make it parse as one comment
    // (`// demolet…`) with its words run together: not the same program.
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<stmts>"],
            "<stmts>": ["<stmt>;", "<stmt>;\n<stmts>", "<comment>\n<stmts>"],
            "<stmt>": ["let <v> = <e>", "print(<e>)"],
            "<comment>": ["//<cchars>"],
            "<cchars>": ["", "<cchar><cchars>"],
            "<cchar>": {"class": "[^\n]"},
            "<v>": ["x", "y"], "<e>": ["<v>", "1", "<v> == <v>"]}"#,
        &Default::default(),
    )
    .unwrap();
    let input = b"// demo\nlet x = 1;\nprint(x == 'o');\n";
    for how in Respacing::ALL {
        if let Some(r) = respace(&g, input, how) {
            panic!("{how:?}: {:?}", String::from_utf8_lossy(&r.text));
        }
    }
    // Blanks between punctuation may still go, and words stay apart.
    let r = respace(&g, b"let  x = 1 ;\n", Blanks::Removed).unwrap();
    assert_eq!(r.text, b"let x = 1;");
    assert!(fuses_words(b"a b", b"ab") && !fuses_words(b"a ( b", b"a(b"));
    assert!(fuses_words(b"-- ab", b"-- a b") && !fuses_words(b"a+b", b"a + b"));
}

#[test]
fn an_error_on_a_blank_is_reported_past_the_blanks() {
    let g = expr();
    // A CRLF file whose real obstacle is the `x` of its second line.
    let input = b"1 + 2\r\n+ x\r\n";
    let e = parse(&g, input).unwrap_err();
    assert_eq!((e.line, e.column), (1, 6));
    let f = past_blanks(&g, input, e);
    assert_eq!((f.line, f.column), (2, 3), "{f}");
    assert!(f.message.contains("while parsing <start>;"), "{f}");
    assert!(
        f.message
            .contains("as written it stops earlier, on a blank at line 1, column 6"),
        "{f}"
    );
    // An error on no blank stays as it is.
    let e = parse(&g, b"1 + x").unwrap_err();
    assert_eq!(past_blanks(&g, b"1 + x", e.clone()), e);
}
