//! A text the grammar does not parse as it is: its respacings
//! ([`crate::parse::respace`]), each checked with one oracle run.

use super::{unparseable, ReduceError, Tester};
use crate::grammar::Grammar;
use crate::oracle::Outcome;
use crate::parse::Respacing;
use crate::tree::Tree;

/// The tree of `text`; if it does not parse, of the first text that
/// differs from it in blanks and letter case only, parses and still fails
/// ([`crate::parse::respace`]: one oracle run per text that parses),
/// given with it.
pub(super) fn parse_respaced(
    g: &Grammar,
    text: &[u8],
    tester: &mut Tester<'_>,
) -> Result<(Tree, Option<Vec<u8>>), ReduceError> {
    let err = match crate::parse::parse(g, text) {
        Ok(t) => return Ok((t, None)),
        Err(e) => e,
    };
    let mut gone = None;
    for how in Respacing::ALL {
        let Some(r) = crate::parse::respace(g, text, how) else {
            continue;
        };
        if tester.test(&r.text) == Outcome::Interesting {
            return Ok((r.tree, Some(r.text)));
        }
        gone.get_or_insert((how, r.text));
    }
    // An error on a blank is reported past the blanks, where respacing
    // cannot help: worked out only now, when no respacing did.
    let err = unparseable(crate::parse::past_blanks(g, text, err));
    Err(match (err, gone) {
        (
            ReduceError::Unparseable {
                offset,
                line,
                column,
                message,
            },
            Some((how, respaced)),
        ) => ReduceError::Unparseable {
            offset,
            line,
            column,
            message: format!(
                "{message}\n(with {} it parses, but the oracle no longer calls it \
                 interesting: the difference matters to the failure{})",
                how.describe(),
                first_difference(text, &respaced)
            ),
        },
        (e, _) => e,
    })
}

/// Where `respaced` first differs from `text`, as `; first at line N:
/// `…` became `…`` (the two lines, shortened), or nothing if the texts
/// are equal.
pub fn first_difference(text: &[u8], respaced: &[u8]) -> String {
    let (mut a, mut b) = (text.split(|&c| c == b'\n'), respaced.split(|&c| c == b'\n'));
    let show = |l: Option<&[u8]>| {
        let s = String::from_utf8_lossy(l.unwrap_or_default());
        match s.char_indices().nth(60) {
            Some((cut, _)) => format!("{}…", &s[..cut]),
            None => s.into_owned(),
        }
    };
    for line in 1.. {
        match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) if x != y => {
                return format!("; first at line {line}: `{}` became `{}`", show(x), show(y))
            }
            _ => {}
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn the_first_changed_line_is_named() {
        assert_eq!(
            first_difference(b"a\nbb\nc", b"a\nb b\nc"),
            "; first at line 2: `bb` became `b b`"
        );
        assert_eq!(
            first_difference(b"a\nb", b"a"),
            "; first at line 2: `b` became ``"
        );
        assert_eq!(first_difference(b"a\nb", b"a\nb"), "");
    }
}
