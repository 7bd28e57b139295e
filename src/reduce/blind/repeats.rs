//! Repeated token sequences edited in every copy at once, without a
//! grammar. A declaration and its definition must agree: Go's interface
//! method `s() []g` and its implementation `func (*r) s() []g`, a C
//! prototype and its definition, a Java interface and the class that
//! implements it. Deleting part of one copy alone breaks the agreement,
//! and the checker reports a different error; deleting the same part from
//! every copy in one candidate keeps them in step.

use super::super::{ddmin::solid_spans, Tester};
use super::replace_spans;

/// The longest text, in tokens that are not blank, searched for repeats
/// (the search compares every pair of positions).
const MAX_TOKENS: usize = 400;

/// The fewest tokens a repeat has: shorter ones are the adjacent-token
/// pass's, and most of them (`()`, `);`) repeat by chance.
const MIN_LEN: usize = 3;

/// The repeats of `text`: maximal runs of at least `MIN_LEN` tokens that
/// are not blank (blanks between them may differ) occurring two or more
/// times, no two copies touching, each as the byte spans of its tokens
/// in each occurrence, in order of the first occurrence; none for a text
/// of more than `MAX_TOKENS` tokens.
///
/// ```
/// use grammar_min::reduce::blind::repeats::repeats;
/// let r = repeats(b"type S interface{s() []g}\nfunc (*r) s() []g {}");
/// assert_eq!(r.len(), 1);
/// assert_eq!(r[0].len(), 2); // two occurrences of `s ( ) [ ] g`
/// assert_eq!(r[0][1][0], (36, 37));
/// ```
pub fn repeats(text: &[u8]) -> Vec<Vec<Vec<(usize, usize)>>> {
    let spans = solid_spans(text);
    let n = spans.len();
    if n > MAX_TOKENS {
        return Vec::new();
    }
    let toks: Vec<&[u8]> = spans.iter().map(|&(a, b)| &text[a..b]).collect();
    let mut found: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            // Left-maximal: a longer run starts one token earlier.
            if toks[i] != toks[j] || (i > 0 && toks[i - 1] == toks[j - 1]) {
                continue;
            }
            let mut l = 0;
            while j + l < n && i + l < j && toks[i + l] == toks[j + l] {
                l += 1;
            }
            let seq = &toks[i..i + l];
            if l >= MIN_LEN && !found.iter().any(|&(s, m)| toks[s..s + m] == *seq) {
                found.push((i, l));
            }
        }
    }
    found.sort_unstable();
    let mut out = Vec::new();
    for (i, l) in found {
        let seq = &toks[i..i + l];
        let mut starts: Vec<usize> = Vec::new();
        let mut k = 0;
        while k + l <= n {
            if toks[k..k + l] == *seq {
                starts.push(k);
                k += l;
            } else {
                k += 1;
            }
        }
        // Copies that touch are a run, not a declaration and its
        // definition (`[[[[[[` holds `[[[` twice).
        if starts.windows(2).all(|w| w[1] > w[0] + l) {
            out.push(starts.iter().map(|&k| spans[k..k + l].to_vec()).collect());
        }
    }
    out
}

/// `text` with every occurrence of `rep` cut from its token `a` on
/// ([`splice`](super::splice)d, so no two words fuse).
fn cut_tail(text: &[u8], rep: &[Vec<(usize, usize)>], a: usize) -> Vec<u8> {
    let cuts = rep
        .iter()
        .map(|occ| (occ[a].0, occ[occ.len() - 1].1, &b""[..]));
    replace_spans(text, cuts).expect("a repeat's occurrences are in order and apart")
}

/// For each repeat ([`repeats`]) in order, one candidate per run of its
/// tokens that ends it, deleted from every occurrence at once: the whole
/// repeat, then its tails from the longest (`s() []g` → `s()` in both
/// copies: a result type, which follows the parameters in Go, Rust and
/// TypeScript); only those that make the text shorter (a blank keeps two
/// words apart where a bracket stood: `f(x` → `f x`). Run once the other
/// passes are at their fixpoint (on a large text most repeats are
/// chance). `text` must be known interesting.
pub fn delete_repeats(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(text, tester, repeats, |cur, rep| {
        (0..rep[0].len())
            .map(|a| cut_tail(cur, rep, a))
            .filter(|c| c.len() < cur.len())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn a_result_type_goes_from_a_declaration_and_its_definition() {
        // Interesting iff the method `s` is declared in the interface and
        // defined, with one signature, and `Store` is still implemented
        // through a pointer.
        let p = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let sig = |from: &str| {
                s.split(from)
                    .nth(1)
                    .map(|r| r.split(['}', '{']).next().unwrap().trim().to_string())
            };
            let (Some(a), Some(b)) = (sig("type Store interface{"), sig("func (*r) ")) else {
                return false;
            };
            a == b && a.starts_with("s()") && s.contains("var m r")
        };
        let input = b"type Store interface{s() []g}\nfunc (*r) s() []g {}\nvar m r";
        let (out, runs) = run_pass(delete_repeats, input, p);
        assert_eq!(
            out,
            b"type Store interface{s() }\nfunc (*r) s()  {}\nvar m r"
        );
        // The whole (gone: no `s()`), `( ) [ ] g`, `) [ ] g`, then `[ ] g`;
        // then `s ( )`, the repeat that is left, keeps its three tails.
        assert_eq!(runs, 4 + 3);
        // One copy at a time breaks the agreement.
        let one = super::super::super::ddmin::delete_adjacent_tokens;
        assert_eq!(run_pass(one, input, p).0, input);
    }

    #[test]
    fn repeats_are_maximal_and_do_not_overlap() {
        // `a b c` three times, not `a b c x a b c` twice.
        let r = repeats(b"a b c x a b c y a b c");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].len(), 3);
        assert_eq!(r[0][0].len(), 3);
        // Copies that touch are a run: a deep nest has no repeat.
        assert!(repeats(b"[[[[[[[[0]]]]]]]]").is_empty());
        // Two tokens are too few.
        assert!(repeats(b"f() g() h()").is_empty());
    }
}
