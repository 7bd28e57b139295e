//! Building [`ParseError`]s: position, expected terminals, the line with a
//! caret.

use super::chart::expected_at;
use super::tables::{Slot, Tables};
use super::ParseError;
use crate::grammar::{display_terminal, Grammar, SymbolId};
use std::collections::BTreeSet;

/// At most this many expected terminals are listed.
const MAX_EXPECTED: usize = 24;

/// Line (1-based), column (1-based, bytes) of `offset`.
fn line_col(input: &[u8], offset: usize) -> (usize, usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1, line_start)
}

/// The source line around `offset` and a caret under it.
fn snippet(input: &[u8], offset: usize, line: usize, line_start: usize) -> String {
    let line_end = input[line_start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |p| line_start + p);
    // Long lines (minified JSON): a window of 60 bytes either side.
    let from = offset.saturating_sub(60).max(line_start);
    let to = (offset + 60).min(line_end);
    // A tab as one blank (it would not line up with the caret); other
    // control characters escaped, so that the `\r` an error is often
    // about shows where the caret points.
    let show = |bytes: &[u8]| -> String {
        let mut out = String::new();
        for c in String::from_utf8_lossy(bytes).chars() {
            match c {
                '\t' => out.push(' '),
                '\r' => out.push_str("\\r"),
                '\0' => out.push_str("\\0"),
                c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
                c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        out
    };
    let pre = show(&input[from..offset.min(to)]);
    let text = format!(
        "{}{}{}",
        if from > line_start { "..." } else { "" },
        show(&input[from..to]),
        if to < line_end { "..." } else { "" }
    );
    let lead = if from > line_start { 3 } else { 0 } + pre.chars().count();
    let num = line.to_string();
    format!(
        "{num} | {text}\n{pad} | {caret}^",
        pad = " ".repeat(num.len()),
        caret = " ".repeat(lead)
    )
}

pub(super) fn syntax(
    g: &Grammar,
    t: &Tables,
    start: SymbolId,
    input: &[u8],
    at: usize,
) -> ParseError {
    let (items, can_end) = expected_at(t, start, input, at);
    let mut expected: BTreeSet<(Vec<u8>, String)> = BTreeSet::new();
    for (slot, idx) in items {
        match slot {
            Slot::Byte { term, first, .. } => {
                let bytes = g.term(term);
                if first {
                    expected.insert((bytes.to_vec(), display_terminal(bytes)));
                } else {
                    // Inside a multi-byte terminal: the rest of it.
                    let mut k = 0;
                    let mut q = idx as usize;
                    while !matches!(t.slots[q], Slot::Byte { first: true, .. }) {
                        q -= 1;
                        k += 1;
                    }
                    let rest = &bytes[k..];
                    expected.insert((
                        rest.to_vec(),
                        format!(
                            "{} (the rest of {})",
                            display_terminal(rest),
                            display_terminal(bytes)
                        ),
                    ));
                }
            }
            Slot::Class(s) => {
                for b in 0..=255u8 {
                    if t.class[s.index()]
                        .as_ref()
                        .is_some_and(|c| c.contains(b as usize))
                    {
                        expected.insert((vec![b], display_terminal(&[b])));
                    }
                }
            }
            _ => {}
        }
    }
    let mut list: Vec<String> = expected.into_iter().map(|(_, s)| s).collect();
    let more = list.len().saturating_sub(MAX_EXPECTED);
    list.truncate(MAX_EXPECTED);
    let mut exp = String::new();
    if can_end {
        exp.push_str("end of input");
        if !list.is_empty() {
            exp.push_str(" or ");
        }
    }
    if !list.is_empty() {
        exp.push_str("one of ");
        exp.push_str(&list.join(", "));
        if more > 0 {
            exp.push_str(&format!(" and {more} more"));
        }
    }
    if exp.is_empty() {
        exp.push_str("nothing (no sentence of this grammar has this prefix)");
    }
    let (line, column, line_start) = line_col(input, at);
    let what = match input.get(at) {
        None => "unexpected end of input".to_string(),
        Some(&b) => format!("unexpected {}", display_terminal(&[b])),
    };
    let message = format!(
        "{what} at line {line}, column {column} (byte {at}) while parsing {}; expected {exp}\n{}",
        g.name(start),
        snippet(input, at, line, line_start)
    );
    ParseError {
        offset: at,
        line,
        column,
        message,
    }
}

pub(super) fn too_large(len: usize) -> ParseError {
    ParseError {
        offset: 0,
        line: 1,
        column: 1,
        message: format!(
            "input of {len} bytes is too large to parse (the limit is {} bytes)",
            u32::MAX / 2
        ),
    }
}

pub(super) fn internal(input: &[u8], at: usize, what: &str) -> ParseError {
    let (line, column, _) = line_col(input, at);
    ParseError {
        offset: at,
        line,
        column,
        message: format!(
            "cannot build a parse tree at line {line}, column {column} (byte {at}): {what}"
        ),
    }
}
