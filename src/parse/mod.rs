//! Parsing text into derivation trees (Earley).
//!
//! * [`parse`] / [`parse_from`] — parse bytes as the start symbol (or any
//!   nonterminal) of a [`Grammar`] into a [`Tree`].
//! * [`Parser`] — the same with the grammar's tables compiled once, for
//!   callers that parse many inputs (reducers parsing fragments).
//! * [`ParseError`] — where the input stops being a sentence, what was
//!   expected there, and the line with a caret.
//! * [`respace`] — a text that differs from the input only in blanks and
//!   parses (a trailing newline, `1+2` for a grammar that writes `1 + 2`).
//!
//! The parser accepts every context-free grammar of the model: ambiguous,
//! left- or right-recursive, with empty alternatives and even cycles. It
//! works on bytes; a terminal of `k` bytes is `k` positions of a flattened
//! rule, and nonterminals whose alternatives are all single bytes (`<digit>`,
//! `<letter>`) are scanned as byte classes. Prediction is filtered by the
//! next byte (FIRST sets), and so are completions (FOLLOW sets: a symbol
//! completed where nothing can follow it with that byte is dropped), empty
//! rules are handled by the Aycock–Horspool
//! rule, and right recursion is linear through Leo's optimisation, so
//! unambiguous inputs parse in linear time and memory. Nothing recurses on
//! the input: a 100,000-deep JSON array parses like a flat one.
//!
//! # Which tree (ambiguity)
//!
//! When the text has several derivations, the tree is chosen top-down:
//! every nonterminal spanning a given piece of text takes the **lowest
//! alternative index** (the simplest, since alternatives are sorted simplest
//! first) among those that derive exactly that piece; an empty piece takes
//! the alternative with the shortest empty derivation. Where the chosen
//! alternative can split its text among its children in several ways, the
//! split is the first one the recogniser found (scanning left to right, for
//! each split point the earliest completed derivation of the child). The
//! choice is deterministic: the same grammar and text give the same tree.
//!
//! ```
//! use grammar_min::{grammar::Grammar, parse::parse};
//!
//! let g = Grammar::from_json_str(r#"{
//!     "<start>": ["<expr>"],
//!     "<expr>": ["<digit>", "<expr>+<expr>", "(<expr>)"],
//!     "<digit>": ["0", "1", "2"]
//! }"#, &Default::default()).unwrap();
//! let tree = parse(&g, b"(1+2)+0").unwrap();
//! assert_eq!(tree.unparse(&g), b"(1+2)+0");
//!
//! let err = parse(&g, b"(1+)").unwrap_err();
//! assert_eq!((err.line, err.column, err.offset), (1, 4, 3));
//! assert!(err.message.contains("expected one of \"(\", \"0\", \"1\", \"2\""));
//! ```

mod blanks;
mod chart;
mod dedup;
mod error;
mod extract;
mod mem;
mod tables;

use crate::grammar::{Grammar, SymbolId};
use crate::tree::Tree;
pub use blanks::{past_blanks, respace, respace_first, Blanks, Respaced, Respacing};
use chart::Outcome;
use std::sync::Mutex;

/// Why a text does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// Byte offset of the first byte that cannot continue any parse (the
    /// input's length for "unexpected end of input").
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
/// Compiles the grammar's parse tables on every call; use [`Parser`] to
/// parse many inputs with one grammar.
///
/// # Errors
/// [`ParseError`] naming the offset where no parse can continue.
pub fn parse(g: &Grammar, input: &[u8]) -> Result<Tree, ParseError> {
    Parser::new(g).parse(input)
}

/// Parses `input` as nonterminal `sym` of `g` (the tree's root is `sym`).
///
/// ```
/// use grammar_min::{grammar::Grammar, parse::parse_from};
/// let g = Grammar::from_path("grammars/expr.json".as_ref(), &Default::default()).unwrap();
/// let factor = g.symbol_by_name("<factor>").unwrap();
/// let t = parse_from(&g, factor, b"(2 * 3)").unwrap();
/// assert_eq!(t.symbol(&g, t.root()), Some(factor));
/// assert!(parse_from(&g, factor, b"1 + 2").is_err());
/// ```
///
/// # Errors
/// [`ParseError`] naming the offset where no parse can continue.
pub fn parse_from(g: &Grammar, sym: SymbolId, input: &[u8]) -> Result<Tree, ParseError> {
    Parser::new(g).parse_from(sym, input)
}

/// An Earley parser with `g`'s tables compiled once.
///
/// It keeps the memory of its last chart (up to 256 MiB, the chart of about
/// 2 MB of JSON) for the next parse, which then faults in no fresh pages for
/// it; drop the `Parser` to release it. Parsing from several threads at once
/// is fine: a parse that finds the spare chart in use allocates its own.
///
/// ```
/// use grammar_min::{grammar::Grammar, parse::Parser};
/// let g = Grammar::from_path("grammars/json.json".as_ref(), &Default::default()).unwrap();
/// let p = Parser::new(&g);
/// for doc in [&b"[1, 2]"[..], b"{\"a\": null}", b" true "] {
///     assert_eq!(p.parse(doc).unwrap().unparse(&g), doc);
/// }
/// ```
pub struct Parser<'g> {
    g: &'g Grammar,
    t: tables::Tables,
    /// The last parse's chart, kept so the next parse reuses its memory
    /// instead of faulting in fresh pages (see [`RETAIN_MAX`]). `try_lock`
    /// only: concurrent parses simply allocate their own.
    spare: Mutex<Option<chart::Chart>>,
}

/// A [`Parser`] keeps the arenas of its last chart for the next parse when
/// they hold at most this many bytes (the chart of about 2 MB of JSON);
/// larger ones are freed at once.
const RETAIN_MAX: usize = 256 << 20;

impl<'g> Parser<'g> {
    /// Compiles `g`'s parse tables (linear in the grammar's size times 257
    /// lookaheads per nonterminal).
    pub fn new(g: &'g Grammar) -> Parser<'g> {
        Parser {
            g,
            t: tables::Tables::new(g),
            spare: Mutex::new(None),
        }
    }

    /// A parser without the optimisations that must not change results
    /// (see [`tables::Tables::build`]), to compare with.
    #[cfg(test)]
    pub(crate) fn general(g: &'g Grammar) -> Parser<'g> {
        Parser {
            g,
            t: tables::Tables::build(g, false),
            spare: Mutex::new(None),
        }
    }

    /// The grammar this parser was built for.
    pub fn grammar(&self) -> &'g Grammar {
        self.g
    }

    /// Parses `input` as the grammar's start symbol.
    ///
    /// # Errors
    /// [`ParseError`] naming the offset where no parse can continue.
    pub fn parse(&self, input: &[u8]) -> Result<Tree, ParseError> {
        self.parse_from(self.g.start(), input)
    }

    /// Parses `input` as nonterminal `sym`.
    ///
    /// # Errors
    /// [`ParseError`] naming the offset where no parse can continue.
    pub fn parse_from(&self, sym: SymbolId, input: &[u8]) -> Result<Tree, ParseError> {
        if input.len() >= (u32::MAX / 2) as usize {
            return Err(error::too_large(input.len()));
        }
        if sym.index() >= self.g.num_symbols() {
            return Err(error::internal(
                input,
                0,
                &format!("symbol {} is not in the grammar", sym.0),
            ));
        }
        let (chart, outcome) = self.recognise(sym, input, usize::MAX);
        let result = match outcome {
            Outcome::Accepted => extract::extract(&self.t, &chart, sym, input)
                .map_err(|e| error::internal(input, input.len(), &e.0)),
            Outcome::Failed { at } | Outcome::TooCostly { at } => {
                Err(error::syntax(self.g, &self.t, sym, input, at))
            }
        };
        self.keep(chart);
        result
    }

    /// Parses `input` as the start symbol if it is a sentence and its
    /// chart holds at most `max_items` items (waiting and complete, as
    /// [`Parser::chart_items`] counts them); no error is built for a
    /// candidate that is no sentence, which makes this the cheap test
    /// for reducers that parse candidates by the thousand. Returns the
    /// tree, if any, and the items the chart held (up to the set where
    /// the parse stopped), a measure of the work spent.
    ///
    /// ```
    /// use grammar_min::grammar::Grammar;
    /// use grammar_min::parse::Parser;
    /// let g = Grammar::from_json_str(
    ///     r#"{"<start>": ["<x>"], "<x>": ["a", "<x><x>"]}"#,
    ///     &Default::default(),
    /// )
    /// .unwrap();
    /// let p = Parser::new(&g);
    /// let (tree, items) = p.sentence_within(b"aaaa", usize::MAX);
    /// assert!(tree.is_some() && items > 0);
    /// // The ambiguous rule makes the chart grow quadratically: a limit
    /// // below what it needs gives up.
    /// assert!(p.sentence_within(b"aaaaaaaaaaaaaaaa", 40).0.is_none());
    /// assert!(p.sentence_within(b"ab", usize::MAX).0.is_none());
    /// ```
    pub fn sentence_within(&self, input: &[u8], max_items: usize) -> (Option<Tree>, usize) {
        if input.len() >= (u32::MAX / 2) as usize {
            return (None, 0);
        }
        let sym = self.g.start();
        let (chart, outcome) = self.recognise(sym, input, max_items);
        let items = chart.waiting.len() + chart.done.len();
        let tree = match outcome {
            Outcome::Accepted => extract::extract(&self.t, &chart, sym, input).ok(),
            Outcome::Failed { .. } | Outcome::TooCostly { .. } => None,
        };
        self.keep(chart);
        (tree, items)
    }

    /// Runs the recogniser (up to `max_items` chart items), reusing the
    /// spare chart if there is one.
    fn recognise(&self, sym: SymbolId, input: &[u8], max_items: usize) -> (chart::Chart, Outcome) {
        let reuse = self.spare.try_lock().ok().and_then(|mut s| s.take());
        chart::recognise_within(&self.t, sym, input, reuse, max_items)
    }

    /// Keeps `chart`'s memory for the next parse (see [`RETAIN_MAX`]).
    fn keep(&self, chart: chart::Chart) {
        if chart.capacity_bytes() <= RETAIN_MAX {
            if let Ok(mut s) = self.spare.try_lock() {
                *s = Some(chart);
            }
        }
    }

    /// The items of `input`'s Earley chart as the start symbol (waiting
    /// and complete, kept after each set): a deterministic measure of
    /// what parsing it costs, which an ambiguous grammar makes grow
    /// faster than the input (`X ::= X X`: quadratically, in time
    /// cubically).
    pub fn chart_items(&self, input: &[u8]) -> usize {
        if input.len() >= (u32::MAX / 2) as usize {
            return usize::MAX;
        }
        let (chart, _) = self.recognise(self.g.start(), input, usize::MAX);
        let n = chart.waiting.len() + chart.done.len();
        self.keep(chart);
        n
    }

    /// Does `input` derive from `sym`? (Recognition only, no tree.)
    pub fn recognises(&self, sym: SymbolId, input: &[u8]) -> bool {
        if input.len() >= (u32::MAX / 2) as usize || sym.index() >= self.g.num_symbols() {
            return false;
        }
        let (chart, outcome) = self.recognise(sym, input, usize::MAX);
        self.keep(chart);
        matches!(outcome, Outcome::Accepted)
    }
}

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
