//! Parsing text into derivation trees (Earley).
//!
//! PLACEHOLDER: the API below is fixed so other modules can code against it;
//! the Earley implementation lands with the [parse] issue.

use crate::grammar::Grammar;
use crate::tree::Tree;

/// Why a text does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// Byte offset of the first byte that cannot continue any parse.
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: usize,
    /// 1-based column (in bytes) of `offset`.
    pub column: usize,
    /// Human-readable explanation, with the expected terminals and the line
    /// with a caret.
    pub message: String,
}

/// Parses `input` as a sentence of `g`'s start symbol.
///
/// # Errors
/// [`ParseError`] naming the offset where no parse can continue.
pub fn parse(g: &Grammar, input: &[u8]) -> Result<Tree, ParseError> {
    let _ = (g, input);
    Err(ParseError {
        offset: 0,
        line: 1,
        column: 1,
        message: "parser not implemented yet".into(),
    })
}
