//! Tests of the definition inlining.

use super::super::tests::run_pass;
use super::*;

#[test]
fn an_ml_let_in_is_inlined_after_it() {
    // OCaml: `s` is `l` after its `in`; the field `s` before it stays.
    let input = b"type m={s:int}let l l=let s=l in\ny s 1";
    let ds = defs(input);
    let k = ds.iter().position(|d| d.let_in).unwrap();
    assert_eq!(&input[ds[k].name.0..ds[k].name.1], b"s");
    assert_eq!(
        inlined_in(input, &ds, k, true).unwrap(),
        b"type m={s:int}let l l=y l 1"
    );
    // Inside brackets, up to their closer.
    let input = b"(let a=1 in a+a) a";
    let ds = defs(input);
    assert_eq!(inlined_in(input, &ds, 0, true).unwrap(), b"(1+1) a");
    // A function (`let f x = …`) is none, nor is a value with `=`.
    assert!(defs(b"let f x = 1 in f").is_empty());
    assert!(defs(b"let b = x = 1 in b").iter().all(|d| !d.let_in));
}

#[test]
fn a_definition_between_semicolons_is_inlined() {
    // awk: `s` holds `-t[a]`, used once; the statement goes with its
    // line end.
    let input = b"END{t[\"\"]=5;s=-t[a]\n$(s/0)}";
    let ds = defs(input);
    let k = ds
        .iter()
        .position(|d| &input[d.name.0..d.name.1] == b"s")
        .unwrap();
    assert_eq!(
        inlined_in(input, &ds, k, false).unwrap(),
        b"END{t[\"\"]=5;$(-t[a]/0)}"
    );
}

#[test]
fn a_local_variable_goes_into_its_uses_in_its_block() {
    // Python: `r` is also a function of another scope; inlining it
    // everywhere breaks that one.
    let input = b"def y():\n    def r(m):S[m]\n    return r\ndef n(s):\n    r=y()\n    for m in s:r(m)\nn(1)\n";
    let want = |c: &[u8]| String::from_utf8_lossy(c).contains("for m in s:y()(m)\nn(1)");
    let (out, runs) = run_pass(inline_definitions, input, want);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "def y():\n    def r(m):S[m]\n    return r\ndef n(s):\n    for m in s:y()(m)\nn(1)\n"
    );
    assert_eq!(runs, 1);
    // In braces: up to the block's closer.
    let input = b"function f(){let a=g();h(a)}a(1)";
    let ds = defs(input);
    assert_eq!(
        inlined_in(input, &ds, 0, true).unwrap(),
        b"function f(){h(g())}a(1)"
    );
    // At the top level there is no block.
    let input = b"a=1\nb(a)\n";
    assert_eq!(inlined_in(input, &defs(input), 0, true), None);
}

#[test]
fn a_value_over_several_lines_is_inlined_whole() {
    // Python: a triple-quoted string with an unbalanced `(` in it, and
    // a list over three lines; the lines inside are no statements.
    let input = b"G=\"\"\"[m]\nt=(\nt=\"\"\"\nL = [1,\n  2]\nf(G, L)\n";
    let ds = defs(input);
    let names: Vec<&[u8]> = ds.iter().map(|d| &input[d.name.0..d.name.1]).collect();
    assert_eq!(names, [&b"G"[..], b"L"]);
    assert_eq!(
        inlined_in(input, &ds, 0, false).unwrap(),
        b"L = [1,\n  2]\nf(\"\"\"[m]\nt=(\nt=\"\"\", L)\n"
    );
    assert_eq!(
        inlined_in(input, &ds, 1, false).unwrap(),
        b"G=\"\"\"[m]\nt=(\nt=\"\"\"\nf(G, [1,\n  2])\n"
    );
    // A JavaScript callback's own definitions stay units of their own.
    let input = b"app.get(p, (q) => {\n  const x = 1;\n  q.send(x);\n});\n";
    let ds = defs(input);
    assert_eq!(
        inlined_in(input, &ds, 0, false).unwrap(),
        b"app.get(p, (q) => {\n  q.send(1);\n});\n"
    );
}

#[test]
fn a_tcl_set_goes_into_its_dollar_uses() {
    // The parameter `f` of the procedure is another name.
    let input = b"proc l f {dict get $f k}\nset f [list]\nl $f\n";
    let ds = defs(input);
    assert_eq!(ds.len(), 1);
    assert_eq!(&input[ds[0].value.0..ds[0].value.1], b"[list]");
    assert_eq!(
        inlined_in(input, &ds, 0, false).unwrap(),
        b"proc l f {dict get $f k}\nl [list]\n"
    );
    // csh's form; `set x` alone reads a value.
    let input = b"set n = 5;\necho $n\nset n\n";
    let ds = defs(input);
    assert_eq!(ds.len(), 1);
    assert_eq!(
        inlined_in(input, &ds, 0, false).unwrap(),
        b"echo 5\nset n\n"
    );
}

#[test]
fn uses_with_their_sigils() {
    let t = b"$(D)/x ${D} $D D o.D DD";
    let got: Vec<&[u8]> = uses(t, b"D", 0, t.len())
        .iter()
        .map(|&(a, b)| &t[a..b])
        .collect();
    assert_eq!(got, [&b"$(D)"[..], b"${D}", b"$D", b"D"]);
}

#[test]
fn a_value_takes_the_place_of_its_name() {
    // A Makefile whose target must stay `build/n.o` from `src/n.c`.
    let want = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        let s = s.replace("$D", "build").replace("$(O)", "build/n.o");
        s.contains("build/n.o:") && s.contains("src/n.c")
    };
    let input = b"D=build\nO := $D/n.o\n$(O): src/n.c\n";
    let (out, runs) = run_pass(inline_definitions, input, want);
    assert_eq!(out, b"build/n.o: src/n.c\n");
    assert_eq!(runs, 2);
    // A name defined twice: the first value goes up to the second
    // definition, whose own value uses it.
    let input = b"x = 2\nx = x + 1\nprint(x)\n";
    let ds = defs(input);
    assert_eq!(
        inlined_in(input, &ds, 0, false).unwrap(),
        b"x = 2 + 1\nprint(x)\n"
    );
    assert_eq!(
        inlined_in(input, &ds, 1, false).unwrap(),
        b"x = 2\nprint(x + 1)\n"
    );
}

#[test]
fn an_object_like_macro_goes_into_its_uses() {
    let input = b"#define N 10\n# define F(x) x\n#define L a \\\nint a[N];\n";
    let names: Vec<&[u8]> = defs(input)
        .iter()
        .map(|d| &input[d.name.0..d.name.1])
        .collect();
    assert_eq!(names, [&b"N"[..]]);
    let (out, runs) = run_pass(inline_definitions, input, |c| {
        String::from_utf8_lossy(c).contains("int a[10];")
    });
    assert_eq!(out, b"# define F(x) x\n#define L a \\\nint a[10];\n");
    assert_eq!(runs, 1);
}

#[test]
fn a_typedef_goes_into_its_uses() {
    let input = b"typedef unsigned long long c_t;\ntypedef int (*f)(void);\nstruct t{c_t s;};";
    let names: Vec<&[u8]> = defs(input)
        .iter()
        .map(|d| &input[d.name.0..d.name.1])
        .collect();
    assert_eq!(names, [&b"c_t"[..]]);
    let ds = defs(input);
    assert_eq!(
        String::from_utf8_lossy(&inlined_in(input, &ds, 0, false).unwrap()),
        "typedef int (*f)(void);\nstruct t{unsigned long long s;};"
    );
}

#[test]
fn an_object_literal_is_a_value() {
    // node: `s` is assigned once, an empty object, in a block.
    let input = b"async function p(){s={a:{}};await e\nPromise.all(s)}p()";
    let names: Vec<&[u8]> = defs(input)
        .iter()
        .map(|d| &input[d.value.0..d.value.1])
        .collect();
    assert_eq!(names, [&b"{a:{}}"[..]]);
    let (out, _) = run_pass(inline_definitions, input, |c| {
        String::from_utf8_lossy(c).contains("Promise.all({a:{}})")
    });
    assert_eq!(out, b"async function p(){await e\nPromise.all({a:{}})}p()");
}
