//! Definitions inlined without a grammar: a statement `NAME = VALUE` on
//! its own line or between `;`, `{` and `}` (Python,
//! Make's `:=` and `?=`, shell's `NAME=VALUE`, `let`/`const`/`var`/
//! `local`/`export`/`my` before it) deleted, and VALUE put where NAME
//! is used (`$(NAME)`, `${NAME}` and `$NAME` included): `D=build` …
//! `$D/%.o` → `build/%.o`. C's `#define NAME VALUE` and `typedef VALUE
//! NAME;` are definitions too, and so is ML's `let NAME = VALUE in`
//! anywhere on a line, inlined after its `in`. Deletion alone keeps the chain of variables
//! a failure goes through; C-Reduce inlines the same way with a parser.

use super::super::{ddmin::is_word, Tester};
use super::indent::indent;

/// Words that may stand before a definition's name.
const PREFIXES: &[&[u8]] = &[
    b"export",
    b"local",
    b"let",
    b"const",
    b"var",
    b"my",
    b"our",
    b"readonly",
];

/// A definition, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    /// The line, with its `\n`.
    pub line: (usize, usize),
    /// The name (without a sigil).
    pub name: (usize, usize),
    /// The value, trimmed, without a final `;`.
    pub value: (usize, usize),
    /// An ML `let … in`: its name is used after it, to the end of the
    /// innermost bracket pair around it (or of the text).
    pub let_in: bool,
    /// Tcl's and csh's `set NAME VALUE`: only `$NAME` after it is a use
    /// (a bare `NAME` is a word, a parameter or the `set` of another
    /// value).
    pub sigil: bool,
}

/// The definition on the line `s..e` of `text`, if it is one.
fn def_at(text: &[u8], s: usize, e: usize) -> Option<Def> {
    let word_end = |mut i: usize| {
        while i < e && is_word(text[i]) {
            i += 1;
        }
        i
    };
    let blanks = |mut i: usize| {
        while i < e && matches!(text[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let mut i = blanks(s);
    if i < e && text[i] == b'#' {
        return define_at(text, (s, e), blanks(i + 1), word_end, blanks);
    }
    let w = word_end(i);
    if &text[i..w] == b"typedef" {
        return typedef_at(text, (s, e), w);
    }
    if &text[i..w] == b"set" && w < e && matches!(text[w], b' ' | b'\t') {
        return set_at(text, (s, e), blanks(w), word_end, blanks);
    }
    if PREFIXES.contains(&&text[i..w]) && w < e && matches!(text[w], b' ' | b'\t') {
        i = blanks(w);
    }
    // Perl's `my $x = …`: the sigil is not part of the name.
    if i < e && text[i] == b'$' {
        i += 1;
    }
    let n = word_end(i);
    if n == i || text[i].is_ascii_digit() {
        return None;
    }
    let mut a = blanks(n);
    if a < e && matches!(text[a], b':' | b'?') {
        a += 1;
    }
    if a >= e || text[a] != b'=' || text.get(a + 1) == Some(&b'=') {
        return None;
    }
    let v = blanks(a + 1);
    let mut ve = e;
    while ve > v && text[ve - 1].is_ascii_whitespace() {
        ve -= 1;
    }
    if ve > v && text[ve - 1] == b';' {
        ve -= 1;
    }
    // `let x = v in` (ML): [`let_ins`] finds it, with its scope.
    if ends_with_in(&text[v..ve]) {
        return None;
    }
    (ve > v).then_some(Def {
        line: (s, e),
        name: (i, n),
        value: (v, ve),
        let_in: false,
        sigil: false,
    })
}

/// Tcl's `set NAME VALUE` (csh's `set NAME = VALUE`) on the line `s..e`,
/// the name starting at `n`: a value after blanks, to the line's end.
fn set_at(
    text: &[u8],
    (s, e): (usize, usize),
    n: usize,
    word_end: impl Fn(usize) -> usize,
    blanks: impl Fn(usize) -> usize,
) -> Option<Def> {
    let ne = word_end(n);
    let mut v = blanks(ne);
    if ne == n || v == ne || text[n].is_ascii_digit() {
        return None;
    }
    if v < e && text[v] == b'=' {
        v = blanks(v + 1);
    }
    let ve = v + text[v..e].trim_ascii_end().len();
    let ve = if text[v..ve].ends_with(b";") {
        ve - 1
    } else {
        ve
    };
    (ve > v).then_some(Def {
        line: (s, e),
        name: (n, ne),
        value: (v, ve),
        let_in: false,
        sigil: true,
    })
}

/// C's object-like macro on the line `s..e` (`#define N 10`), the
/// directive's word starting at `d`: the name and the value, which runs
/// to the line's end; not a function-like macro (`#define F(x) …`,
/// [`super::calls`]) nor one continued on the next line.
fn define_at(
    text: &[u8],
    (s, e): (usize, usize),
    d: usize,
    word_end: impl Fn(usize) -> usize,
    blanks: impl Fn(usize) -> usize,
) -> Option<Def> {
    let n0 = blanks(word_end(d));
    if &text[d..word_end(d)] != b"define" || n0 == word_end(d) {
        return None;
    }
    let n = word_end(n0);
    if n == n0 || text[n0].is_ascii_digit() || text.get(n) == Some(&b'(') {
        return None;
    }
    let v = blanks(n);
    let ve = v + text[v..e].trim_ascii_end().len();
    (ve > v && text[ve - 1] != b'\\').then_some(Def {
        line: (s, e),
        name: (n0, n),
        value: (v, ve),
        let_in: false,
        sigil: false,
    })
}

/// C's `typedef TYPE NAME;` on the unit `s..e`, TYPE starting after
/// `from`: NAME (the last word) is defined as TYPE. Not a function
/// pointer's or an array's (`typedef int (*f)(void);`, `typedef int
/// v[4];`): NAME is not last there.
fn typedef_at(text: &[u8], (s, e): (usize, usize), from: usize) -> Option<Def> {
    let unit = text[..e].trim_ascii_end();
    let end = unit.len() - usize::from(unit.ends_with(b";"));
    let body = text[from..end].trim_ascii_end();
    let n = from + body.len();
    let n0 = n - super::word_before(body);
    let v = from + (text[from..n0].len() - text[from..n0].trim_ascii_start().len());
    let ve = v + text[v..n0].trim_ascii_end().len();
    (n0 < n && ve > v && !text[v..ve].contains(&b'(')).then_some(Def {
        line: (s, e),
        name: (n0, n),
        value: (v, ve),
        let_in: false,
        sigil: false,
    })
}

/// The definitions of `text`, in order: on a line of their own, or
/// between `;`, `{` and `}` outside `(…)` and `[…]` (awk's
/// `END{t=5;s=-t[a]`, minified JavaScript).
///
/// ```
/// use grammar_min::reduce::blind::inline::defs;
/// let t = b"D=build\nS := a.c\nif x == 1:\n  my $n = 0;\nEND{t=5; s=f(a;b)}";
/// let names: Vec<&[u8]> = defs(t).iter().map(|d| &t[d.name.0..d.name.1]).collect();
/// assert_eq!(names, [&b"D"[..], b"S", b"n", b"t", b"s"]);
/// ```
pub fn defs(text: &[u8]) -> Vec<Def> {
    let us = units(text);
    let pairs = super::pairs(text);
    let mut out: Vec<Def> = Vec::new();
    for &(s, e) in &us {
        let Some(d) = def_at(text, s, e) else {
            continue;
        };
        // A value whose bracket closes on a later line (`x = [⏎ 1,⏎ 2]`,
        // `f = g(⏎ a)`) runs to the end of the unit that closes it; its
        // inner lines stay units of their own too.
        let mut end = e;
        while !text[d.line.0..].trim_ascii_start().starts_with(b"#") {
            // Pairs are in opener order: those opened inside the value.
            let first = pairs.partition_point(|p| p.0 < d.value.0);
            let far = pairs[first..]
                .iter()
                .take_while(|p| p.0 < end)
                .filter(|p| p.1 >= end)
                .map(|p| p.1)
                .max();
            let Some(c) = far else { break };
            end = us
                .iter()
                .find(|u| u.0 <= c && c < u.1)
                .map_or(text.len(), |u| u.1);
        }
        out.push(match end > e {
            true => def_at(text, s, end).unwrap_or(d),
            false => d,
        });
    }
    out.extend(let_ins(text));
    out.sort_by_key(|d| d.line);
    out
}

/// Whether `v` ends with the word `in`.
fn ends_with_in(v: &[u8]) -> bool {
    v.ends_with(b"in") && (v.len() == 2 || !is_word(v[v.len() - 3]))
}

/// ML's `let NAME = VALUE in` (OCaml, F#, Haskell), anywhere on a line:
/// the definition's line is from `let` through `in` and the blanks after
/// it; VALUE on that line, without another `let`, `=` or `;`.
fn let_ins(text: &[u8]) -> Vec<Def> {
    let mut out = Vec::new();
    let words: Vec<(usize, usize)> = super::word_spans(text).collect();
    for (k, &(s, e)) in words.iter().enumerate() {
        if &text[s..e] != b"let" || (s > 0 && text[s - 1] == b'.') {
            continue;
        }
        let Some(&(n0, n)) = words.get(k + 1) else {
            continue;
        };
        let eq = n + (text[n..].len() - text[n..].trim_ascii_start().len());
        if !text[e..n0].iter().all(|b| matches!(b, b' ' | b'\t'))
            || n0 == e
            || text[n0].is_ascii_digit()
            || text.get(eq) != Some(&b'=')
            || matches!(text.get(eq + 1), Some(b'=' | b'>'))
        {
            continue;
        }
        let line_end = super::line_end(text, eq);
        let Some(&(i0, i1)) = words[k + 2..]
            .iter()
            .take_while(|&&(a, _)| a < line_end)
            .find(|&&(a, b)| matches!(&text[a..b], b"in" | b"let"))
        else {
            continue;
        };
        let v = eq + 1 + (text[eq + 1..i0].len() - text[eq + 1..i0].trim_ascii_start().len());
        let ve = v + text[v..i0].trim_ascii_end().len();
        if &text[i0..i1] != b"in" || ve <= v || text[v..ve].iter().any(|b| b"=;".contains(b)) {
            continue;
        }
        let mut end = i1;
        while end < text.len() && text[end].is_ascii_whitespace() {
            end += 1;
        }
        out.push(Def {
            line: (s, end),
            name: (n0, n),
            value: (v, ve),
            let_in: true,
            sigil: false,
        });
    }
    out
}

/// The statements of `text` as byte ranges: split after each line end
/// outside string literals,
/// after each `;` (with the blanks and line end that follow it), and
/// around each `{` and `}` (in neither range), the last three outside
/// `(…)`, `[…]` and a `{…}` that is a value (after `=`: `s={}`).
fn units(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut s, mut depth, mut i) = (0, 0usize, 0);
    // Braces opened inside brackets or as a value (`s={}`, an object
    // literal): they nest like brackets and split nothing.
    let mut braces = 0usize;
    while i < text.len() {
        // A string literal is text, even across lines (`"""…"""`).
        if let Some(e) = super::literal_end(text, i) {
            i = e + 1;
            continue;
        }
        match text[i] {
            b'{' if depth > 0 || text[..i].trim_ascii_end().ends_with(b"=") => {
                braces += 1;
                depth += 1;
            }
            b'}' if braces > 0 => {
                braces -= 1;
                depth = depth.saturating_sub(1);
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'\n' => {
                out.push((s, i + 1));
                s = i + 1;
            }
            b';' if depth == 0 => {
                let mut e = i + 1;
                while e < text.len() && matches!(text[e], b' ' | b'\t') {
                    e += 1;
                }
                if text.get(e) == Some(&b'\n') {
                    e += 1;
                }
                out.push((s, e));
                (s, i) = (e, e);
                continue;
            }
            b'{' | b'}' if depth == 0 => {
                out.push((s, i));
                s = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if s < text.len() {
        out.push((s, text.len()));
    }
    out
}

/// The uses of `name` in `text[from..to]` as byte ranges to replace: the
/// word alone (not after `.`), or with its `$`, `$(…)` or `${…}`.
pub(super) fn uses(text: &[u8], name: &[u8], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = from;
    while i + name.len() <= to {
        let e = i + name.len();
        let bounded = (i == 0 || !is_word(text[i - 1])) && (e == text.len() || !is_word(text[e]));
        if &text[i..e] != name || !bounded || (i > 0 && text[i - 1] == b'.') {
            i += 1;
            continue;
        }
        let wrapped = |o: u8, c: u8| {
            i >= 2 && text[i - 2] == b'$' && text[i - 1] == o && text.get(e) == Some(&c)
        };
        out.push(if wrapped(b'(', b')') || wrapped(b'{', b'}') {
            (i - 2, e + 1)
        } else if i >= 1 && text[i - 1] == b'$' {
            (i - 1, e)
        } else {
            (i, e)
        });
        i = e;
    }
    out
}

/// The closer of the innermost pair (its opener accepted by `kind`)
/// opened before `s` and closed at or after `e`.
fn closer_around(text: &[u8], s: usize, e: usize, kind: impl Fn(u8) -> bool) -> Option<usize> {
    super::pairs(text)
        .into_iter()
        .filter(|&(o, c)| kind(text[o]) && o < s && e <= c)
        .map(|(_, c)| c)
        .min()
}

/// Where the block holding a definition ends, if it stands in one: the
/// closer of the innermost `{…}` around it, or, for a definition that
/// opens an indented line, the first later line that is indented less
/// (`def n(s):⏎    r=y()⏎    …`), whichever comes first.
fn scope_end(text: &[u8], d: &Def) -> Option<usize> {
    let braces = closer_around(text, d.name.0, d.line.1, |o| o == b'{');
    let ls = super::line_start(text, d.name.0);
    let depth = indent(&text[ls..]);
    let opens_line = text[ls..d.line.0.max(ls)].trim_ascii().is_empty();
    let mut dedent = None;
    let mut at = d.line.1;
    while opens_line && depth > 0 && at < text.len() {
        let e = (super::line_end(text, at) + 1).min(text.len());
        if !text[at..e].trim_ascii().is_empty() && indent(&text[at..]) < depth {
            dedent = Some(at);
            break;
        }
        at = e;
    }
    match (braces, dedent) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The candidate that inlines `defs[k]`: its line deleted and its value
/// put in place of each use of its name, everywhere if the name has no
/// other definition, else up to the next one (that one's value
/// included). `None` if the name has no use there.
/// With `scoped`, a name defined once is replaced only
/// after its definition inside its block ([`scope_end`]): a local
/// variable, whose name elsewhere is another one (`r=y()` in one
/// function, `def r(m)` in another). `None` with `scoped` if the
/// definition stands in no block.
fn inlined_in(text: &[u8], ds: &[Def], k: usize, scoped: bool) -> Option<Vec<u8>> {
    let d = &ds[k];
    let name = &text[d.name.0..d.name.1];
    let same: Vec<&Def> = ds
        .iter()
        .filter(|x| &text[x.name.0..x.name.1] == name)
        .collect();
    let value = &text[d.value.0..d.value.1];
    let mut spans = Vec::new();
    if d.let_in {
        let to = closer_around(text, d.line.0, d.line.1, |_| true).unwrap_or(text.len());
        spans.extend(uses(text, name, d.line.1, to));
    } else if scoped {
        spans.extend(uses(text, name, d.line.1, scope_end(text, d)?));
    } else if same.len() == 1 {
        spans.extend(uses(text, name, 0, d.line.0));
        spans.extend(uses(text, name, d.line.1, text.len()));
    } else {
        let next = ds[k + 1..]
            .iter()
            .find(|x| &text[x.name.0..x.name.1] == name);
        let to = next.map_or(text.len(), |x| x.line.1);
        spans.extend(uses(text, name, d.line.1, to));
        if let Some(x) = next {
            // The next definition's own name stays.
            spans.retain(|&(a, b)| !(a <= x.name.0 && x.name.1 <= b));
        }
    }
    if d.sigil {
        // Tcl runs in order: a `$f` before the `set` (a procedure's own
        // parameter) is another variable.
        spans.retain(|&(a, _)| text[a] == b'$' && a >= d.line.1);
    }
    if spans.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() + spans.len() * value.len());
    let mut at = 0;
    for (a, b) in spans
        .into_iter()
        .chain([(d.line.0, d.line.1)])
        .collect::<std::collections::BTreeSet<_>>()
    {
        out.extend_from_slice(&text[at..a]);
        if (a, b) != d.line {
            out.extend_from_slice(value);
        }
        at = b;
    }
    out.extend_from_slice(&text[at..]);
    Some(out)
}

/// Each definition (see [`defs`]) inlined, in order: within its block
/// first (`inlined_in`), then everywhere, each candidate if
/// it makes the text shorter (a long value
/// used often could grow it), on the blind passes' shared walk. `text`
/// must be known interesting.
pub fn inline_definitions(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, defs, |cur, d| {
        let ds = defs(cur);
        let Some(k) = ds.iter().position(|x| x == d) else {
            return Vec::new();
        };
        let mut out: Vec<Vec<u8>> = Vec::new();
        // Inside a block, its uses there first (a local variable).
        for scoped in [true, false] {
            if let Some(c) = inlined_in(cur, &ds, k, scoped) {
                if c.len() < cur.len() && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    })
}

#[cfg(test)]
mod tests;
