//! Markup elements without a grammar: `<name …>…</name>` (XML, HTML, SVG,
//! RSS) deleted whole, or its two tags deleted with the content kept, and
//! an attribute `name="value"` deleted from its tag. The bracket pairs of
//! [`super::delete_pairs`] do not see tags, and a start and an end tag on
//! different lines go only together, so line and token deletion keep
//! empty elements (`<image></image>`) and attributes.

use super::super::{ddmin::is_word, Tester};

/// One thing to delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// An element: its start tag `a..b` and its end tag `c..d` (for an
    /// empty-element tag `<x/>`, `b == c == d`).
    Element {
        /// Start of the start tag.
        a: usize,
        /// End of the start tag.
        b: usize,
        /// Start of the end tag.
        c: usize,
        /// End of the end tag.
        d: usize,
    },
    /// An attribute, with the blanks before it: `a..b`.
    Attr {
        /// Its start (the blanks before it).
        a: usize,
        /// Its end.
        b: usize,
    },
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80
}

fn is_name(b: u8) -> bool {
    is_word(b) || matches!(b, b'-' | b'.' | b':')
}

/// The end (after `>`) of the tag opened at `lt`, quotes respected, and
/// whether it ends in `/>`.
fn tag_end(text: &[u8], lt: usize) -> Option<(usize, bool)> {
    let mut q = None;
    for (i, &b) in text.iter().enumerate().skip(lt + 1) {
        match (q, b) {
            (Some(x), _) if b == x => q = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => q = Some(b),
            (None, b'<') => return None,
            (None, b'>') => return Some((i + 1, text[i - 1] == b'/')),
            _ => {}
        }
    }
    None
}

/// The attributes of the start tag `a..b` whose name ends at `n`: each
/// `name="v"`, `name='v'`, `name=v` or bare `name`, with the blanks before.
fn attrs(text: &[u8], n: usize, b: usize, out: &mut Vec<Item>) {
    let mut i = n;
    let end = if text[b - 2] == b'/' { b - 2 } else { b - 1 };
    while i < end {
        let s = i;
        while i < end && text[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == s || i >= end || !is_name_start(text[i]) {
            return;
        }
        while i < end && is_name(text[i]) {
            i += 1;
        }
        if i < end && text[i] == b'=' {
            i += 1;
            match text.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let Some(k) = text[i + 1..end].iter().position(|&x| x == q) else {
                        return;
                    };
                    i += k + 2;
                }
                _ => {
                    while i < end && !text[i].is_ascii_whitespace() {
                        i += 1;
                    }
                }
            }
        }
        out.push(Item::Attr { a: s, b: i });
    }
}

/// The elements with a matching end tag, and empty-element tags, in order
/// of their start tag, each followed by its attributes. An end tag closes
/// the innermost open element of its name (those opened inside it and
/// never closed, HTML's `<br>`, are dropped); an end tag with none open
/// is ignored.
///
/// ```
/// use grammar_min::reduce::blind::tags::{items, Item};
/// let t = br#"<a x="1"><b/><br></a>"#;
/// assert_eq!(
///     items(t),
///     [
///         Item::Element { a: 0, b: 9, c: 17, d: 21 },
///         Item::Attr { a: 2, b: 8 },
///         Item::Element { a: 9, b: 13, c: 13, d: 13 },
///     ]
/// );
/// ```
pub fn items(text: &[u8]) -> Vec<Item> {
    // Open elements: name, start tag, end of the name.
    let mut open: Vec<(&[u8], usize, usize, usize)> = Vec::new();
    let mut found: Vec<(Item, usize)> = Vec::new();
    let mut i = 0;
    while let Some(k) = text[i..].iter().position(|&x| x == b'<') {
        let lt = i + k;
        i = lt + 1;
        let close = text.get(lt + 1) == Some(&b'/');
        let ns = lt + 1 + usize::from(close);
        if !text.get(ns).copied().is_some_and(is_name_start) {
            continue;
        }
        let mut ne = ns;
        while ne < text.len() && is_name(text[ne]) {
            ne += 1;
        }
        let Some((end, empty)) = tag_end(text, lt) else {
            continue;
        };
        let name = &text[ns..ne];
        if close {
            if let Some(p) = open.iter().rposition(|o| o.0 == name) {
                let (_, a, b, n) = open[p];
                open.truncate(p);
                found.push((
                    Item::Element {
                        a,
                        b,
                        c: lt,
                        d: end,
                    },
                    n,
                ));
            }
        } else if empty {
            found.push((
                Item::Element {
                    a: lt,
                    b: end,
                    c: end,
                    d: end,
                },
                ne,
            ));
        } else {
            open.push((name, lt, end, ne));
        }
        i = end;
    }
    found.sort_by_key(|(it, _)| match *it {
        Item::Element { a, .. } | Item::Attr { a, .. } => a,
    });
    let mut out = Vec::with_capacity(found.len());
    for (it, ne) in found {
        out.push(it);
        if let Item::Element { a: _, b, .. } = it {
            attrs(text, ne, b, &mut out);
        }
    }
    out
}

/// Each element deleted, else its tags with the content kept, else, if
/// it holds nothing but blanks, written as an empty-element tag (`<x
/// a="1"></x>` → `<x a="1"/>`, as XML allows), else, if it holds one
/// element, replaced by that one's content; each
/// attribute deleted; in document order, outer elements first, on the
/// blind passes' shared walk. `text` must be known interesting.
pub fn delete_tags(text: &[u8], tester: &mut Tester<'_>) -> Vec<u8> {
    super::walk(
        text,
        tester,
        with_only_children,
        |cur, &(it, only)| match it {
            Item::Element { a, b, c, d } => {
                let mut cs = vec![[&cur[..a], &cur[d..]].concat()];
                if b < c {
                    cs.push([&cur[..a], &cur[b..c], &cur[d..]].concat());
                }
                if c < d && cur[b..c].trim_ascii().is_empty() {
                    cs.push([&cur[..b - 1], b"/>", &cur[d..]].concat());
                }
                // An element whose content is one element: both pairs of
                // tags at once (`<choose><when …>X</when></choose>` → `X`,
                // where neither tag pair can go alone).
                if let Some((b2, c2)) = only {
                    cs.push([&cur[..a], &cur[b2..c2], &cur[d..]].concat());
                }
                cs
            }
            Item::Attr { a, b } => vec![[&cur[..a], &cur[b..]].concat()],
        },
    )
}

/// [`items`], each element with the content of the one element it
/// holds, if its content is one element with something in it (blanks
/// around it aside): found from the elements' starts, in one pass.
fn with_only_children(text: &[u8]) -> Vec<(Item, Option<(usize, usize)>)> {
    let its = items(text);
    let by_start: std::collections::HashMap<usize, (usize, usize, usize)> = its
        .iter()
        .filter_map(|it| match *it {
            Item::Element { a, b, c, d } => Some((a, (b, c, d))),
            Item::Attr { .. } => None,
        })
        .collect();
    its.into_iter()
        .map(|it| {
            let Item::Element { b, c, .. } = it else {
                return (it, None);
            };
            let inner = &text[b..c];
            let s = b + (inner.len() - inner.trim_ascii_start().len());
            let e = b + inner.trim_ascii_end().len();
            let only = by_start
                .get(&s)
                .filter(|&&(b2, c2, d2)| s < e && d2 == e && b2 < c2)
                .map(|&(b2, c2, _)| (b2, c2));
            (it, only)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::run_pass;
    use super::*;

    #[test]
    fn empty_elements_and_attributes_go() {
        // Interesting iff the text has a <pubDate> inside an <item> and
        // every tag is closed.
        let want = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let n = |x: &str| s.matches(x).count();
            s.contains("<item><pubDate>31 Jun</pubDate></item>") && n("<") == 2 * n("</")
        };
        let input = b"<rss version=\"2.0\" a='b'>\n<channel>\n<image>\n</image>\n<item><pubDate>31 Jun</pubDate></item>\n</channel>\n</rss>\n";
        let (out, _) = run_pass(delete_tags, input, want);
        assert_eq!(out, b"\n\n\n<item><pubDate>31 Jun</pubDate></item>\n\n\n");
        // Attributes alone, when the root must stay.
        let want_root = |c: &[u8]| want(c) && c.starts_with(b"<rss");
        let (out, _) = run_pass(delete_tags, input, want_root);
        assert_eq!(
            out,
            b"<rss>\n\n\n<item><pubDate>31 Jun</pubDate></item>\n\n</rss>\n"
        );
    }

    #[test]
    fn an_empty_element_closes_its_start_tag() {
        // Interesting iff `<b x="1"` is inside `<a>` and every element
        // is closed, by an end tag or as `<…/>`.
        let want = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let n = |x: &str| s.matches(x).count();
            s.starts_with("<a><b x=\"1\"") && n("<") == 2 * n("</") + n("/>")
        };
        let (out, _) = run_pass(delete_tags, b"<a><b x=\"1\">\n  </b></a>", want);
        assert_eq!(out, b"<a><b x=\"1\"/></a>");
    }

    #[test]
    fn an_element_and_its_only_child_go_together() {
        // XSLT: a `when` must stay in a `choose`, a `choose` holds `when`s.
        let want = |c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            s.starts_with("<r>")
                && s.contains("<call/>")
                && s.contains("<when") == s.contains("<choose")
        };
        let input = b"<r><choose>\n <when t=\"1\"><call/></when>\n</choose></r>";
        assert_eq!(run_pass(delete_tags, input, want).0, b"<r><call/></r>");
    }

    #[test]
    fn comparisons_and_templates_are_no_tags() {
        assert_eq!(items(b"if (a < b && c > d) x<y>z;"), []);
        assert_eq!(items(b"template<typename T> T f(vector<T> v);"), []);
    }
}
