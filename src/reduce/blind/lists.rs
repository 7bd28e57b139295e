//! Lists outside brackets: `INSERT INTO t VALUES (1, 'a'), (2, 'b'), …`,
//! `x = 1, 2, 3`, `print a, b`, a CSV row; and inside brackets. In
//! brackets ([`delete_elements`]) the opener and the closer bound the
//! first and the last element; outside them
//! ([`delete_list_elements`]) the first element starts somewhere in
//! the statement, so the elements after it go by ddmin, each with the
//! comma before it, and the first one is guessed.

use super::super::{ddmin, Tester};
use crate::oracle::Outcome;

/// List elements deleted with their commas: in every bracket pair whose
/// contents hold top-level commas (`[1, {"a": 2}, 3]`, `f(a, b)`,
/// `{"k": v, "l": w}`), ddmin over the elements, joined by commas again
/// (so a 50,000-element list whose one element matters goes in O(log n)
/// runs). A pair deletion leaves a list's separators behind (`[1, , 3]`)
/// and token chunks rarely align with an element; this is Perses' list
/// deletion without a grammar. Pairs in order of their opener, outer
/// first. `text` must be known interesting.
pub fn delete_elements(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    let mut ps = super::pairs_with_commas(&cur);
    let mut k = 0;
    while let Some((o, c, cs)) = ps.get(k) {
        if tester.stopped() {
            break;
        }
        let (o, c) = (*o, *c);
        k += 1;
        if cs.is_empty() {
            continue;
        }
        let mut bounds = vec![o];
        bounds.extend_from_slice(cs);
        bounds.push(c);
        let elems: Vec<&[u8]> = bounds.windows(2).map(|w| &cur[w[0] + 1..w[1]]).collect();
        let n = elems.len();
        let render = &mut |u: &[&[u8]]| {
            let mut out = Vec::with_capacity(cur.len());
            out.extend_from_slice(&cur[..=o]);
            out.extend_from_slice(&u.join(&b","[..]));
            out.extend_from_slice(&cur[c..]);
            out
        };
        let kept = ddmin::ddmin(elems, tester, render, None);
        if kept.len() < n {
            let next = render(&kept);
            cur = next;
            // The pairs before this one are unchanged, and this one keeps
            // its index; those inside deleted elements are gone.
            ps = super::pairs_with_commas(&cur);
        }
    }
    cur
}

/// The statements of `text`, split at `;` and line ends outside brackets,
/// that hold commas outside brackets: each as its start, its end and
/// those commas. Brackets are counted without regard to quotes, as in
/// [`super::pairs`].
///
/// ```
/// use grammar_min::reduce::blind::lists::top_level_lists;
/// let t = b"f(a, b);\nINSERT INTO t VALUES (1, 2), (3, 4);";
/// assert_eq!(top_level_lists(t), [(9, t.len() - 1, vec![36])]);
/// ```
pub fn top_level_lists(text: &[u8]) -> Vec<(usize, usize, Vec<usize>)> {
    let mut out = Vec::new();
    let (mut start, mut commas) = (0, Vec::new());
    for (i, b) in super::outside_brackets(text) {
        match b {
            b',' => commas.push(i),
            b';' | b'\n' => {
                if !commas.is_empty() {
                    out.push((start, i, std::mem::take(&mut commas)));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if !commas.is_empty() {
        out.push((start, text.len(), commas));
    }
    out
}

/// `text` split after each `;` outside brackets, each piece with the
/// blanks after its `;` (so statements one per line are the lines, and a
/// sweep over them repeats the line sweep's candidates, cached): the
/// statements of SQL, of a shell or C line, of minified code, for
/// [`ddmin::chunk_sweep_from_end`]. Brackets are counted as in
/// [`top_level_lists`].
///
/// ```
/// use grammar_min::reduce::blind::lists::statements;
/// let t = b"CREATE TABLE t(a; b);  SELECT 1;\nx";
/// assert_eq!(statements(t), [&b"CREATE TABLE t(a; b);  "[..], b"SELECT 1;\n", b"x"]);
/// ```
pub fn statements(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut from = 0;
    for (i, _) in super::outside_brackets(text).filter(|&(_, b)| b == b';') {
        let blanks = text[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        out.push(&text[from..i + 1 + blanks]);
        from = i + 1 + blanks;
    }
    if from < text.len() {
        out.push(&text[from..]);
    }
    out
}

/// Deletes the last statement of a text whose statements are separated,
/// not terminated, by `;` (`a;b;c`), with the `;` before it: the sweep
/// over [`statements`] deletes `c` alone and leaves `a;b;`, a syntax error
/// where `;` separates. One run per statement that goes, one more for the
/// one that stays. `text` must be known interesting.
///
/// ```
/// use grammar_min::oracle::{FnOracle, Outcome};
/// use grammar_min::reduce::{blind::lists::drop_last_separated, Tester};
/// let mut o = FnOracle::new(|c: &[u8]| {
///     if c.starts_with(b"f(7)") && !c.ends_with(b";") { Outcome::Interesting } else { Outcome::NotInteresting }
/// });
/// let mut t = Tester::new(&mut o);
/// assert_eq!(drop_last_separated(b"f(7);r(1); s(2)", &mut t), b"f(7)");
/// ```
pub fn drop_last_separated(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    while !tester.stopped() {
        let end = cur
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |e| e + 1);
        if end == 0 || cur[end - 1] == b';' {
            break;
        }
        let Some((last, _)) = super::outside_brackets(&cur[..end])
            .filter(|&(_, b)| b == b';')
            .last()
        else {
            break;
        };
        let mut cand = cur[..last].to_vec();
        cand.extend_from_slice(&cur[end..]);
        if tester.test(&cand) != Outcome::Interesting {
            break;
        }
        tester.accept(&cand);
        cur = cand;
    }
    cur
}

/// `text` split after each `;`, line end or `}` that leaves it outside
/// brackets: the statements and blocks of a program on one line
/// (`int f(){…} int g(){…};x=1;`), for a coarse cut of minified code.
///
/// ```
/// use grammar_min::reduce::blind::lists::top_level_units;
/// let t = b"int f(){a;}int g(){b;};x=(1;2);y";
/// assert_eq!(top_level_units(t), [&b"int f(){a;}"[..], b"int g(){b;}", b";", b"x=(1;2);", b"y"]);
/// ```
pub fn top_level_units(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0usize, 0);
    for (i, &b) in text.iter().enumerate() {
        let end = match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                false
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                false
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                depth == 0
            }
            b';' | b'\n' => depth == 0,
            _ => false,
        };
        if end {
            out.push(&text[from..=i]);
            from = i + 1;
        }
    }
    if from < text.len() {
        out.push(&text[from..]);
    }
    out
}

/// Where the first element of the list whose statement starts at `s` and
/// whose first comma is at `comma` may start, most likely first: at the
/// opener of a pair that ends right before the comma (`VALUES (1, 2),`),
/// and after the last blank outside brackets (`x = 1,`).
fn first_starts(text: &[u8], s: usize, comma: usize) -> Vec<usize> {
    let head = &text[s..comma];
    let end = s + head.trim_ascii_end().len();
    let mut out = Vec::with_capacity(2);
    if end > s && matches!(text[end - 1], b')' | b']' | b'}') {
        let mut depth = 0usize;
        for i in (s..end).rev() {
            match text[i] {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                out.push(i);
                break;
            }
        }
    }
    let mut depth = 0usize;
    for i in (s..end).rev() {
        match text[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => depth = depth.saturating_sub(1),
            b if depth == 0 && b.is_ascii_whitespace() => {
                if !out.contains(&(i + 1)) {
                    out.push(i + 1);
                }
                break;
            }
            _ => {}
        }
    }
    out
}

/// The elements of lists outside brackets (see [`top_level_lists`])
/// deleted: in each such statement, ddmin over the elements after the
/// first, each with the comma before it (so a long list whose one
/// element matters goes in O(log n) runs); then the first element, from
/// where `first_starts` guesses it begins, with the comma after it
/// (`VALUES (6, 'a'), (9, 'b')` → `VALUES (9, 'b')`). Statements in
/// order; after a success the walk goes on from the same one. `text`
/// must be known interesting.
pub fn delete_list_elements(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    let mut cur = text.to_vec();
    let mut ls = top_level_lists(&cur);
    let mut k = 0;
    while let Some((s, e, cs)) = ls.get(k) {
        if tester.stopped() {
            break;
        }
        let (s, e) = (*s, *e);
        // From each comma to the next, or to the statement's end.
        let mut bounds = cs.clone();
        bounds.push(e);
        let items: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
        let n = items.len();
        let first = cs[0];
        let render = &mut |u: &[(usize, usize)]| {
            let mut out = Vec::with_capacity(cur.len());
            out.extend_from_slice(&cur[..first]);
            for &(a, b) in u {
                out.extend_from_slice(&cur[a..b]);
            }
            out.extend_from_slice(&cur[e..]);
            out
        };
        // ddmin leaves a single unit alone.
        let kept = if n == 1 && tester.test(&render(&[])) == Outcome::Interesting {
            tester.accept(&render(&[]));
            Vec::new()
        } else {
            ddmin::ddmin(items, tester, render, None)
        };
        let mut next = (kept.len() < n).then(|| render(&kept));
        if !kept.is_empty() && !tester.stopped() {
            // The first element goes with the comma after it.
            let t = next.as_deref().unwrap_or(&cur);
            let rest = t[first + 1..].trim_ascii_start();
            let cands = first_starts(t, s, first)
                .into_iter()
                .map(|a| ((), super::splice(&[&t[..a], rest])));
            if let Some(((), c)) = tester.first_interesting(cands) {
                next = Some(c);
            }
        }
        match next {
            Some(t) => {
                // The statements before this one are unchanged.
                cur = t;
                ls = top_level_lists(&cur);
            }
            None => k += 1,
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::super::tests::{numbers, run_pass};
    use super::*;

    #[test]
    fn first_elements_start_at_a_pair_or_a_blank() {
        let t = b"INSERT INTO t VALUES (1, 2), (3, 4)";
        assert_eq!(first_starts(t, 0, 27), [21]);
        let t = b"x = f(1), 2";
        assert_eq!(first_starts(t, 0, 8), [5, 4]);
        let t = b"x = 1, 2";
        assert_eq!(first_starts(t, 0, 5), [4]);
        assert!(first_starts(b"1, 2", 0, 1).is_empty());
    }

    #[test]
    fn a_row_list_keeps_the_two_rows_that_clash() {
        // Interesting iff a row's key, the digit after `(`, repeats.
        let clash = |c: &[u8]| {
            let keys: Vec<u8> = c
                .windows(2)
                .filter(|w| w[0] == b'(')
                .map(|w| w[1])
                .collect();
            let ok = c.starts_with(b"CREATE;INSERT VALUES (") && c.ends_with(b");");
            ok && (1..keys.len()).any(|i| keys[..i].contains(&keys[i]))
        };
        let input = b"CREATE;INSERT VALUES (6, 'a'), (9, 'b'), (5, ''), (9, 'c'), (3, 'd');";
        let (out, runs) = run_pass(delete_list_elements, input, clash);
        assert_eq!(out, b"CREATE;INSERT VALUES (9, 'b'), (9, 'c');");
        assert!(runs <= 12, "{runs}");
        // Nothing to do where every element is needed: the second
        // element, then the first.
        let (out, runs) = run_pass(delete_list_elements, b"x = 1, 2", |c| c == b"x = 1, 2");
        assert_eq!((&out[..], runs), (&b"x = 1, 2"[..], 2));
    }

    #[test]
    fn a_long_list_loses_its_elements_in_few_runs() {
        let input = format!("print {};", numbers(1000, ", "));
        let (out, runs) = run_pass(delete_list_elements, input.as_bytes(), |c| {
            c.windows(5).any(|w| w == b" 777,")
        });
        assert_eq!(out, b"print 777, 778;");
        assert!(runs < 60, "{runs}");
    }
}
