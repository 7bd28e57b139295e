//! Character classes in grammar files: `"<dchar>": {"class": "[^\"\\\\]"}`
//! stands for one alternative per character, as a regular expression's
//! class does, so a string or comment body needs no list of a hundred
//! alternatives written by a script.
//!
//! Syntax: `[` … `]` holding characters and ranges (`a-z`); `[^` … `]` is
//! every character of [`UNIVERSE`] except those. `\` escapes `\ ] [ - ^`
//! and writes `\n`, `\t`, `\r`, and `\xHH` (a raw byte, for binary
//! formats: in a class that is not negated, and only above `\x7f` as a
//! byte rather than a character). A `-` first or last is literal.

/// The characters a negated class takes from, in the order its
/// alternatives get: letters and digits first (the first alternative is
/// the one a reducer's minimal expansion writes), then the rest of
/// printable ASCII, then tab, newline and carriage return.
pub const UNIVERSE: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\t\n\r";

/// One item of a class: a character, or a raw byte (`\xHH` above `\x7f`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    Char(char),
    Byte(u8),
}

/// The terminals `spec` stands for, one per character, in order, without
/// repeats.
///
/// # Errors
/// What is wrong with `spec`, to show the user.
///
/// ```
/// use grammar_min::grammar::class::expand;
/// assert_eq!(expand("[a-c_]").unwrap(), [b"a", b"b", b"c", b"_"]);
/// assert_eq!(expand("[^\"\\\\]").unwrap().len(), 95 + 3 - 2);
/// assert!(expand("[z-a]").is_err());
/// ```
pub fn expand(spec: &str) -> Result<Vec<Vec<u8>>, String> {
    let inner = spec
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| format!("`{spec}` is no class: write it as `[a-z_]` or `[^\"]`"))?;
    let (negated, inner) = match inner.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let items = items(inner)?;
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut push = |t: Vec<u8>| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    if negated {
        if let Some(Item::Byte(b)) = items.iter().find(|i| matches!(i, Item::Byte(_))) {
            return Err(format!(
                "a negated class takes from ASCII only; `\\x{b:02x}` cannot be left out of it"
            ));
        }
        for c in UNIVERSE
            .chars()
            .filter(|c| !items.contains(&Item::Char(*c)))
        {
            push(c.to_string().into_bytes());
        }
    } else {
        for i in items {
            push(match i {
                Item::Char(c) => c.to_string().into_bytes(),
                Item::Byte(b) => vec![b],
            });
        }
    }
    if out.is_empty() {
        return Err(format!("`{spec}` holds no character"));
    }
    Ok(out)
}

/// The items of a class's inside, ranges expanded.
fn items(inner: &str) -> Result<Vec<Item>, String> {
    let mut singles = Vec::new();
    let mut chars = inner.chars().peekable();
    // Each single item, and whether a `-` (not first, not last) follows.
    while let Some(c) = chars.next() {
        let item = if c == '\\' {
            escape(&mut chars)?
        } else if c == '[' || c == ']' {
            return Err(format!("write `\\{c}` for a `{c}` inside a class"));
        } else {
            Item::Char(c)
        };
        singles.push(item);
        if chars.peek() == Some(&'-') {
            let mut ahead = chars.clone();
            ahead.next();
            if ahead.peek().is_some() {
                chars.next();
                let hi = match chars.next() {
                    Some('\\') => escape(&mut chars)?,
                    Some(h) => Item::Char(h),
                    None => unreachable!("peeked"),
                };
                let lo = singles.pop().expect("just pushed");
                singles.extend(range(lo, hi)?);
            }
        }
    }
    Ok(singles)
}

/// The characters (or bytes) from `lo` to `hi`.
fn range(lo: Item, hi: Item) -> Result<Vec<Item>, String> {
    match (lo, hi) {
        (Item::Char(a), Item::Char(b)) if a <= b => Ok((a..=b).map(Item::Char).collect()),
        (Item::Byte(a), Item::Byte(b)) if a <= b => Ok((a..=b).map(Item::Byte).collect()),
        (Item::Char(a), Item::Char(b)) => Err(format!("the range `{a}-{b}` runs backwards")),
        _ => Err("a range joins two characters or two raw bytes (`\\x80-\\xbf`)".into()),
    }
}

/// The item after a `\`.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<Item, String> {
    Ok(Item::Char(match chars.next() {
        Some('n') => '\n',
        Some('t') => '\t',
        Some('r') => '\r',
        Some('x') => {
            let hex: String = chars.by_ref().take(2).collect();
            let b = u8::from_str_radix(&hex, 16)
                .ok()
                .filter(|_| hex.len() == 2)
                .ok_or_else(|| format!("`\\x{hex}`: write a byte as two hex digits, `\\x7f`"))?;
            return Ok(if b < 0x80 {
                Item::Char(char::from(b))
            } else {
                Item::Byte(b)
            });
        }
        Some(c @ ('\\' | ']' | '[' | '-' | '^')) => c,
        Some(c) => return Err(format!("unknown escape `\\{c}` in a class")),
        None => return Err("a class ends in a lone `\\`".into()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &[Vec<u8>]) -> String {
        v.iter().map(|t| String::from_utf8_lossy(t)).collect()
    }

    #[test]
    fn ranges_singles_and_escapes() {
        assert_eq!(text(&expand("[a-dx-z_0-2]").unwrap()), "abcdxyz_012");
        assert_eq!(text(&expand("[-a\\]\\-\\\\]").unwrap()), "-a]\\");
        assert_eq!(text(&expand("[a-]").unwrap()), "a-");
        assert_eq!(text(&expand("[\\n\\t\\x41é]").unwrap()), "\n\tAé");
        assert_eq!(expand("[\\x80-\\x82]").unwrap(), [[0x80], [0x81], [0x82]]);
        // Repeats once.
        assert_eq!(text(&expand("[aba-c]").unwrap()), "abc");
    }

    #[test]
    fn a_negated_class_is_the_rest_of_ascii_letters_first() {
        let all = expand("[^\"\\\\\\n]").unwrap();
        assert_eq!(all.len(), UNIVERSE.len() - 3);
        assert_eq!(all[0], b"a");
        let t = text(&all);
        assert!(!t.contains('"') && !t.contains('\\') && !t.contains('\n'));
        assert!(t.contains('\t') && t.contains(' ') && t.contains('\''));
    }

    #[test]
    fn bad_classes_say_what_to_write() {
        for (spec, says) in [
            ("a-z", "is no class"),
            ("[z-a]", "runs backwards"),
            ("[]", "holds no character"),
            ("[a[b]", "write `\\[`"),
            ("[\\q]", "unknown escape"),
            ("[\\x4]", "two hex digits"),
            ("[^\\x80]", "ASCII only"),
            ("[a-\\x80]", "two characters or two raw bytes"),
            ("[a\\]", "lone `\\`"),
        ] {
            let e = expand(spec).unwrap_err();
            assert!(e.contains(says), "{spec}: {e}");
        }
    }
}
