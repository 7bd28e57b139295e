//! Splitting a command line into words with POSIX-shell-like quoting, so
//! `--cmd` runs without a shell unless the user writes one (`sh -c '...'`).

/// Why a command line cannot be split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A quote was opened and never closed.
    #[error("unterminated {0} quote in command line; close it or escape it with a backslash")]
    Unterminated(char),
    /// The line ends with a lone backslash.
    #[error("command line ends with a lone backslash")]
    TrailingBackslash,
}

/// Splits `line` into words: whitespace separates words; `'...'` is
/// literal; `"..."` allows `\"`, `\\`, `\$`, `` \` ``; a backslash outside
/// quotes escapes the next character.
///
/// ```
/// use grammar_min::oracle::split::split;
/// assert_eq!(split(r#"python3 -c 'import sys; print(1)' "a b" c\ d {}"#).unwrap(),
///            ["python3", "-c", "import sys; print(1)", "a b", "c d", "{}"]);
/// ```
pub fn split(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(SplitError::Unterminated('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => cur.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(SplitError::Unterminated('"')),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(SplitError::Unterminated('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(c) => cur.push(c),
                    None => return Err(SplitError::TrailingBackslash),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_rules() {
        assert_eq!(split("  a   b ").unwrap(), ["a", "b"]);
        assert_eq!(split("''").unwrap(), [""]);
        assert_eq!(split(r#""x\"y" 'a\b'"#).unwrap(), ["x\"y", "a\\b"]);
        assert_eq!(split("a'b'c").unwrap(), ["abc"]);
        assert_eq!(split("'open").unwrap_err(), SplitError::Unterminated('\''));
        assert_eq!(split("x\\").unwrap_err(), SplitError::TrailingBackslash);
        assert!(split("").unwrap().is_empty());
    }
}
