//! Calls with one literal argument and no parentheses: Lua's `f"x"` and
//! `f{1, 2}` (a table), Ruby's `f "x"`. [`super::funcs`] starts from the
//! `(…)` pairs after a name, so without these a function called only
//! this way could not be inlined (`function e(a) return a.price*0 end
//! e""` kept its wrapper).

use super::super::super::ddmin::is_word;
use super::super::args::{Named, Pair};
use super::super::literal_end;
use super::is_name;

/// Whether `p`, a call of [`super::Func::calls`], is a literal call: its
/// opener is the literal's first byte (a quote or `{`), its closer the
/// last, and the literal is the one argument.
pub(super) fn is_literal_call(text: &[u8], p: &Pair) -> bool {
    p.0 < p.1 && matches!(text[p.0], b'"' | b'\'' | b'{')
}

/// `named` with the literal calls of `text` added to the names that have
/// `(…)` pairs there (a function's definition): a string literal, or a
/// brace pair among `ps` ([`super::super::pairs`], sorted by opener),
/// after a name and at most blanks on the same line. Names only called
/// this way and defined nowhere stay out, as do literals inside literals.
pub(super) fn with_literal_calls(
    text: &[u8],
    ps: &[(usize, usize)],
    named: &[(Vec<u8>, Vec<Pair>)],
) -> Named {
    let mut out = named.to_vec();
    let mut i = 0;
    while i < text.len() {
        let string = literal_end(text, i);
        let lit = match string {
            Some(e) => Some(e),
            None if text[i] == b'{' => ps.binary_search_by_key(&i, |q| q.0).ok().map(|j| ps[j].1),
            None => None,
        };
        if let Some(e) = lit {
            let mut ne = i;
            while ne > 0 && matches!(text[ne - 1], b' ' | b'\t') {
                ne -= 1;
            }
            let ns = text[..ne]
                .iter()
                .rposition(|&b| !is_word(b))
                .map_or(0, |k| k + 1);
            let name = &text[ns..ne];
            if !name.is_empty() && is_name(name) {
                if let Some((_, group)) = out.iter_mut().find(|(n, _)| n == name) {
                    group.push((i, e, Vec::new()));
                    group.sort_by_key(|q| q.0);
                }
            }
        }
        // A string is skipped whole; a brace pair is entered (a call can
        // stand inside a table).
        i = string.map_or(i + 1, |e| e + 1);
    }
    out
}

/// Whether the call at `s..e` of `text` is a statement of its own: at
/// the text's start or after a line end, `;`, `}` or a word that ends a
/// block or a statement's head (`end`, `then`, `do`, `else`), and with
/// nothing after it on its line but blanks, a `;` or such a word.
pub(super) fn is_statement(text: &[u8], s: usize, e: usize) -> bool {
    const HEADS: [&[u8]; 4] = [b"end", b"then", b"do", b"else"];
    let line_before = &text[..s];
    let b = line_before.trim_ascii_end();
    let newline = line_before[b.len()..].contains(&b'\n');
    let word = b.len() - b.iter().rev().take_while(|&&c| is_word(c)).count();
    let before = b.is_empty()
        || newline
        || b.ends_with(b";")
        || b.ends_with(b"}")
        || HEADS.contains(&&b[word..]);
    let rest = &text[e..];
    let line = &rest[..rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())];
    let after = line.trim_ascii();
    before
        && (after.is_empty()
            || after.starts_with(b";")
            || HEADS.iter().any(|h| after.starts_with(h)))
}
