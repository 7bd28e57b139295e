//! Conditional expressions without a grammar: `C ? A : B` (C, Java,
//! JavaScript, PHP, Ruby, …) replaced by `A` or by `B`, and Python's `A
//! if C else B` by `A` or by `B`. This is C-Vise's `ternary` pass, found
//! by brackets and separators: deletion reaches `B` only when a chunk
//! happens to cover `C ? A :` exactly, and `A` never, since the condition
//! and the other branch must go in one step.

use super::super::{ddmin, Tester};

/// A conditional expression as byte spans of the text, blanks trimmed:
/// the whole expression and the two branches that can replace it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conditional {
    /// From the condition's (or Python's first branch's) first byte to
    /// the last branch's end.
    pub span: (usize, usize),
    /// The branch taken when the condition holds.
    pub then: (usize, usize),
    /// The other branch.
    pub other: (usize, usize),
}

/// Words that stand before an expression without being part of it:
/// `return c ? a : b` becomes `return a`, not `a`.
const LEADS: &[&[u8]] = &[
    b"return", b"yield", b"throw", b"case", b"when", b"echo", b"print", b"puts", b"await",
];

/// The conditional expressions of `text`, in order of their `?` (or
/// `if`): outer ones before the ones nested in their branches.
///
/// An expression's edges are found by brackets and separators at its
/// own depth: it starts after an opening bracket, `;`, `,`, an
/// assignment's `=`, `=>`, a `:` or an outer `?`, or a line break
/// (leading words such as `return` left out); its last branch ends
/// before a closing bracket, `;`, `,`, an outer `:`, Python's `for`, or
/// a line break. String literals are text.
///
/// ```
/// use grammar_min::reduce::blind::branches::conditionals;
/// let t = b"x = f(n > 3 ? a.q : 0, 1);";
/// let c = conditionals(t);
/// let s = |(a, b): (usize, usize)| std::str::from_utf8(&t[a..b]).unwrap();
/// assert_eq!((s(c[0].span), s(c[0].then), s(c[0].other)), ("n > 3 ? a.q : 0", "a.q", "0"));
/// let t = b"    return a[0] if ok else None\n";
/// let c = conditionals(t);
/// let s = |(a, b): (usize, usize)| std::str::from_utf8(&t[a..b]).unwrap();
/// assert_eq!((s(c[0].span), s(c[0].then), s(c[0].other)), ("a[0] if ok else None", "a[0]", "None"));
/// // Optional chaining, `??`, a type's `?`, PHP's tags: no conditional.
/// assert!(conditionals(b"<?php $a?->b ?? c; f(x: String?) ?>").is_empty());
/// ```
pub fn conditionals(text: &[u8]) -> Vec<Conditional> {
    let solid: Vec<(usize, u8)> = super::structural(text).collect();
    let mut out = Vec::new();
    for k in 0..solid.len() {
        let (i, b) = solid[k];
        let found = if b == b'?' && mark(text, i) {
            ternary(text, &solid, k)
        } else if b == b'i' && word_at(text, i) == b"if" {
            python(text, &solid, k)
        } else {
            None
        };
        out.extend(found);
    }
    out
}

/// `C ? A : B` around the `?` at `solid[k]`.
fn ternary(text: &[u8], solid: &[(usize, u8)], k: usize) -> Option<Conditional> {
    let q = solid[k].0;
    let colon = forward(text, solid, k + 1, true)?;
    let end = forward(text, solid, colon + 1, false)?;
    let colon = solid[colon].0;
    let start = backward(text, solid, k);
    Conditional::trimmed(text, (start, end), (q + 1, colon), (colon + 1, end))
}

/// Python's `A if C else B` around the `if` at `solid[k]`: `if` is not
/// the first word of its line nor after `else`, `;` or a bracket (a
/// statement), and its `else` follows at the same depth with no `:`,
/// `;`, `,` or line break between.
fn python(text: &[u8], solid: &[(usize, u8)], k: usize) -> Option<Conditional> {
    let i = solid[k].0;
    let before = text[..i].trim_ascii_end();
    let ls = super::line_start(text, i);
    let last = *before.last()?;
    if before.len() <= ls
        || matches!(last, b';' | b'{' | b'}' | b'(' | b':')
        || before.ends_with(b"else")
    {
        return None;
    }
    let mut depth = 0usize;
    let mut e = None;
    for (j, &(p, b)) in solid.iter().enumerate().skip(k + 2) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return None,
            b')' | b']' | b'}' => depth -= 1,
            b':' | b';' | b',' | b'\n' if depth == 0 => return None,
            b'e' if depth == 0 && word_at(text, p) == b"else" => {
                e = Some(j);
                break;
            }
            _ => {}
        }
    }
    let e = e?;
    let end = forward(text, solid, e + 4, false)?;
    let start = backward(text, solid, k);
    let els = solid[e].0;
    Conditional::trimmed(text, (start, end), (start, i), (els + 4, end))
}

impl Conditional {
    /// The conditional with its branches trimmed of blanks, if neither
    /// branch is empty.
    fn trimmed(
        text: &[u8],
        span: (usize, usize),
        then: (usize, usize),
        other: (usize, usize),
    ) -> Option<Conditional> {
        let trim = |(a, b): (usize, usize)| {
            let s = &text[a..b];
            let lead = s.len() - s.trim_ascii_start().len();
            (a + lead < b).then(|| (a + lead, a + s.trim_ascii_end().len()))
        };
        Some(Conditional {
            span: trim(span)?,
            then: trim(then)?,
            other: trim(other)?,
        })
    }
}

/// Is the `?` at `i` a conditional's (not `??`, `?.`, `?->`, `?:`,
/// PHP's `<?` and `?>`, nor a type's `String?` before `)`, `,`, `=` …)?
fn mark(text: &[u8], i: usize) -> bool {
    let prev = i.checked_sub(1).map(|p| text[p]);
    let next = text.get(i + 1).copied();
    !matches!(prev, Some(b'?' | b'<'))
        && !matches!(
            next,
            None | Some(b'?' | b'.' | b':' | b'>' | b'=' | b')' | b']' | b'}' | b',' | b';')
        )
        && !text[i + 1..].starts_with(b"->")
}

/// A Ruby predicate's `?` (`x.nil? ? a : b`): right after a word, before
/// a blank. Scanning back, it is part of the condition.
fn predicate(text: &[u8], i: usize) -> bool {
    i > 0 && ddmin::is_word(text[i - 1]) && text.get(i + 1).is_some_and(u8::is_ascii_whitespace)
}

/// A scan's bracket depth after it meets `b` (scanning back with
/// `back`): `Some(true)` where `b` closes the level the scan started at,
/// `Some(false)` for another bracket or a byte inside a nested pair,
/// `None` for a byte at the scan's own level.
fn level(depth: &mut usize, b: u8, back: bool) -> Option<bool> {
    let (into, out): (&[u8], &[u8]) = if back {
        (b")]}", b"([{")
    } else {
        (b"([{", b")]}")
    };
    if into.contains(&b) {
        *depth += 1;
        Some(false)
    } else if out.contains(&b) {
        let closes = *depth == 0;
        *depth = depth.saturating_sub(1);
        Some(closes)
    } else {
        (*depth > 0).then_some(false)
    }
}

/// Is the `:` at `p` half of a path's `::`?
fn path(text: &[u8], p: usize) -> bool {
    text.get(p + 1) == Some(&b':') || text[..p].ends_with(b":")
}

/// The word that starts at `i`, if one does (empty otherwise).
fn word_at(text: &[u8], i: usize) -> &[u8] {
    if i > 0 && ddmin::is_word(text[i - 1]) {
        return b"";
    }
    let n = text[i..].iter().take_while(|&&b| ddmin::is_word(b)).count();
    &text[i..i + n]
}

/// Scanning `solid` from index `k` at the depth there: with `colon`,
/// the index of the `:` that closes a `?` (nested `?`/`:` pairs
/// skipped; `None` past a separator, a closing bracket or a line break
/// once something was seen, unless the next line starts with the `:`);
/// without, the byte position where a branch that starts at `k` ends.
fn forward(text: &[u8], solid: &[(usize, u8)], k: usize, colon: bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut pending = 0usize;
    let mut seen = false;
    for (j, &(p, b)) in solid.iter().enumerate().skip(k) {
        let stop = match level(&mut depth, b, false) {
            Some(stop) => stop,
            None => match b {
                b'?' if mark(text, p) && !predicate(text, p) => {
                    pending += 1;
                    false
                }
                b':' if path(text, p) => false,
                b':' if pending > 0 => {
                    pending -= 1;
                    false
                }
                b':' if colon => return Some(j),
                b':' | b';' | b',' => true,
                b'\n' => seen && !(colon && text[p + 1..].trim_ascii_start().starts_with(b":")),
                b'f' if !colon && word_at(text, p) == b"for" => true,
                _ => false,
            },
        };
        if stop {
            return (!colon).then_some(p);
        }
        seen |= !b.is_ascii_whitespace();
    }
    (!colon).then_some(text.len())
}

/// Scanning `solid` back from before index `k`: the byte position where
/// the expression that ends there starts, leading words ([`LEADS`])
/// left out.
fn backward(text: &[u8], solid: &[(usize, u8)], k: usize) -> usize {
    let mut depth = 0usize;
    let mut seen = false;
    let mut start = 0;
    for &(p, b) in solid[..k].iter().rev() {
        let stop = level(&mut depth, b, true).unwrap_or_else(|| match b {
            b';' | b',' => true,
            b'=' => {
                let prev = p.checked_sub(1).map(|q| text[q]);
                !matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) && text.get(p + 1) != Some(&b'=')
            }
            b':' => !path(text, p),
            b'?' => mark(text, p) && !predicate(text, p),
            b'\n' => seen,
            _ => false,
        });
        if stop {
            start = p + 1;
            break;
        }
        seen |= !b.is_ascii_whitespace();
    }
    let blanks = |s: usize| s + (text[s..].len() - text[s..].trim_ascii_start().len());
    let mut s = blanks(start);
    while let Some(lead) = LEADS.iter().find(|&&l| word_at(text, s) == l) {
        s = blanks(s + lead.len());
    }
    s
}

/// For each conditional expression ([`conditionals`]), outer first, the
/// expression replaced by its shorter branch, then by the other. After a
/// success the conditionals are found again and the walk goes on from
/// the same index. `text` must be known interesting.
pub fn pick_branches(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, conditionals, |cur, c| {
        let mut bs = [c.then, c.other];
        bs.sort_by_key(|&(a, b)| b - a);
        bs.iter()
            .map(|&(a, b)| super::splice(&[&cur[..c.span.0], &cur[a..b], &cur[c.span.1..]]))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    /// Each conditional of `text` as (expression, then, other).
    fn found(text: &str) -> Vec<(&str, &str, &str)> {
        let s = |(a, b): (usize, usize)| &text[a..b];
        conditionals(text.as_bytes())
            .into_iter()
            .map(|c| (s(c.span), s(c.then), s(c.other)))
            .collect()
    }

    #[test]
    fn conditionals_are_found_by_their_edges() {
        assert_eq!(
            found("return n > 3 ? o.m.q : 0;"),
            [("n > 3 ? o.m.q : 0", "o.m.q", "0")]
        );
        // Nested: the outer first, the inner in its branch.
        assert_eq!(
            found("x = a ? b ? c : d : e;"),
            [
                ("a ? b ? c : d : e", "b ? c : d", "e"),
                ("b ? c : d", "c", "d")
            ]
        );
        // Over lines, as formatters write it; a key's `:` ends it.
        assert_eq!(
            found("const v = ok\n  ? f(1, 2)\n  : g;\nh({k: c ? 1 : 2})"),
            [
                ("ok\n  ? f(1, 2)\n  : g", "f(1, 2)", "g"),
                ("c ? 1 : 2", "1", "2")
            ]
        );
        // Ruby: a predicate's `?` belongs to the condition; a line ends it.
        assert_eq!(
            found("y = x.nil? ? 0 : x.size\nputs y"),
            [("x.nil? ? 0 : x.size", "0", "x.size")]
        );
        // Paths, strings and `?:` do not count.
        assert_eq!(
            found("a = c ? std::f(\"?:\") : b::g"),
            [("c ? std::f(\"?:\") : b::g", "std::f(\"?:\")", "b::g")]
        );
        assert!(found("let v = f()?;\nlet w: u8 = 1;").is_empty());
        // Python, not statements: `if c:`, `else if`, a comprehension's filter.
        assert_eq!(
            found("v = [a if c else b for a in s]\nif c: pass\n"),
            [("a if c else b", "a", "b")]
        );
        assert!(found("} else if (x) { y } else { z }\nx; if (c) a(); else b();").is_empty());
    }

    #[test]
    fn a_conditional_becomes_the_branch_that_fails() {
        // Interesting iff `o.m.q` is read, with no condition left.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.contains("o.m.q") && !s.contains('?') && s.ends_with(';')
        };
        let (out, runs) = run_pass(pick_branches, b"return n > 3 ? o.m.q : 0;", p);
        assert_eq!(out, b"return o.m.q;");
        // `0` (the shorter branch) fails, then `o.m.q` is taken.
        assert_eq!(runs, 2);
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.contains("d[k]") && !s.contains("if")
        };
        let (out, _) = run_pass(pick_branches, b"x = d[k] if k in d else None\n", p);
        assert_eq!(out, b"x = d[k]\n");
    }
}
