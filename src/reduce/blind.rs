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

pub mod alias;
pub mod args;
pub mod branches;
pub mod calls;
pub mod comments;
pub mod constants;
pub mod hoist;
pub mod indent;
pub mod inline;
pub mod keywords;
pub mod lift;
pub mod lists;
pub mod repeats;
pub mod results;
pub mod scopes;
pub mod tags;

pub use lists::delete_elements;
mod locate;
mod nest;

use locate::{
    block_after, header_start, line_end, line_start, solid_from, statement_start, trailer_end,
    word_before, word_spans,
};

use super::ddmin;
use super::Tester;
use crate::oracle::Outcome;

/// The matched bracket pairs of `text` (`()`, `[]`, `{}`), as the byte
/// positions of the opener and the closer, in order of the opener.
/// Brackets inside a string literal (see [`literal_end`]) are text, not
/// structure. A closer matches the innermost open bracket of its kind:
/// open brackets above that one are strays and stay unpaired (`f(x[)` is
/// the pair `(…)`), and a closer with no opener of its kind is skipped,
/// so an unbalanced text still yields its balanced parts. This is a
/// heuristic, and the oracle judges.
///
/// ```
/// use grammar_min::reduce::blind::pairs;
/// assert_eq!(pairs(b"f(a[1]) {x}"), [(1, 6), (3, 5), (8, 10)]);
/// assert_eq!(pairs(b"(]"), []);
/// assert_eq!(pairs(br#"{e(0,"[")}"#), [(0, 9), (2, 8)]);
/// assert_eq!(pairs(b"{f(x[)}"), [(0, 6), (2, 5)]);
/// ```
pub fn pairs(text: &[u8]) -> Vec<(usize, usize)> {
    pairs_with_commas(text)
        .into_iter()
        .map(|(o, c, _)| (o, c))
        .collect()
}

/// The bytes of `text` outside brackets and string literals, with their
/// positions, brackets left out: an opener starts a level, a closer ends
/// one (a closer with none open is ignored), so the `,` of `f(a, b)` is
/// inside and the `;` after it outside, and the `;` of `x = ";"` is in
/// neither. String literals as in [`pairs`].
pub(super) fn outside_brackets(text: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut depth = 0usize;
    structural(text).filter_map(move |(i, b)| {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => return Some((i, b)),
            _ => {}
        }
        None
    })
}

/// Where the string literal that `text[i]` opens ends (the position of
/// its closing quote), if it opens one: a `"` or `'` closed on the same
/// line (`\\` escapes the byte after it), or a triple quote (`"""`,
/// `'''`: Python, Kotlin, Swift, Java, TOML) closed by the next, on any
/// line. A `'` opens a string only where neither it nor its closing quote
/// touches a word (`'a'`, `x IN ('', 'DE')`), not in `don't`, `clk'event`
/// or a Rust lifetime (`<'a>(x: &'a u8)`: the `'` before the second `a`
/// would close it). A triple quote never closed is `""` and a `"`.
///
/// ```
/// use grammar_min::reduce::blind::literal_end;
/// assert_eq!(literal_end(br#"x = "a\"(" + 1"#, 4), Some(9));
/// assert_eq!(literal_end(b"c == '(' ", 5), Some(7));
/// assert_eq!(literal_end(b"('', ',')", 1), Some(2));
/// assert_eq!(literal_end(b"\"open\n\"", 0), None);
/// assert_eq!(literal_end(b"fn f<'a>(x: &'a u8)", 5), None);
/// assert_eq!(literal_end(b"don't (x) isn't", 3), None);
/// assert_eq!(literal_end(b"G = \"\"\"[a]\nx=(\n\"\"\"\n", 4), Some(17));
/// assert_eq!(literal_end(b"'''a''' + 1", 0), Some(6));
/// assert_eq!(literal_end(b"\"\"\"a\"", 0), Some(1));
/// ```
pub fn literal_end(text: &[u8], i: usize) -> Option<usize> {
    let q = text[i];
    let opens = match q {
        b'"' => true,
        b'\'' => i == 0 || !ddmin::is_word(text[i - 1]),
        _ => false,
    };
    if !opens {
        return None;
    }
    let triple = [q, q, q];
    if text[i..].starts_with(&triple) {
        let mut j = i + 3;
        while j < text.len() {
            match text[j] {
                b'\\' => j += 2,
                _ if text[j..].starts_with(&triple) => return Some(j + 2),
                _ => j += 1,
            }
        }
    }
    let mut j = i + 1;
    while j < text.len() {
        match text[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            b if b == q => {
                let word_after = text.get(j + 1).is_some_and(|&b| ddmin::is_word(b));
                return (q == b'"' || !word_after).then_some(j);
            }
            _ => j += 1,
        }
    }
    None
}

/// The bytes of `text` with their positions, string literals
/// ([`literal_end`]) left out whole.
fn structural(text: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < text.len() {
            let at = i;
            match literal_end(text, at) {
                Some(e) => i = e + 1,
                None => {
                    i += 1;
                    return Some((at, text[at]));
                }
            }
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

/// `text` with each span of `edits` (in order) replaced by its text, the
/// pieces joined by [`splice`]; `None` if two spans overlap.
pub(super) fn replace_spans<'a>(
    text: &'a [u8],
    edits: impl IntoIterator<Item = (usize, usize, &'a [u8])>,
) -> Option<Vec<u8>> {
    let mut pieces: Vec<&[u8]> = Vec::new();
    let mut at = 0;
    for (s, e, r) in edits {
        if s < at {
            return None;
        }
        pieces.push(&text[at..s]);
        pieces.push(r);
        at = e;
    }
    pieces.push(&text[at..]);
    Some(splice(&pieces))
}

/// One candidate per way to drop a bracket pair: for a brace block, the
/// block with its header and trailer (`header_start`, `trailer_end`:
/// `int f(int a) {...}`, `.text : {...} >FLASH`); the pair with its
/// contents; for a brace block, its header and braces, keeping the
/// contents (`if (x) {y}` → `y`, `o.m = function () {f()}` → `f()`:
/// the body run where the block stood); for the condition of a statement
/// without braces, its header (`foreach ($s as $r) f($r);` → `f($r);`,
/// `control_header`); the two brackets alone; before
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
        cands.extend(header.map(|h| cut(h, trailer_end(&cur, c))));
        cands.push(cut(o, c + 1));
        cands.extend(control_header(&cur, o, c).map(|h| cut(h, solid_from(&cur, c + 1))));
        // A list holding one non-empty pair (`[{"a": …}]`): that one
        // emptied first, so the brackets stay if the value's kind matters
        // (lifted first, `{"": {}}` can be the end, not `[{}]`). Not for
        // `(…)`, `{…}`: in code that costs a run per pair per round.
        let body = &cur[o + 1..c];
        let lead = body.len() - body.trim_ascii_start().len();
        let trail = body.len() - body.trim_ascii_end().len();
        // `ps` is sorted by opener.
        let inner = ps
            .binary_search_by_key(&(o + 1 + lead), |p| p.0)
            .ok()
            .map(|j| ps[j])
            .filter(|&(a, b)| cur[o] == b'[' && b + 1 + trail == c && b > a + 1);
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

/// Words that head a statement with a condition in parentheses.
const CONTROL: &[&[u8]] = &[
    b"if", b"while", b"for", b"foreach", b"elif", b"elsif", b"until", b"unless", b"with",
];

/// Where the header of a statement without braces starts, if the pair
/// `(`…`)` at `o`…`c` is its condition: a [`CONTROL`] word before it and
/// something other than a `{` or `;` after it (`foreach ($s as $r) f($r);`,
/// `if (x) y;`). Deleting the header runs the statement alone, as
/// [`delete_pairs`] does for a brace block's header.
fn control_header(text: &[u8], o: usize, c: usize) -> Option<usize> {
    if text[o] != b'(' {
        return None;
    }
    let before = text[..o].trim_ascii_end();
    let w = before.len() - word_before(before);
    let after = text[c + 1..].trim_ascii_start();
    (CONTROL.contains(&&before[w..])
        && (w == 0 || before[w - 1] != b'.')
        && !matches!(after.first(), None | Some(b'{' | b';')))
    .then_some(w)
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
    for (i, b) in structural(text) {
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
                let Some(k) = open.iter().rposition(|(o, _)| text[*o] == want) else {
                    continue;
                };
                // Strays above the match: their commas were the match's.
                let strays: Vec<usize> = open.drain(k + 1..).flat_map(|(_, cs)| cs).collect();
                if let Some((o, mut cs)) = open.pop() {
                    cs.extend(strays);
                    cs.sort_unstable();
                    out.push((o, i, cs));
                }
            }
            _ => {}
        }
    }
    out.sort_unstable_by_key(|p| p.0);
    out
}

/// The grammar-blind pipeline: the empty text first (one run), blanks
/// squeezed, a coarse cut ([`ddmin::fruitful_chunks_from_end`] over
/// lines, or [`lists::top_level_units`] on fewer than four lines), then
/// [`delete_elements`], [`delete_pairs`],
/// [`keywords::delete_keyword_blocks`], [`args::delete_arguments`],
/// [`indent::delete_blocks`], [`calls::inline_functions`] (before the
/// sweeps, which can break a definition's header: `t(s&s{…}` is still
/// found, `t(s{…` is not), [`ddmin::chunk_pass_from_end`] over lines
/// and over [`lists::statements`] (and the last one with the `;` before
/// it, [`lists::drop_last_separated`]),
/// [`super::words::shorten_repeated_words`] (no word is taken for a
/// keyword: a keyword costs a failing run per character; a word that
/// kept its spelling once is not tried again), and
/// [`ddmin::chunk_pass_from_end`] over tokens (from the second
/// round on [`ddmin::delete_pass_from_end`], without chunks) and, in a
/// round where nothing else went, over bytes, round
/// after round until a round changes nothing (a
/// token deletion can free a line, a pair deletion a token); at that
/// fixpoint [`inline::inline_definitions`],
/// [`lists::delete_list_elements`], [`args::delete_columns`],
/// [`args::delete_aligned_arguments`], [`repeats::delete_repeats`],
/// [`hoist::hoist_parts`], [`lift::lift_contents`],
/// [`ddmin::delete_adjacent_tokens`],
/// [`ddmin::delete_between_equal_tokens`], [`scopes::flatten_scopes`]
/// and [`results::delete_results`], and more rounds if they changed
/// anything. The result is
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
        passes.push(("empty", 0, tester.runs()));
        return;
    }
    super::polish::squeeze_blanks_once(cur, tester, passes);
    // A coarse cut first: the passes below spend a run or more on every
    // bracket pair, which on a large input around a small cause costs
    // thousands of runs where chunks of lines (or of top-level units, for
    // a text on one line) cost a few per size.
    let mut units = ddmin::lines(cur);
    if units.len() < 4 {
        units = lists::top_level_units(cur);
    }
    if units.len() > 2 {
        *cur = ddmin::fruitful_chunks_from_end(units, tester).concat();
        passes.push(("chunk-units", cur.len(), tester.runs()));
    }
    rounds(cur, tester, passes, None, true);
}

/// The grammar-blind passes after a grammar-aware reduction (`auto` with a
/// grammar, at the grammar passes' fixpoint): [`blind_into`]'s rounds on
/// a text already 1-minimal for tokens, so from the first round on its
/// sweeps delete one unit at a time, and with the grammar's `keywords`
/// kept whole (in the byte sweep, and never shortened as names), and
/// unless `whole_fixpoint` (for a text outside the grammar's language)
/// without the fixpoint's pair hoisting, adjacent-token deletion and
/// the like, which the grammar passes' subtree edits cover. They do
/// what no single-subtree edit keeps valid: a wrapper function inlined
/// into its caller, a definition into its use, a bracket pair dropped
/// around its contents, a column cut from a table and all its rows.
pub(super) fn finish(
    cur: &mut Vec<u8>,
    keywords: &[Vec<u8>],
    whole_fixpoint: bool,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) {
    rounds(cur, tester, passes, Some(keywords), whole_fixpoint);
}

/// [`blind_into`]'s rounds to their joint fixpoint. Without `keywords`
/// the first round sweeps with chunks ([`ddmin::chunk_pass_from_end`]);
/// with them (after grammar passes, [`finish`]) every round sweeps one
/// unit at a time, the byte sweep keeps them whole and the word pass
/// leaves them alone; unless `whole_fixpoint` the fixpoint skips pair
/// hoisting, adjacent tokens and the like.
fn rounds(
    cur: &mut Vec<u8>,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
    keywords: Option<&[Vec<u8>]>,
    whole_fixpoint: bool,
) {
    let mut first = keywords.is_none();
    let mut first_bytes = first;
    let mut kept_words: Vec<Vec<u8>> = keywords.map(<[_]>::to_vec).unwrap_or_default();
    let mut kept_kinds: Vec<Vec<u8>> = Vec::new();
    *cur = comments::delete_comments(cur, tester);
    passes.push(("delete-comments", cur.len(), tester.runs()));
    loop {
        let before = cur.clone();
        *cur = delete_elements(cur, tester);
        passes.push(("delete-elements", cur.len(), tester.runs()));
        *cur = delete_pairs(cur, tester);
        passes.push(("delete-pairs", cur.len(), tester.runs()));
        *cur = tags::delete_tags(cur, tester);
        passes.push(("delete-tags", cur.len(), tester.runs()));
        *cur = keywords::delete_keyword_blocks(cur, tester);
        passes.push(("delete-keyword-blocks", cur.len(), tester.runs()));
        *cur = args::delete_arguments(cur, tester);
        passes.push(("delete-arguments", cur.len(), tester.runs()));
        *cur = indent::delete_blocks(cur, tester);
        passes.push(("delete-blocks", cur.len(), tester.runs()));
        *cur = calls::inline_functions(cur, tester);
        passes.push(("inline-functions", cur.len(), tester.runs()));
        let ls = ddmin::lines(cur);
        if ls.len() > 1 {
            *cur = ddmin::chunk_pass_from_end(ls, tester).concat();
            passes.push(("sweep-lines", cur.len(), tester.runs()));
        }
        let ss = lists::statements(cur);
        let several = ss.len() > 1;
        if ss.len() > 1 {
            *cur = ddmin::chunk_pass_from_end(ss, tester).concat();
            passes.push(("sweep-statements", cur.len(), tester.runs()));
        }
        if several {
            *cur = lists::drop_last_separated(cur, tester);
            passes.push(("drop-last-statement", cur.len(), tester.runs()));
        }
        // A name defined and used is shortened in every place at once.
        // A word that kept its spelling once (a key the program looks up,
        // a keyword) is not tried again in later rounds.
        let tried = super::words::repeated_words(cur, &kept_words);
        *cur = super::words::shorten_repeated_words(cur, &kept_words, tester);
        let now = ddmin::tokens(cur);
        kept_words.extend(tried.into_iter().filter(|w| now.contains(&w.as_slice())));
        kept_words.sort_unstable();
        passes.push(("shorten-words", cur.len(), tester.runs()));
        *cur = super::words::delete_frequent_tokens(cur, &mut kept_kinds, tester);
        // After the first round the text was 1-minimal before the
        // edits of one round: runs of tokens or bytes seldom go, single
        // ones are the proof. Each sweep is one pass (a unit passed over
        // is not tried again after a later deletion): the rounds repeat
        // until one changes nothing, and that round's passes are the
        // proof of 1-minimality. The byte sweep, a run per byte, waits
        // for a round in which nothing else went, and then for the
        // fixpoint passes: on a large text the next rounds' structural
        // passes take most of what it would (ruby_nomethod: 1,518 runs at
        // 345 bytes in the first round; php_typeerror: 946 runs at 409
        // bytes, before the fixpoint's constants and hoisting took it to
        // 68).
        let sweep = |first: bool| {
            if first {
                ddmin::chunk_pass_from_end
            } else {
                ddmin::delete_pass_from_end
            }
        };
        *cur = sweep(first)(ddmin::tokens(cur), tester).concat();
        passes.push(("sweep-tokens", cur.len(), tester.runs()));
        first = false;
        if tester.stopped() {
            return;
        }
        if *cur == before {
            // At the fixpoint: definitions inlined, lists outside
            // brackets, columns, pairs emptied or replaced by their parts,
            // two or three tokens at a time; another round if any of
            // them changed the text, else the byte sweep (below).
            *cur = inline::inline_definitions(cur, tester);
            passes.push(("inline-definitions", cur.len(), tester.runs()));
            *cur = alias::replace_aliases(cur, tester);
            passes.push(("replace-aliases", cur.len(), tester.runs()));
            *cur = lists::delete_list_elements(cur, tester);
            passes.push(("delete-list-elements", cur.len(), tester.runs()));
            *cur = args::delete_columns(cur, tester);
            passes.push(("delete-columns", cur.len(), tester.runs()));
            *cur = constants::constants(cur, tester);
            passes.push(("constants", cur.len(), tester.runs()));
            *cur = lift::lift_contents(cur, tester);
            passes.push(("lift-contents", cur.len(), tester.runs()));
            // Edits in several places at once, which no subtree edit
            // makes (`_[a]="[";0~_[a]` to `_="[";0~_`).
            *cur = args::delete_aligned_arguments(cur, tester);
            passes.push(("delete-aligned-arguments", cur.len(), tester.runs()));
            *cur = repeats::delete_repeats(cur, tester);
            passes.push(("delete-repeats", cur.len(), tester.runs()));
            // After a grammar reduction, on a text still in the
            // language, subtrees were replaced by their parts and deleted
            // whole already: these found little there and were a third of
            // the runs.
            if whole_fixpoint {
                *cur = hoist::hoist_parts(cur, tester);
                passes.push(("hoist-parts", cur.len(), tester.runs()));
                *cur = branches::pick_branches(cur, tester);
                passes.push(("pick-branches", cur.len(), tester.runs()));
                *cur = ddmin::delete_adjacent_tokens(cur, tester);
                passes.push(("delete-adjacent-tokens", cur.len(), tester.runs()));
                *cur = ddmin::delete_between_equal_tokens(cur, tester);
                passes.push(("delete-between-equal-tokens", cur.len(), tester.runs()));
                *cur = scopes::flatten_scopes(cur, tester);
                passes.push(("flatten-scopes", cur.len(), tester.runs()));
                *cur = results::delete_results(cur, tester);
                passes.push(("delete-results", cur.len(), tester.runs()));
            }
            if tester.stopped() {
                return;
            }
        }
        if *cur == before {
            *cur = match keywords {
                Some(k) => ddmin::ddmin_bytes_keeping(cur, k, true, tester),
                None => sweep(first_bytes)(cur.chunks(1).collect(), tester).concat(),
            };
            passes.push(("sweep-bytes", cur.len(), tester.runs()));
            first_bytes = false;
            if *cur == before || tester.stopped() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
