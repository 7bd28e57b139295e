//! Delta debugging (ddmin) over any sequence of units: bytes, tokens,
//! lines, choices, tree nodes.
//!
//! This is Zeller's algorithm exactly as fuzzingbook's
//! `DeltaDebuggingReducer` runs it (granularity `n` from 2, complements
//! only, fractional chunk boundaries, `n = max(n - 1, 2)` after a success),
//! so test counts on the reference examples match. The result is
//! 1-minimal: no single unit can be removed.

use super::Tester;

/// Reduces `units` with ddmin. `render` turns a configuration into the
/// oracle's input. With `fill = Some(u)` every removed chunk is replaced by
/// one `u` (the NOP/default variant of choice-sequence ddmin); candidates
/// that would not be shorter are skipped.
pub fn ddmin<U: Clone>(
    units: Vec<U>,
    tester: &mut Tester<'_>,
    render: &mut dyn FnMut(&[U]) -> Vec<u8>,
    fill: Option<U>,
) -> Vec<U> {
    ddmin_from(units, tester, render, fill, 2)
}

/// [`ddmin`] starting at granularity `n` instead of 2: with `n` = the
/// number of units it begins with single-unit deletions, the right start
/// when a grammar-aware reducer has already removed everything large
/// (coarse chunks would only fail).
pub fn ddmin_from<U: Clone>(
    mut units: Vec<U>,
    tester: &mut Tester<'_>,
    render: &mut dyn FnMut(&[U]) -> Vec<u8>,
    fill: Option<U>,
    n: usize,
) -> Vec<U> {
    let mut n = n.clamp(2, units.len().max(2));
    while units.len() >= 2 {
        if tester.stopped() {
            break;
        }
        let len = units.len();
        let subset = len as f64 / n as f64;
        let mut starts = Vec::new();
        let mut start = 0.0f64;
        while start < len as f64 {
            starts.push(start);
            start += subset;
        }
        let cur = &units;
        let fill_ref = &fill;
        let candidates = starts.into_iter().filter_map(|s| {
            let a = s as usize;
            let b = ((s + subset) as usize).min(len);
            let mut c: Vec<U> = Vec::with_capacity(len - (b - a) + 1);
            c.extend_from_slice(&cur[..a]);
            if let Some(f) = fill_ref {
                c.push(f.clone());
            }
            c.extend_from_slice(&cur[b..]);
            (c.len() < len).then_some(c)
        });
        let rendered = candidates.map(|c| {
            let r = render(&c);
            (c, r)
        });
        match tester.first_interesting(rendered) {
            Some((c, _)) => {
                units = c;
                n = n.saturating_sub(1).max(2);
            }
            None => {
                if n >= units.len() {
                    break;
                }
                n = (n * 2).min(units.len());
            }
        }
    }
    units
}

/// Single-unit deletions swept left to right, the fine-grained end of a
/// reduction (after grammar-aware passes have removed the large parts):
/// the first deletable unit from the sweep's position on is deleted
/// ([`Tester::first_interesting`], so `-j N` runs several at once); when
/// the unit after it goes too, the run is grown (deleting 2, 4, 8, ...
/// more units at once, then halving), so a run of `m` deletable units
/// costs O(log m) oracle runs instead of `m` sweeps. Sweeps repeat until
/// one deletes nothing: the result is 1-minimal, as with [`ddmin`], and
/// at least one unit is kept.
pub fn delete_sweep<U: Clone + PartialEq>(
    units: Vec<U>,
    tester: &mut Tester<'_>,
    render: &mut dyn FnMut(&[U]) -> Vec<u8>,
) -> Vec<U> {
    sweep_passes(units, tester, render, true)
}

fn sweep_passes<U: Clone + PartialEq>(
    mut units: Vec<U>,
    tester: &mut Tester<'_>,
    render: &mut dyn FnMut(&[U]) -> Vec<u8>,
    repeat: bool,
) -> Vec<U> {
    loop {
        let mut deleted = false;
        let mut i = 0;
        // Position of the last deletion, to see two in a row.
        let mut last: Option<usize> = None;
        while i < units.len() && units.len() >= 2 && !tester.stopped() {
            let cur = &units;
            // Deleting the twin of the unit just tried gives the same
            // sequence: not built (a nest of 20,000 `(` made the sweep
            // quadratic in building and hashing them).
            let fresh = move |&j: &usize| j == i || cur[j] != cur[j - 1];
            let cands = (i..cur.len()).filter(fresh).map(|j| {
                let c = without(cur, j, j + 1);
                let r = render(&c);
                ((j, c), r)
            });
            let Some(((j, c), _)) = tester.first_interesting(cands) else {
                break;
            };
            units = c;
            deleted = true;
            if last == Some(j) {
                grow_deletion(&mut units, j, tester, render);
            }
            last = Some(j);
            i = j;
        }
        if !deleted || !repeat || tester.stopped() {
            return units;
        }
    }
}

/// [`delete_sweep`] from the last unit to the first. The text polish
/// deletes tokens this way: parsers read left to right, so a deletion
/// near the end keeps the longest valid prefix, and the tokens a grammar
/// requires but a program does without are mostly at the end (a final
/// `;`, closers the parser adds at end of input). A success at position
/// `j` makes the sweep re-test the units it already passed (those after
/// `j` here), so finding the removable ones early saves runs: on the
/// suite's SQL tasks 48 → 36 and 30 → 27 runs, elsewhere within ±4.
pub fn delete_sweep_from_end<'a>(units: Vec<&'a [u8]>, tester: &mut Tester<'_>) -> Vec<&'a [u8]> {
    sweep_from_end(units, tester, true)
}

/// One pass of [`delete_sweep_from_end`]: each unit tried once (the units
/// after a deletion are not tried again). For a caller that sweeps again
/// anyway until nothing changes.
pub fn delete_pass_from_end<'a>(units: Vec<&'a [u8]>, tester: &mut Tester<'_>) -> Vec<&'a [u8]> {
    sweep_from_end(units, tester, false)
}

/// [`chunks_from_end`], then [`delete_pass_from_end`].
pub fn chunk_pass_from_end<'a>(units: Vec<&'a [u8]>, tester: &mut Tester<'_>) -> Vec<&'a [u8]> {
    let units = chunks_from_end(units, tester);
    delete_pass_from_end(units, tester)
}

fn sweep_from_end<'a>(
    units: Vec<&'a [u8]>,
    tester: &mut Tester<'_>,
    repeat: bool,
) -> Vec<&'a [u8]> {
    let rev: Vec<&[u8]> = units.into_iter().rev().collect();
    let render = &mut |u: &[&[u8]]| {
        let mut out = Vec::with_capacity(u.iter().map(|x| x.len()).sum());
        for x in u.iter().rev() {
            out.extend_from_slice(x);
        }
        out
    };
    let mut out = sweep_passes(rev, tester, render, repeat);
    out.reverse();
    out
}

/// Chunk deletions swept from the end at halving sizes, then
/// [`delete_sweep_from_end`]: for each chunk size `k` (the largest power of
/// two below half the units, down to 2), the chunks `units[i - k..i]`
/// from the end to the start, each deleted if the failure stays (then the
/// sweep goes on just before it, since the units before are unchanged).
/// Like ddmin it removes long runs of needless units in few runs, but it
/// never starts the list of chunks over after a success, which is what
/// makes ddmin quadratic on an input whose parts are mostly needed
/// (BENCHMARKS.md, grammar-blind reduction). The final single-unit sweep
/// makes the result 1-minimal.
pub fn chunk_sweep_from_end<'a>(units: Vec<&'a [u8]>, tester: &mut Tester<'_>) -> Vec<&'a [u8]> {
    let units = chunks_from_end(units, tester);
    delete_sweep_from_end(units, tester)
}

/// [`chunk_sweep_from_end`] without its final single-unit sweep: chunks
/// of halving sizes down to 2.
pub fn chunks_from_end<'a>(units: Vec<&'a [u8]>, tester: &mut Tester<'_>) -> Vec<&'a [u8]> {
    chunk_levels(units, tester, false)
}

/// [`chunks_from_end`] that stops after a chunk size at which fewer than
/// a quarter of at least eight (`MIN_FRUITFUL`) chunks could go: a coarse first
/// cut for large inputs. Where the units seldom go alone (the lines of a
/// pretty-printed JSON value, a few of which happen to be whole members)
/// it costs the few runs of the largest sizes; where most can go (3,000
/// needless functions around one that fails) it removes them in a few
/// runs per size. The two or three halves of the largest size prove
/// little: in a preprocessed C++ file the few declarations needed are
/// spread over 23,000 header lines, so every half holds one, while
/// chunks of a few thousand lines mostly go.
pub fn fruitful_chunks_from_end<'a>(
    units: Vec<&'a [u8]>,
    tester: &mut Tester<'_>,
) -> Vec<&'a [u8]> {
    chunk_levels(units, tester, true)
}

/// How many chunks of one size [`fruitful_chunks_from_end`] tries before
/// it may stop: it goes on to smaller ones while a quarter of them go.
const MIN_FRUITFUL: usize = 8;

fn chunk_levels<'a>(
    mut units: Vec<&'a [u8]>,
    tester: &mut Tester<'_>,
    while_fruitful: bool,
) -> Vec<&'a [u8]> {
    let mut k = 1;
    while k * 4 <= units.len() {
        k *= 2;
    }
    while k >= 2 && !tester.stopped() {
        let mut i = units.len();
        let (mut tried, mut gone) = (0, 0);
        // Where the last chunk that stayed starts: a chunk equal to it
        // just before it gives the same sequence (a deep nest's `((((`).
        let mut stayed = None;
        while i >= k && units.len() > k && !tester.stopped() {
            tried += 1;
            if stayed == Some(i) && units.get(i..i + k) == Some(&units[i - k..i]) {
                i -= k;
                stayed = Some(i);
                continue;
            }
            let c = without(&units, i - k, i);
            let r = c.concat();
            if let Some((c, _)) = tester.first_interesting([(c, r)]) {
                units = c;
                gone += 1;
                i = i.saturating_sub(k).min(units.len());
            } else {
                i -= k;
                stayed = Some(i);
            }
        }
        if while_fruitful && tried >= MIN_FRUITFUL && gone * 4 < tried {
            break;
        }
        k /= 2;
    }
    units
}

/// Deletes two or three adjacent tokens at once, wherever they stand,
/// swept from the end: `p()` of a shell function header, `-> T` of a
/// return type, `x :` of a label. [`chunk_sweep_from_end`] deletes only
/// runs aligned to its chunk size, and the single-token sweep cannot drop
/// a name with its brackets when neither goes alone. Blanks between the
/// tokens go with them; two candidates per position (two tokens, then
/// three), so this costs about twice the tokens in runs, and blind
/// reduction runs it only once the other passes are at their fixpoint.
pub fn delete_adjacent_tokens(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    let sig = solid_spans;
    let mut spans = sig(&cur);
    let mut j = spans.len();
    // Per width, the last window that stayed: a window as long whose
    // deletion leaves the same text (`((` one `(` earlier in a nest) is
    // not built again.
    let mut stayed: [Option<(usize, usize)>; 4] = [None; 4];
    while j >= 2 && !tester.stopped() {
        let windows: Vec<(usize, (usize, usize))> = [2, 3]
            .into_iter()
            .filter(|&w| w <= j)
            .map(|w| (w, (spans[j - w].0, spans[j - 1].1)))
            .collect();
        let cands = windows
            .iter()
            .filter(|&&(w, (a, b))| {
                !stayed[w]
                    .is_some_and(|(a2, b2)| a < a2 && b - a == b2 - a2 && cur[a..a2] == cur[b..b2])
            })
            .map(|&(_, (a, b))| ((), [&cur[..a], &cur[b..]].concat()));
        match tester.first_interesting(cands) {
            Some(((), next)) => {
                cur = next;
                spans = sig(&cur);
                j = j.min(spans.len());
                stayed = [None; 4];
            }
            None => {
                for (w, window) in windows {
                    stayed[w] = Some(window);
                }
                j -= 1;
            }
        }
    }
    cur
}

/// The byte spans of the tokens of `text` that are not blank.
pub(super) fn solid_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut at = 0;
    let mut out = Vec::new();
    for tok in tokens(text) {
        if !tok[0].is_ascii_whitespace() {
            out.push((at, at + tok.len()));
        }
        at += tok.len();
    }
    out
}

/// The most tokens [`delete_between_equal_tokens`] deletes at once.
const MAX_BETWEEN: usize = 32;

/// Deletes the tokens from one punctuation token through the next equal
/// one (`=` … `=`, `:` … `:`), swept from the end: one candidate per
/// punctuation token, with the nearest equal token 4 to 32 (`MAX_BETWEEN`)
/// tokens before it (shorter runs are [`delete_adjacent_tokens`]'s).
/// This joins "X refers to N" and "N is V" into "X is V" across lines:
/// `asn1=SEQUENCE:e⏎[e]⏎=UTCTIME:…` → `asn1=UTCTIME:…`, `fu!s:c()⏎let
/// a:.k` → `fu!s:.k`, which no aligned chunk and no two or three tokens
/// reach. Like [`delete_adjacent_tokens`], run once the other passes are
/// at their fixpoint.
pub fn delete_between_equal_tokens(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    let mut spans = solid_spans(&cur);
    let mut j = spans.len();
    while j > 0 && !tester.stopped() {
        j -= 1;
        let (tj, ej) = spans[j];
        let tok = &cur[tj..ej];
        if is_word(tok[0]) {
            continue;
        }
        let from = j.saturating_sub(MAX_BETWEEN);
        let Some(i) = (from..j)
            .rev()
            .find(|&i| &cur[spans[i].0..spans[i].1] == tok)
        else {
            continue;
        };
        if j - i < 4 {
            continue;
        }
        let cand = [&cur[..spans[i].1], &cur[ej..]].concat();
        if let Some(((), next)) = tester.first_interesting([((), cand)]) {
            cur = next;
            spans = solid_spans(&cur);
            j = (i + 1).min(spans.len());
        }
    }
    cur
}

/// `u` without `u[a..b]`.
fn without<U: Clone>(u: &[U], a: usize, b: usize) -> Vec<U> {
    let mut c = Vec::with_capacity(u.len() - (b - a));
    c.extend_from_slice(&u[..a]);
    c.extend_from_slice(&u[b..]);
    c
}

/// Deletes as many units at `j` as keep the failure: doubling runs, then
/// halving (each success applied at once).
fn grow_deletion<U: Clone>(
    units: &mut Vec<U>,
    j: usize,
    tester: &mut Tester<'_>,
    render: &mut dyn FnMut(&[U]) -> Vec<u8>,
) {
    let mut k = 2;
    let mut growing = true;
    while k >= 1 && !tester.stopped() {
        // Keep at least one unit.
        let k_now = k.min(units.len().saturating_sub(1)).min(units.len() - j);
        if k_now == 0 {
            return;
        }
        let c = without(units, j, j + k_now);
        let r = render(&c);
        if tester.first_interesting([(c, r)]).is_some_and(|(c, _)| {
            *units = c;
            true
        }) {
            if growing {
                k *= 2;
            }
        } else {
            growing = false;
            k /= 2;
        }
    }
}

/// Splits text into lexical tokens: runs of identifier characters
/// (alphanumerics, `_`, bytes >= 0x80), runs of whitespace, and single
/// other bytes. Concatenating the tokens gives the text back.
///
/// ```
/// use grammar_min::reduce::ddmin::tokens;
/// assert_eq!(tokens(b"x1 = (42);"), [&b"x1"[..], b" ", b"=", b" ", b"(", b"42", b")", b";"]);
/// ```
pub fn tokens(text: &[u8]) -> Vec<&[u8]> {
    let class = |b: u8| {
        if is_word(b) {
            0
        } else if b.is_ascii_whitespace() {
            1
        } else {
            2
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = class(text[i]);
        let mut j = i + 1;
        if c != 2 {
            while j < text.len() && class(text[j]) == c {
                j += 1;
            }
        }
        out.push(&text[i..j]);
        i = j;
    }
    out
}

/// The text with every whitespace token squeezed: dropped where it sits
/// next to punctuation, one space between two word tokens, one `\n` if the
/// run held a line break (line-oriented languages keep their lines).
/// Blanks rarely matter to a failure, so reducers try this as one candidate
/// before token-by-token ddmin.
///
/// ```
/// use grammar_min::reduce::ddmin::squeeze_blanks;
/// assert_eq!(squeeze_blanks(b"SELECT  a ,\n b"), b"SELECT a,\nb");
/// assert_eq!(squeeze_blanks(b"0 / 0"), b"0/0");
/// ```
pub fn squeeze_blanks(text: &[u8]) -> Vec<u8> {
    squeeze(text, true)
}

/// [`squeeze_blanks`] that also joins lines: a line break counts as a
/// blank like any other (for languages where lines do not matter).
///
/// ```
/// use grammar_min::reduce::ddmin::squeeze_lines;
/// assert_eq!(squeeze_lines(b"[ 1 ,\n  2 ]\nx\ny"), b"[1,2]x y");
/// ```
pub fn squeeze_lines(text: &[u8]) -> Vec<u8> {
    squeeze(text, false)
}

fn squeeze(text: &[u8], keep_lines: bool) -> Vec<u8> {
    let toks = tokens(text);
    let word = |t: Option<&&[u8]>| t.is_some_and(|t| is_word(t[0]));
    let mut out = Vec::with_capacity(text.len());
    for (i, t) in toks.iter().enumerate() {
        if !t[0].is_ascii_whitespace() {
            out.extend_from_slice(t);
        } else if keep_lines && t.contains(&b'\n') {
            out.push(b'\n');
        } else if i > 0 && word(toks.get(i - 1)) && word(toks.get(i + 1)) {
            out.push(b' ');
        }
    }
    out
}

/// Whether `b` is a word character: ASCII alphanumeric, `_`, or a byte
/// ≥ 0x80 (part of a UTF-8 sequence).
pub fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Splits text into lines, each keeping its `\n`.
pub fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

/// The words (runs of identifier characters, see [`tokens`]) of two or
/// more bytes inside the grammar's terminals: the language's keywords and
/// fixed names (`SELECT`, `min`, `true`). Sorted, for binary search. A
/// word that starts with a digit is a number (`-262144`, a boundary value),
/// not a keyword: a shorter number is most often still a number.
///
/// ```
/// use grammar_min::grammar::{Grammar, LoadOptions};
/// use grammar_min::reduce::ddmin::keywords;
/// let src = r#"{"<start>": ["SELECT <d> FROM t1", "0262144"], "<d>": ["1", "2"]}"#;
/// let g = Grammar::from_json_str(src, &LoadOptions::default()).unwrap();
/// assert_eq!(keywords(&g), [&b"FROM"[..], b"SELECT", b"t1"]);
/// ```
pub fn keywords(g: &crate::grammar::Grammar) -> Vec<Vec<u8>> {
    let mut words: Vec<Vec<u8>> = g
        .terms()
        .iter()
        .flat_map(|t| tokens(t))
        .filter(|w| w.len() >= 2 && is_word(w[0]) && !w[0].is_ascii_digit())
        .map(<[u8]>::to_vec)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// ddmin over bytes, except that a token found in `keywords` (see
/// [`keywords`]) is one unit, as Perses keeps tokens atomic: a keyword
/// with letters deleted is a word the language does not have, so such
/// candidates almost never keep the failure (on the SQL tasks of the
/// reduction suite none did, and they were 40 % of the oracle runs).
/// Whole keywords can still go. With no keywords this is [`ddmin_bytes`].
///
/// `fine`: single-unit deletions ([`delete_sweep`]) instead of ddmin.
pub fn ddmin_bytes_keeping(
    text: &[u8],
    keywords: &[Vec<u8>],
    fine: bool,
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let mut units: Vec<&[u8]> = Vec::with_capacity(text.len());
    for t in tokens(text) {
        if t.len() >= 2 && keywords.binary_search_by(|k| k.as_slice().cmp(t)).is_ok() {
            units.push(t);
        } else {
            units.extend(t.chunks(1));
        }
    }
    let render = &mut |u: &[&[u8]]| u.concat();
    if fine {
        delete_sweep(units, tester, render).concat()
    } else {
        ddmin(units, tester, render, None).concat()
    }
}

/// ddmin over bytes.
pub fn ddmin_bytes(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    ddmin(text.to_vec(), tester, &mut |u: &[u8]| u.to_vec(), None)
}

/// ddmin over units produced by `split` (tokens or lines).
pub fn ddmin_split(
    text: &[u8],
    split: fn(&[u8]) -> Vec<&[u8]>,
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let units: Vec<&[u8]> = split(text);
    ddmin(units, tester, &mut |u: &[&[u8]]| u.concat(), None).concat()
}

#[cfg(test)]
mod tests;
