//! Lisp's functions (Scheme, Common Lisp, Clojure, Emacs Lisp): `(define
//! (NAME P1 … Pk) BODY)`, `(defun NAME (P1 … Pk) BODY)` or `(defn NAME
//! [P1 … Pk] BODY)`, called as `(NAME A1 … Ak)`. Names hold `-`, `?`,
//! `*` and the like, which [`super::funcs`]' words and `NAME(…)` calls do
//! not, so S-expressions get their own reader. Only in a text of
//! S-expressions ([`super::super::hoist::sexprs`]).

use super::super::hoist::{all_elements, elements, sexprs};
use super::super::{literal_end, pairs, replace_spans};

/// A function definition, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LispDef {
    /// The whole `(define …)`.
    pub span: (usize, usize),
    /// The name.
    pub name: (usize, usize),
    /// The parameters, each a symbol.
    pub params: Vec<(usize, usize)>,
    /// The one body form.
    pub body: (usize, usize),
}

/// Can `b` be part of a symbol (`line-total`, `null?`, `*`, `+`)?
fn symbolic(b: u8) -> bool {
    !(b.is_ascii_whitespace() || b"()[]{}\"';`,".contains(&b))
}

/// The symbol that starts at `i`, as a span (empty if none does).
fn symbol_at(text: &[u8], i: usize) -> (usize, usize) {
    let n = text[i..].iter().take_while(|&&b| symbolic(b)).count();
    (i, i + n)
}

/// The first element of the pair opened at `o`: its head.
fn head(text: &[u8], o: usize) -> (usize, usize) {
    let inner = &text[o + 1..];
    symbol_at(text, o + 1 + (inner.len() - inner.trim_ascii_start().len()))
}

/// The `(HEAD …)` forms of `text` whose head is one of `heads`, as the
/// pairs of their parentheses, in order; none unless `text` is made of
/// S-expressions.
fn forms<'t>(text: &'t [u8], heads: &'t [&[u8]]) -> impl Iterator<Item = (usize, usize)> + 't {
    let ps = if sexprs(text) {
        pairs(text)
    } else {
        Vec::new()
    };
    ps.into_iter().filter(move |&(o, _)| {
        let h = head(text, o);
        text[o] == b'(' && heads.contains(&&text[h.0..h.1])
    })
}

/// The definitions of `text` with one body form, in order: `define`,
/// `defun`, `defn` (the parameters all symbols, `&rest`, `.` and the
/// like not taken apart).
pub(super) fn lisp_defs(text: &[u8]) -> Vec<LispDef> {
    let mut out = Vec::new();
    for (o, c) in forms(text, &[b"define", b"defun", b"defn"]) {
        let h = head(text, o);
        let kind = &text[h.0..h.1];
        let els = elements(text, o, c);
        // `(define (NAME P…) BODY)`, or `(defun NAME (P…) BODY)`.
        let (name, list, body) = match (kind, els.as_slice()) {
            (b"define", &[sig, body]) if text[sig.0] == b'(' => {
                let mut syms = elements(text, sig.0, sig.1 - 1);
                let name = head(text, sig.0);
                syms.retain(|&(a, b)| b > a);
                (name, syms, body)
            }
            (b"defun" | b"defn", &[name, list, body]) if matches!(text[list.0], b'(' | b'[') => {
                (name, all_elements(text, list.0, list.1 - 1), body)
            }
            _ => continue,
        };
        let symbol = |&(a, b): &(usize, usize)| b > a && text[a..b].iter().all(|&x| symbolic(x));
        if symbol(&name) && list.iter().all(symbol) {
            out.push(LispDef {
                span: (o, c + 1),
                name,
                params: list,
                body,
            });
        }
    }
    out
}

/// The symbols of `text`, in order, as spans (string literals skipped).
fn symbols(text: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < text.len() {
            if let Some(e) = literal_end(text, i) {
                i = e + 1;
                continue;
            }
            let (s, e) = symbol_at(text, i);
            i = e.max(i + 1);
            if e > s {
                return Some((s, e));
            }
        }
        None
    })
}

/// `body` with each symbol `names[i]` replaced by `values[i]` (strings
/// left alone).
fn substitute(body: &[u8], names: &[&[u8]], values: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    for (s, e) in symbols(body) {
        if let Some(k) = names.iter().position(|n| *n == &body[s..e]) {
            out.extend_from_slice(&body[at..s]);
            out.extend_from_slice(values[k]);
            at = e;
        }
    }
    out.extend_from_slice(&body[at..]);
    out
}

/// The candidate that inlines `d`: its definition deleted and each call
/// `(NAME A1 … Ak)` replaced by its body, the parameters replaced by the
/// arguments. `None` if the name stands anywhere else (`(map NAME l)`,
/// a recursive call), a call has another count of arguments or holds
/// another call, or there is no call.
pub(super) fn inlined(text: &[u8], d: &LispDef) -> Option<Vec<u8>> {
    let name = &text[d.name.0..d.name.1];
    let names: Vec<&[u8]> = d.params.iter().map(|&(a, b)| &text[a..b]).collect();
    let body = &text[d.body.0..d.body.1];
    let mut edits: Vec<(usize, usize, Vec<u8>)> = vec![(d.span.0, d.span.1, Vec::new())];
    let mut calls = 0;
    for (o, c) in pairs(text) {
        let h = head(text, o);
        if text[o] != b'(' || (d.span.0..d.span.1).contains(&o) || &text[h.0..h.1] != name {
            continue;
        }
        let args = elements(text, o, c);
        if args.len() != names.len() {
            return None;
        }
        let values: Vec<&[u8]> = args.iter().map(|&(a, b)| &text[a..b]).collect();
        edits.push((o, c + 1, substitute(body, &names, &values)));
        calls += 1;
    }
    // Every other use of the name (outside the definition's own name).
    let uses = symbols(text)
        .filter(|&(s, e)| s > 0 && &text[s..e] == name)
        .count();
    if calls == 0 || uses != calls + 1 {
        return None;
    }
    // A call inside another's arguments overlaps it: `None`.
    edits.sort_by_key(|e| e.0);
    replace_spans(text, edits.iter().map(|(s, e, r)| (*s, *e, r.as_slice())))
}

/// The value definitions of `text`, in order: `(define NAME VALUE)`,
/// `(defvar NAME VALUE)`, `(defparameter …)`, `(defconst …)`, Clojure's
/// `(def …)`, as [`LispDef`]s without parameters whose body is the value.
pub(super) fn lisp_values(text: &[u8]) -> Vec<LispDef> {
    let mut out = Vec::new();
    let heads: [&[u8]; 5] = [b"define", b"defvar", b"defparameter", b"defconst", b"def"];
    for (o, c) in forms(text, &heads) {
        if let &[name, body] = elements(text, o, c).as_slice() {
            if name.1 > name.0 && text[name.0..name.1].iter().all(|&x| symbolic(x)) {
                out.push(LispDef {
                    span: (o, c + 1),
                    name,
                    params: Vec::new(),
                    body,
                });
            }
        }
    }
    out
}

/// The candidate that inlines the value definition `d`: deleted, and each
/// use of its name elsewhere replaced by the value. `None` if the name is
/// not used.
pub(super) fn value_inlined(text: &[u8], d: &LispDef) -> Option<Vec<u8>> {
    let name = &text[d.name.0..d.name.1];
    let value = &text[d.body.0..d.body.1];
    let mut edits = vec![(d.span.0, d.span.1, &[][..])];
    edits.extend(
        symbols(text)
            .filter(|&(s, e)| !(d.span.0..d.span.1).contains(&s) && &text[s..e] == name)
            .map(|(s, e)| (s, e, value)),
    );
    if edits.len() == 1 {
        return None;
    }
    edits.sort_by_key(|e| e.0);
    replace_spans(text, edits)
}

/// A `(let ((NAME VALUE) …) BODY)` (`let*`, `letrec` too) with one body
/// form, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LispLet {
    /// The whole form.
    pub span: (usize, usize),
    /// Each binding's name and value.
    pub bindings: Vec<((usize, usize), (usize, usize))>,
    /// The one body form.
    pub body: (usize, usize),
}

/// The `let` forms of `text` with one body form, outer first.
pub(super) fn lisp_lets(text: &[u8]) -> Vec<LispLet> {
    let mut out = Vec::new();
    for (o, c) in forms(text, &[b"let", b"let*", b"letrec"]) {
        let &[list, body] = elements(text, o, c).as_slice() else {
            continue;
        };
        if text[list.0] != b'(' {
            continue;
        }
        let bindings: Option<Vec<_>> = all_elements(text, list.0, list.1 - 1)
            .iter()
            .map(|&(a, b)| {
                let name = head(text, a);
                match (text[a] == b'(', elements(text, a, b - 1).as_slice()) {
                    (true, &[value]) if name.1 > name.0 => Some((name, value)),
                    _ => None,
                }
            })
            .collect();
        if let Some(bindings) = bindings {
            out.push(LispLet {
                span: (o, c + 1),
                bindings,
                body,
            });
        }
    }
    out
}

/// The candidate that replaces `l` by its body, each bound name replaced
/// by its value (later bindings' values see the earlier ones, as in
/// `let*`).
pub(super) fn let_inlined(text: &[u8], l: &LispLet) -> Option<Vec<u8>> {
    let mut body = text[l.body.0..l.body.1].to_vec();
    for &((na, nb), (va, vb)) in l.bindings.iter().rev() {
        body = substitute(&body, &[&text[na..nb]], &[&text[va..vb]]);
    }
    replace_spans(text, [(l.span.0, l.span.1, body.as_slice())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lisp_function_goes_into_its_calls() {
        let t = b"(define (book-price e) (caddr e))\n(define (total l) (* (book-price (car l)) 2))\n(total x)";
        let ds = lisp_defs(t);
        assert_eq!(ds.len(), 2);
        let got = inlined(t, &ds[0]).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            "\n(define (total l) (* (caddr (car l)) 2))\n(total x)"
        );
        let got = inlined(t, &ds[1]).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            "(define (book-price e) (caddr e))\n\n(* (book-price (car x)) 2)"
        );
        // Passed as a value, or recursive: stays.
        let t = b"(define (f x) (g x))\n(map f l)\n(f 1)";
        assert_eq!(inlined(t, &lisp_defs(t)[0]), None);
        let t = b"(define (f x) (f x))\n(f 1)";
        assert_eq!(inlined(t, &lisp_defs(t)[0]), None);
        // Common Lisp and Clojure.
        let t = b"(defun sq (a b) (* a b))\n(sq 2 3)\n(defn h [v] (inc v))\n(h 1)";
        let ds = lisp_defs(t);
        assert_eq!(ds.len(), 2);
        assert_eq!(
            String::from_utf8_lossy(&inlined(t, &ds[0]).unwrap()),
            "\n(* 2 3)\n(defn h [v] (inc v))\n(h 1)"
        );
        assert_eq!(
            String::from_utf8_lossy(&inlined(t, &ds[1]).unwrap()),
            "(defun sq (a b) (* a b))\n(sq 2 3)\n\n(inc 1)"
        );
        // A parameter that is no symbol (a default value): no definition.
        assert!(lisp_defs(b"(defun f ((a 1) b) b)\n(f 1 2)").is_empty());
        // Not S-expressions: nothing.
        assert!(lisp_defs(b"int define(x) { (define (f) 1) }").is_empty());
    }

    #[test]
    fn a_value_definition_goes_into_its_uses() {
        let t = br#"(define s '("")) (define n 0) (for-each + s) (display "s")"#;
        let ds = lisp_values(t);
        assert_eq!(ds.len(), 2);
        // The string's `s` is no use; `n` has none.
        assert_eq!(
            String::from_utf8_lossy(&value_inlined(t, &ds[0]).unwrap()),
            r#" (define n 0) (for-each + '("")) (display "s")"#
        );
        assert_eq!(value_inlined(t, &ds[1]), None);
        // A function's definition is no value's.
        assert!(lisp_values(b"(define (f x) x) (f 1)").is_empty());
    }

    #[test]
    fn a_let_becomes_its_body() {
        let t = b"(define (f l) (let* ((e (car l)) (q (cdr e))) (* (caddr e) q)))";
        let ls = lisp_lets(t);
        assert_eq!(ls.len(), 1);
        assert_eq!(
            String::from_utf8_lossy(&let_inlined(t, &ls[0]).unwrap()),
            "(define (f l) (* (caddr (car l)) (cdr (car l))))"
        );
        // Two body forms, or a binding without a value: no candidate.
        assert!(lisp_lets(b"(let ((a 1)) (f a) (g a))").is_empty());
        assert!(lisp_lets(b"(let ((a)) (f a))").is_empty());
    }
}
