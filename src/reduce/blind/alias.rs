//! A name defined on one line in terms of other names, replaced by one
//! of them: `class l(Channel):()` (Python), `class B extends A {}`,
//! `struct B : A {};`, `type T = U` deleted and `l`, `B`, `T` used as
//! `Channel`, `A`, `U`. A subclass that adds nothing, an alias, a
//! wrapper type: deleting the line breaks its uses and renaming the uses
//! first lengthens the text, so neither step alone is ever taken. Hand
//! reductions do this (`s(G)` → `Channel(G)`); C-Reduce's clang passes
//! do it for C++ with a parser.

use super::super::{ddmin, Tester};
use super::calls::is_name;
use super::inline::defs;
use super::inline::uses;
use super::locate::word_spans;
use std::collections::{HashMap, HashSet};

/// The most names of one line tried for its defined name: a long line
/// would otherwise cost a run per word.
const MAX_TARGETS: usize = 3;

/// An alias line: its range (with its `\n`), the defined name's range and
/// the ranges of the names it may be replaced by, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The line, with its `\n`.
    pub line: (usize, usize),
    /// The name the line defines.
    pub name: (usize, usize),
    /// The other names of the line that occur elsewhere too.
    pub targets: Vec<(usize, usize)>,
}

/// The alias lines of `text`: a line that starts with a lowercase word
/// (a keyword: `class`, `struct`, `type`, ...) and a name after it, the
/// name used elsewhere, and with other names on it that occur elsewhere
/// too (at most 3, in order).
///
/// ```
/// use grammar_min::reduce::blind::alias::aliases;
/// let t = b"class A:\n  pass\nclass l(A):()\nl()\n";
/// let a = aliases(t);
/// assert_eq!(a.len(), 1);
/// assert_eq!(&t[a[0].name.0..a[0].name.1], b"l");
/// assert_eq!(a[0].targets.iter().map(|&(s, e)| &t[s..e]).collect::<Vec<_>>(), [b"A"]);
/// ```
pub fn aliases(text: &[u8]) -> Vec<Alias> {
    let words: Vec<(usize, usize)> = word_spans(text).collect();
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for &(a, b) in &words {
        *counts.entry(&text[a..b]).or_default() += 1;
    }
    // The words within `s..e` (`words` is sorted).
    let within = |(s, e): (usize, usize)| {
        let from = words.partition_point(|&(a, _)| a < s);
        let to = words.partition_point(|&(_, b)| b <= e);
        &words[from..to.max(from)]
    };
    // Per word of `line`, whether it occurs outside the line too.
    let counts = &counts;
    let outside = |line: (usize, usize)| {
        let mut inside: HashMap<&[u8], usize> = HashMap::new();
        for &(a, b) in within(line) {
            *inside.entry(&text[a..b]).or_default() += 1;
        }
        move |w: &[u8]| counts.get(w).copied().unwrap_or(0) > inside.get(w).copied().unwrap_or(0)
    };
    let heads: Vec<Head> = lines(text)
        .filter_map(|line| head(text, &words, line))
        .collect();
    // Names the text defines: after a keyword at a line's start, or
    // before a definition's `=`.
    let mut defined: HashSet<&[u8]> = heads.iter().map(|h| &text[h.name.0..h.name.1]).collect();
    defined.extend(defs(text).iter().map(|d| &text[d.name.0..d.name.1]));
    let mut out = Vec::new();
    for h in heads {
        let (kw, n) = (&text[h.kw.0..h.kw.1], &text[h.name.0..h.name.1]);
        let body = &text[h.line.0..h.line.1];
        let count = |x: &[u8]| body.iter().filter(|b| x.contains(b)).count();
        let last = body.trim_ascii_end().last();
        let occurs_outside = outside(h.line);
        if !occurs_outside(n)
            || count(b"([{") != count(b")]}")
            || matches!(last, Some(b':' | b'{' | b'\\'))
        {
            continue;
        }
        let mut targets: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in within((h.name.1, h.line.1)) {
            let w = &text[a..b];
            if targets.len() < MAX_TARGETS
                && w != kw
                && w != n
                && defined.contains(w)
                && !targets.iter().any(|&(x, y)| &text[x..y] == w)
                && occurs_outside(w)
            {
                targets.push((a, b));
            }
        }
        if !targets.is_empty() {
            out.push(Alias {
                line: h.line,
                name: h.name,
                targets,
            });
        }
    }
    out
}

/// A line that starts with a lowercase word and a name after a blank.
struct Head {
    line: (usize, usize),
    kw: (usize, usize),
    name: (usize, usize),
}

/// The lines of `text` ([`ddmin::lines`]), as ranges with their `\n`.
fn lines(text: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    ddmin::lines(text).into_iter().scan(0, |at, l| {
        let r = (*at, *at + l.len());
        *at = r.1;
        Some(r)
    })
}

/// The line `line` as a [`Head`], if it is one; `words` are the text's
/// word spans.
fn head(text: &[u8], words: &[(usize, usize)], line: (usize, usize)) -> Option<Head> {
    let at = words.partition_point(|&(a, _)| a < line.0);
    let (k, name) = (*words.get(at)?, *words.get(at + 1)?);
    let gap = &text[k.1..name.0];
    let ok = name.1 <= line.1
        && text[line.0..k.0].iter().all(u8::is_ascii_whitespace)
        && !gap.is_empty()
        && gap.iter().all(|&b| b == b' ' || b == b'\t')
        && text[k.0..k.1].iter().all(u8::is_ascii_lowercase)
        && is_name(&text[name.0..name.1])
        && text[k.0..k.1] != text[name.0..name.1];
    ok.then_some(Head { line, kw: k, name })
}

/// `a`'s line deleted and each use of its name elsewhere replaced by
/// `target`.
fn replaced(text: &[u8], a: &Alias, target: (usize, usize)) -> Option<Vec<u8>> {
    let name = &text[a.name.0..a.name.1];
    let value = &text[target.0..target.1];
    let before = uses(text, name, 0, a.line.0).into_iter();
    let after = uses(text, name, a.line.1, text.len()).into_iter();
    let edits = before
        .map(|(s, e)| (s, e, value))
        .chain([(a.line.0, a.line.1, &b""[..])])
        .chain(after.map(|(s, e)| (s, e, value)));
    super::replace_spans(text, edits)
}

/// Each alias line (see [`aliases`]) deleted with its name's uses
/// renamed to one of its other names, in order, each candidate if it
/// makes the text shorter, on the blind passes' shared walk. `text` must
/// be known interesting.
pub fn replace_aliases(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, aliases, |cur, a| {
        a.targets
            .iter()
            .filter_map(|&t| replaced(cur, a, t))
            .filter(|c| c.len() < cur.len())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_subclass_that_adds_nothing_goes_for_its_base() {
        // Interesting iff `Channel` is instantiated and still defined.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.starts_with("class Channel:\n") && s.contains("\nChannel()")
        };
        let input = b"class Channel:\n  pass\nclass l(Channel):()\nl()\n";
        let (out, runs) = run_pass(replace_aliases, input, p);
        assert_eq!(out, b"class Channel:\n  pass\nChannel()\n");
        assert_eq!(runs, 1);
        // The second name of a line is tried when the first fails: `T`
        // for `B` (`class B extends A` with the uses of `B` made `T`).
        let p = |c: &[u8]| c.ends_with(b"new T()");
        let input = b"let T=1\nclass A{}\nclass B extends A { x = T }\nnew B()";
        let (out, runs) = run_pass(replace_aliases, input, p);
        assert_eq!(out, b"let T=1\nclass A{}\nnew T()");
        assert_eq!(runs, 2);
    }

    #[test]
    fn a_line_without_an_alias_costs_nothing() {
        // `return x` defines nothing used elsewhere; `if` has no name
        // after it that occurs elsewhere; a renaming that lengthens the
        // text is not tried.
        let input = b"def f(x):\n    return x\nif y: f(1)\n";
        let (out, runs) = run_pass(replace_aliases, input, |_| true);
        assert_eq!(out, input);
        assert_eq!(runs, 0);
        let input = b"class LongName:0\nclass B(LongName):0\nB;B;B;B;B;B;B\n";
        let (_, runs) = run_pass(replace_aliases, input, |_| true);
        assert_eq!(runs, 0);
    }
}
