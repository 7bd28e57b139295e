//! ML's top-level functions (OCaml, F#): `let [rec] NAME P1 … Pk = BODY`,
//! applied by juxtaposition (`NAME a (b c)`), with no parentheses around
//! their parameters or arguments for [`super::funcs`] to start from. The
//! definition runs to the next top-level `let`, `and`, `type`, … or `;;`,
//! so it is found on a text whose line ends are gone (`let y m f={s=0}let
//! l l=y l 1-.d`) as well as on one laid out by hand.

use super::super::super::ddmin::is_word;
use super::super::{literal_end, outside_brackets, pairs, replace_spans, word_spans};
use super::{atomic, substitute};

/// An ML function definition, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MlDef {
    /// From `let` to where the next top-level item starts.
    pub span: (usize, usize),
    /// The name.
    pub name: (usize, usize),
    /// The parameters, each a word (`x`, `_`) or `()`.
    pub params: Vec<(usize, usize)>,
    /// After the `=`, trimmed.
    pub body: (usize, usize),
}

/// Words after which a `let` is part of an expression (`… in let`,
/// `then let`), not a new top-level item.
const NESTING: &[&[u8]] = &[
    b"in",
    b"then",
    b"else",
    b"do",
    b"begin",
    b"of",
    b"with",
    b"when",
    b"match",
    b"try",
    b"if",
    b"not",
    b"lazy",
    b"assert",
    b"fun",
    b"function",
    b"struct",
    b"sig",
];

/// Words that start a top-level item, and so end the definition before.
const ITEMS: &[&[u8]] = &[
    b"let",
    b"and",
    b"type",
    b"exception",
    b"open",
    b"module",
    b"external",
    b"class",
];

/// Words that are no argument of an application.
const KEYWORDS: &[&[u8]] = &[
    b"in",
    b"then",
    b"else",
    b"do",
    b"done",
    b"of",
    b"and",
    b"let",
    b"if",
    b"match",
    b"with",
    b"begin",
    b"end",
    b"fun",
    b"function",
    b"when",
    b"mod",
    b"land",
    b"lor",
    b"lxor",
    b"lsl",
    b"lsr",
    b"asr",
    b"or",
    b"to",
    b"downto",
    b"try",
    b"type",
    b"rec",
    b"struct",
    b"sig",
    b"mut",
];

/// Whether the word at `s` starts a top-level item: outside brackets,
/// after nothing, a `;;`, a closer, a literal or a word that is not in
/// [`NESTING`] (`{s=0}let`, `f x⏎let`), not after an operator, `=` or `;`.
fn starts_item(text: &[u8], s: usize, top: &[bool]) -> bool {
    if !top[s] || (s > 0 && text[s - 1] == b'.') {
        return false;
    }
    let before = text[..s].trim_ascii_end();
    let Some(&last) = before.last() else {
        return true;
    };
    if before.ends_with(b";;") {
        return true;
    }
    if is_word(last) {
        let w = before.len() - super::super::word_before(before);
        return !NESTING.contains(&&before[w..]);
    }
    matches!(last, b')' | b']' | b'}' | b'"' | b'\'')
}

/// Per byte of `text`, whether it stands outside brackets and string
/// literals ([`outside_brackets`]).
fn top_level(text: &[u8]) -> Vec<bool> {
    let mut out = vec![false; text.len()];
    for (i, _) in outside_brackets(text) {
        out[i] = true;
    }
    out
}

/// The ML function definitions of `text` (see the module docs), in order.
/// A parameter that is a pattern or has a type (`(x : int)`, `~l`) leaves
/// the definition out. In `let rec y m f={s=0}let l l=let s=l in y s 1`
/// they are `y` (parameters `m`, `f`) and `l` (`l`).
pub(super) fn ml_defs(text: &[u8]) -> Vec<MlDef> {
    let top = top_level(text);
    let words: Vec<(usize, usize)> = word_spans(text).collect();
    let blanks = |mut i: usize| {
        while i < text.len() && text[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut out = Vec::new();
    for (k, &(s, e)) in words.iter().enumerate() {
        if &text[s..e] != b"let" || !starts_item(text, s, &top) {
            continue;
        }
        let mut w = k + 1;
        if words.get(w).is_some_and(|&(a, b)| &text[a..b] == b"rec") {
            w += 1;
        }
        let Some(&(ns, ne)) = words.get(w) else {
            continue;
        };
        let gap = |a: usize, b: usize| a < b && text[a..b].iter().all(u8::is_ascii_whitespace);
        if (w > k + 1 && !gap(e, words[k + 1].0))
            || !gap(words[w - 1].1, ns)
            || !(text[ns].is_ascii_lowercase() || text[ns] == b'_')
            || KEYWORDS.contains(&&text[ns..ne])
        {
            continue;
        }
        // The parameters, up to the `=`.
        let mut params = Vec::new();
        let mut at = blanks(ne);
        let eq = loop {
            match text.get(at) {
                Some(b'=') if text.get(at + 1) != Some(&b'=') => break Some(at),
                Some(b'(') if text.get(at + 1) == Some(&b')') => {
                    params.push((at, at + 2));
                    at = blanks(at + 2);
                }
                Some(&b) if is_word(b) && !b.is_ascii_digit() => {
                    let pe = at + text[at..].iter().take_while(|&&b| is_word(b)).count();
                    if KEYWORDS.contains(&&text[at..pe]) {
                        break None;
                    }
                    params.push((at, pe));
                    at = blanks(pe);
                }
                _ => break None,
            }
        };
        // A value (`let x = …`) is [`super::super::inline`]'s.
        let Some(eq) = eq.filter(|_| !params.is_empty()) else {
            continue;
        };
        // The body, to the next top-level item: a nested `let` waits for
        // its `in`.
        let mut pending = 0usize;
        let mut end = text.len();
        for &(a, b) in words[w + 1..].iter().filter(|&&(a, _)| a > eq) {
            let word = &text[a..b];
            if !top[a] {
                continue;
            }
            if word == b"let" && !starts_item(text, a, &top) {
                pending += 1;
            } else if word == b"in" {
                pending = pending.saturating_sub(1);
            } else if pending == 0 && ITEMS.contains(&word) && starts_item(text, a, &top) {
                end = a;
                break;
            }
        }
        let mut stop = end;
        if let Some(p) = text[eq..end].windows(2).position(|x| x == b";;") {
            (stop, end) = (eq + p, eq + p + 2);
        }
        let bs = blanks(eq + 1).min(stop);
        let be = bs + text[bs..stop].trim_ascii_end().len();
        if be == bs {
            continue;
        }
        out.push(MlDef {
            span: (s, end),
            name: (ns, ne),
            params,
            body: (bs, be),
        });
    }
    out
}

/// The end of the argument that starts at or after `i` (blanks skipped):
/// a name or number with its `.field`s, a literal, or a bracket pair with
/// its `.field`s. `None` if none starts there.
fn argument(text: &[u8], i: usize, closers: &[(usize, usize)]) -> Option<(usize, usize)> {
    let mut s = i;
    while s < text.len() && text[s].is_ascii_whitespace() {
        s += 1;
    }
    let b = *text.get(s)?;
    let mut e = if let Some(l) = literal_end(text, s) {
        l + 1
    } else if matches!(b, b'(' | b'[' | b'{') {
        let j = closers.binary_search_by_key(&s, |p| p.0).ok()?;
        closers[j].1 + 1
    } else if is_word(b) {
        let e = s + text[s..]
            .iter()
            .take_while(|&&b| is_word(b) || b == b'\'')
            .count();
        if KEYWORDS.contains(&&text[s..e]) {
            return None;
        }
        e
    } else {
        return None;
    };
    // Field accesses bind tighter than application (`l.price`, `1.5`).
    while text.get(e) == Some(&b'.') && text.get(e + 1).is_some_and(|&b| is_word(b)) {
        e += 1;
        while e < text.len() && is_word(text[e]) {
            e += 1;
        }
    }
    Some((s, e))
}

/// The candidate that inlines `d`: its definition deleted and each use of
/// its name outside it, with as many arguments as it has parameters,
/// replaced by its body, parameters replaced by arguments and the body in
/// parentheses unless [`atomic`]. `None` if the name is used nowhere else,
/// in its own body (recursion), or somewhere without all its arguments (a
/// partial application, a field or parameter of the same name).
pub(super) fn inlined(text: &[u8], d: &MlDef) -> Option<Vec<u8>> {
    let name = &text[d.name.0..d.name.1];
    let body = &text[d.body.0..d.body.1];
    let closers = pairs(text);
    let names: Vec<&[u8]> = d
        .params
        .iter()
        .map(|&(a, b)| &text[a..b])
        .filter(|p| *p != b"()" && *p != b"_")
        .collect();
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for (s, e) in word_spans(text) {
        if &text[s..e] != name
            || (s > 0 && matches!(text[s - 1], b'.' | b'~' | b'?' | b'\'' | b'#'))
        {
            continue;
        }
        if d.span.0 <= s && s < d.span.1 {
            if s >= d.body.0 {
                return None;
            }
            continue;
        }
        let mut at = e;
        let mut args: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in &d.params {
            let arg = argument(text, at, &closers)?;
            if &text[a..b] != b"()" && &text[a..b] != b"_" {
                args.push(arg);
            }
            at = arg.1;
        }
        let values: Vec<&[u8]> = args.iter().map(|&(a, b)| &text[a..b]).collect();
        let mut r = substitute(body, &names, &values);
        if !atomic(&r) {
            r = [&b"("[..], &r, b")"].concat();
        }
        edits.push((s, at, r));
    }
    if edits.is_empty() {
        return None;
    }
    edits.push((d.span.0, d.span.1, Vec::new()));
    edits.sort_by_key(|e| e.0);
    replace_spans(text, edits.iter().map(|(s, e, r)| (*s, *e, &r[..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ml_function_goes_into_its_applications() {
        // OCaml with its line ends gone: `y` ignores its arguments.
        let t = b"type money={s:int}let y m f={s=0}let l l=y l 1-.d";
        let ds = ml_defs(t);
        let names: Vec<&[u8]> = ds.iter().map(|d| &t[d.name.0..d.name.1]).collect();
        assert_eq!(names, [&b"y"[..], b"l"]);
        assert_eq!(&t[ds[0].body.0..ds[0].body.1], b"{s=0}");
        assert_eq!(
            inlined(t, &ds[0]).unwrap(),
            b"type money={s:int}let l l={s=0}-.d"
        );
        // Laid out by hand: arguments replace parameters, the body goes
        // in parentheses, a nested `let … in` stays in the body.
        let t = b"let add a b =\n  let s = a + b in s\n\nlet main () = print (add x.v (f 2))\n";
        let ds = ml_defs(t);
        assert_eq!(ds.len(), 2);
        assert_eq!(
            String::from_utf8_lossy(&inlined(t, &ds[0]).unwrap()),
            "let main () = print ((let s = x.v + (f 2) in s))\n"
        );
        // A partial application, a recursive function, a typed parameter:
        // no candidate.
        let t = b"let f a b = a\nlet g = List.map (f 1) l";
        assert_eq!(inlined(t, &ml_defs(t)[0]), None);
        let t = b"let rec f a = f a\nlet g = f 1";
        assert_eq!(inlined(t, &ml_defs(t)[0]), None);
        assert!(ml_defs(b"let f (a : int) = a").is_empty());
        // Rust's `let mut x = 1` is no function `mut`.
        assert!(ml_defs(b"}\nlet mut x = 1;").is_empty());
    }
}
