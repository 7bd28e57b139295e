//! Values made constant without a grammar (C-Reduce's call-to-constant
//! replacement): a call, an index, a chain of member reads, an empty
//! string or a name used as a value, each replaced by a constant in one
//! candidate, and an assignment's target deleted with its value kept.

use super::super::{ddmin::is_word, Tester};
use super::hoist::head;
use super::pairs;
use std::collections::HashSet;
use std::rc::Rc;

/// The constants a call or an index is replaced by, in order.
const FOR_CALLS: &[&[u8]] = &[b"0", b"1"];

/// The constant an empty string is replaced by.
const FOR_STRINGS: &[&[u8]] = &[b"0"];

/// The constant a name in a value's place is replaced by.
const FOR_NAMES: &[&[u8]] = &[b"0"];

/// The constants a name as a call's argument or an assigned value is
/// replaced by, in order: a number, then a string, the two kinds of value
/// a function or a type checker most often rejects (`int(w)` →
/// `int("")`, `i*f=d` → `i*f=""`). (`""` is tried only there: as an
/// index, `_[a]` → `_[""]`, it lengthened the text for nothing the next
/// passes used.)
const FOR_ARGS: &[&[u8]] = &[b"0", b"\"\""];

/// What an assignment's target is replaced by: nothing.
const FOR_TARGETS: &[&[u8]] = &[b""];

/// Values made constant (C-Reduce's call-to-constant replacement), one
/// candidate each, in order of position:
/// * a call or index (a pair `(…)` or `[…]` with a name right before it,
///   `f(x)`, `t[i]`, not followed by a block: `if (x) {`, `def f(a):`)
///   or a chain of member reads (`member_chains`: `@k.e.size`,
///   `$l->sku`) replaced by `0`, then by `1`, then by each of the text's
///   first string literals elsewhere (the first 3 distinct ones);
/// * an empty string (`""`, `''`) replaced by `0`;
/// * a use of a name after its first occurrence, standing alone as a
///   value (`name_uses`: `this.total=s}`), replaced by `0`, and a
///   call's argument or an assigned value also by `""` (`int(w)` →
///   `int("")`);
/// * an assignment's target deleted, the value kept (`targets`: `my $s
///   = r()` → `r()`, where the call is what fails).
///
/// `$(-t[a]/0)` → `$(-1/0)`, where the value the name held no longer
/// needs the statements that set it, and where deleting the call leaves
/// no valid text and replacing it by a part changes the value (`-a/0` is
/// NaN, `-1/0` infinite); TOML's `e=""` → `e=0`. In order of position;
/// after a success the items are found again and the walk goes on from
/// the same index. `text` must be known interesting.
pub fn constants(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, valued, |cur, (s, e, ks, lits)| {
        let (s, e) = (*s, *e);
        let mut out: Vec<Vec<u8>> = ks
            .iter()
            .map(|k| super::splice(&[&cur[..s], k, &cur[e..]]))
            .collect();
        out.extend(
            lits.iter()
                .filter(|&&(a, b)| b <= s || a >= e)
                .map(|&(a, b)| super::splice(&[&cur[..s], &cur[a..b], &cur[e..]])),
        );
        out
    })
}

/// The most string literals of a text a call is tried as.
const MAX_LITERALS: usize = 3;

/// The first [`MAX_LITERALS`] distinct non-empty string literals of
/// `text` (`"tab"`, `'v'`), with their quotes: a call or an index is
/// tried as each, after `0` and `1` — the value a lookup returns is often
/// spelt in the input (`S[S.get(m)]` → `S["tab"]`, where `S` maps `"v"`
/// to `"tab"`).
fn string_literals(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < text.len() && out.len() < MAX_LITERALS {
        match super::literal_end(text, i) {
            Some(e) => {
                let lit = &text[i..=e];
                if e > i + 1 && !out.iter().any(|&(a, b)| &text[a..b] == lit) {
                    out.push((i, e + 1));
                }
                i = e + 1;
            }
            None => i += 1,
        }
    }
    out
}

/// A span [`constants`] replaces, with the constants it is tried as and,
/// for a call or an index, the spans of the string literals it is tried
/// as next ([`string_literals`], found once per text).
type Valued = (usize, usize, &'static [&'static [u8]], Rc<[(usize, usize)]>);

/// The spans [`constants`] replaces, in order of their start.
fn valued(text: &[u8]) -> Vec<Valued> {
    let lits: Rc<[(usize, usize)]> = string_literals(text).into();
    let none: Rc<[(usize, usize)]> = Rc::new([]);
    let mut out: Vec<Valued> = Vec::new();
    for (o, c) in pairs(text) {
        let head = head(text, o);
        let after = text[c + 1..].trim_ascii_start();
        if head < o
            && super::calls::is_name(&text[head..o])
            && !matches!(after.first(), Some(b'{' | b':'))
        {
            // With a module or receiver before a single `:` (Erlang's
            // `lists:sum(L)`, Lua's `o:m(x)`) first, then without it.
            if let Some(m) = colon_path(text, head) {
                out.push((m, c + 1, FOR_CALLS, lits.clone()));
            }
            out.push((head, c + 1, FOR_CALLS, lits.clone()));
        }
    }
    for (i, w) in text.windows(2).enumerate() {
        if matches!(w, b"\"\"" | b"''") && super::literal_end(text, i) == Some(i + 1) {
            out.push((i, i + 2, FOR_STRINGS, none.clone()));
        }
    }
    out.extend(
        targets(text)
            .into_iter()
            .map(|(s, e)| (s, e, FOR_TARGETS, none.clone())),
    );
    out.extend(
        member_chains(text)
            .into_iter()
            .map(|(s, e)| (s, e, FOR_CALLS, lits.clone())),
    );
    out.extend(name_uses(text).into_iter().map(|(s, e)| {
        let arg = matches!(text[..s].trim_ascii_end().last(), Some(b'(' | b',' | b'='));
        (s, e, if arg { FOR_ARGS } else { FOR_NAMES }, none.clone())
    }));
    out.sort_unstable_by_key(|v| v.0);
    out
}

/// Where the word before a single `:` right before `head` starts
/// (`lists` of `lists:sum(…)`), if one is there.
///
/// ```
/// # use grammar_min::reduce::blind::constants::colon_path;
/// assert_eq!(colon_path(b"x=lists:sum(l)", 8), Some(2));
/// assert_eq!(colon_path(b"x=a::f(l)", 5), None);
/// assert_eq!(colon_path(b"{\"k\":f(l)}", 5), None);
/// ```
pub fn colon_path(text: &[u8], head: usize) -> Option<usize> {
    let before = text[..head].strip_suffix(b":")?;
    let w = super::word_before(before);
    (w > 0).then(|| before.len() - w)
}

/// The spans of the names [`constants`] tries as constants: each occurrence
/// but the first of a name, where it stands alone as a value.
fn name_uses(text: &[u8]) -> Vec<(usize, usize)> {
    let mut seen: HashSet<&[u8]> = HashSet::new();
    super::word_spans(text)
        .filter(|&(s, e)| {
            let w = &text[s..e];
            !w[0].is_ascii_digit()
                && !seen.insert(w)
                && super::calls::is_name(w)
                && in_value_place(text, s, e)
        })
        .collect()
}

/// The chains of names joined by `.` or `->` (`@k.e.size`, `self.total`,
/// PHP's `$l->sku`, C's `p->s`; a name may carry a `@` or `$` sigil) that stand
/// as an operand: after `=`, `(`, `[`, `,`, an arithmetic or comparison
/// operator or a word of [`VALUE_LEADS`], and not followed by `(`, `[`,
/// `{`, a plain `=` or a word (a call, an assignment's target, Ruby's
/// `o.f x`). A property read or a method called without parentheses is
/// a call like `f(x)`: `1/@k.e.size` → `1/0`.
fn member_chains(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let s = i;
        let starts = (is_word(text[i]) && !text[i].is_ascii_digit()) || b"@$".contains(&text[i]);
        if !starts || (i > 0 && (is_word(text[i - 1]) || b".@$".contains(&text[i - 1]))) {
            i += 1;
            continue;
        }
        let mut e = i + 1;
        let mut links = 0;
        loop {
            while e < text.len() && is_word(text[e]) {
                e += 1;
            }
            let link = match text.get(e..e + 2) {
                Some([b'.', _]) => 1,
                Some(b"->") => 2,
                _ => 0,
            };
            if link > 0 && text.get(e + link).is_some_and(|&b| is_word(b)) {
                links += 1;
                e += link;
            } else {
                break;
            }
        }
        i = e;
        let before = text[..s].trim_ascii_end();
        let lead = matches!(
            before.last(),
            Some(b'=' | b'(' | b'[' | b',' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>')
        ) || {
            let w = super::word_before(before);
            w > 0 && VALUE_LEADS.contains(&&before[before.len() - w..])
        };
        let gap = text[e..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let trails = match text.get(e + gap) {
            Some(b'(' | b'[' | b'{') => true,
            Some(b'=') => !matches!(text.get(e + gap + 1), Some(b'=' | b'~' | b'>')),
            Some(&b) => is_word(b),
            None => false,
        };
        if links > 0 && lead && !trails {
            out.push((s, e));
        }
    }
    out
}

/// The targets of the assignments of `text`: from a statement's start
/// (after `;`, `{`, `}` or a line start, skipping blanks) through a
/// plain `=` (not `==`, `<=`, `+=`, `=>`, ...), if the target holds no
/// `(` or `)` (`f(a=1)` is an argument).
fn targets(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 1..text.len() {
        let plain = text[i] == b'='
            && !b"=!<>+-*/%&|^:~.?".contains(&text[i - 1])
            && !matches!(text.get(i + 1), Some(b'=' | b'>' | b'~'));
        if !plain {
            continue;
        }
        let s = super::statement_start(text, i);
        if s < i && !text[s..i].iter().any(|b| b"()".contains(b)) {
            out.push((s, i + 1));
        }
    }
    out
}

/// Words a value follows: `return x`, `await p`, `yield v`, `throw e`.
const VALUE_LEADS: &[&[u8]] = &[b"return", b"await", b"yield", b"throw"];

/// Whether `text[s..e]` stands alone as a value: after `=`, `(`, `[`,
/// `,` or a word of [`VALUE_LEADS`], and before `;`, `)`, `]`, `,`, `}` or the
/// line's end.
fn in_value_place(text: &[u8], s: usize, e: usize) -> bool {
    let before = text[..s].trim_ascii_end();
    let after = text[e..].iter().find(|&&b| b != b' ' && b != b'\t');
    let opens = match before.last() {
        Some(b'=' | b'(' | b'[' | b',') => true,
        _ => {
            let w = super::word_before(before);
            w > 0 && VALUE_LEADS.contains(&&before[before.len() - w..])
        }
    };
    opens
        && matches!(
            after,
            None | Some(b';' | b')' | b']' | b',' | b'}' | b'\n' | b'\r')
        )
}
#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_call_becomes_a_constant() {
        // Interesting iff `f(x)` is called and a negative number is
        // divided by zero: `-0/0` is not, so the index becomes `1`, not
        // `0`; `if (x) {` is no call.
        let p = |c: &[u8]| {
            let has = |s: &[u8]| c.windows(s.len()).any(|w| w == s);
            has(b"f(x)") && (has(b"-1/0") || has(b"-t[a]/0"))
        };
        let input = b"if (x) {y=f(x);z=-t[a]/0;}";
        // The targets `y=`, `z=` go too: the predicate keeps no value.
        assert_eq!(run_pass(constants, input, p).0, b"if (x) {f(x);-1/0;}");
        let (out, runs) = run_pass(constants, b"if (x) {y}", |_| true);
        assert_eq!((out.as_slice(), runs), (&b"if (x) {y}"[..], 0));
        // An empty string is a value too.
        let p = |c: &[u8]| c.starts_with(b"[a]\ne=") && c.len() > 6;
        assert_eq!(run_pass(constants, b"[a]\ne=\"\"", p).0, b"[a]\ne=0");
        // So is a name used as one, after its first occurrence; the
        // first, a name before `.` or `(`, and one in no value's place
        // are not tried.
        let input = b"s=x=>M;o.s=s.t;f(s);this.total=s}";
        let (out, runs) = run_pass(constants, input, |c| c.ends_with(b"total=0}"));
        assert_eq!(out, b"s=x=>M;o.s=s.t;f(s);this.total=0}");
        // `f(s)` as 0, 1; `s.t` as 0, 1; `(s)`'s `s` as 0, `""`;
        // `total=s`; the targets `s=`, `o.s=`, `this.total=` (`x=>` is no
        // assignment).
        assert_eq!(runs, 10);
        // A chain of names read as an operand is a call: Ruby's
        // `@k.e.size`, not `o.f x` (a call with an argument) nor `a.b =`.
        let input = b"def c\n1/@k.e.size\nend\no.f x\na.b = 2";
        assert_eq!(member_chains(input), [(8, 17)]);
        let (out, _) = run_pass(constants, input, |c| {
            c.starts_with(b"def c\n1/0\n") && c.ends_with(b"o.f x\na.b = 2")
        });
        assert_eq!(out, b"def c\n1/0\nend\no.f x\na.b = 2");
        // PHP's `$l->s` and C's `p->s` are chains too, and a chain is
        // tried as the text's string literals, as a call is: a string
        // where an `int` is declared (`f($l->s)` → `f('x')`).
        let input = b"$a='x';f($l->s);g(p->s)";
        assert_eq!(member_chains(input), [(9, 14), (18, 22)]);
        let p = |c: &[u8]| c.windows(6).any(|w| w == b"f('x')") && c.ends_with(b";g(p->s)");
        assert_eq!(run_pass(constants, input, p).0, b"$a='x';f('x');g(p->s)");
        // A call through a path goes whole: `std::abs(n)` → `0`, not
        // `std::0`.
        let input = b"int f(){return 1/std::abs(n);}";
        let (out, _) = run_pass(constants, input, |c| c.ends_with(b"return 1/0;}"));
        assert_eq!(out, b"int f(){return 1/0;}");
        // So does one through a module or receiver before a single `:`
        // (Erlang's `lists:sum(L)`, Lua's `o:m(x)`), which `lists:0`
        // would not parse.
        let input = b"m(V)->lists:sum(V)/0.";
        let (out, _) = run_pass(constants, input, |c| c.ends_with(b"->0/0."));
        assert_eq!(out, b"m(V)->0/0.");
        // A lookup as a string of the text: `S.get(m)` → `"tab"`.
        let input = b"S={\"v\":\"tab\"}\nfor m in\"v\":S[S.get(m)]";
        let p = |c: &[u8]| c.ends_with(b"S[\"tab\"]");
        let (out, _) = run_pass(constants, input, p);
        assert_eq!(out, b"S={\"v\":\"tab\"}\nfor m in\"v\":S[\"tab\"]");
        // After `await` (`yield`, `throw`) as after `return`.
        let input = b"e=m=>e;async function p(){await e\nf()}";
        let (out, _) = run_pass(constants, input, |c| c.ends_with(b"{await 0\nf()}"));
        assert_eq!(out, b"e=m=>e;async function p(){await 0\nf()}");
        // `""` not as an index: `_[a]` does not become `_[""]`.
        let p = |c: &[u8]| c.starts_with(b"a;_[") && !c.contains(&b'0');
        assert_eq!(run_pass(constants, b"a;_[a]", p).0, b"a;_[a]");
        let p = |c: &[u8]| c.starts_with(b"a;f(") && !c.contains(&b'0');
        assert_eq!(run_pass(constants, b"a;f(a)", p).0, b"a;f(\"\")");
        // An assignment's target goes, its value stays.
        let input = b"use strict;my$s=r(1);f(a=1)";
        let (out, _) = run_pass(constants, input, |c| {
            c.windows(4).any(|w| w == b"r(1)") && c.ends_with(b";f(a=1)")
        });
        assert_eq!(out, b"use strict;r(1);f(a=1)");
    }
}
