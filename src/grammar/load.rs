//! Grammar file loaders.
//!
//! Two JSON formats are read, auto-detected per alternative, so a file may
//! even mix them:
//!
//! * **fuzzingbook**: each alternative is a string; substrings of the form
//!   `<name>` (no spaces or angle brackets inside) are nonterminals, the rest
//!   is literal text. A `<` that does not open such a name (`"a < b"`, `"<"`)
//!   is literal. An alternative may also be `["text", {options}]`, as
//!   fuzzingbook writes probabilities; the options are ignored with a warning.
//!
//!   ```json
//!   {"<start>": ["<expr>"], "<expr>": ["<term> + <expr>", "<term>"], "<term>": ["1"]}
//!   ```
//! * **token-list** (Gopinath, AFL++ Grammar-Mutator): each alternative is a
//!   list of tokens; a token that is exactly `<name>` is a nonterminal, every
//!   other token is literal text.
//!
//!   ```json
//!   {"<start>": [["<digit>"]], "<digit>": [["0"], ["1"]]}
//!   ```
//!
//!   A token may also be a number from 0 to 255: one raw byte. JSON strings
//!   can only hold UTF-8, so this is how grammars describe binary formats or
//!   UTF-8 itself byte by byte (see `grammars/json.json`).
//!
//! A definition may also be a character class, one alternative per
//! character (see [`super::class`]): `"<dchar>": {"class": "[^\"\\\\]"}`.
//! A top-level key that starts with `//` or `#` is a comment, its value
//! ignored: `"// strings": "double-quoted, no escapes"`.
//!
//! In both, a `<name>` that is not defined is an error (a typo would
//! otherwise silently become literal text); write such text as separate
//! tokens in token-list form (`["<", "b", ">"]`) if it is meant literally.
//! Keys must be unique; the start symbol is `<start>` unless
//! [`LoadOptions::start`] says otherwise.

use super::build::{is_nonterminal_name, GrammarBuilder, Token};
use super::diag::{Diagnostic, GrammarError};
use super::Grammar;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// Grammar files larger than this are refused before parsing.
pub const MAX_GRAMMAR_BYTES: u64 = 16 << 20;

/// Which JSON format a grammar was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrammarFormat {
    /// Alternatives are strings with embedded `<nonterminals>`.
    Fuzzingbook,
    /// Alternatives are lists of tokens.
    TokenList,
    /// Some alternatives of each kind.
    Mixed,
}

impl fmt::Display for GrammarFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GrammarFormat::Fuzzingbook => "fuzzingbook",
            GrammarFormat::TokenList => "token-list",
            GrammarFormat::Mixed => "mixed fuzzingbook/token-list",
        })
    }
}

/// Options for loading a grammar.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Start symbol; `<start>` when `None`.
    pub start: Option<String>,
}

impl Grammar {
    /// Loads a grammar from JSON text (either format).
    ///
    /// # Errors
    /// Every problem found, at once: JSON syntax (with line:column), wrong
    /// value types, undefined / unproductive nonterminals, empty alternative
    /// lists, a missing start symbol.
    pub fn from_json_str(src: &str, opts: &LoadOptions) -> Result<Grammar, GrammarError> {
        // A key starting with `//` or `#` is a comment: JSON has none.
        let mut entries = parse_entries(src)?;
        entries.retain(|(k, _, _)| !k.starts_with("//") && !k.starts_with('#'));
        let mut b = GrammarBuilder::new();
        b.set_start(opts.start.as_deref());
        let mut n_fb = 0usize;
        let mut n_tl = 0usize;
        // Declare every key first so that fuzzingbook strings can tell
        // nonterminals from text.
        for (key, _, (line, col)) in &entries {
            if b.is_declared(key) {
                b.diag(
                    Diagnostic::error(
                        "duplicate-key",
                        "defined twice: JSON keeps only one of the definitions; merge them",
                    )
                    .at_symbol(key)
                    .at_pos(*line as usize, *col as usize),
                );
            }
            b.declare(key, Some((*line, *col)));
        }
        for (key, value, (line, col)) in &entries {
            let at = |d: Diagnostic| d.at_symbol(key).at_pos(*line as usize, *col as usize);
            let alts: &[Value] = match value {
                Value::Array(alts) => alts,
                // A class as the whole definition: its one alternative.
                Value::Object(o) if is_class(o) => std::slice::from_ref(value),
                _ => {
                    b.diag(at(Diagnostic::error(
                        "wrong-type",
                        format!(
                            "expected a list of alternatives, found {}: write \
                             \"{key}\": [\"alternative\", ...] (or a character class, \
                             {{\"class\": \"[a-z_]\"}})",
                            describe(value)
                        ),
                    )));
                    continue;
                }
            };
            for (ai, alt) in alts.iter().enumerate() {
                let tokens = match alt {
                    Value::String(s) => {
                        n_fb += 1;
                        Some(split_fuzzingbook(s))
                    }
                    Value::Array(items) => match items.as_slice() {
                        [Value::String(s), Value::Object(_)] => {
                            n_fb += 1;
                            b.diag(
                                Diagnostic::warning(
                                    "options-ignored",
                                    "fuzzingbook expansion options (e.g. probabilities) \
                                     are ignored",
                                )
                                .at_symbol(key)
                                .at_alt(ai as u32),
                            );
                            Some(split_fuzzingbook(s))
                        }
                        _ => {
                            n_tl += 1;
                            let mut toks = Vec::with_capacity(items.len());
                            let mut bad = None;
                            for (ti, it) in items.iter().enumerate() {
                                match it {
                                    Value::String(s) => toks.push(Token::classify(s)),
                                    Value::Number(n) if n.as_u64().is_some_and(|b| b <= 255) => {
                                        toks.push(Token::T(vec![n.as_u64().unwrap_or(0) as u8]))
                                    }
                                    other => {
                                        bad = Some((ti, describe(other)));
                                        break;
                                    }
                                }
                            }
                            match bad {
                                None => Some(toks),
                                Some((ti, what)) => {
                                    b.diag(
                                        Diagnostic::error(
                                            "wrong-type",
                                            format!(
                                                "token {} is {what}: tokens of a token-list \
                                                 alternative must be strings (or a raw byte \
                                                 as a number 0-255)",
                                                ti + 1
                                            ),
                                        )
                                        .at_symbol(key)
                                        .at_alt(ai as u32),
                                    );
                                    None
                                }
                            }
                        }
                    },
                    // A class among the alternatives: one per character.
                    Value::Object(o) if is_class(o) => {
                        match class_of(o) {
                            Ok(chars) => chars
                                .into_iter()
                                .for_each(|c| b.push_alt(key, vec![Token::T(c)])),
                            Err(e) => {
                                b.diag(at(Diagnostic::error("bad-class", e)).at_alt(ai as u32))
                            }
                        }
                        None
                    }
                    other => {
                        b.diag(
                            Diagnostic::error(
                                "wrong-type",
                                format!(
                                    "alternative is {}: write a string (fuzzingbook), a \
                                     list of strings (token-list) or a character class \
                                     ({{\"class\": \"[a-z_]\"}})",
                                    describe(other)
                                ),
                            )
                            .at_symbol(key)
                            .at_alt(ai as u32),
                        );
                        None
                    }
                };
                if let Some(t) = tokens {
                    b.push_alt(key, t);
                }
            }
            if alts.is_empty() {
                // Reported by the builder as `no-alternatives`.
            }
        }
        b.set_format(match (n_fb, n_tl) {
            (_, 0) => GrammarFormat::Fuzzingbook,
            (0, _) => GrammarFormat::TokenList,
            _ => GrammarFormat::Mixed,
        });
        b.build()
    }

    /// Reads and loads a grammar file. Refuses files over
    /// [`MAX_GRAMMAR_BYTES`] and files that are not UTF-8.
    ///
    /// # Errors
    /// I/O problems and everything [`Grammar::from_json_str`] reports, with
    /// the path in the message.
    pub fn from_path(path: &Path, opts: &LoadOptions) -> Result<Grammar, GrammarError> {
        let io_err = |e: std::io::Error| {
            GrammarError::single(Diagnostic::error(
                "io",
                format!("cannot read grammar file {}: {e}", path.display()),
            ))
        };
        let meta = std::fs::metadata(path).map_err(io_err)?;
        if meta.is_dir() {
            return Err(GrammarError::single(Diagnostic::error(
                "io",
                format!(
                    "{} is a directory: pass a grammar JSON file",
                    path.display()
                ),
            )));
        }
        if meta.len() > MAX_GRAMMAR_BYTES {
            return Err(GrammarError::single(Diagnostic::error(
                "too-large",
                format!(
                    "grammar file {} is {} bytes, more than the limit of {} MiB: \
                     is this really a grammar?",
                    path.display(),
                    meta.len(),
                    MAX_GRAMMAR_BYTES >> 20
                ),
            )));
        }
        let bytes = std::fs::read(path).map_err(io_err)?;
        let src = String::from_utf8(bytes).map_err(|e| {
            let off = e.utf8_error().valid_up_to();
            let (line, col) = line_col(&e.as_bytes()[..off]);
            GrammarError::single(
                Diagnostic::error(
                    "not-utf8",
                    format!(
                        "{} is not UTF-8 text (invalid byte at offset {off}): grammar \
                         files are JSON text; write raw bytes as numbers 0-255 in token-list \
                         alternatives",
                        path.display()
                    ),
                )
                .at_pos(line, col),
            )
        })?;
        Grammar::from_json_str(&src, opts)
    }
}

/// Whether a JSON object is a character class, `{"class": …}`.
fn is_class(o: &serde_json::Map<String, Value>) -> bool {
    o.len() == 1 && o.contains_key("class")
}

/// The terminals of a character class object ([`super::class::expand`]).
fn class_of(o: &serde_json::Map<String, Value>) -> Result<Vec<Vec<u8>>, String> {
    match &o["class"] {
        Value::String(spec) => super::class::expand(spec),
        other => Err(format!(
            "the class is {}: write it as a string, \"[a-z_]\"",
            describe(other)
        )),
    }
}

/// Splits a fuzzingbook alternative into literal text and `<nonterminal>`s.
fn split_fuzzingbook(s: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let b = s.as_bytes();
    while i < b.len() {
        if b[i] == b'<' {
            // Find the end of a candidate name.
            let mut j = i + 1;
            while j < b.len() && b[j] != b'>' && b[j] != b'<' && !b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b'>' && j > i + 1 && is_nonterminal_name(&s[i..=j]) {
                if !lit.is_empty() {
                    out.push(Token::T(std::mem::take(&mut lit).into_bytes()));
                }
                out.push(Token::Nt(s[i..=j].to_string()));
                i = j + 1;
                continue;
            }
        }
        let ch = s[i..].chars().next().expect("in bounds at a char boundary");
        lit.push(ch);
        i += ch.len_utf8();
    }
    if !lit.is_empty() {
        out.push(Token::T(lit.into_bytes()));
    }
    out
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = prefix.len()
        - prefix
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

/// The top-level object as (key, value, line of key) in file order,
/// duplicates kept (serde_json's `Map` would silently drop them).
/// A top-level key, its value, and the key's line and column.
type KeyEntry = (String, Value, (u32, u32));

fn parse_entries(src: &str) -> Result<Vec<KeyEntry>, GrammarError> {
    let json_err = |e: serde_json::Error| {
        let line_text = src.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
        let shown: String = line_text.chars().take(120).collect();
        GrammarError::single(
            Diagnostic::error(
                "invalid-json",
                format!(
                    "{e}\n      | {shown}\n      | {}^",
                    " ".repeat(e.column().saturating_sub(1).min(120))
                ),
            )
            .at_pos(e.line(), e.column()),
        )
    };
    let mut de = serde_json::Deserializer::from_str(src);
    let entries = de.deserialize_any(TopLevel).map_err(json_err)?;
    de.end().map_err(json_err)?;
    let entries = match entries {
        Ok(v) => v,
        Err(found) => {
            return Err(GrammarError::single(Diagnostic::error(
                "wrong-type",
                format!(
                    "the grammar must be a JSON object mapping nonterminals to \
                     alternatives, like {{\"<start>\": [\"...\"]}}; found {found}"
                ),
            )))
        }
    };
    let mut next = key_positions(src).into_iter();
    Ok(entries
        .into_iter()
        .map(|(k, v)| {
            let pos = next.next().unwrap_or((1, 1));
            (k, v, pos)
        })
        .collect())
}

struct TopLevel;

impl<'de> Visitor<'de> for TopLevel {
    /// `Err(description)` when the document is valid JSON but not an object.
    type Value = Result<Vec<(String, Value)>, &'static str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            out.push((k, v));
        }
        Ok(Ok(out))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Err("a list"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Err("a string"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
}

/// Lines and columns (1-based; the column counts characters) of the keys
/// of the top-level object, in order. A small scanner over
/// already-validated JSON: a string at nesting depth 1 followed by `:` is
/// a key.
fn key_positions(src: &str) -> Vec<(u32, u32)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut line = 1u32;
    let mut line_start = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = (line, src[line_start..i].chars().count() as u32 + 1);
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                if depth == 1 {
                    let mut j = i + 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j < b.len() && b[j] == b':' {
                        out.push(start);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}
