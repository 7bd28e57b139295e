//! Functions inlined without a grammar: a definition `NAME(PARAMS) {BODY}`
//! (with whatever stands before it on its line: `define`, `function`, a
//! return type) deleted, and each call `NAME(ARGS)` replaced by BODY, its
//! parameters replaced by the arguments. A chain of wrappers (`v()` calls
//! `variance()`, which divides by zero) then shrinks to the call that
//! fails: deletion alone cannot remove a wrapper, since its definition
//! and its call must go in one step and the call must become the body.

use super::super::{ddmin::is_word, Tester};
use super::{header_start, pairs, splice};

/// Words before `(…) {` that are statements, not function names.
const NOT_NAMES: &[&[u8]] = &[
    b"if",
    b"while",
    b"for",
    b"foreach",
    b"switch",
    b"catch",
    b"function",
    b"elif",
    b"elsif",
    b"until",
    b"with",
    b"return",
    b"sizeof",
    b"lock",
    b"synchronized",
    b"using",
];

/// A function definition, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// The whole definition, from its header's start to its `}`.
    pub span: (usize, usize),
    /// The name.
    pub name: (usize, usize),
    /// Inside the parameter list's parentheses.
    pub params: (usize, usize),
    /// Inside the braces.
    pub body: (usize, usize),
}

/// The word ending at `e` (exclusive), skipping blanks before `e`.
fn word_before(text: &[u8], mut e: usize) -> (usize, usize) {
    while e > 0 && matches!(text[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    let mut s = e;
    while s > 0 && is_word(text[s - 1]) {
        s -= 1;
    }
    (s, e)
}

/// The function definitions of `text`, in order: brace blocks right after
/// a parenthesised list right after a name that is not a statement
/// keyword (`if (x) {…}` is no function).
///
/// ```
/// use grammar_min::reduce::blind::calls::funcs;
/// let t = b"define v(){variance()} if (x) {y} int f(int a) {return a;}";
/// let names: Vec<&[u8]> = funcs(t).iter().map(|f| &t[f.name.0..f.name.1]).collect();
/// assert_eq!(names, [&b"v"[..], b"f"]);
/// ```
pub fn funcs(text: &[u8]) -> Vec<Func> {
    let ps = pairs(text);
    let closer_of = |c: usize| ps.iter().find(|p| p.1 == c).map(|p| p.0);
    let mut out = Vec::new();
    for &(o, c) in &ps {
        if text[o] != b'{' {
            continue;
        }
        let mut e = o;
        while e > 0 && text[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        if e == 0 || text[e - 1] != b')' {
            continue;
        }
        let Some(po) = closer_of(e - 1) else {
            continue;
        };
        let (ns, ne) = word_before(text, po);
        let name = &text[ns..ne];
        if ns == ne || name[0].is_ascii_digit() || NOT_NAMES.contains(&name) {
            continue;
        }
        let start = header_start(text, o).min(ns);
        out.push(Func {
            span: (start, c + 1),
            name: (ns, ne),
            params: (po + 1, e - 1),
            body: (o + 1, c),
        });
    }
    out
}

/// The top-level comma-separated parts of `s`, trimmed.
fn split_commas(s: &[u8]) -> Vec<&[u8]> {
    if s.trim_ascii().is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut from = 0;
    for (i, b) in super::outside_brackets(s) {
        if b == b',' {
            parts.push(s[from..i].trim_ascii());
            from = i + 1;
        }
    }
    parts.push(s[from..].trim_ascii());
    parts
}

/// `body` with each whole-word `names[i]` replaced by `values[i]`.
fn substitute(body: &[u8], names: &[&[u8]], values: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if is_word(body[i]) && (i == 0 || !is_word(body[i - 1])) {
            let mut e = i;
            while e < body.len() && is_word(body[e]) {
                e += 1;
            }
            let w = &body[i..e];
            match names.iter().position(|n| *n == w) {
                Some(k) if i == 0 || body[i - 1] != b'.' => out.extend_from_slice(values[k]),
                _ => out.extend_from_slice(w),
            }
            i = e;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// The candidate that inlines `f`: its definition deleted and each call
/// of its name outside it replaced by its body (without a leading
/// `return` and a final `;`), parameters replaced by arguments when the
/// counts agree. `None` if the name has no call.
fn inlined(text: &[u8], f: &Func) -> Option<Vec<u8>> {
    let name = &text[f.name.0..f.name.1];
    let mut body = text[f.body.0..f.body.1].trim_ascii();
    body = body.strip_prefix(b"return ").unwrap_or(body).trim_ascii();
    body = body.strip_suffix(b";").unwrap_or(body).trim_ascii();
    // Each parameter's name is its last word (`int a`, `s&s`, `$x`).
    let params: Vec<&[u8]> = split_commas(&text[f.params.0..f.params.1])
        .into_iter()
        .map(|p| {
            let (s, e) = word_before(p, p.len());
            &p[s..e]
        })
        .collect();
    let ps = pairs(text);
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for (s, e) in super::inline::uses(text, name, 0, text.len()) {
        // A plain word (not `$NAME`) outside the definition, before `(`.
        if e - s != name.len() || (f.span.0 <= s && s < f.span.1) {
            continue;
        }
        let mut o = e;
        while o < text.len() && matches!(text[o], b' ' | b'\t') {
            o += 1;
        }
        let Some(&(_, c)) = ps.iter().find(|p| p.0 == o && text[o] == b'(') else {
            continue;
        };
        let args = split_commas(&text[o + 1..c]);
        let replaced = if args.len() == params.len() && params.iter().all(|p| !p.is_empty()) {
            substitute(body, &params, &args)
        } else {
            body.to_vec()
        };
        edits.push((s, c + 1, replaced));
    }
    if edits.is_empty() {
        return None;
    }
    edits.push((f.span.0, f.span.1, Vec::new()));
    edits.sort_by_key(|e| e.0);
    let mut pieces: Vec<&[u8]> = Vec::with_capacity(edits.len() * 2 + 1);
    let mut at = 0;
    for (s, e, r) in &edits {
        if *s < at {
            return None;
        }
        pieces.push(&text[at..*s]);
        pieces.push(r);
        at = *e;
    }
    pieces.push(&text[at..]);
    Some(splice(&pieces))
}

/// Each function (see [`funcs`]) inlined into its calls, one candidate per
/// function in order if that makes the text shorter, on the blind passes'
/// shared walk. `text` must be known interesting.
pub fn inline_functions(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, funcs, |cur, f| {
        inlined(cur, f)
            .filter(|c| c.len() < cur.len())
            .into_iter()
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

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
            inlined(t, &fs[0]).unwrap(),
            b"\nint main() { return x + 1 * x + 1; }"
        );
        // `main` has no call.
        assert_eq!(inlined(t, &fs[1]), None);
    }
}
