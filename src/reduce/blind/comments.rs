//! Comments deleted without a grammar, as C-Vise's comment pass does:
//! block comments `/* … */` and `<!-- … -->`, and line comments `//`,
//! `#`, `--` and `;` (Lisp, assembly, INI files) to the end of their
//! line. Each kind goes in one
//! candidate; block comments that cannot all go are then tried in runs
//! of halving lengths, down to one at a time. Without this pass a
//! comment costs the token sweep a run per word, and a block comment
//! whose words went one by one is left as `/**/`, which no single token
//! or byte deletion removes.
//!
//! The markers are a heuristic (`a // 2` is Python's floor division,
//! `#` a preprocessor line or a shell's `$#`): the oracle judges, and
//! a kind whose candidate fails costs one run.

use super::super::Tester;
use super::{line_end, line_start, literal_end, replace_spans};

/// A kind of comment: its opener, and its closer (`None`: to the end of
/// the line, the line end kept).
struct Kind {
    open: &'static [u8],
    close: Option<&'static [u8]>,
}

const KINDS: &[Kind] = &[
    Kind {
        open: b"/*",
        close: Some(b"*/"),
    },
    Kind {
        open: b"<!--",
        close: Some(b"-->"),
    },
    Kind {
        open: b"//",
        close: None,
    },
    Kind {
        open: b"#",
        close: None,
    },
    Kind {
        open: b"--",
        close: None,
    },
    Kind {
        open: b";",
        close: None,
    },
];

/// The comments of kind `k` of [`KINDS`] in `text`, as the spans a
/// deletion takes: the comment with the blanks before it on its line
/// (after it, if it opens its line), and, when nothing else stands on
/// its lines, the whole lines with their line end. String literals ([`literal_end`]) are skipped. A line
/// comment's opener must follow a blank, a line start or (for `//`) a
/// `;`, `{`, `}` or `)`; `#` and `--` must be followed by a blank or the
/// line end (not `#include`, `#!`, `--flag`, `x--`), `#` also by another
/// `#`; `;` must follow a blank or a line start (not C's `f(); g();`).
fn spans(text: &[u8], k: usize) -> Vec<(usize, usize)> {
    let kind = &KINDS[k];
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if let Some(e) = literal_end(text, i) {
            i = e + 1;
            continue;
        }
        if !text[i..].starts_with(kind.open) || !opens_here(text, i, kind) {
            i += 1;
            continue;
        }
        let body = i + kind.open.len();
        let end = match kind.close {
            Some(c) => match text[body..].windows(c.len()).position(|w| w == c) {
                Some(p) => body + p + c.len(),
                None => break,
            },
            None => line_end(text, i),
        };
        let line_start = line_start(text, i);
        let blanks = text[line_start..i]
            .iter()
            .rev()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let rest = line_end(text, end);
        let span = if i - blanks == line_start && text[end..rest].trim_ascii().is_empty() {
            // Alone on its lines: the lines go, with one line end.
            (line_start, (rest + 1).min(text.len()))
        } else if i - blanks == line_start {
            // Opening its line: the blanks after it go instead.
            let after = text[end..rest]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            (i, end + after)
        } else {
            (i - blanks, end)
        };
        // Two comments on one line share the blanks between them: the
        // first took them (`/* a */ /* b */ x`).
        let prev_end = out.last().map_or(0, |&(_, e)| e);
        out.push((span.0.max(prev_end), span.1));
        i = end.max(i + 1);
    }
    out
}

/// Whether the opener of `kind` at `i` starts a comment (see [`spans`]).
fn opens_here(text: &[u8], i: usize, kind: &Kind) -> bool {
    if kind.close.is_some() {
        return true;
    }
    let before = i.checked_sub(1).map(|p| text[p]);
    let after = text.get(i + kind.open.len()).copied();
    let blank_or_end = |b: Option<u8>| b.is_none_or(|b| b.is_ascii_whitespace());
    match kind.open {
        b"//" => blank_or_end(before) || matches!(before, Some(b';' | b'{' | b'}' | b')')),
        b"#" => blank_or_end(before) && (blank_or_end(after) || after == Some(b'#')),
        b";" => blank_or_end(before),
        _ => blank_or_end(before) && blank_or_end(after),
    }
}

/// `text` without the comments at `drop` (spans of [`spans`], in order,
/// apart), the pieces around them [`splice`](super::splice)d.
fn without(text: &[u8], drop: &[(usize, usize)]) -> Vec<u8> {
    replace_spans(text, drop.iter().map(|&(s, e)| (s, e, &b""[..])))
        .expect("comment spans are in order and apart")
}

/// Each kind of comment deleted in one candidate; block comments that
/// cannot all go, in runs of halving lengths from the last, down to one
/// at a time. `text` must be known interesting. Deletions do not make
/// comments, so one call per reduction is enough.
///
/// ```
/// use grammar_min::reduce::blind::comments::delete_comments;
/// use grammar_min::oracle::{FnOracle, Outcome};
/// use grammar_min::reduce::Tester;
/// let text = b"/* totals */\nint t = 0; // running\nint f(/*n*/int n) { return n; }\n";
/// let mut o = FnOracle::new(|c: &[u8]| {
///     if c.windows(6).any(|w| w == b"return") { Outcome::Interesting } else { Outcome::NotInteresting }
/// });
/// let mut t = Tester::new(&mut o);
/// let out = delete_comments(text, &mut t);
/// assert_eq!(out, b"int t = 0;\nint f(int n) { return n; }\n");
/// ```
pub fn delete_comments(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    for (k, kind) in KINDS.iter().enumerate() {
        if tester.stopped() {
            break;
        }
        let all = spans(&cur, k);
        if all.is_empty() {
            continue;
        }
        let cand = without(&cur, &all);
        if tester
            .first_interesting([((), cand)])
            .is_some_and(|((), c)| {
                cur = c;
                true
            })
            || kind.close.is_none()
        {
            continue;
        }
        // Runs of halving lengths, from the last (the spans before a
        // deleted run stay where they were), down to one at a time: a
        // file of 2,000 comments one of which is needed (a `/*` in a
        // regular expression) costs a few runs per length, not 2,000.
        // The spans are found again only after a deletion (a comment
        // can then stand alone on its line and take the line with it).
        let mut len = all.len() / 2;
        while len >= 1 && !tester.stopped() {
            let mut now = spans(&cur, k);
            let mut end = now.len();
            while end > 0 && !tester.stopped() {
                let start = end.saturating_sub(len);
                let cand = without(&cur, &now[start..end]);
                if let Some(((), c)) = tester.first_interesting([((), cand)]) {
                    cur = c;
                    now = spans(&cur, k);
                }
                end = start.min(now.len());
            }
            len /= 2;
        }
    }
    cur
}
