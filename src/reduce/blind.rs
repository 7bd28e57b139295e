//! Grammar-blind reduction: what `auto` does without a grammar. Bracket
//! pairs, list elements, keyword blocks ([`keywords`]), arguments
//! ([`args`]), indented blocks ([`indent`]), lines, repeated names,
//! tokens and bytes, repeated to a joint fixpoint, the way C-Reduce's
//! balanced-pair, parameter, line, renaming and token passes take turns.
//!
//! Plain ddmin over tokens cannot remove a pair of brackets (each bracket
//! alone breaks the text), nor a brace block with its header (`f(){...}`)
//! unless ddmin's chunks happen to align with it; [`delete_pairs`] offers
//! both as single candidates.

pub mod args;
pub mod calls;
pub mod hoist;
pub mod indent;
pub mod inline;
pub mod keywords;
pub mod lists;
pub mod tags;

pub use lists::delete_elements;
mod nest;

use super::ddmin;
use super::Tester;
use crate::oracle::Outcome;

/// The matched bracket pairs of `text` (`()`, `[]`, `{}`), as the byte
/// positions of the opener and the closer, in order of the opener. A
/// closer that does not match the innermost open bracket is skipped, so
/// an unbalanced text still yields its balanced parts. Brackets inside
/// quotes are counted too: this is a heuristic, and the oracle judges.
///
/// ```
/// use grammar_min::reduce::blind::pairs;
/// assert_eq!(pairs(b"f(a[1]) {x}"), [(1, 6), (3, 5), (8, 10)]);
/// assert_eq!(pairs(b"(]"), []);
/// ```
pub fn pairs(text: &[u8]) -> Vec<(usize, usize)> {
    pairs_with_commas(text)
        .into_iter()
        .map(|(o, c, _)| (o, c))
        .collect()
}

/// The bytes of `text` outside brackets, with their positions, brackets
/// left out: an opener starts a level, a closer ends one (a closer with
/// none open is ignored), so the `,` of `f(a, b)` is inside and the `;`
/// after it outside. Quotes are not counted, as in [`pairs`].
pub(super) fn outside_brackets(text: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut depth = 0usize;
    text.iter().enumerate().filter_map(move |(i, &b)| {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => return Some((i, b)),
            _ => {}
        }
        None
    })
}

/// `pieces` joined, with a blank where a seam would fuse two words into
/// one (`INSERT INTO r(a)VALUES` without `(a)` is `r VALUES`, not
/// `rVALUES`, a new name). The sweeps delete blanks like anything else.
///
/// ```
/// use grammar_min::reduce::blind::splice;
/// assert_eq!(splice(&[b"r", b"VALUES(1)"]), b"r VALUES(1)");
/// assert_eq!(splice(&[b"f", b"(1)", b""]), b"f(1)");
/// ```
pub fn splice(pieces: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pieces.iter().map(|p| p.len() + 1).sum());
    for p in pieces {
        if let (Some(&a), Some(&b)) = (out.last(), p.first()) {
            if ddmin::is_word(a) && ddmin::is_word(b) {
                out.push(b' ');
            }
        }
        out.extend_from_slice(p);
    }
    out
}

/// Where the definition or statement that a brace block ends begins: after
/// the last `;`, `}` or `{` before `open`, or at the start of its line if
/// that is later (`int f(int a) {...}`, `while (x) {...}`, `proc p {a}
/// {...}`), skipping blanks.
pub(super) fn header_start(text: &[u8], open: usize) -> usize {
    let mut s = text[..open]
        .iter()
        .rposition(|&b| matches!(b, b';' | b'}' | b'{' | b'\n'))
        .map_or(0, |p| p + 1);
    while s < open && text[s].is_ascii_whitespace() {
        s += 1;
    }
    s
}

/// One candidate per way to drop a bracket pair: for a brace block, the
/// block with its header (back to the previous `;`, `}`, `{` or line
/// start: `int f(int a) {...}`); the pair with its
/// contents; for a brace block, its header and braces, keeping the
/// contents (`if (x) {y}` → `y`, `o.m = function () {f()}` → `f()`:
/// the body run where the block stood); the two brackets alone; before
/// the brackets alone of a list `[…]` that holds one pair, that one emptied
/// (`[{"a": …}]` → `[{}]`: lifted first, the value changes its kind, and
/// `{"": {}}` can be where the program still fails). Pairs are tried in
/// order of their
/// opener (outer ones first, so an inner pair goes with its outer one at
/// no extra cost), each way once per call; after a success the pairs are
/// found again and the walk goes on from the same pair index. A pair
/// that heads an immediate nest of at least four levels (`[[[[…]]]]`)
/// first goes through `nest::shrink_nest`, and its levels are then passed
/// over together. `text` must be known interesting.
pub fn delete_pairs(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    let mut k = 0;
    // Found again only after a success: the scan is linear in the text.
    let mut ps = pairs(&cur);
    // The nest whose enclosing pairs were tried last (once per nest).
    let mut hoisted = None;
    loop {
        let Some(&(o, c)) = ps.get(k) else {
            return cur;
        };
        // An immediate nest from this pair down (`[[[[…]]]]`) first leaves
        // the pairs around it, then loses levels many at a time; its
        // levels then count as tried.
        let nest = nest::nest_from(&cur, &ps, k);
        if nest.len() >= nest::NEST {
            if hoisted != Some(k) {
                hoisted = Some(k);
                if let Some((next, j)) = nest::hoist_nest(&cur, &ps, k, tester) {
                    cur = next;
                    ps = pairs(&cur);
                    (k, hoisted) = (j, Some(j));
                    continue;
                }
            }
            if let Some(next) = nest::shrink_nest(&cur, &nest, tester) {
                cur = next;
                ps = pairs(&cur);
                continue;
            }
        }
        let cut = |a: usize, b: usize| splice(&[&cur[..a], &cur[b..]]);
        // The brackets from `a` on deleted, their contents kept.
        let lift = |a: usize| splice(&[&cur[..a], &cur[o + 1..c], &cur[c + 1..]]);
        let header = (cur[o] == b'{')
            .then(|| header_start(&cur, o))
            .filter(|&h| h < o);
        let mut cands: Vec<Vec<u8>> = Vec::with_capacity(4);
        cands.extend(header.map(|h| cut(h, c + 1)));
        cands.push(cut(o, c + 1));
        // A list holding one non-empty pair (`[{"a": …}]`): that one
        // emptied first, so the brackets stay if the value's kind matters
        // (lifted first, `{"": {}}` can be the end, not `[{}]`). Not for
        // `(…)`, `{…}`: in code that costs a run per pair per round.
        let body = &cur[o + 1..c];
        let lead = body.len() - body.trim_ascii_start().len();
        let trail = body.len() - body.trim_ascii_end().len();
        let inner = ps
            .iter()
            .copied()
            .filter(|_| cur[o] == b'[')
            .find(|&(a, b)| a == o + 1 + lead && b + 1 + trail == c && b > a + 1);
        cands.extend(inner.map(|(a, b)| [&cur[..=a], &cur[b..]].concat()));
        cands.extend(header.map(lift));
        cands.push(lift(o));
        match tester.first_interesting(cands.into_iter().map(|c| ((), c))) {
            Some(((), next)) => {
                cur = next;
                ps = pairs(&cur);
            }
            None if tester.stopped() => return cur,
            None if nest.len() >= nest::NEST => k += nest.len(),
            None => k += 1,
        }
    }
}

/// The walk of the structural passes ([`keywords`], [`indent`],
/// [`hoist`]): the items `find` sees in the text, in order, each offering
/// its candidates (`cands`, most reductive first); the first interesting
/// one is taken, the items are found again and the walk goes on from the
/// same index (the items before it are unchanged). `text` must be known
/// interesting.
pub(super) fn walk<T>(
    text: &[u8],
    tester: &mut Tester<'_>,
    find: impl Fn(&[u8]) -> Vec<T>,
    mut cands: impl FnMut(&[u8], &T) -> Vec<Vec<u8>>,
) -> Vec<u8> {
    let mut cur = text.to_vec();
    let mut items = find(&cur);
    let mut k = 0;
    while let Some(item) = items.get(k) {
        if tester.stopped() {
            break;
        }
        let cs = cands(&cur, item);
        match tester.first_interesting(cs.into_iter().map(|c| ((), c))) {
            Some(((), next)) => {
                cur = next;
                items = find(&cur);
            }
            None => k += 1,
        }
    }
    cur
}

/// [`pairs`], each with its top-level commas (those not inside a nested
/// pair), in one pass: a comma belongs to the innermost open bracket.
pub(super) fn pairs_with_commas(text: &[u8]) -> Vec<(usize, usize, Vec<usize>)> {
    let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut out = Vec::new();
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => open.push((i, Vec::new())),
            b',' => {
                if let Some((_, cs)) = open.last_mut() {
                    cs.push(i);
                }
            }
            b')' | b']' | b'}' => {
                let want = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if open.last().is_some_and(|(o, _)| text[*o] == want) {
                    if let Some((o, cs)) = open.pop() {
                        out.push((o, i, cs));
                    }
                }
            }
            _ => {}
        }
    }
    out.sort_unstable_by_key(|p| p.0);
    out
}

/// The grammar-blind pipeline: the empty text first (one run), blanks
/// squeezed, then [`delete_elements`], [`delete_pairs`],
/// [`keywords::delete_keyword_blocks`], [`args::delete_arguments`],
/// [`indent::delete_blocks`], [`ddmin::chunk_sweep_from_end`] over lines
/// and over [`lists::statements`],
/// [`super::words::shorten_repeated_words`] (no word is taken for a
/// keyword: a keyword costs a failing run per character; a word that
/// kept its spelling once is not tried again), and
/// [`ddmin::chunk_sweep_from_end`] over tokens and bytes (from the second
/// round on [`ddmin::delete_sweep_from_end`], without chunks), round
/// after round until a round changes nothing (a
/// token deletion can free a line, a pair deletion a token); at that
/// fixpoint [`inline::inline_definitions`],
/// [`lists::delete_list_elements`], [`args::delete_columns`],
/// [`hoist::hoist_parts`] and [`ddmin::delete_adjacent_tokens`],
/// and more rounds if they changed anything. The result is
/// 1-minimal with respect to deleting one token and one byte, as
/// [`super::polish`]'s with no keywords.
pub(super) fn blind_into(
    cur: &mut Vec<u8>,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) {
    if !cur.is_empty() && tester.test(b"") == Outcome::Interesting {
        tester.accept(b"");
        cur.clear();
        passes.push(("empty", 0, tester.stats().tests));
        return;
    }
    super::squeeze_blanks_once(cur, tester, passes);
    // Whether this is the first round.
    let mut first = true;
    let mut kept_words: Vec<Vec<u8>> = Vec::new();
    loop {
        let before = cur.clone();
        *cur = delete_elements(cur, tester);
        passes.push(("delete-elements", cur.len(), tester.stats().tests));
        *cur = delete_pairs(cur, tester);
        passes.push(("delete-pairs", cur.len(), tester.stats().tests));
        *cur = tags::delete_tags(cur, tester);
        passes.push(("delete-tags", cur.len(), tester.stats().tests));
        *cur = keywords::delete_keyword_blocks(cur, tester);
        passes.push(("delete-keyword-blocks", cur.len(), tester.stats().tests));
        *cur = args::delete_arguments(cur, tester);
        passes.push(("delete-arguments", cur.len(), tester.stats().tests));
        *cur = indent::delete_blocks(cur, tester);
        passes.push(("delete-blocks", cur.len(), tester.stats().tests));
        let ls = ddmin::lines(cur);
        if ls.len() > 2 {
            *cur = ddmin::chunk_sweep_from_end(ls, tester).concat();
            passes.push(("sweep-lines", cur.len(), tester.stats().tests));
        }
        let ss = lists::statements(cur);
        if ss.len() > 2 {
            *cur = ddmin::chunk_sweep_from_end(ss, tester).concat();
            passes.push(("sweep-statements", cur.len(), tester.stats().tests));
        }
        // A name defined and used is shortened in every place at once.
        // A word that kept its spelling once (a key the program looks up,
        // a keyword) is not tried again in later rounds.
        let tried = super::words::repeated_words(cur, &kept_words);
        *cur = super::words::shorten_repeated_words(cur, &kept_words, tester);
        let now = ddmin::tokens(cur);
        kept_words.extend(tried.into_iter().filter(|w| now.contains(&w.as_slice())));
        kept_words.sort_unstable();
        passes.push(("shorten-words", cur.len(), tester.stats().tests));
        // After the first round the text was 1-minimal before the
        // edits of one round: runs of tokens or bytes seldom go, single
        // ones are the proof.
        let sweep = if first {
            ddmin::chunk_sweep_from_end
        } else {
            ddmin::delete_sweep_from_end
        };
        *cur = sweep(ddmin::tokens(cur), tester).concat();
        passes.push(("sweep-tokens", cur.len(), tester.stats().tests));
        *cur = sweep(cur.chunks(1).collect(), tester).concat();
        passes.push(("sweep-bytes", cur.len(), tester.stats().tests));
        first = false;
        if tester.stopped() {
            return;
        }
        if *cur == before {
            // At the fixpoint: definitions inlined, lists outside
            // brackets, columns, pairs emptied or replaced by their parts,
            // two or three tokens at a time; another round if any of
            // them changed the text.
            *cur = inline::inline_definitions(cur, tester);
            passes.push(("inline-definitions", cur.len(), tester.stats().tests));
            *cur = calls::inline_functions(cur, tester);
            passes.push(("inline-functions", cur.len(), tester.stats().tests));
            *cur = lists::delete_list_elements(cur, tester);
            passes.push(("delete-list-elements", cur.len(), tester.stats().tests));
            *cur = args::delete_columns(cur, tester);
            passes.push(("delete-columns", cur.len(), tester.stats().tests));
            *cur = hoist::hoist_parts(cur, tester);
            passes.push(("hoist-parts", cur.len(), tester.stats().tests));
            *cur = ddmin::delete_adjacent_tokens(cur, tester);
            passes.push(("delete-adjacent-tokens", cur.len(), tester.stats().tests));
            if *cur == before || tester.stopped() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::FnOracle;
    use crate::reduce::{reduce_text, Strategy};

    /// Runs `pass` on `input`, known interesting, with an oracle that
    /// calls a candidate interesting iff `wanted`: the output and the
    /// number of oracle runs.
    pub(super) fn run_pass(
        pass: fn(&[u8], &mut Tester<'_>) -> Vec<u8>,
        input: &[u8],
        mut wanted: impl FnMut(&[u8]) -> bool,
    ) -> (Vec<u8>, u64) {
        let mut p = |c: &[u8]| outcome(wanted(c));
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        t.seed(input, Outcome::Interesting);
        let out = pass(input, &mut t);
        (out, t.stats().tests)
    }

    /// The numbers from 0 to `n - 1`, joined by `sep`: a long list.
    pub(super) fn numbers(n: usize, sep: &str) -> String {
        (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(sep)
    }

    /// Interesting iff `yes`.
    fn outcome(yes: bool) -> Outcome {
        if yes {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }

    /// Grammar-blind `auto` on `input` with an oracle that calls a
    /// candidate interesting iff `wanted`: the output and the number of
    /// oracle runs.
    fn blind_auto(input: &[u8], mut wanted: impl FnMut(&[u8]) -> bool) -> (Vec<u8>, u64) {
        let mut p = |c: &[u8]| outcome(wanted(c));
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, input, Strategy::Auto, &mut t).unwrap();
        (r.output, t.stats().tests)
    }

    pub(super) fn balanced(c: &[u8]) -> bool {
        let n = |b: u8| c.iter().filter(|&&x| x == b).count();
        pairs(c).len() * 2 == n(b'(') + n(b')') + n(b'[') + n(b']') + n(b'{') + n(b'}')
    }

    /// Interesting iff `needle` occurs and every bracket is paired.
    fn wants(needle: &'static [u8]) -> impl FnMut(&[u8]) -> Outcome {
        move |c: &[u8]| {
            if balanced(c) && c.windows(needle.len()).any(|w| w == needle) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        }
    }

    #[test]
    fn redundant_brackets_go_in_pairs() {
        let input = b"x = f([((1/0))]) + {2};";
        let mut p = wants(b"1/0");
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, input, Strategy::Auto, &mut t).unwrap();
        assert_eq!(r.output, b"1/0");
        // Zeller's ddmin over tokens and bytes cannot drop a pair: each
        // bracket alone unbalances the text.
        let mut p = wants(b"1/0");
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, input, Strategy::Ddmin, &mut t).unwrap();
        assert_eq!(r.output, b"([((1/0))])");
    }

    #[test]
    fn statements_on_one_line_go_whole() {
        // Interesting iff the text is statements from a fixed set, ending
        // in `;`, among them the table `t` and the query.
        let known = [
            &b"CREATE TABLE t(a)"[..],
            b"CREATE TABLE u(b, c)",
            b"INSERT INTO u VALUES(1, 2)",
            b"SELECT a FROM t",
        ];
        let p = |c: &[u8]| {
            let ss: Vec<&[u8]> = c.split(|&b| b == b';').map(<[u8]>::trim_ascii).collect();
            c.ends_with(b";")
                && ss[..ss.len() - 1].iter().all(|s| known.contains(s))
                && ss.contains(&known[0])
                && ss.contains(&known[3])
        };
        let input =
            b"CREATE TABLE u(b, c);CREATE TABLE t(a); INSERT INTO u VALUES(1, 2);SELECT a FROM t;";
        assert_eq!(
            blind_auto(input, p).0,
            b"CREATE TABLE t(a);SELECT a FROM t;"
        );
    }

    #[test]
    fn blind_ignores_a_grammar_that_does_not_parse_the_text() {
        let g = crate::grammar::Grammar::from_json_str(
            r#"{"<start>": ["<d>"], "<d>": ["0", "1"]}"#,
            &Default::default(),
        )
        .unwrap();
        let mut p = wants(b"1/0");
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let input = b"x = ((1/0));";
        assert!(matches!(
            reduce_text(Some(&g), input, Strategy::Auto, &mut t),
            Err(crate::reduce::ReduceError::Unparseable { .. })
        ));
        let r = reduce_text(Some(&g), input, Strategy::Blind, &mut t).unwrap();
        assert_eq!(r.output, b"1/0");
    }

    #[test]
    fn a_brace_block_goes_with_its_header() {
        // Interesting iff the text is function definitions `name(){...}`
        // only and one of them divides by zero.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let defs = s.split_inclusive('}').all(|d| {
                let d = d.trim();
                d.is_empty()
                    || d.split_once("(){").is_some_and(|(name, body)| {
                        !name.is_empty()
                            && name.bytes().all(|b| b.is_ascii_alphabetic())
                            && body.ends_with('}')
                    })
            });
            defs && s.contains("1/0")
        };
        let (out, runs) = run_pass(delete_pairs, b"f(){x}\ng(){1/0}\nh(){y}", p);
        assert_eq!(out, b"\ng(){1/0}\n");
        // Header, pair, brackets for f and h: the header goes first and
        // is kept; g's three ways and its `()` pair fail.
        assert!(runs <= 8, "{runs}");
    }

    #[test]
    fn a_block_body_is_lifted_out_of_its_header() {
        // Interesting iff `boom()` is called outside every brace block.
        let p = |c: &[u8]| {
            let mut depth = 0i32;
            let mut outside = false;
            for (i, &b) in c.iter().enumerate() {
                match b {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ if depth == 0 && c[i..].starts_with(b"boom()") => outside = true,
                    _ => {}
                }
            }
            outside
        };
        let (out, _) = run_pass(delete_pairs, b"o.m=function(){boom()};o.m()", p);
        assert_eq!(out, b"boom();o.m");
    }

    #[test]
    fn top_level_commas_skip_nested_pairs() {
        let t = b"[1,[2,3],{a,b},4]";
        let ps = pairs_with_commas(t);
        assert_eq!(
            ps,
            [(0, 16, vec![2, 8, 14]), (3, 7, vec![5]), (9, 13, vec![11])]
        );
        let plain: Vec<(usize, usize)> = ps.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(plain, pairs(t));
    }

    #[test]
    fn list_elements_go_with_their_comma() {
        // Valid JSON holding the number 3 somewhere.
        let p = |c: &[u8]| {
            let v: Result<serde_json::Value, _> = serde_json::from_slice(c);
            let has = |v: &serde_json::Value| {
                let mut stack = vec![v];
                while let Some(v) = stack.pop() {
                    match v {
                        serde_json::Value::Number(n) if n.as_u64() == Some(3) => return true,
                        serde_json::Value::Array(a) => stack.extend(a),
                        serde_json::Value::Object(o) => stack.extend(o.values()),
                        _ => {}
                    }
                }
                false
            };
            v.is_ok_and(|v| has(&v))
        };
        let input = br#"{"x": [1, {"a": 2}, 3, [4, 5]], "y": {"z": 0}}"#;
        let (out, _) = run_pass(delete_elements, input, p);
        assert_eq!(out, br#"{"x": [ 3]}"#);
        // Pair deletions alone cannot get there: `"y": {}` keeps its key.
        assert!(run_pass(delete_pairs, input, p).0.len() > out.len());
    }

    #[test]
    fn a_long_list_loses_its_elements_in_few_runs() {
        // 50,000 numbers, of which only 777 matters.
        let input = format!("[{}]", numbers(50_000, ", "));
        let p = |c: &[u8]| {
            c.starts_with(b"[")
                && c.ends_with(b"]")
                && c[1..c.len() - 1]
                    .split(|&b| b == b',')
                    .any(|e| e.trim_ascii() == b"777")
        };
        let (out, runs) = blind_auto(input.as_bytes(), p);
        assert_eq!(out, b"[777]");
        assert!(runs < 200, "{runs}");
    }

    #[test]
    fn a_name_goes_with_its_brackets() {
        // Interesting iff `boom` is there and every other word is followed
        // by `()`, and every `(` follows a word: neither `f` nor `()` goes
        // alone, and the aligned chunks of the sweeps split `f()`.
        let mut p = |c: &[u8]| {
            let toks = ddmin::tokens(c);
            let ok = toks.iter().enumerate().all(|(i, t)| match t[0] {
                b'(' => i > 0 && ddmin::is_word(toks[i - 1][0]),
                b if ddmin::is_word(b) => *t == b"boom" || toks[i + 1..].starts_with(&[b"(", b")"]),
                _ => true,
            });
            if ok && balanced(c) && c.windows(4).any(|w| w == b"boom") {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        };
        let mut o = FnOracle::new(&mut p);
        let mut t = Tester::new(&mut o);
        let r = reduce_text(None, b"f() boom", Strategy::Auto, &mut t).unwrap();
        assert_eq!(r.output, b"boom");
        drop(t);
        // The sweeps alone keep it.
        let mut t = Tester::new(&mut o);
        t.seed(b"f() boom", Outcome::Interesting);
        let swept = ddmin::chunk_sweep_from_end(ddmin::tokens(b"f() boom"), &mut t).concat();
        assert_eq!(swept, b"f()boom");
        assert_eq!(ddmin::delete_adjacent_tokens(&swept, &mut t), b"boom");
    }

    #[test]
    fn a_list_keeps_its_brackets_until_its_element_is_small() {
        // Interesting iff the text is JSON whose "s" holds an object among
        // its values, as a list or as an object's values (jq's `.s[]`).
        let p = |c: &[u8]| {
            let v: serde_json::Value = match serde_json::from_slice(c) {
                Ok(v) => v,
                Err(_) => return false,
            };
            let vals: Vec<&serde_json::Value> = match &v["s"] {
                serde_json::Value::Array(a) => a.iter().collect(),
                serde_json::Value::Object(o) => o.values().collect(),
                _ => return false,
            };
            vals.iter().any(|v| v.is_object())
        };
        let input = br#"{"s": [{"name": "gateway", "env": {"LOG": "json"}}], "t": 1}"#;
        // Lifting the list's brackets first gives `{"s":{"":{}}}`, a
        // fixpoint three bytes longer.
        assert_eq!(blind_auto(input, p).0, br#"{"s":[{}]}"#);
    }

    #[test]
    fn the_empty_text_is_tried_first() {
        let (out, runs) = blind_auto(b"anything at all\n", |_| true);
        assert_eq!(out, b"");
        assert_eq!(runs, 2, "the original and the empty text");
    }

    #[test]
    fn header_starts_after_the_previous_statement() {
        assert_eq!(header_start(b"a; int f(int x) {", 16), 3);
        assert_eq!(header_start(b"x}\n  while (y) {", 15), 5);
        assert_eq!(header_start(b"{", 0), 0);
    }
}
