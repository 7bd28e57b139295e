//! Deep nests without a grammar: `[[[[…]]]]`, the input of a stack
//! overflow in a recursive-descent parser. The pair pass would try each
//! level with one or two runs; a nest's failure usually needs a depth,
//! which makes the levels' candidates monotone and a binary search
//! possible.

use super::super::Tester;
use crate::oracle::Outcome;

/// How deep an immediate nest must be for [`shrink_nest`].
pub(super) const NEST: usize = 4;

/// `ps[k]` and the pairs immediately nested in it, outer first: each is
/// the whole contents of the one before, up to blanks (`[[[x]]]` gives
/// all three).
pub(super) fn nest_from(text: &[u8], ps: &[(usize, usize)], k: usize) -> Vec<(usize, usize)> {
    let mut out = vec![ps[k]];
    let (mut o, mut c) = ps[k];
    for &(o2, c2) in &ps[k + 1..] {
        let inside = |a: usize, b: usize| text[a..b].iter().all(|b| b.is_ascii_whitespace());
        if !(o2 > o && c2 < c && inside(o + 1, o2) && inside(c2 + 1, c)) {
            break;
        }
        out.push((o2, c2));
        (o, c) = (o2, c2);
    }
    out
}

/// The nest from `ps[k]` (see [`nest_from`]) put in place of the
/// outermost pair around it, or else of the innermost one, with the name
/// before a `(` or `[` ([`super::hoist::head`]): `{"a": [{"b": [[[[…]]]]}]}`
/// → `[[[[…]]]]`. Levels of a wrapper often cost more bytes than the
/// nest's own (`{"":` against `[`), and once the nest has shrunk to the
/// depth the failure needs, no wrapper can go. The text and the index of
/// the nest in it after the first success, or `None` (at most two runs).
pub(super) fn hoist_nest(
    text: &[u8],
    ps: &[(usize, usize)],
    k: usize,
    tester: &mut Tester<'_>,
) -> Option<(Vec<u8>, usize)> {
    let (o, c) = ps[k];
    let around: Vec<usize> = (0..k).filter(|&j| ps[j].0 < o && ps[j].1 > c).collect();
    let mut js: Vec<usize> = around.first().copied().into_iter().collect();
    js.extend(around.last().filter(|&&j| js.first() != Some(&j)));
    let cands = js.into_iter().map(|j| {
        let (a, b) = ps[j];
        // The pairs before the head are unchanged: the nest is the `j`th.
        let head = super::hoist::head(text, a);
        (
            j,
            super::splice(&[&text[..head], &text[o..=c], &text[b + 1..]]),
        )
    });
    tester.first_interesting(cands).map(|(j, next)| (next, j))
}

/// Shrinks an immediate nest (see [`nest_from`]) in a logarithmic
/// number of runs, where the pair pass would spend one or two per level:
/// a failure that a nest causes usually needs a depth, so deleting a
/// level with its contents keeps it the more levels it keeps, and taking
/// out `m` levels keeps it up to some `m`. The outermost level whose
/// deletion with its contents keeps the failure is found by binary
/// search; failing that, the most levels that go at once (from the top
/// of the nest) by doubling, then halving. The text with the first
/// success, or `None`.
pub(super) fn shrink_nest(
    text: &[u8],
    nest: &[(usize, usize)],
    tester: &mut Tester<'_>,
) -> Option<Vec<u8>> {
    let cut = |j: usize| super::splice(&[&text[..nest[j].0], &text[nest[j].1 + 1..]]);
    let (mut lo, mut hi) = (0, nest.len());
    while lo < hi && !tester.stopped() {
        let mid = (lo + hi) / 2;
        if tester.test(&cut(mid)) == Outcome::Interesting {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if hi < nest.len() {
        // Tested interesting above.
        let c = cut(hi);
        tester.accept(&c);
        return Some(c);
    }
    // The top `m` levels out: from the first opener to the first kept
    // one, and from after the first kept closer to the last closer.
    let lift = |m: usize| {
        let (o0, c0) = nest[0];
        let (a, b) = match nest.get(m) {
            Some(&(o, c)) => (o, c + 1),
            None => (nest[m - 1].0 + 1, nest[m - 1].1),
        };
        super::splice(&[&text[..o0], &text[a..b], &text[c0 + 1..]])
    };
    let (mut good, mut bad) = (0, nest.len() + 1);
    let mut m = 1;
    while m < bad && m > good && !tester.stopped() {
        if tester.test(&lift(m)) == Outcome::Interesting {
            good = m;
            m = if bad > nest.len() {
                (2 * m).min(nest.len())
            } else {
                (m + bad) / 2
            };
            if m == good {
                break;
            }
        } else {
            bad = m;
            m = (good + bad) / 2;
        }
    }
    (good > 0).then(|| {
        let c = lift(good);
        tester.accept(&c);
        c
    })
}

#[cfg(test)]
mod tests {
    use super::super::delete_pairs;
    use super::super::tests::run_pass;

    /// Interesting iff brackets nest at least `deep` levels and `x` is
    /// in the text.
    fn nested(deep: usize) -> impl FnMut(&[u8]) -> bool {
        move |c: &[u8]| {
            let (mut d, mut most) = (0usize, 0);
            for &b in c {
                match b {
                    b'[' => d += 1,
                    b']' => d = d.saturating_sub(1),
                    _ => {}
                }
                most = most.max(d);
            }
            most >= deep && super::super::tests::balanced(c) && c.contains(&b'x')
        }
    }

    #[test]
    fn a_nest_leaves_the_pairs_around_it() {
        // JSON nesting lists 6 deep, and (second) an object at the top.
        let deep = |c: &[u8]| {
            let v: Result<serde_json::Value, _> = serde_json::from_slice(c);
            v.is_ok() && nested(6)(c)
        };
        let pass: fn(&[u8], &mut super::Tester<'_>) -> Vec<u8> = |t, tester| {
            let ps = super::super::pairs(t);
            let k = (0..ps.len())
                .find(|&k| super::nest_from(t, &ps, k).len() >= super::NEST)
                .unwrap();
            super::hoist_nest(t, &ps, k, tester).map_or(t.to_vec(), |(next, j)| {
                // The nest is the `j`th pair of the new text.
                let ps = super::super::pairs(&next);
                assert_eq!(super::nest_from(&next, &ps, j).len(), 8);
                next
            })
        };
        let input = br#"{"a": [1, {"b": [[[[[[[["x"]]]]]]]]}], "c": 3}"#;
        let (out, runs) = run_pass(pass, input, deep);
        assert_eq!((&out[..], runs), (&br#"[[[[[[[["x"]]]]]]]]"#[..], 1));
        let (out, runs) = run_pass(pass, input, |c| c[0] == b'{' && deep(c));
        let want = br#"{"a": [1, [[[[[[[["x"]]]]]]]]], "c": 3}"#;
        assert_eq!((&out[..], runs), (&want[..], 2));
    }

    #[test]
    fn a_deep_nest_shrinks_in_few_runs() {
        let deep = |n: usize| format!("[1, {}x{}, 2]", "[ ".repeat(n), "]".repeat(n));
        // 300 levels where 40 are needed: 260 go in a few runs.
        let (out, runs) = run_pass(delete_pairs, deep(300).as_bytes(), nested(40));
        let want = format!("1, {}x{}, 2", "[ ".repeat(40), "]".repeat(40));
        assert_eq!(String::from_utf8_lossy(&out), want);
        assert!(runs < 50, "{runs}");
        // Every level needed: about two runs per 1,000 levels' log.
        let input = deep(1000);
        let (out, runs) = run_pass(delete_pairs, input.as_bytes(), nested(1001));
        assert_eq!(out, input.as_bytes());
        assert!(runs < 40, "{runs}");
    }
}
