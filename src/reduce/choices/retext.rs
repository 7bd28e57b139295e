//! Deleting runs of the decoded text's tokens, for an oracle that reads
//! choices ([`delete_text_runs`]).

use super::super::as_text::{encode_cheaply, parses_cheaply};
use super::super::ddmin::tokens;
use super::super::Tester;
use crate::generate::{decode, DecodeConfig};
use crate::grammar::Grammar;
use crate::parse::Parser;

/// The longest run of tokens [`delete_text_runs`] deletes at once: enough
/// for a call with its brackets and a short argument (`Some(0)` → `Some`,
/// `f(a, b)` → `f`).
pub const MAX_RUN: usize = 6;

/// Bytes of candidate text [`delete_text_runs`] parses in one call at most
/// (every parse costs time, though no oracle run): on a long text the
/// sweep stops early, leaving what it had found.
pub const PARSE_BUDGET: usize = 8 << 20;

/// Deletes runs of up to [`MAX_RUN`] tokens of the text `cur` decodes to,
/// where what is left is still in the grammar's language: each candidate
/// text is parsed and encoded back into a choice sequence, and only
/// those run. The tree passes replace nodes by other derivations of the
/// same place; a run of tokens that is no subtree, or whose deletion
/// turns the rest into another construct, is beyond them: a fuzz target's
/// `Some(0)` whose `Some` alone is an identifier, three choices deeper.
/// An oracle that reads the text (`--cmd`) gets a token polish of the
/// text itself instead, which may also leave the grammar.
///
/// The runs are swept from the end (longest first at each place), again
/// until nothing goes. Candidates must be [`Tester::better`] than the
/// current sequence: with [`Tester::with_image_bound`] a shorter text,
/// else a shortlex-smaller sequence. The result is 1-minimal with respect
/// to deleting one token (with the blanks before it) within the language,
/// unless [`PARSE_BUDGET`] ran out.
pub fn delete_text_runs(
    g: &Grammar,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let parser = Parser::new(g);
    let mut cur = cur.to_vec();
    let mut budget = PARSE_BUDGET;
    let mut unparsed = 0;
    loop {
        let text = decode(g, &cur, cfg);
        // Each candidate costs a parse: not on a text whose parse costs
        // far more than its length (an ambiguous grammar's).
        if !parses_cheaply(&parser, &text) {
            return cur;
        }
        let mut units = units(&text);
        let mut changed = false;
        // Units from `end` on were tried at this size of the text; a
        // deletion takes the `n` units before `end`, and the sweep goes on
        // before them.
        let mut end = units.len();
        while end > 0 && !tester.stopped() && budget > 0 {
            let candidates: Vec<(usize, Vec<u8>)> = (1..=MAX_RUN.min(end))
                .rev()
                .filter_map(|n| {
                    let t = [&units[..end - n], &units[end..]].concat().concat();
                    if t.len() > budget {
                        budget = 0;
                        return None;
                    }
                    budget -= t.len();
                    let c = encode_cheaply(&parser, cfg, &t).0;
                    if c.is_none() {
                        unparsed += 1;
                    }
                    c.filter(|c| tester.better(c, &cur)).map(|c| (n, c))
                })
                .collect();
            tester.note_unparsed(std::mem::take(&mut unparsed));
            match tester.first_interesting(candidates) {
                Some((n, c)) => {
                    units.drain(end - n..end);
                    cur = c;
                    changed = true;
                    end -= n;
                }
                None => end -= 1,
            }
        }
        if !changed || tester.stopped() || budget == 0 {
            return cur;
        }
    }
}

/// The text's tokens ([`tokens`]), each with the blanks before it
/// (trailing blanks go with the last token).
fn units(text: &[u8]) -> Vec<&[u8]> {
    let mut starts: Vec<usize> = Vec::new();
    let (mut at, mut blank_from) = (0, None);
    for t in tokens(text) {
        if t[0].is_ascii_whitespace() {
            blank_from = Some(at);
        } else {
            starts.push(blank_from.take().unwrap_or(at));
        }
        at += t.len();
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts.iter().zip(ends).map(|(&s, e)| &text[s..e]).collect()
}
