//! Indented blocks without a grammar: a line ending in `:` whose next
//! lines are indented deeper (Python's `def`, `if`, `for`; a YAML key
//! holding a map) heads a block. Line ddmin deletes such a block only
//! when its chunks align with it, and cannot lift a body out of its
//! header at all, since that changes the body's indentation.

use super::super::{ddmin, Tester};

/// The blank bytes (spaces, tabs) that start `line`.
pub(super) fn indent(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// The blocks of `lines`: `(header, end, depth)`, the header's index,
/// the index one past the block's last line that is not blank, and how
/// much deeper the first body line is indented than the header. In
/// order of the header.
///
/// ```
/// use grammar_min::reduce::blind::indent::blocks;
/// let text = b"def f():\n    if x:\n        y\n\n    z\nf()\n";
/// let lines = grammar_min::reduce::ddmin::lines(text);
/// assert_eq!(blocks(&lines), [(0, 5, 4), (1, 3, 4)]);
/// ```
pub fn blocks(lines: &[&[u8]]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (h, line) in lines.iter().enumerate() {
        if !line.trim_ascii_end().ends_with(b":") {
            continue;
        }
        let d = indent(line);
        // How much deeper the first body line is; None: no body.
        let mut deeper = None;
        let mut end = h + 1;
        let body = lines.iter().enumerate().skip(h + 1);
        for (i, l) in body.filter(|(_, l)| !l.trim_ascii().is_empty()) {
            if indent(l) <= d {
                break;
            }
            deeper.get_or_insert(indent(l) - d);
            end = i + 1;
        }
        if let Some(by) = deeper {
            out.push((h, end, by));
        }
    }
    out
}

/// The one-line compound statements of `lines`: `(line, body)`, the
/// line's index and where its body starts in it, for a line that starts
/// (after its indentation) with a word and a blank, and holds a `:`
/// outside brackets and strings with something after it (`for w in
/// "e": int(w)`, `if x: y`), the body being what follows the first
/// such `:`. In order of the line.
///
/// ```
/// use grammar_min::reduce::blind::indent::inline_headers;
/// let text = b"if x: f(a[1:2])\nd = {1: 2}\nkey: v\nwhile y:\n  z\n";
/// let lines = grammar_min::reduce::ddmin::lines(text);
/// assert_eq!(inline_headers(&lines), [(0, 6)]);
/// ```
pub fn inline_headers(lines: &[&[u8]]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (h, line) in lines.iter().enumerate() {
        let d = indent(line);
        let word = line[d..].iter().take_while(|&&b| ddmin::is_word(b)).count();
        if word == 0 || !matches!(line.get(d + word), Some(b' ' | b'\t')) {
            continue;
        }
        let colon = super::outside_brackets(line).find(|&(_, b)| b == b':');
        if let Some((c, _)) = colon {
            let body = super::solid_from(line, c + 1);
            if !line[body..].trim_ascii().is_empty() {
                out.push((h, body));
            }
        }
    }
    out
}

/// A block [`delete_blocks`] works on.
#[derive(Debug, Clone, Copy)]
enum Item {
    /// An indented block: its header's line, one past its last line,
    /// how much deeper its body is indented ([`blocks`]).
    Indented(usize, usize, usize),
    /// A one-line compound statement: its line, where its body starts
    /// ([`inline_headers`]).
    Inline(usize, usize),
}

/// One or two candidates per indented block (see [`blocks`]), in order
/// of the header, outer first: the header with its body; the header
/// alone, the body moved out by as much as it was indented deeper (`if
/// x:` / `    y` → `y`). Then one candidate per one-line compound
/// statement ([`inline_headers`]): its header deleted, the body left at
/// the line's indentation (`for w in "e": int(w)` → `int(w)`). After a
/// success the blocks are found again and the walk goes on from the same
/// block index. `text` must be known interesting.
pub fn delete_blocks(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let find = |cur: &[u8]| {
        let lines = ddmin::lines(cur);
        let indented = blocks(&lines).into_iter();
        let inline = inline_headers(&lines).into_iter();
        indented
            .map(|(h, end, by)| Item::Indented(h, end, by))
            .chain(inline.map(|(h, body)| Item::Inline(h, body)))
            .collect()
    };
    super::walk(text, tester, find, |cur, &item| {
        let lines = ddmin::lines(cur);
        // Where line i starts in `cur`.
        let start = |i: usize| lines[..i].iter().map(|l| l.len()).sum::<usize>();
        match item {
            Item::Indented(h, end, by) => {
                let (before, after) = (&cur[..start(h)], &cur[start(end)..]);
                let whole = [before, after].concat();
                let mut lifted = before.to_vec();
                for l in &lines[h + 1..end] {
                    lifted.extend_from_slice(&l[indent(l).min(by)..]);
                }
                lifted.extend_from_slice(after);
                vec![whole, lifted]
            }
            Item::Inline(h, body) => {
                let at = start(h);
                let d = indent(lines[h]);
                vec![super::splice(&[&cur[..at + d], &cur[at + body..]])]
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_body_is_lifted_out_of_its_header() {
        // Interesting iff `boom()` is indented less than 8 and `ok` is
        // still there: the outer body is lifted first, then the inner.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let boom = s
                .lines()
                .any(|l| l.trim() == "boom()" && indent(l.as_bytes()) < 8);
            boom && s.contains("ok")
        };
        let input = b"ok = 1\ndef main():\n    if ok:\n        boom()\n    other()\nmain()\n";
        let (out, _) = run_pass(delete_blocks, input, p);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "ok = 1\nboom()\nother()\nmain()\n"
        );
    }

    #[test]
    fn a_header_goes_with_its_body() {
        // Interesting iff `x` is still there.
        let p = |c: &[u8]| c.windows(3).any(|w| w == b"x()");
        let input = b"class A:\n  def f(self):\n    pass\n\n  y = 2\nx()\n";
        let (out, runs) = run_pass(delete_blocks, input, p);
        assert_eq!(out, b"x()\n");
        assert_eq!(runs, 1);
    }

    #[test]
    fn a_body_leaves_its_header_on_the_same_line() {
        // Interesting iff `int(w)` is there and `w` is defined first.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.contains("int(w)") && s.starts_with("w = 1")
        };
        let input = b"w = 1\ndef f():\n    for v in x: int(w)\nif y: z\n";
        let (out, _) = run_pass(delete_blocks, input, p);
        assert_eq!(String::from_utf8_lossy(&out), "w = 1\nint(w)\nz\n");
    }

    #[test]
    fn lines_that_are_not_deeper_head_no_block() {
        let text = b"a:\nb:\n  c\n  d:\ne\n";
        assert_eq!(blocks(&ddmin::lines(text)), [(1, 4, 2)]);
    }
}
