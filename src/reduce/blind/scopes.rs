//! Named scopes flattened without a grammar: a block `KEYWORD NAME {…}`
//! whose name qualifies other names (`mod s {…}` and `s::r`, `namespace
//! inv {…}` and `inv::Ledger`). Its body taken out of the block leaves
//! every qualified use unresolved, and the qualifiers deleted leave the
//! block holding names the uses can no longer see, so neither edit alone
//! keeps a compiler past name resolution: the block's brackets, its
//! header and every `NAME::` go in one candidate.

use super::super::{ddmin, Tester};
use super::pairs;

/// The named scopes of `text`: `(start, open, close)`, where the header
/// starts (its keyword, or a `pub`, `export` or `inline` before it), the block's `{` and its
/// `}`, for a block whose header is two words, the second a name that
/// `NAME::` uses elsewhere. In order of the header.
///
/// ```
/// use grammar_min::reduce::blind::scopes::scopes;
/// let text = b"mod s { pub struct R; } fn f(x: s::R) {} impl T { }";
/// assert_eq!(scopes(text), [(0, 6, 22)]);
/// assert_eq!(scopes(b"x; pub mod s {} s::f()"), [(3, 13, 14)]);
/// ```
pub fn scopes(text: &[u8]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (o, c) in pairs(text) {
        if text[o] != b'{' {
            continue;
        }
        let before = text[..o].trim_ascii_end();
        let name_len = word_before(before);
        let between = &before[..before.len() - name_len];
        let kw_end = between.trim_ascii_end().len();
        let kw_len = word_before(&between[..kw_end]);
        let blank = kw_end < between.len();
        if name_len == 0 || kw_len == 0 || !blank {
            continue;
        }
        let mut start = kw_end - kw_len;
        // A visibility before the keyword goes with it (`pub mod s`).
        let lead = text[..start].trim_ascii_end();
        if start > lead.len() && MODIFIERS.iter().any(|m| lead.ends_with(m)) {
            let m = word_before(lead);
            if m > 0 && (lead.len() == m || !ddmin::is_word(lead[lead.len() - m - 1])) {
                start = lead.len() - m;
            }
        }
        if start > 0
            && !matches!(
                text[start - 1],
                b' ' | b'\t' | b'\n' | b'\r' | b';' | b'}' | b'{'
            )
        {
            continue;
        }
        let name = &before[before.len() - name_len..];
        if qualified(text, name).next().is_some() {
            out.push((start, o, c));
        }
    }
    out
}

/// Words before a scope's keyword that go with it.
const MODIFIERS: &[&[u8]] = &[b"pub", b"export", b"inline"];

/// The length of the word `text` ends with.
fn word_before(text: &[u8]) -> usize {
    text.iter()
        .rev()
        .take_while(|&&b| ddmin::is_word(b))
        .count()
}

/// Where `NAME::` stands in `text` as a qualifier: not part of a longer
/// word.
fn qualified<'a>(text: &'a [u8], name: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let n = name.len();
    (0..text.len().saturating_sub(n + 1)).filter(move |&i| {
        text[i..].starts_with(name)
            && text[i + n..].starts_with(b"::")
            && (i == 0 || !ddmin::is_word(text[i - 1]))
    })
}

/// One candidate per named scope (see [`scopes`]), outer first: its
/// header and brackets deleted with every `NAME::` (`mod s{struct
/// r{}}fn f(o:s::r){}` → `struct r{}fn f(o:r){}`). After a success the
/// scopes are found again and the walk goes on from the same index.
/// `text` must be known interesting.
pub fn flatten_scopes(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, scopes, |cur, &(s, o, c)| {
        let before = cur[..o].trim_ascii_end();
        let name = &before[before.len() - word_before(before)..];
        let mut cut: Vec<(usize, usize)> = qualified(cur, name)
            .map(|i| (i, i + name.len() + 2))
            .collect();
        cut.extend([(s, o + 1), (c, c + 1)]);
        cut.sort_unstable();
        let mut out = Vec::with_capacity(cur.len());
        let mut at = 0;
        for (a, b) in cut {
            out.extend_from_slice(&cur[at..a]);
            at = b;
        }
        out.extend_from_slice(&cur[at..]);
        vec![out]
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_scope_goes_with_its_qualifiers() {
        // Interesting iff every `r` the text uses is declared at its level:
        // `s::r` needs `mod s{…r…}`, a bare `r` needs `struct r` outside
        // any block.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let bare = s.contains("(o:r)");
            let qual = s.contains("(o:s::r)");
            (bare && s.starts_with("struct r{}") && !s.contains("mod"))
                || (qual && s.starts_with("mod s{struct r{}}"))
        };
        let input = b"mod s{struct r{}}fn f(o:s::r){}";
        let (out, runs) = run_pass(flatten_scopes, input, p);
        assert_eq!(out, b"struct r{}fn f(o:r){}");
        assert_eq!(runs, 1);
        // No qualified use: no candidate.
        assert!(scopes(b"impl T for U {} mod s {}").is_empty());
    }
}
