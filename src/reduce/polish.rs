//! The final polish of a text: blanks, lines, repeated words, tokens and
//! bytes, to 1-minimality.

use super::{ddmin, words, Reduced, Tester};
use crate::oracle::Outcome;

/// The final polish of a text (what `auto` ends with): blanks squeezed
/// in one step (they rarely matter), ddmin over lines (big, cheap steps on
/// multi-line inputs), over tokens, then over bytes.
///
/// With `keywords` (after grammar-aware passes; see [`ddmin::keywords`]),
/// the token and byte stages are single-unit deletion sweeps
/// ([`ddmin::delete_sweep`]: a run of deletable units goes in O(log n)
/// runs) and the byte stage keeps the grammar's keywords whole
/// ([`ddmin::ddmin_bytes_keeping`]): the grammar passes have removed the
/// large parts, and halving a result of a few tokens costs oracle runs
/// that rarely pay (BENCHMARKS.md: 10 of 68 runs on sqlite-python). The
/// price: a run of several tokens that only goes as a whole and is no
/// subtree (`INSERT INTO t1 ` before `VALUES(a)`) stays. Before the token
/// stage, words that occur more than once are shortened in every place
/// at once ([`words::shorten_repeated_words`]: a name defined and used),
/// and a token kind that makes up a large share of a long text is
/// deleted everywhere at once ([`words::delete_frequent_tokens`]).
/// With `None` every stage is plain ddmin (Zeller's, from two halves).
/// Either way the result is 1-minimal with respect to deleting one token,
/// and one byte outside keywords. `input` must already be known interesting (e.g.
/// [`Tester::seed`]).
pub fn polish(input: &[u8], keywords: Option<&[Vec<u8>]>, tester: &mut Tester<'_>) -> Reduced {
    let mut cur = input.to_vec();
    let mut passes = Vec::new();
    polish_into(&mut cur, keywords, tester, &mut passes);
    Reduced {
        output: cur,
        passes,
        spelled: None,
    }
}

/// The blank squeeze ([`ddmin::squeeze_blanks`]) as one candidate, kept
/// if it still fails.
pub(super) fn squeeze_blanks_once(
    cur: &mut Vec<u8>,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) {
    let squeezed = ddmin::squeeze_blanks(cur);
    if squeezed.len() < cur.len() && tester.test(&squeezed) == Outcome::Interesting {
        tester.accept(&squeezed);
        *cur = squeezed;
        passes.push(("squeeze-blanks", cur.len(), tester.runs()));
    }
}

pub(super) fn polish_into(
    cur: &mut Vec<u8>,
    keywords: Option<&[Vec<u8>]>,
    tester: &mut Tester<'_>,
    passes: &mut Vec<(&'static str, usize, u64)>,
) {
    squeeze_blanks_once(cur, tester, passes);
    if ddmin::lines(cur).len() > 1 {
        *cur = ddmin::ddmin_split(cur, ddmin::lines, tester);
        passes.push(("ddmin-lines", cur.len(), tester.runs()));
    }
    if let Some(k) = keywords {
        *cur = words::shorten_repeated_words(cur, k, tester);
        passes.push(("shorten-words", cur.len(), tester.runs()));
    }
    let before = cur.len();
    *cur = words::delete_frequent_tokens(cur, &mut Vec::new(), tester);
    if cur.len() < before {
        passes.push(("delete-frequent-tokens", cur.len(), tester.runs()));
    }
    // After the grammar passes (`keywords`): single-unit deletions first,
    // from the end. Until neither stage changes anything: a byte deletion
    // can make a token deletion possible, and the result is promised
    // 1-minimal for both: by runs, not by an anchor's presumption.
    tester.forget_presumptions();
    let fine = keywords.is_some();
    loop {
        let before = cur.clone();
        let units = ddmin::tokens(cur);
        *cur = if fine {
            ddmin::delete_sweep_from_end(units, tester).concat()
        } else {
            ddmin::ddmin(units, tester, &mut |u: &[&[u8]]| u.concat(), None).concat()
        };
        passes.push(("ddmin-tokens", cur.len(), tester.runs()));
        *cur = ddmin::ddmin_bytes_keeping(cur, keywords.unwrap_or_default(), fine, tester);
        passes.push(("ddmin-bytes", cur.len(), tester.runs()));
        if *cur == before || tester.stopped() {
            break;
        }
    }
}
