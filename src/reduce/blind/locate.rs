//! Where things are in a text, for the grammar-blind passes: the header
//! and trailer of a brace block, the statement around a position, the
//! block after a header, words.

use super::ddmin;

/// Where the line holding `i` starts (after its `\n`, or 0).
pub(super) fn line_start(text: &[u8], i: usize) -> usize {
    text[..i]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1)
}

/// Where the line holding `i` ends (its `\n`, or the text's end).
pub(super) fn line_end(text: &[u8], i: usize) -> usize {
    text[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |e| i + e)
}

/// Where the definition or statement that a brace block ends begins: after
/// the last `;`, `}` or `{` before `open`, or at the start of its line if
/// that is later (`int f(int a) {...}`, `while (x) {...}`, `proc p {a}
/// {...}`), skipping blanks. A brace that opens its line takes the line
/// before as its header (`int f(int a)⏎{`, `.text :⏎{` of a linker
/// script), unless that line ends a statement, a comment or opens a list
/// (`;`, `}`, `{`, `[`, `(`, `,`, `*/`): then the header is empty (`h ==
/// open`).
pub(super) fn header_start(text: &[u8], open: usize) -> usize {
    let s = statement_start(text, open);
    let prev = text[..open].trim_ascii_end();
    if s < open || prev.len() == open || prev.ends_with(b"*/") {
        return s;
    }
    match prev.last() {
        Some(b';' | b'}' | b'{' | b'[' | b'(' | b',') | None => s,
        Some(_) => statement_start(text, prev.len()),
    }
}

/// Where the statement holding `text[end]` begins: after the last `;`,
/// `}`, `{` or line end before `end`, skipping blanks (at most `end`).
pub(super) fn statement_start(text: &[u8], end: usize) -> usize {
    let mut s = text[..end]
        .iter()
        .rposition(|&b| matches!(b, b';' | b'}' | b'{' | b'\n'))
        .map_or(0, |p| p + 1);
    while s < end && text[s].is_ascii_whitespace() {
        s += 1;
    }
    s
}

/// The length of the word `text` ends with (0 if it ends with no word
/// byte).
pub(super) fn word_before(text: &[u8]) -> usize {
    text.iter()
        .rev()
        .take_while(|&&b| ddmin::is_word(b))
        .count()
}

/// The first byte of `text` at or after `from` that is not blank
/// (`text.len()` if none).
pub(super) fn solid_from(text: &[u8], from: usize) -> usize {
    from + (text[from..].len() - text[from..].trim_ascii_start().len())
}

/// The brace block that starts at or after `from`, blanks skipped (the
/// body of `f(a) {…}`, `if (x) {…}`), as its opener and closer among `ps`
/// ([`pairs`], sorted by opener).
pub(super) fn block_after(
    text: &[u8],
    ps: &[(usize, usize)],
    from: usize,
) -> Option<(usize, usize)> {
    let b = solid_from(text, from);
    let j = ps.binary_search_by_key(&b, |q| q.0).ok()?;
    (text[b] == b'{').then_some(ps[j])
}

/// The spans of the words of `text` (maximal runs of [`ddmin::is_word`]
/// bytes), in order.
pub(super) fn word_spans(text: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < text.len() && !ddmin::is_word(text[i]) {
            i += 1;
        }
        let s = i;
        while i < text.len() && ddmin::is_word(text[i]) {
            i += 1;
        }
        (s < i).then_some((s, i))
    })
}

/// Where a brace block's statement ends: past the rest of the closer's
/// line if that holds no bracket (`} >FLASH` of a linker script, `};`,
/// `} s;` of a C struct, `},` of a list), else just past the closer.
pub(super) fn trailer_end(text: &[u8], close: usize) -> usize {
    let rest = &text[close + 1..];
    let line = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let tail = &rest[..line];
    if tail.iter().any(|b| b"()[]{}".contains(b)) {
        return close + 1;
    }
    close + 1 + tail.trim_ascii_end().len()
}
