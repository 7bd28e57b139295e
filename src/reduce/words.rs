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
