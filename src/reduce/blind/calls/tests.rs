//! Tests of inlining functions without a grammar.
use super::super::tests::run_pass;
use super::*;

#[test]
fn a_method_goes_into_its_call_with_its_receiver() {
    // node: the getter-only property is set on a new Invoice by `s`,
    // which its receiver, no chain of names, keeps from inlining.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("get total(){}") && s.contains("s(){this.total=0}") && s.ends_with(".s()")
    };
    let input = b"class Invoice{static r(){return new Invoice}get total(){}s(){this.total=0}}Invoice.r().s()";
    let (out, _) = run_pass(inline_functions, input, want);
    assert_eq!(
        out,
        b"class Invoice{get total(){}s(){this.total=0}}(new Invoice).s()"
    );
}

#[test]
fn a_method_called_through_an_arrow_goes_with_its_receiver() {
    // PHP: the call must happen, wherever it is; `$e->r()` becomes the
    // body, receiver and all, and `f()->r()` (a receiver that is no
    // chain of names) keeps the method from inlining.
    let want = |c: &[u8]| c.windows(14).any(|w| w == b"M::format('');");
    let input = b"<?class e{function r(){M::format('');}}$e=new e;$e->r();";
    let (out, _) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"<?class e{}$e=new e;M::format('');");
    let input = b"<?class e{function r(){M::format('');}}f()->r();";
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!((out.as_slice(), runs), (&input[..], 0));
}

#[test]
fn a_wrapper_goes_into_its_call() {
    // bc: the division by zero must happen inside `variance`, called
    // from anywhere.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("define variance(){t/n}") && s.ends_with("variance()\n")
    };
    let input = b"define variance(){t/n}define v(){variance()}v()\n";
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"define variance(){t/n}variance()\n");
    // `variance` itself: its body in place of the call loses the
    // failure; `v` goes.
    assert_eq!(runs, 2);
}

#[test]
fn parameters_take_the_arguments() {
    let t = b"int sq(int a) { return a * a; }\nint main() { return sq(x + 1); }";
    let fs = funcs(t);
    assert_eq!(
        inlined(t, &fs[0], false, false).unwrap(),
        b"\nint main() { return x + 1 * x + 1; }"
    );
    // `main` has no call: no candidate.
    assert_eq!(fs.len(), 1);
    assert_eq!(
        inlined(t, &fs[0], true, false).unwrap(),
        b"\nint main() { return (x + 1) * (x + 1); }"
    );
    // Every argument atomic: nothing to wrap, no second candidate.
    let t =
        b"int sq(int a) { return a * a; }\nint main() { return sq(v.w) + sq(\"a b\") + sq((c)); }";
    assert_eq!(inlined(t, &funcs(t)[0], true, false), None);
}

#[test]
fn a_constructor_goes_into_its_class_s_calls() {
    let t = b"<?class D{}class r{public function __construct($t){$t->label();}}new r(new D);";
    let fs = funcs(t);
    assert_eq!(fs.len(), 1);
    assert_eq!(&t[fs[0].name.0..fs[0].name.1], b"__construct");
    assert_eq!(
        inlined(t, &fs[0], true, false).unwrap(),
        b"<?class D{}class r{}(new D)->label();"
    );
    // JavaScript; a call inside the class is left alone, and a class
    // with no call gives nothing.
    let t = b"class A{constructor(x){g(x)}m(){new A(1)}}class B{constructor(y){h(y)}}new A(2)";
    let fs = funcs(t);
    assert_eq!(fs.len(), 1);
    assert_eq!(
        inlined(t, &fs[0], false, false).unwrap(),
        b"class A{m(){new A(1)}}class B{constructor(y){h(y)}}g(2)"
    );
}

#[test]
fn an_argument_goes_in_with_its_sigil_and_in_parentheses_if_need_be() {
    // PHP 8.2: `new D->label()` is a syntax error, `(new D)->label()`
    // calls the missing method.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("(new D)->label()") || s.contains("r(new D)")
    };
    let input = b"<?class D{}function r($t){$t->label();}r(new D);";
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"<?class D{}(new D)->label();");
    // As written first (`new D->label()`), then in parentheses.
    assert_eq!(runs, 2);
    // `$t` is not `t`, and `t` not `$t`.
    let t = b"function r($t, t){$t . t;}r(1, 2);";
    assert_eq!(inlined(t, &funcs(t)[0], false, false).unwrap(), b"1 . 2;");
}

#[test]
fn a_python_function_of_one_line_is_inlined() {
    let t = b"def l(w):int(w)\ndef d(s):\n  return l(s)\n\ndef g(x):\n  a\n  b\nprint(d(x))\n";
    let fs = funcs(t);
    let names: Vec<&[u8]> = fs.iter().map(|f| &t[f.name.0..f.name.1]).collect();
    // `g` has two lines and no call.
    assert_eq!(names, [&b"l"[..], b"d"]);
    assert_eq!(
        inlined(t, &fs[1], false, false).unwrap(),
        b"def l(w):int(w)\n\ndef g(x):\n  a\n  b\nprint(l(x))\n"
    );
    assert_eq!(
        inlined(t, &fs[0], false, false).unwrap(),
        b"def d(s):\n  return int(s)\n\ndef g(x):\n  a\n  b\nprint(d(x))\n"
    );
}

#[test]
fn a_function_that_ends_with_end_is_inlined() {
    // Lua: the chain of wrappers folds into `f""`; `f` itself, called
    // with a literal (`literal.rs`), must stay. Interesting iff
    // `f` is defined and reached from the last line through defined
    // functions.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        let last = s.trim_end().lines().last().unwrap_or("");
        let defined = |call: &str, def: &str| !s.contains(call) || s.contains(def);
        s.contains("function f(e) d=e.retry.b end")
            && ["l(1)", "h()", "f\"\""].contains(&last)
            && defined("l(1)", "function l(x) ")
            && defined("h()", "function h() f\"\" end")
    };
    let input = b"function f(e) d=e.retry.b end\nfunction h() f\"\" end\nlocal function l(x) h() end\nl(1)\n";
    let names: Vec<&[u8]> = funcs(input)
        .iter()
        .map(|f| &input[f.name.0..f.name.1])
        .collect();
    assert_eq!(names, [&b"f"[..], b"h", b"l"]);
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"function f(e) d=e.retry.b end\n\n\nf\"\"\n");
    // `f` into `h`, as written and with its argument parenthesised; then
    // `h` and `l`.
    assert_eq!(runs, 4);
    // Ruby's `def … end` too; a Python `def` has no `end`.
    assert_eq!(funcs(b"def g(a) a end\ng(1)").len(), 1);
    let py = b"def g(a):\n  a\ng(1)";
    assert!(keyword_defs(py, &pairs(py), &args::named_pairs(py)).is_empty());
}

#[test]
fn a_function_called_with_a_literal_is_inlined() {
    // lua5.4: `("").price` is nil (a string's methods are the string
    // table's); an expression alone is no statement and `"".price` no
    // expression, so the body keeps its `return` and the literal its
    // parentheses.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("function e(a)return a.price*0") || s.trim() == "return (\"\").price*0"
    };
    let input = b"function e(a)return a.price*0\nend e\"\"";
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!(out.trim_ascii(), b"return (\"\").price*0");
    assert_eq!(runs, 4);
    // A table argument, and a call inside an expression (no `return`).
    let t = b"function g(t) return t[1] end\nx = g{7} + 1";
    let fs = funcs(t);
    assert_eq!(fs.len(), 1);
    assert_eq!(
        inlined(t, &fs[0], true, false).unwrap(),
        b"\nx = ({7})[1] + 1"
    );
    assert_eq!(inlined(t, &fs[0], true, true), None);
    // A name only called this way, with no definition, is no function;
    // nor is a C string prefix.
    assert!(funcs(b"print\"x\" u8\"y\"").is_empty());
}

#[test]
fn a_header_that_lost_its_parenthesis_is_still_a_function() {
    // g++ recovers from the missing `)`, so a byte sweep deletes it.
    let t = b"struct L{e()}template<typename s>t(s&s{e(s)}L x=t(x)";
    let fs = funcs(t);
    assert_eq!(fs.len(), 1);
    assert_eq!(&t[fs[0].name.0..fs[0].name.1], b"t");
    assert_eq!(
        inlined(t, &fs[0], false, false).unwrap(),
        b"struct L{e()}L x=e(x)"
    );
    // Statements and calls with an unclosed `(` are no definitions.
    assert!(funcs(b"if(x{y}if(z)").is_empty());
    assert!(funcs(b"f(a;{b}f(c)").is_empty());
}

#[test]
fn a_function_without_parameters_goes_into_its_bare_calls() {
    // Perl: `sub NAME {…}`, called as `NAME` or `NAME()`.
    let want = |c: &[u8]| String::from_utf8_lossy(c).contains("1/$z");
    let input = b"use strict;my $z=0;sub r{ return 1/$z; }\nprint r;\nprint r();\n";
    let (out, _) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"use strict;my $z=0;\nprint 1/$z;\nprint 1/$z;\n");
    // Ruby: `def NAME` ⏎ … `end`, called bare, with a receiver too.
    let want = |c: &[u8]| String::from_utf8_lossy(c).contains("nil.x");
    let input = b"def limit\n  nil.x\nend\nputs limit\nputs self.limit\n";
    let (out, _) = run_pass(inline_functions, input, want);
    assert_eq!(out, b"\nputs nil.x\nputs nil.x\n");
    // A use after a sigil (`&r`) would stay behind: no candidate.
    let t = b"sub r{1}\nprint r;\n&r;\n";
    assert!(funcs(t).is_empty());
}

#[test]
fn a_function_like_macro_goes_into_its_calls() {
    // gcc's format warning: the call must reach `g` with its arguments.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("g(0, \"%lu\", p->s)") && s.contains("SQ(") == s.contains("#define SQ")
    };
    let input = b"#define W(...) g(0, __VA_ARGS__)\n#define SQ(x) \\\n  ((x) * (x))\nint d(struct t *p) { W(\"%lu\", p->s); return SQ(p->n); }\n";
    let (out, runs) = run_pass(inline_functions, input, want);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "int d(struct t *p) { g(0, \"%lu\", p->s); return \\\n  ((p->n) * (p->n)); }\n"
    );
    assert_eq!(runs, 2);
    // Named parameters before `...`, and too few arguments for them.
    let t = b"#define E(f, ...) e(f, __VA_ARGS__)\nE(1, 2, 3); E();";
    let fs = funcs(t);
    assert_eq!(fs.len(), 1);
    // A call that does not fit takes the body as written.
    assert_eq!(
        String::from_utf8_lossy(&inlined(t, &fs[0], false, false).unwrap()),
        "e(1, 2, 3); e(f, __VA_ARGS__);"
    );
}

#[test]
fn an_erlang_function_goes_into_its_call() {
    // escript: the division must happen in `mean/1`, called from
    // anywhere; `y/0` is a wrapper, and `z/1`, of two clauses, stays.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        s.contains("mean(V)->1/V.") && s.contains("mean(0)")
    };
    let input = b"-mode(compile).\nmean(V)->1/V.\ny()->mean(0).\nz(0)->y();z(N)->N.\nmain(_)->y(),ok.\nw()->y().\n";
    let names: Vec<&[u8]> = funcs(input)
        .iter()
        .map(|f| &input[f.name.0..f.name.1])
        .collect();
    assert_eq!(names, [&b"mean"[..], b"y"]);
    let (out, _) = run_pass(inline_functions, input, want);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "-mode(compile).\nmean(V)->1/V.\n\nz(0)->mean(0);z(N)->N.\nmain(_)->mean(0),ok.\nw()->mean(0).\n"
    );
}
