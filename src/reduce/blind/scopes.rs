//! Named scopes flattened without a grammar: a block `KEYWORD NAME {…}`
//! whose name qualifies other names (`mod s {…}` and `s::r`, `namespace
//! inv {…}` and `inv::Ledger`). Its body taken out of the block leaves
//! every qualified use unresolved, and the qualifiers deleted leave the
//! block holding names the uses can no longer see, so neither edit alone
//! keeps a compiler past name resolution: the block's brackets, its
//! header and every `NAME::` go in one candidate. The same for a
//! keyword module (`module C` … `end`) and its `include C` statements.

use super::super::{ddmin, Tester};
use super::{pairs, word_before};

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
        if qualifiers(text, name, false).next().is_some() {
            out.push((start, o, c));
        }
    }
    out
}

/// Words before a scope's keyword that go with it.
const MODIFIERS: &[&[u8]] = &[b"pub", b"export", b"inline"];

/// The spans of `NAME::` in `text` where it stands as a qualifier, not
/// part of a longer word; with `dot`, also of `NAME.` (Ruby's `C.f`).
fn qualifiers<'a>(
    text: &'a [u8],
    name: &'a [u8],
    dot: bool,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let n = name.len();
    (0..text.len().saturating_sub(n + 1)).filter_map(move |i| {
        if !text[i..].starts_with(name) || (i > 0 && ddmin::is_word(text[i - 1])) {
            return None;
        }
        let rest = &text[i + n..];
        if rest.starts_with(b"::") {
            Some((i, i + n + 2))
        } else {
            (dot && rest.starts_with(b".")).then_some((i, i + n + 1))
        }
    })
}

/// Words that bring a module's names into another scope (`include C`
/// of Ruby, `using M` of Julia): a statement of one of them and a
/// module's name goes when the module is flattened.
const IMPORTS: &[&[u8]] = &[b"include", b"extend", b"prepend", b"using", b"import"];

/// What flattening each named scope deletes, as sorted spans, outer scope
/// first: a brace scope's header and brackets (see [`scopes`]) with every
/// `NAME::`; a keyword module (`module NAME` … `end`, Ruby's and
/// Julia's) used elsewhere by a `NAME::`, a `NAME.` or an import
/// statement (`include NAME`, [`IMPORTS`]): its header line, its `end`,
/// those qualifiers and the import statements.
fn flattenings(text: &[u8]) -> Vec<Vec<(usize, usize)>> {
    let mut out: Vec<(usize, Vec<(usize, usize)>)> = scopes(text)
        .into_iter()
        .map(|(s, o, c)| {
            let before = text[..o].trim_ascii_end();
            let name = &before[before.len() - word_before(before)..];
            let mut cut: Vec<(usize, usize)> = qualifiers(text, name, false).collect();
            cut.extend([(s, o + 1), (c, c + 1)]);
            (s, cut)
        })
        .collect();
    for b in super::keywords::blocks(text) {
        let head = &text[b.start..];
        let (Some(rest), Some(&(bs, be))) = (head.strip_prefix(b"module "), b.bodies.first())
        else {
            continue;
        };
        let name_len = rest.iter().take_while(|&&c| ddmin::is_word(c)).count();
        let name = &rest[..name_len];
        if name_len == 0 || !text[..b.end].ends_with(b"end") {
            continue;
        }
        let outside = |i: usize| i < b.start || i >= b.end;
        let mut cut: Vec<(usize, usize)> = qualifiers(text, name, true)
            .filter(|&(i, _)| outside(i))
            .collect();
        cut.extend(imports(text, name).filter(|&(s, _)| outside(s)));
        if cut.is_empty() {
            continue;
        }
        cut.extend([(b.start, bs), (be, b.end)]);
        out.push((b.start, cut));
    }
    out.sort_by_key(|(s, _)| *s);
    out.into_iter()
        .map(|(_, mut c)| {
            c.sort_unstable();
            c
        })
        .collect()
}

/// The lines of `text` that import `name` (`include C`): each as its
/// span with its line end.
fn imports<'a>(text: &'a [u8], name: &'a [u8]) -> impl Iterator<Item = (usize, usize)> + 'a {
    let mut at = 0;
    ddmin::lines(text).into_iter().filter_map(move |l| {
        let s = at;
        at += l.len();
        let mut words = l.trim_ascii().splitn(2, |b| b.is_ascii_whitespace());
        let (Some(kw), Some(n)) = (words.next(), words.next()) else {
            return None;
        };
        let n = n.trim_ascii();
        let n = n.strip_suffix(b";").unwrap_or(n).trim_ascii_end();
        (IMPORTS.contains(&kw) && n == name).then_some((s, s + l.len()))
    })
}

/// One candidate per named scope (a brace scope with `NAME::` uses, a
/// keyword module with imports or qualifiers), outer first:
/// the spans it deletes deleted (`mod s{struct r{}}fn f(o:s::r){}` →
/// `struct r{}fn f(o:r){}`). After a success the scopes are found again
/// and the walk goes on from the same index. `text` must be known
/// interesting.
pub fn flatten_scopes(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, flattenings, |cur, cut| {
        let mut out = Vec::with_capacity(cur.len());
        let mut at = 0;
        for &(a, b) in cut {
            if a < at {
                return Vec::new();
            }
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

    #[test]
    fn a_module_goes_with_its_imports_and_qualifiers() {
        // Ruby: `include C` needs `module C`; without both the method is
        // top-level and still called.
        let input = b"module C\ndef fmt v\nend\nend\nclass R\ninclude C\ndef r\nfmt 1,0\nC::K\nend\nend\nR.new.r\n";
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.contains("fmt 1,0")
                && s.contains("def fmt v")
                && (s.contains("module C") == s.contains("include C"))
        };
        let (out, runs) = run_pass(flatten_scopes, input, p);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "def fmt v\nend\n\nclass R\ndef r\nfmt 1,0\nK\nend\nend\nR.new.r\n"
        );
        assert_eq!(runs, 1);
        // A module nothing names: left to the keyword-block pass.
        assert!(flattenings(b"module C\nx\nend\ny").is_empty());
    }
}
