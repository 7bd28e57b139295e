//! Functions inlined without a grammar: a definition `NAME(PARAMS) {BODY}`
//! (with whatever stands before it on its line: `define`, `function`, a
//! return type), Python's `def NAME(PARAMS):BODY` of one line, or
//! `function NAME(PARAMS) BODY end` (Lua, Julia; Ruby's `def`), or one
//! without parameters called by its bare name (`sub NAME {BODY}`),
//! deleted,
//! and each call `NAME(ARGS)` (a method's `o.NAME(ARGS)` with its
//! receiver) replaced by BODY, its parameters replaced by the arguments. A chain of wrappers (`v()` calls
//! `variance()`, which divides by zero) then shrinks to the call that
//! fails: deletion alone cannot remove a wrapper, since its definition
//! and its call must go in one step and the call must become the body.

use std::borrow::Cow;

use super::super::{ddmin::is_word, Tester};
use super::args::{self, Pair};
use super::indent::indent;
use super::{block_after, header_start, line_end, line_start, pairs, replace_spans};

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
    /// The parameter list's parentheses, with their top-level commas.
    pub params: Pair,
    /// Inside the braces.
    pub body: (usize, usize),
    /// The other `(…)` pairs after the same name: the calls (those inside
    /// the definition are left alone when it is inlined).
    pub calls: Vec<Pair>,
    /// Whether a call after `.`, `->` or `::` is a method's, inlined with
    /// its receiver: not for Erlang's functions, where a `->` ends a
    /// clause's head (`f(0)->y()`).
    pub methods: bool,
}

/// The function definitions of `text`, in order, from the `(…)` pairs
/// grouped by the name before them (`args::named_pairs`): a pair followed
/// by a brace block, after a name that is not a statement keyword (`if (x)
/// {…}` is no function), with the group's other pairs as its calls;
/// headers that lost their `)` (`unclosed_headers`); Python's
/// one-line `def`s (`line_defs`); `function NAME(…) … end`
/// (`keyword_defs`); Erlang's `NAME(…) -> BODY.` (`arrow_defs`); a
/// class's constructor, called by the class's
/// name (`constructors`); functions without a parameter list called
/// by their bare name (`sub r {…}` … `r;`, `bare::bare_defs`); and C's
/// function-like macros (`#define W(f, ...) g(f, __VA_ARGS__)`,
/// `macros::macro_defs`).
///
/// ```
/// use grammar_min::reduce::blind::calls::funcs;
/// let t = b"define v(){variance()} if (x) {y} int f(int a) {return a;} v() f(1)";
/// let names: Vec<&[u8]> = funcs(t).iter().map(|f| &t[f.name.0..f.name.1]).collect();
/// assert_eq!(names, [&b"v"[..], b"f"]);
/// ```
pub fn funcs(text: &[u8]) -> Vec<Func> {
    let ps = pairs(text);
    let named = args::named_pairs(text);
    let mut out = defs(text, &named, |p, (ns, _)| {
        let (o, c) = block_after(text, &ps, p.1 + 1)?;
        Some(((header_start(text, o).min(ns), c + 1), (o + 1, c)))
    });
    out.extend(unclosed_headers(text, &ps, &named));
    out.extend(line_defs(text, &named));
    out.extend(keyword_defs(text, &ps, &named));
    out.extend(arrow_defs(text, &named));
    out.extend(constructors(text, &ps, &named));
    out.extend(bare::bare_defs(text, &ps, &named));
    out.extend(macros::macro_defs(text, &named));
    out.sort_by_key(|f| f.span.0);
    out
}

/// Python's one-line functions: `def NAME(PARAMS):BODY` (`async def`, a
/// `-> TYPE` before the `:`), with BODY on the same line or alone on the
/// next, deeper line, the block ending after it. The span is the whole
/// lines with their line end.
fn line_defs(text: &[u8], named: &[(Vec<u8>, Vec<Pair>)]) -> Vec<Func> {
    defs(text, named, |p, (ns, _)| {
        let ls = line_start(text, ns);
        if !matches!(text[ls..ns].trim_ascii(), b"def" | b"async def") {
            return None;
        }
        let le = line_end(text, p.1);
        let rest = &text[p.1 + 1..le];
        let colon = rest.iter().position(|&b| b == b':')?;
        let between = rest[..colon].trim_ascii();
        if !(between.is_empty() || between.starts_with(b"->")) {
            return None;
        }
        let after = p.1 + 2 + colon;
        let next = |e: usize| (e + 1).min(text.len());
        if !text[after..le].trim_ascii().is_empty() {
            return Some(((ls, next(le)), (after, le)));
        }
        let bs = next(le);
        let be = line_end(text, bs);
        let depth = indent(&text[ls..]);
        if text[bs..be].trim_ascii().is_empty() || indent(&text[bs..]) <= depth {
            return None;
        }
        // The block is that one line: the next non-blank line is no
        // deeper than the header.
        let mut n = next(be);
        while n < text.len() && text[n..line_end(text, n)].trim_ascii().is_empty() {
            n = next(line_end(text, n));
        }
        if n < text.len() && indent(&text[n..]) > depth {
            return None;
        }
        Some(((ls, next(be)), (bs, be)))
    })
}

/// The functions of the `… end` languages: `function NAME(PARAMS) BODY
/// end` (Lua, Julia; `local function` too) and `def NAME(PARAMS) BODY
/// end` (Ruby), from the keyword blocks ([`super::keywords::blocks`]),
/// BODY running to the `end`; their calls include those with one literal
/// and no parentheses ([`literal::with_literal_calls`], `ps` the text's
/// [`pairs`]).
fn keyword_defs(text: &[u8], ps: &[(usize, usize)], named: &[(Vec<u8>, Vec<Pair>)]) -> Vec<Func> {
    // Found once, at the first `function`/`def` before a name.
    let mut blocks = None;
    // Lua's `f""` and `f{…}`, Ruby's `f "x"`: calls too.
    let named = literal::with_literal_calls(text, ps, named);
    defs(text, &named, |p, (ns, _)| {
        if text[p.0] != b'(' {
            return None;
        }
        let before = text[..ns].trim_ascii_end();
        let start = before.len() - super::word_before(before);
        if !matches!(&before[start..], b"function" | b"def") || start == ns {
            return None;
        }
        let blocks = blocks.get_or_insert_with(|| super::keywords::blocks(text));
        let j = blocks.binary_search_by_key(&start, |b| b.start).ok()?;
        let b = &blocks[j];
        (text[..b.end].ends_with(b"end") && b.end - 3 > p.1)
            .then_some(((b.stmt, b.end), (p.1 + 1, b.end - 3)))
    })
}

/// Erlang's functions of one clause: `NAME(PARAMS) -> BODY.` where a
/// form starts (the text's start, or after the `.` ending the form
/// before), BODY running to the first `.` outside brackets and literals
/// that a blank or the end follows. One with a `;` outside brackets (more
/// clauses, or a `case` whose arms the oracle would have to keep apart)
/// is left alone. The span runs through that `.`.
fn arrow_defs(text: &[u8], named: &[(Vec<u8>, Vec<Pair>)]) -> Vec<Func> {
    defs(text, named, |p, (ns, _)| {
        let before = text[..ns].trim_ascii_end();
        if !(before.is_empty() || before.ends_with(b".")) {
            return None;
        }
        let after = &text[p.1 + 1..];
        let arrow = text.len() - after.trim_ascii_start().len();
        if !text[arrow..].starts_with(b"->") {
            return None;
        }
        let from = arrow + 2;
        let rest = &text[from..];
        let (end, _) = super::outside_brackets(rest).find(|&(i, b)| {
            b == b';' || (b == b'.' && rest.get(i + 1).is_none_or(u8::is_ascii_whitespace))
        })?;
        (rest[end] == b'.').then_some(((ns, from + end + 1), (from, from + end)))
    })
    .into_iter()
    .map(|f| Func {
        methods: false,
        ..f
    })
    .collect()
}

/// Names a class's constructor has (PHP, JavaScript).
const CONSTRUCTORS: &[&[u8]] = &[b"__construct", b"constructor"];

/// Constructors as functions of their class's name: `class NAME … {…
/// __construct(PARAMS) {BODY} …}` (`constructor` in JavaScript), its
/// calls the pairs after NAME (`new NAME(ARGS)`, whose `new` goes too
/// when one is inlined). The class stays, without its constructor.
fn constructors(text: &[u8], ps: &[(usize, usize)], named: &[(Vec<u8>, Vec<Pair>)]) -> Vec<Func> {
    let mut out = Vec::new();
    for (_, group) in named
        .iter()
        .filter(|(n, _)| CONSTRUCTORS.contains(&n.as_slice()))
    {
        for p in group {
            // The innermost brace pair around the definition: the class
            // (pairs opened before it that do not hold it end before it).
            let Ok(j) = ps.binary_search_by_key(&p.0, |q| q.0) else {
                continue;
            };
            let (Some((b, c)), Some(&(k, kc))) = (
                block_after(text, ps, p.1 + 1),
                ps[..j]
                    .iter()
                    .rev()
                    .find(|q| q.1 > p.1 && text[q.0] == b'{'),
            ) else {
                continue;
            };
            let header = &text[header_start(text, k)..k];
            let mut words = super::word_spans(header).map(|(a, e)| &header[a..e]);
            let (Some(b"class"), Some(class)) = (words.next(), words.next()) else {
                continue;
            };
            let Some((_, calls)) = named.iter().find(|(n, _)| n == class) else {
                continue;
            };
            let ne = text[..p.0].trim_ascii_end().len();
            let ns = header_start(text, b).max(k + 1);
            out.push(Func {
                span: (ns, c + 1),
                name: (ne - super::word_before(&text[..ne]), ne),
                params: p.clone(),
                body: (b + 1, c),
                calls: plain_calls(text, class, calls.clone())
                    .into_iter()
                    .filter(|q| q.1 < k || kc < q.0)
                    .collect(),
                methods: true,
            });
        }
    }
    out
}

/// The definitions among `named`'s pairs (groups of two or more after a
/// name that can be a function's, [`is_name`]): `def` tells, from a pair
/// and its name's span, the span and body of the definition that pair
/// heads, if any; the group's other pairs are its calls.
fn defs(
    text: &[u8],
    named: &[(Vec<u8>, Vec<Pair>)],
    mut def: impl FnMut(&Pair, (usize, usize)) -> Option<((usize, usize), (usize, usize))>,
) -> Vec<Func> {
    let mut out = Vec::new();
    for (name, group) in named {
        // A constructor is its class's function (`constructors`): two
        // classes' `constructor`s do not call each other.
        if group.len() < 2 || !is_name(name) || CONSTRUCTORS.contains(&name.as_slice()) {
            continue;
        }
        for (k, p) in group.iter().enumerate() {
            let ne = text[..p.0].trim_ascii_end().len();
            let ns = ne - name.len();
            let Some((span, body)) = def(p, (ns, ne)) else {
                continue;
            };
            let mut calls = group.clone();
            calls.remove(k);
            out.push(Func {
                span,
                name: (ns, ne),
                params: p.clone(),
                body,
                calls: plain_calls(text, name, calls),
                methods: true,
            });
        }
    }
    out
}

/// Can `name` before `(…) {` be a function's name (not a number, not a
/// statement keyword)?
pub(super) fn is_name(name: &[u8]) -> bool {
    !name[0].is_ascii_digit() && !NOT_NAMES.contains(&name)
}

/// `calls` without sigils' names (`$f(…)`). Method calls (`o.f(…)`)
/// stay: inlining replaces them with their receiver.
fn plain_calls(text: &[u8], name: &[u8], mut calls: Vec<Pair>) -> Vec<Pair> {
    calls.retain(|q| {
        let e = text[..q.0].trim_ascii_end().len() - name.len();
        e == 0 || text[e - 1] != b'$'
    });
    calls
}

/// Definitions whose parameter list lost its `)`: `NAME(PARAMS {BODY}`,
/// with an unmatched `(` and no `;`, `{` or `}` before the brace block
/// (a byte sweep deletes the `)` of `t(s& s) {…}` when the compiler
/// recovers from it, and the wrapper can then no longer be inlined). The
/// parameters run to the `{`.
fn unclosed_headers(
    text: &[u8],
    ps: &[(usize, usize)],
    named: &[(Vec<u8>, Vec<Pair>)],
) -> Vec<Func> {
    let mut out = Vec::new();
    for (o, _) in text.iter().enumerate().filter(|(_, &b)| b == b'(') {
        if ps.binary_search_by_key(&o, |q| q.0).is_ok() {
            continue;
        }
        let ne = text[..o].trim_ascii_end().len();
        let ns = text[..ne]
            .iter()
            .rposition(|&b| !is_word(b))
            .map_or(0, |i| i + 1);
        let name = &text[ns..ne];
        if name.is_empty() || !is_name(name) {
            continue;
        }
        let Some(b) = text[o + 1..]
            .iter()
            .position(|&c| matches!(c, b';' | b'{' | b'}'))
            .map(|i| o + 1 + i)
        else {
            continue;
        };
        let Ok(j) = ps.binary_search_by_key(&b, |q| q.0) else {
            continue;
        };
        let Some((_, group)) = named.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let mut depth = 0usize;
        let commas = (o + 1..b)
            .filter(|&i| {
                match text[i] {
                    b'(' | b'[' => depth += 1,
                    b')' | b']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                depth == 0 && text[i] == b','
            })
            .collect();
        out.push(Func {
            span: (header_start(text, b).min(ns), ps[j].1 + 1),
            name: (ns, ne),
            params: (o, b, commas),
            body: (b + 1, ps[j].1),
            calls: plain_calls(text, name, group.clone()),
            methods: true,
        });
    }
    out
}

/// The arguments of a pair, trimmed (none if it holds only blanks, or
/// for a bare call, [`bare::is_bare`]).
fn arguments<'t>(text: &'t [u8], p: &Pair) -> Vec<&'t [u8]> {
    if bare::is_bare(p) {
        return Vec::new();
    }
    if literal::is_literal_call(text, p) {
        return vec![&text[p.0..=p.1]];
    }
    (0..args::arity(text, p))
        .map(|i| {
            let from = if i == 0 { p.0 + 1 } else { p.2[i - 1] + 1 };
            let to = p.2.get(i).copied().unwrap_or(p.1);
            text[from..to].trim_ascii()
        })
        .collect()
}

/// `body` with each whole-word `names[i]` replaced by `values[i]`. A
/// name with a sigil (PHP's `$x`) is replaced with its sigil; one without
/// leaves a sigilled word alone (`$t` is not `t`).
pub(super) fn substitute(body: &[u8], names: &[&[u8]], values: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    for (s, e) in super::word_spans(body) {
        let sigil = s > 0 && body[s - 1] == b'$';
        let word = &body[s..e];
        let Some(k) = names.iter().position(|n| match n.strip_prefix(b"$") {
            Some(n) => sigil && n == word,
            None => !sigil && *n == word,
        }) else {
            continue;
        };
        let s = if sigil { s - 1 } else { s };
        if s == 0 || body[s - 1] != b'.' {
            out.extend_from_slice(&body[at..s]);
            out.extend_from_slice(values[k]);
            at = e;
        }
    }
    out.extend_from_slice(&body[at..]);
    out
}

/// A parameter's name: its last word, with a `$` before it (`int a`,
/// `s&s`, `$x`).
fn param_name(p: &[u8]) -> &[u8] {
    let s = p.iter().rposition(|&b| !is_word(b)).map_or(0, |i| i + 1);
    &p[if s > 0 && p[s - 1] == b'$' { s - 1 } else { s }..]
}

/// Whether `arg` stands as one operand wherever it goes: a chain of names
/// (`a.b`, `$x`), a literal, or one bracket pair.
fn atomic(arg: &[u8]) -> bool {
    arg.iter().all(|&b| is_word(b) || b == b'.' || b == b'$')
        || super::literal_end(arg, 0) == Some(arg.len() - 1)
        || pairs(arg).first() == Some(&(0, arg.len() - 1))
}

/// The candidate that inlines `f`: its definition deleted and each call
/// outside it replaced by its body (without a leading `return` and a
/// final `;`; a method call with its receiver), parameters replaced by
/// arguments when the counts agree; with `wrap`, each argument that is
/// not [`atomic`] in parentheses (`$t->label()` with `new D` is `(new
/// D)->label()`; `a * a` with `x + 1` is `(x + 1) * (x + 1)`). `None` if
/// it has no call outside itself, or one whose receiver is no chain of
/// names (`f().g()`), or with `wrap` if no argument needs parentheses (a
/// literal argument of a call without parentheses always does: Lua reads
/// `"".price` as an error). With `keep_return` the body's leading
/// `return` stays (`None` if it has none, or if a call is not a
/// statement of its own): Lua's `e""` with body `return a.price*0`
/// becomes `return ("").price*0`, where an expression alone is no
/// statement.
fn inlined(text: &[u8], f: &Func, wrap: bool, keep_return: bool) -> Option<Vec<u8>> {
    let mut body = text[f.body.0..f.body.1].trim_ascii();
    if keep_return && !body.starts_with(b"return ") {
        return None;
    }
    if !keep_return {
        body = body.strip_prefix(b"return ").unwrap_or(body).trim_ascii();
    }
    body = body.strip_suffix(b";").unwrap_or(body).trim_ascii();
    let params: Vec<&[u8]> = arguments(text, &f.params)
        .into_iter()
        .map(|p| if p == b"..." { p } else { param_name(p) })
        .collect();
    let mut wrapped = false;
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for q in &f.calls {
        // The called name (a constructor's class), with a `new` before it.
        let ne = text[..q.0].trim_ascii_end().len();
        let mut s = ne - super::word_before(&text[..ne]);
        let before = text[..s].trim_ascii_end();
        if before.ends_with(b"new") && super::word_before(before) == 3 {
            s = before.len() - 3;
        }
        if f.span.0 <= s && s < f.span.1 {
            continue;
        }
        let mut args: Vec<Cow<'_, [u8]>> = arguments(text, q).into_iter().map(Cow::from).collect();
        // Lua reads `"".price` as a syntax error: a literal argument is
        // parenthesised too.
        let literal = literal::is_literal_call(text, q);
        if wrap {
            for a in args
                .iter_mut()
                .filter(|a| !a.is_empty() && (literal || !atomic(a)))
            {
                *a = Cow::from([&b"("[..], a, b")"].concat());
                wrapped = true;
            }
        }
        let mut replaced = match macros::bind(&params, &args) {
            Some((names, values)) if names.iter().all(|p| !p.is_empty()) => {
                let values: Vec<&[u8]> = values.iter().map(AsRef::as_ref).collect();
                substitute(body, &names, &values)
            }
            _ => body.to_vec(),
        };
        // A method call (`Invoice.r()`, `self.f(x)`): the receiver goes
        // too, and a body of several words followed by a member access
        // is parenthesised (`(new Invoice).s()`).
        let s = if f.methods {
            receiver_start(text, s)
        } else {
            s
        };
        if f.methods && link_before(text, s).is_some() {
            // A receiver that is no chain of names (`f().g()`): left
            // alone, and so is the function.
            return None;
        }
        let end = if bare::is_bare(q) { q.1 } else { q.1 + 1 };
        if keep_return && !literal::is_statement(text, s, end) {
            return None;
        }
        let after = text[end..].trim_ascii_start();
        if f.methods
            && matches!(after.first(), Some(b'.' | b'['))
            && !replaced.iter().all(|&b| is_word(b))
        {
            replaced = [&b"("[..], &replaced, b")"].concat();
        }
        edits.push((s, end, replaced));
    }
    if edits.is_empty() || (wrap && !wrapped) {
        return None;
    }
    edits.push((f.span.0, f.span.1, Vec::new()));
    edits.sort_by_key(|e| e.0);
    replace_spans(text, edits.iter().map(|(s, e, r)| (*s, *e, &r[..])))
}

/// Where a call whose name starts at `s` begins: before its receiver
/// (`a.b.` of `a.b.f()`, `this.`, PHP's `$o->` with its sigil) or path
/// (`std::`, `Money::`), if the name follows a `.`, `->` or `::`.
///
/// ```
/// use grammar_min::reduce::blind::calls::receiver_start;
/// assert_eq!(receiver_start(b"x=a.b.f()", 6), 2);
/// assert_eq!(receiver_start(b"x=$this->o->f()", 12), 2);
/// assert_eq!(receiver_start(b"x=std::max(a)", 7), 2);
/// assert_eq!(receiver_start(b"x=f()->g()", 7), 7);
/// ```
pub fn receiver_start(text: &[u8], mut s: usize) -> usize {
    while let Some(link) = link_before(text, s).filter(|&l| s > l && is_word(text[s - l - 1])) {
        s -= link;
        while s > 0 && is_word(text[s - 1]) {
            s -= 1;
        }
        if s > 0 && matches!(text[s - 1], b'$' | b'@') {
            s -= 1;
        }
    }
    s
}

/// The length of the member or path link (`.`, `->`, `::`) that ends
/// right before `s`.
fn link_before(text: &[u8], s: usize) -> Option<usize> {
    if text[..s].ends_with(b"->") || text[..s].ends_with(b"::") {
        Some(2)
    } else if text[..s].ends_with(b".") {
        Some(1)
    } else {
        None
    }
}

/// Each function (see [`funcs`]) inlined into its calls, one candidate per
/// function in order if that makes the text shorter, on the blind passes'
/// shared walk; then ML's functions (`let f x = …` applied as `f a`) alike. `text` must be known interesting.
pub fn inline_functions(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    // The arguments as written first; in parentheses if that fails.
    let cur = super::walk(text, tester, funcs, |cur, f| {
        [(false, false), (true, false), (false, true), (true, true)]
            .into_iter()
            .filter_map(|(keep_return, wrap)| inlined(cur, f, wrap, keep_return))
            .filter(|c| c.len() < cur.len())
            .collect()
    });
    // ML's functions, applied without parentheses; Lisp's, called as
    // `(NAME ARGS)`, its value definitions and its `let` forms; Tcl's
    // procedures, called as commands.
    let cur = inline_each(&cur, tester, ml::ml_defs, ml::inlined);
    let cur = inline_each(&cur, tester, lisp::lisp_defs, lisp::inlined);
    let cur = inline_each(&cur, tester, lisp::lisp_values, lisp::value_inlined);
    let cur = inline_each(&cur, tester, lisp::lisp_lets, lisp::let_inlined);
    inline_each(&cur, tester, tcl::procs, tcl::inlined)
}

/// Each definition `defs` finds, in order, inlined by `inlined` where
/// that makes the text shorter and keeps it interesting.
fn inline_each<D>(
    text: &[u8],
    tester: &mut Tester<'_>,
    defs: fn(&[u8]) -> Vec<D>,
    inlined: fn(&[u8], &D) -> Option<Vec<u8>>,
) -> Vec<u8> {
    super::walk(text, tester, defs, |cur, d| {
        inlined(cur, d)
            .filter(|c| c.len() < cur.len())
            .into_iter()
            .collect()
    })
}

mod bare;
mod lisp;
mod literal;
mod macros;
mod ml;
mod tcl;

#[cfg(test)]
mod tests;
