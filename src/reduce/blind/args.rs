//! Parameters without a grammar: a function's definition and its calls
//! share a name before their parentheses (`def l(e, w)`, `l(y, w)`;
//! `int f(int a, int b)`, `f(1, 2)`). Deleting one argument of one of
//! them breaks the arity, so element deletion keeps every argument a
//! definition has; deleting the same position from all of them at once
//! keeps it consistent (C-Reduce's parameter removal, by name only).
//! [`delete_columns`] does the same for lists of one length with no name
//! in common (a table's columns and its rows).

use super::super::ddmin::is_word;
use super::super::Tester;
use super::pairs_with_commas;
use std::collections::HashMap;

/// A bracket pair: opener, closer, top-level commas.
pub type Pair = (usize, usize, Vec<usize>);

/// Lists grouped by the name before them, in order of their first list.
pub type Named = Vec<(Vec<u8>, Vec<Pair>)>;

/// The `(…)` pairs of `text` preceded by a word (blanks between allowed),
/// by that word: `(word, pairs)` with each pair as `(open, close,
/// top-level commas)`, words in order of their first call, those with a
/// single pair left out.
///
/// ```
/// use grammar_min::reduce::blind::args::calls;
/// let c = calls(b"f(a, b) g(1) f (1, 2)");
/// assert_eq!(c, [(b"f".to_vec(), vec![(1, 6, vec![3]), (15, 20, vec![17])])]);
/// ```
pub fn calls(text: &[u8]) -> Named {
    let mut out = named_pairs(text);
    out.retain(|(_, ps)| ps.len() >= 2);
    out
}

/// Every `(…)` pair preceded by a word, grouped by that word as in
/// [`calls`], single pairs included.
pub(super) fn named_pairs(text: &[u8]) -> Named {
    grouped(pairs_with_commas(text).into_iter().filter_map(|p| {
        if text[p.0] != b'(' {
            return None;
        }
        let end = text[..p.0].trim_ascii_end().len();
        let start = text[..end]
            .iter()
            .rposition(|&b| !is_word(b))
            .map_or(0, |i| i + 1);
        (start < end).then_some((&text[start..end], p))
    }))
}

/// Lists grouped by the name before them, names in order of their first
/// list.
fn grouped<'t>(items: impl Iterator<Item = (&'t [u8], Pair)>) -> Named {
    let mut out: Named = Vec::new();
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    for (name, p) in items {
        let k = *index.entry(name).or_insert_with(|| {
            out.push((name.to_vec(), Vec::new()));
            out.len() - 1
        });
        out[k].1.push(p);
    }
    out
}

/// The number of arguments in a pair: its top-level commas plus one, or
/// none if it holds only blanks.
pub(super) fn arity(text: &[u8], (o, c, commas): &Pair) -> usize {
    if commas.is_empty() && text[o + 1..*c].trim_ascii().is_empty() {
        0
    } else {
        commas.len() + 1
    }
}

/// The byte range that deleting argument `i` of a pair removes: the
/// argument with the comma before it (the one after it for the first).
fn argument(p: &Pair, i: usize) -> (usize, usize) {
    let (o, c, commas) = p;
    match (i, commas.len()) {
        (_, 0) => (o + 1, *c),
        (0, _) => (o + 1, commas[0] + 1),
        _ => (commas[i - 1], commas.get(i).copied().unwrap_or(*c)),
    }
}

/// `text` without the byte ranges `cuts` (a range inside one already cut
/// is skipped), and the ranges actually cut, in order.
fn cut_all(text: &[u8], mut cuts: Vec<(usize, usize)>) -> (Vec<u8>, Vec<(usize, usize)>) {
    cuts.sort_unstable();
    let mut out = Vec::with_capacity(text.len());
    let mut done = Vec::with_capacity(cuts.len());
    let mut at = 0;
    for (a, b) in cuts {
        if a < at {
            continue; // inside an argument already cut
        }
        out.extend_from_slice(&text[at..a]);
        done.push((a, b));
        at = b;
    }
    out.extend_from_slice(&text[at..]);
    (out, done)
}

/// For each word with two or more `(…)` pairs after it ([`calls`]), each
/// argument position from the last to the first: one candidate deleting
/// that argument from every such pair that has it (nested pairs of the
/// same word: the outer deletion wins). `text` must be known interesting.
pub fn delete_arguments(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    delete_positions(text, tester, calls, false)
}

/// What [`delete_arguments`] cannot align, tried once the other passes
/// are at their fixpoint: lists that end a line after a word
/// ([`line_lists`]: an assembler macro `.macro R r,r2,f` and its call
/// `R x2,,3`), each position from the last to the first; then, for a
/// name whose lists differ in length, positions counted from the end of
/// each (`fn l(&self, p)` and its method call `o.l(x)`, `def f(self, a)`
/// and `o.f(1)`: the receiver is an argument only in the definition).
/// `text` must be known interesting.
pub fn delete_aligned_arguments(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let cur = delete_positions(text, tester, line_lists, false);
    let cur = delete_positions(&cur, tester, calls, true);
    delete_positions(&cur, tester, line_lists, true)
}

/// The engine of the argument passes: for each name of `find`'s groups
/// (in order of the text before the first edit), each position from the
/// last to the first, one candidate deleting that element from every
/// list of the group that has it. `from_end`: positions count from the
/// end of each list, up to the shortest one's length, and only groups
/// whose lists differ in length are tried (for the others it is the same
/// as from the start).
fn delete_positions(
    text: &[u8],
    tester: &mut Tester<'_>,
    find: fn(&[u8]) -> Named,
    from_end: bool,
) -> Vec<u8> {
    let mut cur = text.to_vec();
    // Found again only after a success: one linear scan per change.
    let mut all = find(&cur);
    let names: Vec<Vec<u8>> = all.iter().map(|(n, _)| n.clone()).collect();
    for name in names {
        let mut i = usize::MAX;
        loop {
            if tester.stopped() {
                return cur;
            }
            let Some((_, ps)) = all.iter().find(|(n, _)| *n == name) else {
                break;
            };
            let arities: Vec<usize> = ps.iter().map(|p| arity(&cur, p)).collect();
            let (min, max) = arities
                .iter()
                .fold((usize::MAX, 0), |(a, b), &n| (a.min(n), b.max(n)));
            if from_end && min == max {
                break;
            }
            i = i.min(if from_end { min } else { max });
            if i == 0 {
                break;
            }
            i -= 1;
            let cuts: Vec<(usize, usize)> = ps
                .iter()
                .zip(&arities)
                .filter(|&(_, &n)| n > i)
                .map(|(p, &n)| argument(p, if from_end { n - 1 - i } else { i }))
                .collect();
            let cand = cut_all(&cur, cuts).0;
            if let Some(((), c)) = tester.first_interesting([((), cand)]) {
                cur = c;
                all = find(&cur);
            }
        }
    }
    cur
}

/// The comma lists that end a line after a word and a blank, outside
/// brackets (`R x2,,3`, `.macro R r,r2,f`: both after `R`), grouped by
/// that word as in [`calls`] (two or more lists), each as a [`Pair`]
/// whose opener is the blank before the first element and whose closer
/// is the line's end (its blanks left out).
///
/// ```
/// use grammar_min::reduce::blind::args::line_lists;
/// let l = line_lists(b".macro R a,b\nldp a,b,[sp,8]\nR x0, 1\nf(1,2)");
/// assert_eq!(l, [(b"R".to_vec(), vec![(8, 12, vec![10]), (29, 35, vec![32])])]);
/// ```
pub fn line_lists(text: &[u8]) -> Named {
    let mut at = 0;
    let lines = text.split(|&b| b == b'\n').map(|l| {
        let start = at;
        at += l.len() + 1;
        (start, start + l.len())
    });
    let mut out = grouped(lines.filter_map(|(s, e)| line_list(text, s, e)));
    out.retain(|(_, ps)| ps.len() >= 2);
    out
}

/// The list that ends the line `text[start..end]`, with the word before
/// it ([`line_lists`]); none if the line has no comma outside brackets
/// and string literals, or its brackets do not balance.
fn line_list(text: &[u8], start: usize, end: usize) -> Option<(&[u8], Pair)> {
    let line = &text[start..end];
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (i, b) in super::structural(line) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => commas.push(start + i),
            _ => {}
        }
    }
    let &first = commas.first()?;
    if depth != 0 {
        return None;
    }
    // The blank before the first element, outside its brackets.
    let mut depth = 0usize;
    let mut o = first;
    loop {
        o = o.checked_sub(1).filter(|&o| o >= start)?;
        match text[o] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => depth = depth.checked_sub(1)?,
            b if b.is_ascii_whitespace() && depth == 0 => break,
            _ => {}
        }
    }
    let name_end = start + text[start..o].trim_ascii_end().len();
    let name = &text[name_end - super::word_before(&text[start..name_end])..name_end];
    let close = start + line.trim_ascii_end().len();
    (!name.is_empty()).then_some((name, (o, close, commas)))
}

/// Columns: the `(…)` and `[…]` pairs of two or more elements grouped by
/// bracket and number of elements, whatever precedes them; in each
/// group, each position from the last to the first, one candidate
/// deleting that element from every pair of the group (where that fails,
/// in a group of 3 to 8 pairs, one candidate per pair leaving it whole: a
/// call with as many arguments that happens to sit among them). A
/// table's columns and the rows inserted into it (`CREATE TABLE t(a, b,
/// c)`, `VALUES (1, 2, 3)`), the rows of a matrix: lists that must keep
/// one length with no name in common. Groups in order of their first
/// pair; run once the other passes are at their fixpoint (on a large text
/// most groups are lists of the same length by chance). `text` must be
/// known interesting.
pub fn delete_columns(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    // Largest group whose pairs are also left whole one at a time (a run
    // per pair for each position that stays).
    const MAX_LEAVE_ONE_OUT: usize = 8;
    let mut cur = text.to_vec();
    let mut groups: Vec<((u8, usize), Vec<usize>)> = Vec::new();
    for p in pairs_with_commas(&cur) {
        let n = arity(&cur, &p);
        if cur[p.0] == b'{' || n < 2 {
            continue;
        }
        let key = (cur[p.0], n);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, openers)) => openers.push(p.0),
            None => groups.push((key, vec![p.0])),
        }
    }
    groups.retain(|(_, openers)| openers.len() >= 2);
    // The group's pairs in the current text.
    let members = |text: &[u8], openers: &[usize]| -> Vec<Pair> {
        pairs_with_commas(text)
            .into_iter()
            .filter(|p| openers.binary_search(&p.0).is_ok())
            .collect()
    };
    for (_, mut openers) in groups {
        let mut i = usize::MAX;
        let mut ps = members(&cur, &openers);
        loop {
            if tester.stopped() {
                return cur;
            }
            let n = ps.iter().map(|p| arity(&cur, p)).min().unwrap_or(0);
            i = i.min(n);
            if i == 0 || ps.len() < 2 {
                break;
            }
            i -= 1;
            // Every pair of the group at once. Where that fails, in a group
            // of three to MAX_LEAVE_ONE_OUT, all but one, each in turn: a
            // call with as many arguments among a table and its rows
            // (`RAISE(ABORT,'…')` beside `t(a,b)` and `VALUES(0,0)`) must
            // keep them. The pair left whole then leaves the group.
            let cut_but = |skip: Option<usize>| {
                let cuts = ps
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| Some(k) != skip)
                    .map(|(_, p)| argument(p, i))
                    .collect();
                let (cand, done) = cut_all(&cur, cuts);
                ((skip, done), cand)
            };
            let mut found = tester.first_interesting([cut_but(None)]);
            if found.is_none() && (3..=MAX_LEAVE_ONE_OUT).contains(&ps.len()) {
                found = tester.first_interesting((0..ps.len()).map(|k| cut_but(Some(k))));
            }
            if let Some(((skip, done), c)) = found {
                if let Some(k) = skip {
                    let whole = ps[k].0;
                    openers.retain(|&o| o != whole);
                }
                cur = c;
                // Openers move left by what was cut before them; those
                // inside a cut are gone.
                openers.retain(|&o| !done.iter().any(|&(a, b)| a <= o && o < b));
                for o in &mut openers {
                    *o -= done
                        .iter()
                        .filter(|&&(_, b)| b <= *o)
                        .map(|(a, b)| b - a)
                        .sum::<usize>();
                }
                ps = members(&cur, &openers);
            }
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn an_argument_goes_from_the_definition_and_every_call() {
        // Interesting iff every `f(…)` has the same number of commas and
        // the parameter `y` and the argument `2` are still there.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let arities: Vec<usize> = s
                .split("f(")
                .skip(1)
                .map(|r| r.split(')').next().unwrap_or("").matches(',').count())
                .collect();
            let same = arities.windows(2).all(|w| w[0] == w[1]);
            same && s.contains("y)") && s.contains("2)")
        };
        let input = b"f(x, y){y}\nf(1, 2)\nf(3,2)";
        let (out, runs) = run_pass(delete_arguments, input, p);
        assert_eq!(out, b"f( y){y}\nf( 2)\nf(2)");
        // Position 1, then position 0.
        assert_eq!(runs, 2);
        // One pair at a time cannot: each deletion breaks the arity.
        assert_eq!(run_pass(super::super::delete_elements, input, p).0, input);
    }

    #[test]
    fn a_parameter_goes_across_a_receiver() {
        // Interesting iff the definition starts with its receiver `&self`,
        // its other parameters (`p`, `q`) match the call's arguments (`1`,
        // `2`) one for one, and `x` is still used.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let list = |from: &str| -> Option<Vec<String>> {
                let r = s.split(from).nth(1)?.split(')').next()?;
                Some(r.split(',').map(|a| a.trim().to_string()).collect())
            };
            let (Some(ps), Some(args)) = (list("fn l("), list(".l(")) else {
                return false;
            };
            let named: Vec<&str> = ps[1..]
                .iter()
                .map(|p| match p.split(':').next() {
                    Some("p") => "1",
                    Some("q") => "2",
                    _ => "?",
                })
                .collect();
            let args: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .filter(|a| !a.is_empty())
                .collect();
            ps[0] == "&self" && named == args && s.contains("x;")
        };
        let input = b"fn l(&self, p: u8, q: u8) {x;} o.l(1, 2)";
        let (out, runs) = run_pass(delete_aligned_arguments, input, p);
        assert_eq!(out, b"fn l(&self) {x;} o.l()");
        // From the end: the second to last of each, then the last.
        assert_eq!(runs, 2);
        // Counted from the start, positions are one apart.
        assert_eq!(run_pass(delete_arguments, input, p).0, input);
    }

    #[test]
    fn an_argument_goes_from_a_macro_and_its_call_without_brackets() {
        // Interesting iff the two lists after `R` have one length and `a`
        // and `x0` are still there.
        let p = |c: &[u8]| {
            let l = line_lists(c);
            let same = l.first().is_some_and(|(_, ps)| {
                ps.len() == 2 && ps[0].2.len() == ps[1].2.len() && ps[0].1 < ps[1].0
            });
            let s = String::from_utf8_lossy(c);
            same && s.contains(" a") && s.contains(" x0")
        };
        let input = b".macro R a,b,c\nldp a,b,[sp,8]\n.endm\nR x0,,3\n";
        let (out, runs) = run_pass(delete_aligned_arguments, input, p);
        assert_eq!(out, b".macro R a,b\nldp a,b,[sp,8]\n.endm\nR x0,\n");
        // Positions 2 (goes), 1 (the lists would be gone), 0 (`a` stays).
        assert_eq!(runs, 3);
        assert_eq!(run_pass(delete_arguments, input, p).0, input);
    }

    #[test]
    fn a_column_goes_from_the_table_and_its_rows() {
        // Interesting iff every list has as many elements as the first,
        // and `b INT` and `'x'` are still there.
        let p = |c: &[u8]| {
            let ps = pairs_with_commas(c);
            let n: Vec<usize> = ps.iter().map(|p| p.2.len()).collect();
            let s = String::from_utf8_lossy(c);
            n.windows(2).all(|w| w[0] == w[1]) && s.contains("b INT") && s.contains("'x'")
        };
        let input = b"CREATE TABLE t(a, b INT, c); INSERT INTO t VALUES (1, 'x', 2), (3, 'y', 4);";
        let (out, runs) = run_pass(delete_columns, input, p);
        assert_eq!(
            out,
            b"CREATE TABLE t( b INT); INSERT INTO t VALUES ( 'x'), ( 'y');"
        );
        // Positions 2 (goes), 1 (stays, and so does each of its three
        // leave-one-out candidates), 0 (goes).
        assert_eq!(runs, 6);
        // By name alone nothing goes: the three lists have no name in common.
        assert_eq!(run_pass(delete_arguments, input, p).0, input);
    }

    #[test]
    fn a_call_among_the_columns_keeps_its_arguments() {
        // `RAISE(ABORT, 'x')` has as many arguments as the table and its
        // row, and needs both; every list of the table has one length.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let len = |from: &str| {
                s.split(from)
                    .nth(1)
                    .map(|r| r.split(')').next().unwrap().matches(',').count())
            };
            s.contains("RAISE(ABORT, 'x')") && s.contains("b)") && len("t(") == len("VALUES(")
        };
        let input = b"CREATE TABLE t(a, b); SELECT RAISE(ABORT, 'x'); INSERT INTO t VALUES(1, 2);";
        let (out, runs) = run_pass(delete_columns, input, p);
        assert_eq!(
            out,
            b"CREATE TABLE t( b); SELECT RAISE(ABORT, 'x'); INSERT INTO t VALUES( 2);"
        );
        // Position 1: all three, then each left whole (3 runs, `b` stays);
        // position 0: all three, then the table left whole (fails), then
        // the call (goes).
        assert_eq!(runs, 7);
    }

    #[test]
    fn nested_calls_of_one_name_cut_once() {
        let text = b"g(g(1, 2), 3)";
        let c = calls(text);
        assert_eq!(c.len(), 1);
        let ps = &c[0].1;
        assert_eq!(argument(&ps[0], 0), (2, 10));
        assert_eq!(argument(&ps[1], 1), (5, 8));
        assert_eq!(argument(&ps[0], 1), (9, 12));
    }
}
