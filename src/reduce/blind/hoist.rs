//! Hoisting without a grammar: a bracket pair, with the name right
//! before it (a call `f(a, g(b))`, an index `t[i]`), replaced by one of
//! its parts (`g(b)`, `i`), or an object by one of its values (`{"":
//! 5e305}` → `5e305`). This is Perses' replacement of a node by a
//! compatible descendant, guessed from brackets and separators: deletion
//! alone cannot get there, since the name, the brackets and the other
//! parts must go in one step.

use super::super::{ddmin, Tester};
use super::pairs;

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

/// The elements of the S-expression `o..=c` of `text` after its head
/// (`(* (price e) qty)` → `(price e)`, `qty`): the spans between blanks
/// outside nested brackets and string literals.
///
/// ```
/// use grammar_min::reduce::blind::hoist::elements;
/// let t = br#"(f (g a) "x y" 'b)"#;
/// let got: Vec<&[u8]> = elements(t, 0, t.len() - 1).iter().map(|&(a, b)| &t[a..b]).collect();
/// assert_eq!(got, [&b"(g a)"[..], br#""x y""#, b"'b"]);
/// ```
pub fn elements(text: &[u8], o: usize, c: usize) -> Vec<(usize, usize)> {
    all_elements(text, o, c).into_iter().skip(1).collect()
}

/// The elements of the list `o..=c` of `text`, its head included: the
/// spans between blanks outside nested brackets and string literals.
pub(super) fn all_elements(text: &[u8], o: usize, c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut depth = 0usize;
    let mut i = o + 1;
    while i < c {
        let b = text[i];
        if depth == 0 && b.is_ascii_whitespace() {
            out.extend(start.take().map(|s| (s, i)));
            i += 1;
            continue;
        }
        start.get_or_insert(i);
        match super::literal_end(text, i) {
            Some(e) if e < c => i = e,
            _ => match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        i += 1;
    }
    out.extend(start.map(|s| (s, c)));
    out
}

/// Is `text` made of S-expressions (Lisp, Scheme, SMT-LIB, WebAssembly's
/// text format): does it open a `(` and hold no word outside brackets,
/// but on comment lines (starting with `;` or `#`)?
pub fn sexprs(text: &[u8]) -> bool {
    text.contains(&b'(')
        && super::outside_brackets(text).all(|(i, b)| {
            !ddmin::is_word(b)
                || matches!(
                    text[super::line_start(text, i)..]
                        .trim_ascii_start()
                        .first(),
                    Some(b';' | b'#')
                )
        })
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
/// before a `(` or `[` (`f(…)`, `t[…]`), replaced by the part. In a text
/// of S-expressions ([`sexprs`]) a `(…)` without separators has its
/// [`elements`] after the head as parts (`(* (price e) qty)` → `qty`).
/// A pair with no such word and
/// one part is skipped: that is the pair pass's bracket deletion. Pairs
/// in order of their opener, outer first; after a success the pairs are
/// found again and the walk goes on from the same index. `text` must be
/// known interesting.
pub fn hoist_parts(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    // Decided once: a part put in a pair's place keeps the text's kind.
    let lisp = sexprs(text);
    super::walk(text, tester, pairs_and_blocks, |cur, it| {
        let (o, c) = (it.o, it.c);
        let head = it.lead.unwrap_or_else(|| head(cur, o));
        let mut ps = parts(cur, o, c);
        // An S-expression's head is its operator: its only element
        // replacing it is no mere bracket deletion.
        let sexpr = lisp && cur[o] == b'(' && ps.len() < 2;
        if sexpr {
            ps = elements(cur, o, c);
        }
        // The pair emptied, its brackets kept (`{"": ""}` → `{}`): the
        // same kind of value, most often still valid.
        let mut out: Vec<Vec<u8>> = Vec::with_capacity(MAX_PARTS + 1);
        if !ps.is_empty() {
            out.push([&cur[..=o], &cur[c..]].concat());
        }
        if head == o && ps.len() < 2 && it.stmt.is_none() && !sexpr {
            // A middle link of a nest emptied is the nest cut at its depth,
            // which the pair pass's nest deletion has tried many levels at
            // a time: one run per level of a 3,000-level nest for nothing.
            // The outermost pair and the innermost (holding no pair) are
            // still tried.
            if it.link {
                out.clear();
            }
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
    /// A middle link of a nest (`[[[…]]]`): the pair holding it holds only
    /// it (and blanks), and it holds only one pair.
    link: bool,
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
            link: false,
        })
        .collect();
    // Middle links: a pair's only content is a pair, and so is its
    // holder's (blanks aside).
    let pair_at = |o: usize, c: usize| {
        ps.binary_search_by_key(&o, |p| p.0)
            .is_ok_and(|j| ps[j].1 == c)
    };
    for it in &mut out {
        // The content's first and last solid bytes; the holder's opener
        // and closer are the solid bytes right outside.
        let first = super::solid_from(text, it.o + 1);
        let last = text[..it.c].trim_ascii_end().len();
        let holds_one = first < it.c && pair_at(first, last - 1);
        let before = text[..it.o].trim_ascii_end().len();
        it.link = holds_one && before > 0 && pair_at(before - 1, super::solid_from(text, it.c + 1));
    }
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

#[cfg(test)]
mod tests {
    use super::super::tests::{balanced, numbers, run_pass};
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
    fn an_s_expression_becomes_one_of_its_elements() {
        // Interesting iff `"39.90"` and `q` are multiplied inside
        // `line-total`.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.starts_with("(define (line-total l)")
                && ["(*", "\"39.90\"", " q)"].iter().all(|w| s.contains(w))
                && balanced(c)
        };
        let input = b"(define (line-total l) (let ((q 2)) (* (car (cdr \"39.90\")) q)))";
        let (out, _) = run_pass(hoist_parts, input, p);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "(define (line-total l) (* \"39.90\" q))"
        );
        assert!(sexprs(b";; x\n(define x 1)\n#lang\n'(a b)"));
        // C has words outside brackets; an expression in C keeps its
        // parentheses' contents whole: only `x = ();` is tried.
        assert!(!sexprs(b"int f(int a) { return (a + b); }"));
        let p = |c: &[u8]| c.windows(2).any(|w| w == b"+ ") && balanced(c);
        assert_eq!(
            run_pass(hoist_parts, b"x = (a + b);", p),
            (b"x = (a + b);".to_vec(), 1)
        );
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

    #[test]
    fn a_deep_nest_costs_its_two_ends() {
        // A 2,000-level nest that fails only whole: the outermost pair
        // and the innermost (which holds no pair) are emptied, not every
        // level.
        let input = format!("a = {}1{}", "[ ".repeat(2000), " ]".repeat(2000));
        let (out, runs) = run_pass(hoist_parts, input.as_bytes(), |c| {
            c.contains(&b'1') && c.iter().filter(|&&b| b == b'[').count() == 2000
        });
        assert!(out == input.as_bytes());
        assert_eq!(runs, 2);
    }
}
