//! Shortening a word everywhere it occurs at once, as C-Reduce's renaming
//! passes and Hypothesis' shrinking of duplicated blocks do: a name that
//! is defined and used (`let total = 1; print(total)`), a key inserted
//! twice (`VALUES (19), (19)`). Deleting a character of one occurrence
//! breaks the link between them, so the byte polish keeps every one
//! whole; deleting it from all of them keeps the link.

use super::ddmin::{delete_sweep, is_word, tokens};
use super::Tester;
use crate::oracle::Outcome;

/// For each word token (a run of [`is_word`] bytes, at least 2 long, not
/// one of `keywords`) that occurs at least twice, longest first: the
/// characters deleted from every occurrence alike, one at a time
/// ([`delete_sweep`] over the word's bytes, so the result is 1-minimal
/// for such deletions and at least one character stays). Words are
/// matched as whole tokens (`t1` is no occurrence of `t`). `text` must
/// be known interesting. Costs no oracle run when no word repeats.
pub fn shorten_repeated_words(
    text: &[u8],
    keywords: &[Vec<u8>],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let mut cur = text.to_vec();
    for w in repeated_words(&cur, keywords) {
        if tester.stopped() {
            break;
        }
        let toks: Vec<Vec<u8>> = tokens(&cur).into_iter().map(<[u8]>::to_vec).collect();
        let render = &mut |chars: &[u8]| -> Vec<u8> {
            let mut out = Vec::with_capacity(cur.len());
            for t in &toks {
                out.extend_from_slice(if *t == w { chars } else { t });
            }
            out
        };
        // A value every occurrence of which is a whole quoted string (an
        // XML attribute's `id="9"` … `parent="9"`) can go entirely: one
        // run.
        if always_quoted(&toks, &w) {
            let empty = render(b"");
            if tester.test(&empty) == Outcome::Interesting {
                tester.accept(&empty);
                cur = empty;
                continue;
            }
        }
        if w.len() < 2 {
            continue;
        }
        let short = delete_sweep(w.clone(), tester, render);
        if short != w {
            cur = render(&short);
        }
    }
    cur
}

/// Whether every occurrence of the token `w` in `toks` stands alone
/// between two equal quotes (`"w"` or `'w'`).
fn always_quoted<T: AsRef<[u8]>>(toks: &[T], w: &[u8]) -> bool {
    let quote = |i: usize| matches!(toks[i].as_ref(), b"\"" | b"'");
    (0..toks.len()).filter(|&i| toks[i].as_ref() == w).all(|i| {
        i > 0 && i + 1 < toks.len() && quote(i - 1) && toks[i - 1].as_ref() == toks[i + 1].as_ref()
    })
}

/// The words [`shorten_repeated_words`] works on, longest first (then in
/// byte order, so the order does not depend on the text's layout): at
/// least 2 long, or [`always_quoted`] (tried as the empty string only).
pub(super) fn repeated_words(text: &[u8], keywords: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let toks = tokens(text);
    let mut words: Vec<&[u8]> = toks
        .iter()
        .copied()
        .filter(|t| is_word(t[0]))
        .filter(|t| keywords.binary_search_by(|k| k.as_slice().cmp(t)).is_err())
        .collect();
    words.sort_unstable();
    let mut out: Vec<Vec<u8>> = words
        .chunk_by(|a, b| a == b)
        .filter(|run| run.len() >= 2)
        .filter(|run| run[0].len() >= 2 || always_quoted(&toks, run[0]))
        .map(|run| run[0].to_vec())
        .collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    out
}

/// A token kind must occur this often, and make at least a tenth of the
/// tokens, before [`delete_frequent_tokens`] tries it.
pub const FREQUENT_TOKENS: usize = 64;

/// Each token that makes up a large share of a long text (at least
/// [`FREQUENT_TOKENS`] occurrences and a tenth of its tokens, blanks
/// aside), most bytes first, deleted everywhere at once: one run per
/// kind. A generated nest `{a:{a:{a:…` whose depth is the failure keeps
/// failing without its `a`s and `:`s, but the single-token sweep, whose
/// twin skipping makes a run of identical tokens cheap, pays a run for
/// each of thousands of interleaved ones. A kind whose deletion did not
/// fail is added to `kept` and not tried again (the grammar-blind rounds
/// call this once per round). `text` must be known interesting; no run
/// on a text without such a kind.
pub fn delete_frequent_tokens(
    text: &[u8],
    kept: &mut Vec<Vec<u8>>,
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let mut cur = text.to_vec();
    let toks = tokens(&cur);
    let mut counts: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    for t in &toks {
        if !t.iter().all(u8::is_ascii_whitespace) {
            *counts.entry(t).or_default() += 1;
        }
    }
    let mut kinds: Vec<(usize, Vec<u8>)> = counts
        .into_iter()
        .filter(|&(t, n)| {
            n >= FREQUENT_TOKENS && n * 10 >= toks.len() && !kept.iter().any(|k| k == t)
        })
        .map(|(t, n)| (n * t.len(), t.to_vec()))
        .collect();
    kinds.sort_by(|a, b| b.cmp(a));
    for (_, kind) in kinds {
        if tester.stopped() {
            break;
        }
        let without: Vec<u8> = tokens(&cur)
            .into_iter()
            .filter(|t| *t != kind.as_slice())
            .flatten()
            .copied()
            .collect();
        if tester.test(&without) == Outcome::Interesting {
            tester.accept(&without);
            cur = without;
        } else {
            kept.push(kind);
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::FnOracle;

    /// Interesting iff some name is declared by `let NAME =` and printed
    /// by `print(NAME)`.
    fn declared_and_used(c: &[u8]) -> Outcome {
        let s = String::from_utf8_lossy(c);
        let used = s.split("let ").skip(1).any(|rest| {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
            !name.is_empty() && s.contains(&format!("print({name})"))
        });
        if used {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    }

    #[test]
    fn a_frequent_token_goes_everywhere_at_once() {
        // A nest whose depth is the failure: 100 `{`, each with `a:`.
        let mut o = FnOracle::new(|c: &[u8]| {
            if c.iter().filter(|&&b| b == b'{').count() >= 100 {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let text = b"{a: ".repeat(100);
        let mut kept = Vec::new();
        let out = delete_frequent_tokens(&text, &mut kept, &mut t);
        // `{` stays (one run), `a` and `:` go (one run each); blanks are
        // no kind (the squeeze and the sweep take them).
        assert_eq!(out, b"{ ".repeat(100));
        assert_eq!(kept, [b"{".to_vec()]);
        assert_eq!(t.runs(), 3);
        // A kind kept once is not tried again; a short text has none.
        assert_eq!(delete_frequent_tokens(&out, &mut kept, &mut t), out);
        assert_eq!(
            delete_frequent_tokens(b"{a:{a:", &mut Vec::new(), &mut t),
            b"{a:{a:"
        );
        assert_eq!(t.runs(), 3);
    }

    #[test]
    fn a_name_shrinks_in_every_place_at_once() {
        let mut o = FnOracle::new(declared_and_used);
        let mut t = Tester::new(&mut o);
        let text = b"let total = 1; print(total); let x9 = total;";
        let out = shorten_repeated_words(text, &[b"print".to_vec()], &mut t);
        // `total` keeps one character; `print` is a keyword; `x9` occurs
        // once; `1` is one character long.
        assert_eq!(
            String::from_utf8_lossy(&out),
            "let l = 1; print(l); let x9 = l;"
        );
        assert_eq!(declared_and_used(&out), Outcome::Interesting);
    }

    #[test]
    fn a_value_quoted_everywhere_goes_entirely() {
        // Interesting iff some id (not empty) is a parent.
        let mut o = FnOracle::new(|c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let ids = s
                .split("id=\"")
                .skip(1)
                .map(|r| r.split('"').next().unwrap());
            let parents: Vec<_> = s
                .split("parent=\"")
                .skip(1)
                .map(|r| r.split('"').next().unwrap())
                .collect();
            if ids
                .into_iter()
                .any(|i| !i.is_empty() && parents.contains(&i))
            {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        let text = br#"<c id="9" parent="2"/><c id="2" parent="9"/><p c='x'/><q c='x'/>"#;
        let out = shorten_repeated_words(text, &[], &mut t);
        // `2` and `9` are quoted wherever they occur; `x` too, and is not
        // needed; `c` and `p` are not quoted.
        assert_eq!(
            String::from_utf8_lossy(&out),
            r#"<c id="9" parent=""/><c id="" parent="9"/><p c=''/><q c=''/>"#
        );
        assert!(repeated_words(b"a \"a\" 'b' b \"c' \"c'", &[]).is_empty());
    }

    #[test]
    fn words_match_whole_tokens_only() {
        assert_eq!(repeated_words(b"t1 t t1 tt t", &[]), [b"t1".to_vec()]);
        assert!(repeated_words(b"ab ab", &[b"ab".to_vec()]).is_empty());
    }
}
