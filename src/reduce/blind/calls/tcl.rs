//! Tcl's procedures inlined: `proc NAME PARAMS {BODY}` (PARAMS a word or
//! a `{…}` list) deleted, and each command that calls it (`NAME a b`
//! where a command starts: at a line's start or after `;`, `[` or `{`)
//! replaced by BODY, each `$P` of a parameter replaced by its argument
//! when the counts agree. A wrapper `proc k {e s} {listen_lines $e}`
//! called as `k $x 1` then goes, and the call that fails is left.

use super::super::super::ddmin::is_word;
use super::super::{literal_end, pairs, replace_spans, word_spans};
use super::substitute;

/// A procedure, as byte ranges of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Proc {
    /// From `proc` to the body's `}`, with the rest of its line if blank.
    pub span: (usize, usize),
    /// The name.
    pub name: (usize, usize),
    /// The parameters' names.
    pub params: Vec<(usize, usize)>,
    /// Inside the body's braces.
    pub body: (usize, usize),
}

/// Whether a command starts at `s`: only blanks before it since a line
/// start, `;`, `[` or `{`.
fn command_start(text: &[u8], s: usize) -> bool {
    let before = &text[..s];
    let t = before.len()
        - before
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    t == 0 || matches!(text[t - 1], b'\n' | b';' | b'[' | b'{')
}

/// The closer of the matched pair opened at `o`, if `o` opens one.
fn closer(ps: &[(usize, usize)], o: usize) -> Option<usize> {
    ps.binary_search_by_key(&o, |p| p.0).ok().map(|k| ps[k].1)
}

/// The blanks-separated words of the command from `from`, and where it
/// ends: at a line end or `;` outside brackets and strings, or at a
/// closer it did not open.
fn command_words(text: &[u8], ps: &[(usize, usize)], from: usize) -> (Vec<(usize, usize)>, usize) {
    let mut words = Vec::new();
    let mut start = None;
    let mut i = from;
    while i < text.len() {
        let b = text[i];
        if matches!(b, b'\n' | b';' | b']' | b'}') {
            break;
        }
        if b == b' ' || b == b'\t' {
            if let Some(s) = start.take() {
                words.push((s, i));
            }
            i += 1;
            continue;
        }
        start.get_or_insert(i);
        i = match (literal_end(text, i), closer(ps, i)) {
            (Some(e), _) | (None, Some(e)) => e + 1,
            _ => i + 1,
        };
    }
    if let Some(s) = start {
        words.push((s, i));
    }
    (words, i)
}

/// The procedures of `text` with at least one call outside themselves
/// (see the module docs).
pub(super) fn procs(text: &[u8]) -> Vec<Proc> {
    let ps = pairs(text);
    let mut out = Vec::new();
    for (ks, ke) in word_spans(text) {
        if &text[ks..ke] != b"proc" || !command_start(text, ks) {
            continue;
        }
        let (words, end) = command_words(text, &ps, ke);
        let [name, params, body] = words[..] else {
            continue;
        };
        let braced = |(s, e): (usize, usize)| text[s] == b'{' && closer(&ps, s) == Some(e - 1);
        if !text[name.0..name.1]
            .iter()
            .all(|&b| is_word(b) || b == b':')
            || !braced(body)
        {
            continue;
        }
        let params = if braced(params) {
            word_spans(&text[..params.1 - 1])
                .skip_while(|w| w.0 <= params.0)
                .collect()
        } else {
            vec![params]
        };
        let rest = &text[end..];
        let blank = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let span_end = end + blank + usize::from(rest.get(blank) == Some(&b'\n'));
        out.push(Proc {
            span: (ks, span_end),
            name,
            params,
            body: (body.0 + 1, body.1 - 1),
        });
    }
    out
}

/// The candidate that inlines `p` (see the module docs); `None` if it has
/// no call outside itself.
pub(super) fn inlined(text: &[u8], p: &Proc) -> Option<Vec<u8>> {
    let ps = pairs(text);
    let name = &text[p.name.0..p.name.1];
    let body = text[p.body.0..p.body.1].trim_ascii();
    let names: Vec<Vec<u8>> = p
        .params
        .iter()
        .map(|&(s, e)| [&b"$"[..], &text[s..e]].concat())
        .collect();
    let names: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for (s, e) in word_spans(text) {
        let inside = p.span.0 <= s && s < p.span.1;
        if &text[s..e] != name || inside || !command_start(text, s) {
            continue;
        }
        let (words, end) = command_words(text, &ps, s);
        let args: Vec<&[u8]> = words[1..].iter().map(|&(a, b)| &text[a..b]).collect();
        let replaced = if args.len() == names.len() && !names.contains(&&b"$args"[..]) {
            substitute(body, &names, &args)
        } else {
            body.to_vec()
        };
        edits.push((s, end, replaced));
    }
    if edits.is_empty() {
        return None;
    }
    edits.push((p.span.0, p.span.1, Vec::new()));
    edits.sort_by_key(|e| e.0);
    replace_spans(text, edits.iter().map(|(s, e, r)| (*s, *e, &r[..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_procedure_goes_into_its_calls() {
        let t = b"proc l f {dict get $f k}\nproc w {e s} {l $e}\nforeach x $y {w [list] 1}\n";
        let ps = procs(t);
        let names: Vec<&[u8]> = ps.iter().map(|p| &t[p.name.0..p.name.1]).collect();
        assert_eq!(names, [&b"l"[..], b"w"]);
        assert_eq!(
            String::from_utf8_lossy(&inlined(t, &ps[1]).unwrap()),
            "proc l f {dict get $f k}\nforeach x $y {l [list]}\n"
        );
        // `l` inside `w` is a call too.
        assert_eq!(
            String::from_utf8_lossy(&inlined(t, &ps[0]).unwrap()),
            "proc w {e s} {dict get $e k}\nforeach x $y {w [list] 1}\n"
        );
        // Without a call, nothing; `puts "l"` does not call it.
        let t = b"proc l f {return $f}\nputs \"l\" [x l]\n";
        assert_eq!(inlined(t, &procs(t)[0]), None);
    }
}
