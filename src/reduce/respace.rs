//! A text the grammar does not parse as it is: its respacings
//! ([`crate::parse::respace`]), each checked with one oracle run.

use super::{parse_tree, ReduceError, Tester};
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
    let err = match parse_tree(g, text) {
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
/// differ only in a blank at the end.
fn first_difference(text: &[u8], respaced: &[u8]) -> String {
    let lines =
        |t: &[u8]| -> Vec<Vec<u8>> { t.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect() };
    let (a, b) = (lines(text), lines(respaced));
    let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) else {
        return String::new();
    };
    let show = |l: Option<&Vec<u8>>| {
        let s = String::from_utf8_lossy(l.map_or(&[][..], |l| l)).into_owned();
        if s.chars().count() > 60 {
            format!("{}…", s.chars().take(60).collect::<String>())
        } else {
            s
        }
    };
    format!(
        "; first at line {}: `{}` became `{}`",
        i + 1,
        show(a.get(i)),
        show(b.get(i))
    )
}
