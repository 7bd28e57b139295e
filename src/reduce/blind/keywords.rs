//! Keyword-delimited blocks without a grammar: the shell's `if … then …
//! fi`, `for/while … do … done` and `case … esac`, and the `… end` blocks
//! of Ruby, Lua and their kin (`if`, `while … do`, `def`, `function`,
//! `begin`, `do`). Token ddmin deletes such a block only when its chunks
//! happen to align with it, and cannot take a body out of its block at
//! all, since the opener and the closer must go in the same run: the
//! bracket pairs of [`super::delete_pairs`], spelt as words.
//!
//! The blocks are found by a heuristic (no grammar says which words are
//! keywords), tuned to cost nothing on languages without such closers: an
//! opener that no closer matches yields no candidate. The oracle judges.

use super::super::{ddmin, Tester};

/// A keyword-delimited block, as byte positions in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Where the statement holding the block starts (`local function f`
    /// … `end`, `x = if` … `end`): at most `start`.
    pub stmt: usize,
    /// Where the opening keyword starts.
    pub start: usize,
    /// One past the closing keyword.
    pub end: usize,
    /// The bodies, in order: after `then`, `do` or `else`, or after the
    /// header's line where the block has no such word (`def f(x)` ⏎ …).
    pub bodies: Vec<(usize, usize)>,
    /// For a conditional (`if`, `unless`, `while`, `until`) whose first
    /// body follows `then` or `do`: the spans that, deleted, leave its
    /// condition and its first body as plain statements (`if p; then x;
    /// else y; fi` → ` p; x; `): the opener, that `then`/`do`, and from
    /// the first `else`/`elif` (or the closer) to the block's end.
    pub keywords: Vec<(usize, usize)>,
}

/// The closers a number can run into with no blank between (`0,0end`:
/// Ruby and Lua read `0` and `end`, a byte sweep may have taken the
/// blank).
const GLUED: &[&[u8]] = &[b"end", b"fi", b"done", b"esac"];

/// `toks` with each word that is digits then a closer ([`GLUED`]) split
/// in two.
fn split_closers(toks: Vec<&[u8]>) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        let d = t.iter().take_while(|b| b.is_ascii_digit()).count();
        if d > 0 && GLUED.contains(&&t[d..]) {
            out.extend([&t[..d], &t[d..]]);
        } else {
            out.push(t);
        }
    }
    out
}

/// Words that open a block: each is closed by `end`, and `if` also by
/// `fi`, `case` by `esac`, a loop's `do` by `done`.
const OPENERS: &[&[u8]] = &[
    b"begin",
    b"case",
    b"class",
    b"def",
    b"do",
    b"for",
    b"function",
    b"if",
    b"module",
    b"repeat",
    b"select",
    b"unless",
    b"until",
    b"while",
];

/// Loops whose body follows `do` (`for x in y; do … done`, `while c do …
/// end`): that `do` belongs to the loop and opens no block of its own.
const LOOPS: &[&[u8]] = &[b"for", b"select", b"until", b"while"];

/// Openers that also end a statement as a modifier (`return 1 if x`,
/// `retry until ok`): they open a block only where a statement starts.
const MODIFIERS: &[&[u8]] = &[b"if", b"unless", b"until", b"while"];

/// Words after which a statement starts (as after `;` or a line break).
const LEADS: &[&[u8]] = &[
    b"and", b"begin", b"do", b"elif", b"else", b"elsif", b"in", b"local", b"not", b"or", b"return",
    b"then",
];

/// Words after which a block's statement starts (for [`Block::stmt`]).
const STMT_LEADS: &[&[u8]] = &[b"begin", b"do", b"elif", b"else", b"elsif", b"then"];

/// Punctuation after which a statement or an expression starts.
const LEAD_PUNCT: &[u8] = b";({|&=!`}";

/// How many tokens after a conditional that does not start a statement
/// its `then` (`do`) is looked for (blanks count).
const MARK_WITHIN: usize = 64;

/// Where a body starts inside a block.
const BODY_MARKERS: &[&[u8]] = &[b"do", b"else", b"then"];

/// A block still open while scanning.
struct Open<'a> {
    /// The opener, lowercase where it is one of [`OPENERS`]; as written
    /// where an `endX` closes it (`FOREACH`).
    kind: &'a [u8],
    /// Token index and byte of the opener.
    tok: usize,
    start: usize,
    /// `then`, `do`, `else`, `elif`, `elsif` seen at this block's level:
    /// the word and its byte span.
    markers: Vec<(&'static [u8], usize, usize)>,
}

/// The keyword, among `set`, that `w` spells, in any case.
fn kw(set: &[&'static [u8]], w: &[u8]) -> Option<&'static [u8]> {
    set.iter().copied().find(|k| k.eq_ignore_ascii_case(w))
}

/// The blocks of `text`, in order of their opener (outer first). A closer
/// pairs with the innermost open block it can close (`fi` with `if`,
/// `esac` with `case`, `done` with a `do`, `end` with any), dropping the
/// unclosed ones opened after it; a closer that pairs with nothing is
/// ignored. A word right after `.`, `$`, `@`, `-`, `:` or `/`, or
/// assigned to (`end = 3`), is no keyword.
///
/// ```
/// use grammar_min::reduce::blind::keywords::blocks;
/// let text = b"if a; then b; else c; fi";
/// let bs = blocks(text);
/// assert_eq!(bs.len(), 1);
/// let body = |i: usize| &text[bs[0].bodies[i].0..bs[0].bodies[i].1];
/// assert_eq!((body(0), body(1)), (&b" b; "[..], &b" c; "[..]));
/// ```
pub fn blocks(text: &[u8]) -> Vec<Block> {
    let toks = split_closers(ddmin::tokens(text));
    let mut at = Vec::with_capacity(toks.len() + 1);
    let mut n = 0;
    for t in &toks {
        at.push(n);
        n += t.len();
    }
    at.push(n);
    // The previous token that is not blank, and whether a line break
    // came after it.
    let sig_before = |i: usize| -> (Option<usize>, bool) {
        let mut nl = false;
        for j in (0..i).rev() {
            if toks[j][0].is_ascii_whitespace() {
                nl |= toks[j].contains(&b'\n');
            } else {
                return (Some(j), nl);
            }
        }
        (None, true)
    };
    let starts_statement = |i: usize| match sig_before(i) {
        (None, _) | (_, true) => true,
        (Some(j), false) => {
            let p = toks[j];
            (p.len() == 1 && LEAD_PUNCT.contains(&p[0])) || kw(LEADS, p).is_some()
        }
    };
    let not_a_keyword = |i: usize| {
        let s = at[i];
        let after_sigil = s > 0 && b".$@-:/".contains(&text[s - 1]);
        let rest = &text[at[i + 1]..];
        let rest = &rest[rest.len() - rest.trim_ascii_start().len()..];
        let assigned =
            rest.starts_with(b"=") && !rest[1..].starts_with(b"=") && !rest[1..].starts_with(b"~");
        after_sigil || assigned
    };
    // A conditional with its `then` (a loop with its `do`) later on its
    // line opens a block wherever it stands: a modifier (`x if c`) has
    // none, and a sweep can join a block's first line to the statement
    // before it (Lua's `d=e.f if c then`).
    let marked_on_line = |i: usize| {
        let want: &[u8] = match kw(MODIFIERS, toks[i]) {
            Some(b"if" | b"unless") => b"then",
            _ => b"do",
        };
        // Within the next MARK_WITHIN tokens: a long one-line text with
        // many modifiers costs no quadratic scan.
        toks[i + 1..]
            .iter()
            .take(MARK_WITHIN)
            .take_while(|t| !t.contains(&b'\n'))
            .any(|t| t.eq_ignore_ascii_case(want))
    };
    // The X of each `endX` word (`endfunction`, `ENDIF`, `endforeach`:
    // CMake, Vim script, PHP's alternative syntax, Verilog): X, where a
    // statement starts, opens a block that `endX` closes.
    let mut end_words: Vec<Vec<u8>> = toks
        .iter()
        .filter_map(|t| end_of(t))
        .map(<[u8]>::to_ascii_lowercase)
        .collect();
    end_words.sort_unstable();
    end_words.dedup();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !ddmin::is_word(t[0]) || not_a_keyword(i) {
            continue;
        }
        if let Some(x) = end_of(t) {
            let near = stack.len().saturating_sub(64);
            if let Some(d) = stack[near..]
                .iter()
                .rposition(|o| o.kind.eq_ignore_ascii_case(x))
            {
                stack.truncate(near + d + 1);
                if let Some(o) = stack.pop() {
                    let ce = after_arguments(text, at[i + 1]);
                    out.push(close(text, &toks, &at, o, at[i], ce));
                }
            }
            continue;
        }
        // SQL's `BEGIN … END`, `CASE … END`: keywords in any case.
        let lower;
        let w: &[u8] = if t.len() <= 8 && t.iter().any(u8::is_ascii_uppercase) {
            lower = t.to_ascii_lowercase();
            &lower
        } else {
            t
        };
        match w {
            b"fi" | b"esac" | b"done" | b"end" => {
                let want = |o: &Open| match w {
                    b"fi" => o.kind == b"if",
                    b"esac" => o.kind == b"case",
                    b"done" => o.kind == b"do" || o.markers.iter().any(|m| m.0 == b"do"),
                    _ => o.kind != b"repeat",
                };
                // The shell's closers stand where a command starts (or
                // right after `((…))`).
                let after_paren = matches!(sig_before(i), (Some(j), _) if toks[j] == b")");
                if w != b"end" && !starts_statement(i) && !after_paren {
                    continue;
                }
                // Among the 64 innermost: unclosed openers cost no
                // quadratic search.
                let near = stack.len().saturating_sub(64);
                if let Some(d) = stack[near..].iter().rposition(want).map(|d| near + d) {
                    stack.truncate(d + 1);
                    if let Some(o) = stack.pop() {
                        out.push(close(text, &toks, &at, o, at[i], at[i + 1]));
                    }
                }
            }
            b"then" | b"else" | b"elif" | b"elsif" => {
                if let Some(o) = stack.last_mut() {
                    let m = kw(&[b"then", b"else", b"elif", b"elsif"], w).unwrap_or_default();
                    o.markers.push((m, at[i], at[i + 1]));
                }
            }
            b"until" if stack.last().is_some_and(|o| o.kind == b"repeat") => {
                // Lua's `repeat … until c`: no body to lift, no candidate.
                stack.pop();
            }
            b"do" => {
                // A loop's own `do`: on the loop's line, or first on its
                // own line (`for x in y` ⏎ `do`).
                let own_line = matches!(sig_before(i), (None, _) | (_, true));
                let joins = stack.last().is_some_and(|o| {
                    kw(LOOPS, o.kind).is_some()
                        && o.markers.is_empty()
                        && (own_line || !text[o.start..at[i]].contains(&b'\n'))
                });
                match stack.last_mut() {
                    Some(o) if joins => o.markers.push((b"do", at[i], at[i + 1])),
                    _ => stack.push(Open {
                        kind: b"do",
                        tok: i,
                        start: at[i],
                        markers: Vec::new(),
                    }),
                }
            }
            _ => {
                let ended = || {
                    !end_words.is_empty()
                        && starts_statement(i)
                        && end_words.binary_search(&t.to_ascii_lowercase()).is_ok()
                };
                let Some(kind) = kw(OPENERS, w).or_else(|| ended().then_some(*t)) else {
                    continue;
                };
                if kw(MODIFIERS, kind).is_some() && !starts_statement(i) && !marked_on_line(i) {
                    continue;
                }
                stack.push(Open {
                    kind,
                    tok: i,
                    start: at[i],
                    markers: Vec::new(),
                });
            }
        }
    }
    out.sort_unstable_by_key(|b: &Block| b.start);
    out
}

/// The X of a closer `endX` (`endif`, `ENDFOREACH`): a word of two
/// letters or more after `end`.
fn end_of(t: &[u8]) -> Option<&[u8]> {
    (t.len() > 4 && t[..3].eq_ignore_ascii_case(b"end") && t.iter().all(|&b| ddmin::is_word(b)))
        .then(|| &t[3..])
}

/// Past the `(…)` right after an `endX` closer on its line (CMake's
/// `endfunction()`), else `ce`.
fn after_arguments(text: &[u8], ce: usize) -> usize {
    if text.get(ce) != Some(&b'(') {
        return ce;
    }
    text[ce..]
        .iter()
        .take_while(|&&b| b != b'\n')
        .position(|&b| b == b')')
        .map_or(ce, |p| ce + p + 1)
}

/// The [`Block`] of `o` closed by the word at `cs..ce`.
fn close(text: &[u8], toks: &[&[u8]], at: &[usize], o: Open<'_>, cs: usize, ce: usize) -> Block {
    // The statement: back over the tokens of the opener's line to a
    // statement boundary (at most 16 tokens: `local function`, `x =`;
    // so a long line costs no quadratic scan). An opener first on its
    // line after a line that ends in no `;`, `{`, `}`, `(`, block word or
    // closer continues that line's statement (SQL's `CREATE TRIGGER t … ⏎
    // BEGIN`).
    let ends = |t: &[u8]| (t.len() == 1 && b";{}(`".contains(&t[0])) || kw(STMT_LEADS, t).is_some();
    let closer = |t: &[u8]| kw(&[b"end", b"fi", b"done", b"esac"], t).is_some();
    let mut stmt = o.start;
    let mut crossed = false;
    // A pair closed before the opener is part of the statement
    // (`(s.each 0).map do`): its `(` ends nothing.
    let mut depth = 0usize;
    for j in (0..o.tok).rev() {
        let t = toks[j];
        if t == b")" {
            depth += 1;
        } else if t == b"(" && depth > 0 {
            depth -= 1;
            stmt = at[j];
            continue;
        }
        if t.contains(&b'\n') && stmt == o.start && !crossed {
            let prev = toks[..j].iter().rposition(|t| !t[0].is_ascii_whitespace());
            if prev.is_some_and(|p| !ends(toks[p]) && !closer(toks[p])) {
                crossed = true;
                continue;
            }
        }
        if t.contains(&b'\n') || ends(t) {
            break;
        }
        if o.tok - j > 16 {
            stmt = o.start;
            break;
        }
        if !t[0].is_ascii_whitespace() {
            stmt = at[j];
        }
    }
    // Segment k runs from the end of boundary k to the start of boundary
    // k + 1; the boundaries are the opener, the markers and the closer.
    let mut bounds: Vec<(&[u8], usize, usize)> = vec![(o.kind, o.start, o.start + o.kind.len())];
    bounds.extend(o.markers.iter().copied());
    bounds.push((b"end", cs, ce));
    let has_marker = o.markers.iter().any(|m| m.0 == b"then" || m.0 == b"do");
    let mut bodies = Vec::new();
    for (i, w) in bounds.windows(2).enumerate() {
        let (kind, from, to) = (w[0].0, w[0].2, w[1].1);
        let from = if i > 0 {
            // After a marker: `then`, `do` and `else` start a body.
            kw(BODY_MARKERS, kind).map(|_| from)
        } else if has_marker || o.kind == b"case" {
            None
        } else if o.kind == b"begin" || o.kind == b"do" {
            // The first segment of a block without `then`/`do`: `begin`
            // and `do` (Lua's `do … end`, Ruby's `do |x| … end`) start
            // the body at once, the others on the header's next line.
            Some(from)
        } else {
            text[from..to]
                .iter()
                .position(|&b| b == b'\n')
                .map(|p| from + p + 1)
        };
        if let Some(f) = from.filter(|&f| !text[f..to].trim_ascii().is_empty()) {
            bodies.push((f, to));
        }
    }
    let mut keywords = Vec::new();
    if kw(MODIFIERS, o.kind).is_some() {
        if let Some(m) = o.markers.first().filter(|m| m.0 == b"then" || m.0 == b"do") {
            keywords.push((o.start, o.start + o.kind.len()));
            keywords.push((m.1, m.2));
            let rest = o.markers.get(1).map_or(cs, |e| e.1);
            keywords.push((rest, ce));
        }
    }
    Block {
        stmt,
        start: o.start,
        end: ce,
        bodies,
        keywords,
    }
}

/// `text` without the spans `cut` (sorted, disjoint).
fn without(text: &[u8], cut: &[(usize, usize)]) -> Vec<u8> {
    let mut pieces = Vec::with_capacity(cut.len() + 1);
    let mut from = 0;
    for &(a, b) in cut {
        pieces.push(&text[from..a]);
        from = b;
    }
    pieces.push(&text[from..]);
    super::splice(&pieces)
}

/// `body` without the block parameters it starts with (`|a, b|` of
/// Ruby's `do |a, b| … end`), and the parameters' names.
fn without_params(body: &[u8]) -> (&[u8], Vec<&[u8]>) {
    let t = body.trim_ascii_start();
    let Some(r) = t.strip_prefix(b"|") else {
        return (body, Vec::new());
    };
    match r.iter().position(|&b| b == b'|' || b == b'\n') {
        Some(p) if r[p] == b'|' => {
            let names = r[..p]
                .split(|&b| b == b',')
                .map(<[u8]>::trim_ascii)
                .filter(|n| !n.is_empty() && n.iter().all(|&b| ddmin::is_word(b)))
                .collect();
            (&r[p + 1..], names)
        }
        _ => (body, Vec::new()),
    }
}

/// The candidates for each keyword block (see [`blocks`]), in order of
/// the opener, outer first: the block with its statement (`local function
/// f() … end`); the block alone; each body in its place (`if c; then x;
/// fi` → ` x; `); each body for the statement around the block (`s.map do
/// |l| f l end` → ` f l `, block parameters left out, then also replaced
/// by `0`: ` f 0 `); the condition and first body without their keywords (`
/// c; x; `). After a success the blocks are found again and the walk goes
/// on from the same block index. `text` must be known interesting.
pub fn delete_keyword_blocks(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, blocks, |cur, b| {
        let mut cands = Vec::with_capacity(b.bodies.len() + 3);
        if b.stmt < b.start {
            cands.push(without(cur, &[(b.stmt, b.end)]));
        }
        cands.push(without(cur, &[(b.start, b.end)]));
        // With the comma that joins it to the expression before or after
        // (Erlang's `f(), case X of … end, g()`), which alone it leaves
        // dangling.
        let before = cur[..b.start].trim_ascii_end();
        if before.ends_with(b",") {
            cands.push(without(cur, &[(before.len() - 1, b.end)]));
        }
        let after = cur[b.end..].trim_ascii_start();
        if after.starts_with(b",") {
            cands.push(without(cur, &[(b.start, cur.len() - after.len() + 1)]));
        }
        for &(s, e) in &b.bodies {
            let body = without_params(&cur[s..e]).0;
            cands.push(super::splice(&[&cur[..b.start], body, &cur[b.end..]]));
        }
        // The statement around the block replaced by a body (`s.map do
        // |l| f l end` → `f l`), the block's parameters (`|l|`) left out.
        if b.stmt < b.start {
            for &(s, e) in &b.bodies {
                let (body, params) = without_params(&cur[s..e]);
                cands.push(super::splice(&[&cur[..b.stmt], body, &cur[b.end..]]));
                // The parameters, no longer bound, as the constant `0`.
                if !params.is_empty() {
                    let zeros = vec![&b"0"[..]; params.len()];
                    let body = super::calls::substitute(body, &params, &zeros);
                    cands.push(super::splice(&[&cur[..b.stmt], &body, &cur[b.end..]]));
                }
            }
        }
        if !b.keywords.is_empty() {
            cands.push(without(cur, &b.keywords));
        }
        cands
    })
}

#[cfg(test)]
mod tests;
