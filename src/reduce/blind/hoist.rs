//! Hoisting without a grammar: a bracket pair, with the name right
//! before it (a call `f(a, g(b))`, an index `t[i]`), replaced by one of
//! its parts (`g(b)`, `i`), or an object by one of its values (`{"":
//! 5e305}` → `5e305`). This is Perses' replacement of a node by a
//! compatible descendant, guessed from brackets and separators: deletion
//! alone cannot get there, since the name, the brackets and the other
//! parts must go in one step.

use super::super::{ddmin, ddmin::is_word, Tester};
use super::pairs;
use std::collections::HashSet;
use std::rc::Rc;

/// The parts of the pair `o..=c` of `text`: the spans between its
/// top-level separators (`,`, `:`, `;`, `=`, `=>`; brackets nested
/// inside hide theirs), trimmed of blanks, empty ones left out.
///
/// ```
/// use grammar_min::reduce::blind::hoist::parts;
/// let t = b"f(a, g(b, c); x = {y: 1})";
/// let got: Vec<&[u8]> = parts(t, 1, t.len() - 1).iter().map(|&(a, b)| &t[a..b]).collect();
/// assert_eq!(got, [&b"a"[..], b"g(b, c)", b"x", b"{y: 1}"]);
/// let t = b"{k => v, _ => w}";
/// let got: Vec<&[u8]> = parts(t, 0, t.len() - 1).iter().map(|&(a, b)| &t[a..b]).collect();
/// assert_eq!(got, [&b"k"[..], b"v", b"_", b"w"]);
/// ```
pub fn parts(text: &[u8], o: usize, c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = o + 1;
    let mut push = |a: usize, b: usize| {
        let s = &text[a..b];
        let lead = s.len() - s.trim_ascii_start().len();
        let trail = s.len() - s.trim_ascii_end().len();
        if a + lead < b - trail {
            out.push((a + lead, b - trail));
        }
    };
    for (i, b) in super::outside_brackets(&text[o + 1..c]) {
        if matches!(b, b',' | b':' | b';' | b'=') {
            push(from, o + 1 + i);
            from = o + 2 + i;
            // `=>` (an arm, a hash's pair) is one separator.
            if b == b'=' && text.get(from) == Some(&b'>') {
                from += 1;
            }
        }
    }
    push(from, c);
    out
}

/// Where the pair opened at `o` begins when it is replaced by something
/// else: at the word right before a `(` or `[` (the name of a call `f(…)`
/// or an indexed `t[…]`) and the receiver that name follows (`self.e.` of
/// `self.e.t(order)`: a method call goes whole), else at `o`.
pub(super) fn head(text: &[u8], o: usize) -> usize {
    let mut head = o;
    if text[o] != b'{' {
        while head > 0 && ddmin::is_word(text[head - 1]) {
            head -= 1;
        }
    }
    if head < o {
        head = super::calls::receiver_start(text, head);
    }
    head
}

/// The most parts of one pair tried: a long list whose elements all
/// matter would otherwise cost a run per element (`[1, 2, …]`, kept by
/// [`super::delete_elements`]).
const MAX_PARTS: usize = 8;

/// For each bracket pair with something in it, the pair emptied
/// (`f()`, `{}`), then one candidate per part (see [`parts`]), the 8
/// shortest (`MAX_PARTS`), shortest first: the pair, with the word right
/// before a `(` or `[` (`f(…)`, `t[…]`), replaced by the part. A pair with no such word and
/// one part is skipped: that is the pair pass's bracket deletion. Pairs
/// in order of their opener, outer first; after a success the pairs are
/// found again and the walk goes on from the same index. `text` must be
/// known interesting.
pub fn hoist_parts(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, pairs_and_blocks, |cur, it| {
        let (o, c) = (it.o, it.c);
        let head = it.lead.unwrap_or_else(|| head(cur, o));
        let mut ps = parts(cur, o, c);
        // The pair emptied, its brackets kept (`{"": ""}` → `{}`): the
        // same kind of value, most often still valid.
        let mut out: Vec<Vec<u8>> = Vec::with_capacity(MAX_PARTS + 1);
        if !ps.is_empty() {
            out.push([&cur[..=o], &cur[c..]].concat());
        }
        if head == o && ps.len() < 2 && it.stmt.is_none() {
            return out;
        }
        ps.sort_by_key(|&(a, b)| b - a);
        let (head, end, tail) = match it.stmt {
            Some((s, e)) => (s, e + 1, statement_end(cur, e + 1)),
            // A block after its head (`if (x) {…}`, `match (v) {k =>
            // w}`): a statement ends as one unless an operand ends there.
            None if it.lead.is_some() && !cur[c + 1..].trim_ascii_start().starts_with(b")") => {
                (head, c + 1, statement_end(cur, c + 1))
            }
            None => (head, c + 1, &b""[..]),
        };
        out.extend(
            ps.iter()
                .take(MAX_PARTS)
                .map(|&(a, b)| super::splice(&[&cur[..head], &cur[a..b], tail, &cur[end..]])),
        );
        // A value indexed or called right away (`{"g": l}[k]`, `f(a)(b)`)
        // also goes whole: its part alone is often the only valid value
        // (`l[k]` and `{"g": l}` each fail where `l` does).
        if it.stmt.is_none() && it.chain > end {
            let chain = it.chain;
            out.extend(
                ps.iter()
                    .take(MAX_PARTS)
                    .map(|&(a, b)| super::splice(&[&cur[..head], &cur[a..b], &cur[chain..]])),
            );
        }
        out
    })
}

/// A bracket pair as [`hoist_parts`] sees it.
struct Item {
    /// The opener.
    o: usize,
    /// The closer.
    c: usize,
    /// For a `(…)` that heads a compound statement ([`compound`]), where
    /// the statement starts and where its block closes.
    stmt: Option<(usize, usize)>,
    /// For that statement's block, where the statement starts.
    lead: Option<usize>,
    /// Past the `[…]` and `(…)` pairs that follow the closer with no
    /// blank between (`[k](x)` of `{…}[k](x)`); `c + 1` if none does.
    chain: usize,
}

/// [`pairs`] as [`Item`]s: each compound statement found once per walk
/// step, not once per pair.
fn pairs_and_blocks(text: &[u8]) -> Vec<Item> {
    let ps = pairs(text);
    let mut out: Vec<Item> = ps
        .iter()
        .map(|&(o, c)| Item {
            o,
            c,
            stmt: compound(text, o, super::block_after(text, &ps, c + 1).map(|b| b.1)),
            lead: None,
            chain: c + 1,
        })
        .collect();
    // Each pair's postfix chain, from the pairs opened right after it
    // (`ps` is sorted by opener), innermost last.
    for k in (0..out.len()).rev() {
        let at = out[k].c + 1;
        if matches!(text.get(at), Some(b'[' | b'(')) {
            if let Ok(j) = out.binary_search_by_key(&at, |it| it.o) {
                out[k].chain = out[j].chain;
            }
        }
    }
    // Each compound's block (the pair opened right after its head; `ps`
    // is sorted by opener) knows where the compound starts.
    for k in 0..out.len() {
        if let Some((w, _)) = out[k].stmt {
            let b = super::solid_from(text, out[k].c + 1);
            if let Ok(j) = out.binary_search_by_key(&b, |it| it.o) {
                out[j].lead = Some(w);
            }
        }
    }
    out
}

/// For a `(` pair opened at `o` after a word and followed by a brace
/// block closed at `block` (`if (x) {…}`, `for(sort @a){…}`), where that
/// word starts and where the block closes. Such a pair is a compound
/// statement's head: replacing the head by one of its parts with the
/// block left behind (`x {…}`) is seldom valid, where the whole statement
/// replaced by its head's expression (`x;`) most often is.
fn compound(text: &[u8], o: usize, block: Option<usize>) -> Option<(usize, usize)> {
    let before = text[..o].trim_ascii_end();
    let word = before.len() - super::word_before(before);
    if text[o] != b'(' || word == before.len() {
        return None;
    }
    Some((word, block?))
}

/// What ends a statement put where a compound statement ended at `end`:
/// `;` in a text that uses `;` (C, Perl, JavaScript), unless one already
/// follows or nothing does; else nothing.
fn statement_end(text: &[u8], end: usize) -> &'static [u8] {
    let rest = text[end..].trim_ascii_start();
    if text.contains(&b';') && !rest.is_empty() && rest[0] != b';' {
        b";"
    } else {
        b""
    }
}

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
///   replaced by `0`, then by `1`, then by each of the text's first
///   string literals elsewhere (the first 3 distinct ones);
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
    let mut out: Vec<Valued> = pairs(text)
        .into_iter()
        .filter_map(|(o, c)| {
            let head = head(text, o);
            let after = text[c + 1..].trim_ascii_start();
            (head < o
                && super::calls::is_name(&text[head..o])
                && !matches!(after.first(), Some(b'{' | b':')))
            .then(|| (head, c + 1, FOR_CALLS, lits.clone()))
        })
        .collect();
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
            .map(|(s, e)| (s, e, FOR_CALLS, none.clone())),
    );
    out.extend(name_uses(text).into_iter().map(|(s, e)| {
        let arg = matches!(text[..s].trim_ascii_end().last(), Some(b'(' | b',' | b'='));
        (s, e, if arg { FOR_ARGS } else { FOR_NAMES }, none.clone())
    }));
    out.sort_unstable_by_key(|v| v.0);
    out
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

/// The chains of names with a `.` (`@k.e.size`, `self.total`) that stand
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
        let starts = (is_word(text[i]) && !text[i].is_ascii_digit()) || text[i] == b'@';
        if !starts || (i > 0 && (is_word(text[i - 1]) || b".@$".contains(&text[i - 1]))) {
            i += 1;
            continue;
        }
        let mut e = i + 1;
        let mut dots = 0;
        loop {
            while e < text.len() && is_word(text[e]) {
                e += 1;
            }
            if text.get(e) == Some(&b'.') && text.get(e + 1).is_some_and(|&b| is_word(b)) {
                dots += 1;
                e += 1;
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
        if dots > 0 && lead && !trails {
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
    use super::super::tests::{numbers, run_pass};
    use super::*;

    #[test]
    fn a_value_leaves_its_object_and_an_argument_its_call() {
        // Interesting iff the text is JSON holding 5e305 somewhere.
        let p = |c: &[u8]| {
            let v: Result<serde_json::Value, _> = serde_json::from_slice(c);
            v.is_ok() && c.windows(5).any(|w| w == b"5e305")
        };
        assert_eq!(run_pass(hoist_parts, br#"{"":5e305}"#, p).0, b"5e305");
        // Interesting iff the text is a JSON list of one object.
        let p = |c: &[u8]| {
            let v: Result<serde_json::Value, _> = serde_json::from_slice(c);
            v.is_ok_and(|v| {
                v.as_array()
                    .is_some_and(|a| a.len() == 1 && a[0].is_object())
            })
        };
        assert_eq!(run_pass(hoist_parts, br#"[{"":{"a": 1}}]"#, p).0, b"[{}]");
        // Interesting iff `g(` is there and brackets balance.
        let p = |c: &[u8]| {
            let n = |b: u8| c.iter().filter(|&&x| x == b).count();
            n(b'(') == n(b')') && c.windows(2).any(|w| w == b"g(")
        };
        assert_eq!(run_pass(hoist_parts, b"x = f(a, g(b));", p).0, b"x = g();");
        // Interesting iff `order` is used, not as a field: a method call
        // goes with its receiver (`self.e.order` would be a field).
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.contains("order") && !s.contains(".order") && s.ends_with(';')
        };
        let input = b"x = self.e.t(order);";
        assert_eq!(run_pass(hoist_parts, input, p).0, b"x = order;");
    }

    #[test]
    fn a_value_indexed_right_away_goes_with_its_index() {
        // Interesting iff `s` is `l`: `l[c["e"]]` and `{"g":l}` are other
        // values, only the pair with its index replaced by `l` keeps it.
        let p = |c: &[u8]| c == b"s=l;s()";
        let input = br#"s={"g":l}[c["e"]];s()"#;
        assert_eq!(run_pass(hoist_parts, input, p).0, b"s=l;s()");
        // A call's result called: `f(a)(b)` becomes `a` too.
        let p = |c: &[u8]| c == b"x=a;";
        assert_eq!(run_pass(hoist_parts, b"x=f(a)(b);", p).0, b"x=a;");
    }

    #[test]
    fn a_compound_statement_becomes_its_head() {
        // Interesting iff `@{$h{s}}` is evaluated as a statement of its
        // own or as a loop's list: `sort@{$h{s}}{}` (the head replaced,
        // the block left behind) is not.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            (s.contains("for(sort@{$h{s}}){") || s.contains("sort@{$h{s}};")) && s.ends_with("1;")
        };
        let input = b"for(sort@{$h{s}}){print;}1;";
        assert_eq!(run_pass(hoist_parts, input, p).0, b"sort@{$h{s}};1;");
        // Nothing follows: no `;` added.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.starts_with("x;") && s.contains("@{$h{s}}") && !s.contains("()")
        };
        assert_eq!(
            run_pass(hoist_parts, b"x;if (@{$h{s}}) {y}", p).0,
            b"x;@{$h{s}}"
        );
    }

    #[test]
    fn a_compound_expression_becomes_one_of_its_arms() {
        // PHP: interesting iff `new D` is passed to `r` (`match` or not);
        // `r(match(true){default>new D})` is a syntax error.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.starts_with("r(") && s.contains("new D") && !s.contains("default>")
        };
        let input = b"r(match(true){default=>new D});";
        assert_eq!(run_pass(hoist_parts, input, p).0, b"r(new D);");
        // A statement's body part becomes the statement, with its `;`.
        let p = |c: &[u8]| c.starts_with(b"f();") && c.ends_with(b"g();");
        let input = b"if(x){f();}g();";
        assert_eq!(run_pass(hoist_parts, input, p).0, b"f();g();");
    }

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

    #[test]
    fn a_long_list_costs_a_few_runs() {
        // Every element matters: the list emptied and the 8 shortest
        // elements are tried, not all 100.
        let input = format!("[{}]", numbers(100, ","));
        let (out, runs) = run_pass(hoist_parts, input.as_bytes(), |c| c.len() == input.len());
        assert_eq!(out, input.as_bytes());
        assert_eq!(runs, MAX_PARTS as u64 + 1);
    }
}
