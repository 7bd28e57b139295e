//! Functions defined without a parameter list and called by their bare
//! name: `sub NAME {BODY}` (Perl), `function NAME {BODY}` (shells),
//! `def NAME ⏎ BODY end` (Ruby). Their calls are the name alone (`NAME;`,
//! `puts NAME`, `o.NAME`) or with a pair after it (`NAME()`), so the
//! `(…)` pairs [`super::funcs`] starts from do not find them.

use super::super::super::ddmin::is_word;
use super::super::args::Pair;
use super::super::{block_after, header_start, keywords, line_end, solid_from, word_spans};
use super::{is_name, Func};

/// Words that define a function when a name follows them and then a
/// brace block (`sub`, `function`) or the line end (`def`).
const DEFINERS: &[&[u8]] = &[b"sub", b"function", b"def"];

/// Whether `p`, a call of [`Func::calls`], is a bare name (no pair): its
/// opener is then the end of the name, and so is its closer.
pub(super) fn is_bare(p: &Pair) -> bool {
    p.0 == p.1
}

/// The functions of `text` defined without a parameter list (see the
/// module docs). A function whose name also stands after a sigil, `->`
/// or `::` (`&r`, `$o->r`, `A::r`) is left out: those uses would stay
/// behind when it is inlined.
pub(super) fn bare_defs(
    text: &[u8],
    ps: &[(usize, usize)],
    named: &[(Vec<u8>, Vec<Pair>)],
) -> Vec<Func> {
    let words: Vec<(usize, usize)> = word_spans(text).collect();
    let mut blocks = None;
    let mut out = Vec::new();
    for w in words.windows(2) {
        let ((ks, ke), (ns, ne)) = (w[0], w[1]);
        let definer = &text[ks..ke];
        if !DEFINERS.contains(&definer)
            || ke == ns
            || !text[ke..ns].iter().all(|&b| b == b' ' || b == b'\t')
            || (ks > 0 && is_word(text[ks - 1]))
        {
            continue;
        }
        let name = &text[ns..ne];
        if !is_name(name) {
            continue;
        }
        let (span, body) = if let Some((o, c)) = block_after(text, ps, ne) {
            ((header_start(text, o).min(ks), c + 1), (o + 1, c))
        } else if definer == b"def" && text[ne..line_end(text, ne)].trim_ascii().is_empty() {
            let blocks = blocks.get_or_insert_with(|| keywords::blocks(text));
            let Ok(j) = blocks.binary_search_by_key(&ks, |b| b.start) else {
                continue;
            };
            let b = &blocks[j];
            if !text[..b.end].ends_with(b"end") || b.end - 3 < ne {
                continue;
            }
            ((b.stmt, b.end), (ne, b.end - 3))
        } else {
            continue;
        };
        let calls_of: &[Pair] = named
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, g)| g);
        let mut calls = Vec::new();
        let mut whole = true;
        for &(s, e) in &words {
            if &text[s..e] != name || (span.0 <= s && s < span.1) {
                continue;
            }
            if s > 0 && matches!(text[s - 1], b'$' | b'@' | b'%' | b'&' | b'>' | b':') {
                whole = false;
                break;
            }
            let after = solid_from(text, e);
            let pair = (text.get(after) == Some(&b'('))
                .then(|| calls_of.iter().find(|q| q.0 == after))
                .flatten();
            calls.push(pair.cloned().unwrap_or((e, e, Vec::new())));
        }
        if whole && !calls.is_empty() {
            out.push(Func {
                span,
                name: (ns, ne),
                params: (ne, ne, Vec::new()),
                body,
                calls,
                methods: true,
            });
        }
    }
    out
}
