//! Lifting without a grammar: a statement replaced by what one of its
//! parentheses holds, where that reads as a statement of its own (it
//! starts with a word and has more than one token). A common table
//! expression or a subquery whose own evaluation fails (`WITH s AS(SELECT
//! json('x')) SELECT * FROM s` → `SELECT json('x')`), an expression
//! statement reduced to the call inside it (`x = len(f(y)) + 1` →
//! `f(y)`). Deletion cannot get there (the statement's other tokens and
//! the brackets must go in one step), and [`super::hoist`] replaces only
//! the pair with its head (`f(…)`), not the statement around it.

use super::super::{ddmin, Tester};

/// A pair's contents and the statement they would replace, as byte
/// spans: `(from, to)` of the statement, `(a, b)` of the contents.
type Lift = ((usize, usize), (usize, usize));

/// For each `(…)` pair, in order of its opener (outer first), whose
/// contents start with a letter or `_` and hold two tokens or more, and
/// that is not already a statement of its own: one candidate, the
/// statement around it (bounded by `;` or line ends and the enclosing brackets) replaced by the
/// contents. After a success the pairs are found again and the walk goes
/// on from the same index. `text` must be known interesting.
pub fn lift_contents(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, liftable, |cur, &((s, e), (a, b))| {
        vec![super::splice(&[&cur[..s], &cur[a..b], &cur[e..]])]
    })
}

/// The items of [`lift_contents`].
fn liftable(text: &[u8]) -> Vec<Lift> {
    // Statements end at `;` in a text that has one outside brackets (C,
    // SQL, JavaScript), else at a line's end (Python, Ruby, shell).
    let semis = super::outside_brackets(text).any(|(_, b)| b == b';');
    let solid: Vec<(usize, u8)> = super::structural(text).collect();
    let mut out = Vec::new();
    for (o, c) in super::pairs(text) {
        if text[o] != b'(' {
            continue;
        }
        let inner = &text[o + 1..c];
        let a = o + 1 + (inner.len() - inner.trim_ascii_start().len());
        let b = o + 1 + inner.trim_ascii_end().len();
        if a >= b
            || !(text[a].is_ascii_alphabetic() || text[a] == b'_')
            || ddmin::tokens(&text[a..b])
                .iter()
                .filter(|t| !t.trim_ascii().is_empty())
                .count()
                < 2
        {
            continue;
        }
        let (s, e) = statement_around(text, &solid, o, c, semis);
        if (s, e) != (o, c + 1) {
            out.push(((s, e), (a, b)));
        }
    }
    out
}

/// The statement holding the pair `o..=c`, blanks trimmed: from after the
/// `;` (or, without `semis`, the line end) or the opening bracket before
/// it at its own depth, to before the next such `;`, line end or closing
/// bracket. `solid` is the text's [`super::structural`] bytes.
fn statement_around(
    text: &[u8],
    solid: &[(usize, u8)],
    o: usize,
    c: usize,
    semis: bool,
) -> (usize, usize) {
    let ends = |b: u8| b == b';' || (!semis && b == b'\n');
    let at = |p: usize| solid.partition_point(|&(i, _)| i < p);
    let mut s = 0;
    let mut depth = 0usize;
    for &(i, b) in solid[..at(o)].iter().rev() {
        match b {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth == 0 => {
                s = i + 1;
                break;
            }
            b'(' | b'[' | b'{' => depth -= 1,
            _ if depth == 0 && ends(b) => {
                s = i + 1;
                break;
            }
            _ => {}
        }
    }
    let mut e = text.len();
    depth = 0;
    for &(i, b) in &solid[at(c + 1)..] {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => {
                e = i;
                break;
            }
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && ends(b) => {
                e = i;
                break;
            }
            _ => {}
        }
    }
    let span = &text[s..e];
    let lead = span.len() - span.trim_ascii_start().len();
    (s + lead, s + span.trim_ascii_end().len())
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    fn lifts(text: &str) -> Vec<String> {
        let t = text.as_bytes();
        liftable(t)
            .into_iter()
            .map(|((s, e), (a, b))| {
                String::from_utf8(super::super::splice(&[&t[..s], &t[a..b], &t[e..]])).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_statement_goes_for_what_its_parentheses_hold() {
        assert_eq!(
            lifts("WITH l AS(SELECT d),s AS(SELECT json_extract('',0))SELECT * FROM s"),
            ["SELECT d", "SELECT json_extract('',0)"]
        );
        // Statements end at `;` where the text has one, else at lines.
        assert_eq!(
            lifts("int f() {\n  x = (g(y) + 1);\n  return 0;\n}"),
            ["int f() {\n  g(y) + 1;\n  return 0;\n}"]
        );
        assert_eq!(
            lifts("a = 1\nprint(len(s) + 1)\nb = 2"),
            ["a = 1\nlen(s) + 1\nb = 2"]
        );
        // A number, one word, a pair that is its statement: nothing.
        assert!(lifts("x = (1 + 2); y = (z); (f x)").is_empty());
        // Brackets in strings are text.
        assert_eq!(lifts("p(\")\"); q(r s)"), ["p(\")\"); r s"]);
    }

    #[test]
    fn a_lift_that_keeps_the_failure_is_taken() {
        let input = b"WITH a AS(SELECT 1),s AS(SELECT json('x'))SELECT * FROM s,a;";
        let (out, runs) = run_pass(lift_contents, input, |c| {
            c.windows(9).any(|w| w == b"json('x')")
        });
        assert_eq!(out, b"SELECT json('x');");
        assert_eq!(runs, 2);
    }
}
