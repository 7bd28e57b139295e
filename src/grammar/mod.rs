//! Context-free grammars: the model every other module stands on.
//!
//! * [`Grammar`] — an immutable, analysed grammar. Nonterminals are
//!   [`SymbolId`]s, alternatives are [`RuleId`]s, terminals are interned byte
//!   strings ([`TermId`]). Each nonterminal's alternatives are stored
//!   **simplest first**: by minimal output length, then (among the shortest)
//!   by the depth of their shallowest shortest derivation, then minimal
//!   depth, then file order. So "alternative 0 everywhere" terminates and
//!   derives a *shortest* sentence — the property the choice-sequence
//!   decoder and every reducer rely on. The alternatives of minimal depth
//!   (what a depth-limited generator falls back to) are listed separately
//!   ([`Grammar::restricted_alts`]).
//! * [`GrammarBuilder`] — build a grammar in code.
//! * [`Grammar::from_json_str`] / [`Grammar::from_path`] — load the
//!   fuzzingbook or token-list JSON formats (see [`load`]).
//! * [`Diagnostic`] / [`GrammarError`] — validation reports every problem at
//!   once, naming the nonterminal and alternative.
//!
//! # Example
//!
//! ```
//! use grammar_min::grammar::Grammar;
//!
//! let g = Grammar::from_json_str(r#"{
//!     "<start>": ["<digits>"],
//!     "<digits>": ["<digit><digits>", "<digit>"],
//!     "<digit>": ["0", "1"]
//! }"#, &Default::default()).unwrap();
//! let digits = g.symbol_by_name("<digits>").unwrap();
//! // Alternatives are reordered simplest first: "<digit>" before "<digit><digits>".
//! let first = g.rules_of(digits).next().unwrap();
//! assert_eq!(g.rule_to_string(first), "<digits> ::= <digit>");
//! assert_eq!(g.symbol(digits).min_len, 1);
//! ```

mod analysis;
mod build;
pub mod class;
mod diag;
pub mod load;

pub use build::{is_nonterminal_name, GrammarBuilder, Token};
pub use diag::{Diagnostic, GrammarError, Severity};
pub use load::{GrammarFormat, LoadOptions};

use std::fmt;
use std::ops::Range;

/// A nonterminal, as an index into [`Grammar::symbols`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SymbolId(pub u32);

/// One alternative (production) of a nonterminal, as an index into the
/// grammar's rule table. Rules of one nonterminal are contiguous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct RuleId(pub u32);

/// An interned terminal byte string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct TermId(pub u32);

impl SymbolId {
    /// The index as `usize`, for table look-ups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl RuleId {
    /// The index as `usize`, for table look-ups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl TermId {
    /// The index as `usize`, for table look-ups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An element of a rule's right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A nonterminal to expand.
    Nt(SymbolId),
    /// A terminal byte string (never empty: empty terminals are dropped when
    /// the grammar is built).
    T(TermId),
}

/// "Infinite" value of [`SymbolInfo::min_depth`] for unproductive symbols.
pub const INFINITE: u32 = u32::MAX;

/// A nonterminal with its analysis results.
#[derive(Clone, Debug)]
pub struct SymbolInfo {
    /// Name including the angle brackets, e.g. `<expr>`.
    pub name: String,
    /// Its alternatives, simplest first.
    pub rules: Range<u32>,
    /// Derives the empty string.
    pub nullable: bool,
    /// Derives at least one finite string.
    pub productive: bool,
    /// Reachable from the start symbol.
    pub reachable: bool,
    /// Minimal derivation depth: the `LimitFuzzer` cost (a rule costs one
    /// more than its costliest nonterminal; a symbol costs its cheapest rule).
    /// [`INFINITE`] if unproductive.
    pub min_depth: u32,
    /// Minimal length in bytes of a string it derives (`u64::MAX` if
    /// unproductive).
    pub min_len: u64,
    /// Number of alternatives whose `min_depth` equals the symbol's: the
    /// ones a cost-limited generator may still take past its depth budget
    /// ([`Grammar::restricted_alts`] lists them).
    pub min_depth_alts: u32,
    /// Offset of this symbol's list in the grammar's restricted table.
    pub(crate) restricted_at: u32,
    /// Appears in its own derivations (directly or indirectly).
    pub recursive: bool,
}

/// One alternative with its analysis results.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The nonterminal this rule expands.
    pub lhs: SymbolId,
    /// Right-hand side, as a range into the grammar's element table.
    pub(crate) body: Range<u32>,
    /// Position of this alternative in the grammar file (0-based), before
    /// the simplest-first reordering. Used in messages.
    pub source_index: u32,
    /// Derives the empty string.
    pub nullable: bool,
    /// See [`SymbolInfo::min_depth`].
    pub min_depth: u32,
    /// See [`SymbolInfo::min_len`].
    pub min_len: u64,
    /// For a rule that attains its nonterminal's minimal length: the depth
    /// of its shallowest shortest derivation; [`INFINITE`] otherwise. Orders
    /// alternatives so that alternative 0 everywhere gives a shortest
    /// sentence and terminates.
    pub short_depth: u32,
}

/// An analysed context-free grammar over bytes. Cheap to share (`Arc`) and
/// immutable once built.
#[derive(Clone, Debug)]
pub struct Grammar {
    pub(crate) symbols: Vec<SymbolInfo>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) elems: Vec<Elem>,
    pub(crate) terms: Vec<Box<[u8]>>,
    pub(crate) start: SymbolId,
    /// Per symbol (at `restricted_at`, `min_depth_alts` long): the
    /// alternative indices of minimal depth, in alternative order.
    pub(crate) restricted: Vec<u32>,
    pub(crate) warnings: Vec<Diagnostic>,
    pub(crate) format: GrammarFormat,
    /// The decoder's tables, built on first use (`generate::table`).
    pub(crate) decode_table: std::sync::OnceLock<crate::generate::DecodeTable>,
}

impl Grammar {
    /// The start symbol.
    pub fn start(&self) -> SymbolId {
        self.start
    }

    /// All nonterminals, indexed by [`SymbolId`].
    pub fn symbols(&self) -> &[SymbolInfo] {
        &self.symbols
    }

    /// Number of nonterminals.
    pub fn num_symbols(&self) -> usize {
        self.symbols.len()
    }

    /// Number of alternatives over all nonterminals.
    pub fn num_rules(&self) -> usize {
        self.rules.len()
    }

    /// The nonterminal `id`.
    #[inline]
    pub fn symbol(&self, id: SymbolId) -> &SymbolInfo {
        &self.symbols[id.index()]
    }

    /// Name of a nonterminal, e.g. `<expr>`.
    #[inline]
    pub fn name(&self, id: SymbolId) -> &str {
        &self.symbols[id.index()].name
    }

    /// Looks a nonterminal up by name (with angle brackets).
    pub fn symbol_by_name(&self, name: &str) -> Option<SymbolId> {
        self.symbols
            .iter()
            .position(|s| s.name == name)
            .map(|i| SymbolId(i as u32))
    }

    /// The rule `id`.
    #[inline]
    pub fn rule(&self, id: RuleId) -> &Rule {
        &self.rules[id.index()]
    }

    /// Right-hand side of a rule.
    #[inline]
    pub fn body(&self, id: RuleId) -> &[Elem] {
        let r = &self.rules[id.index()].body;
        &self.elems[r.start as usize..r.end as usize]
    }

    /// The nonterminals of a rule's body, in order.
    pub fn body_nonterminals(&self, id: RuleId) -> impl Iterator<Item = SymbolId> + '_ {
        self.body(id).iter().filter_map(|e| match e {
            Elem::Nt(s) => Some(*s),
            Elem::T(_) => None,
        })
    }

    /// The alternatives of `sym`, simplest first.
    #[inline]
    pub fn rules_of(&self, sym: SymbolId) -> impl ExactSizeIterator<Item = RuleId> + Clone {
        let r = self.symbols[sym.index()].rules.clone();
        r.map(RuleId)
    }

    /// Number of alternatives of `sym`.
    #[inline]
    pub fn num_alts(&self, sym: SymbolId) -> u32 {
        let r = &self.symbols[sym.index()].rules;
        r.end - r.start
    }

    /// The `alt`-th alternative (simplest first) of `sym`.
    #[inline]
    pub fn alt(&self, sym: SymbolId, alt: u32) -> RuleId {
        let r = &self.symbols[sym.index()].rules;
        debug_assert!(alt < r.end - r.start);
        RuleId(r.start + alt)
    }

    /// The alternatives of minimal derivation depth, as alternative indices
    /// (ascending): what a restricted expansion may choose from, in this
    /// order. Never empty for a productive symbol; contains alternative 0's
    /// index only if alternative 0 has minimal depth.
    #[inline]
    pub fn restricted_alts(&self, sym: SymbolId) -> &[u32] {
        let s = &self.symbols[sym.index()];
        &self.restricted[s.restricted_at as usize..(s.restricted_at + s.min_depth_alts) as usize]
    }

    /// Position of `rule` among the alternatives of its nonterminal.
    #[inline]
    pub fn alt_index(&self, rule: RuleId) -> u32 {
        let lhs = self.rules[rule.index()].lhs;
        rule.0 - self.symbols[lhs.index()].rules.start
    }

    /// Bytes of a terminal.
    #[inline]
    pub fn term(&self, id: TermId) -> &[u8] {
        &self.terms[id.index()]
    }

    /// All interned terminals, indexed by [`TermId`].
    pub fn terms(&self) -> &[Box<[u8]>] {
        &self.terms
    }

    /// Warnings found while validating (e.g. unreachable nonterminals).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The file format this grammar was loaded from.
    pub fn format(&self) -> GrammarFormat {
        self.format
    }

    /// Renders one alternative as `<lhs> ::= ...`, terminals quoted only
    /// when they would be ambiguous.
    pub fn rule_to_string(&self, id: RuleId) -> String {
        let mut s = format!("{} ::=", self.name(self.rule(id).lhs));
        if self.body(id).is_empty() {
            s.push_str(" \"\"");
        }
        for e in self.body(id) {
            s.push(' ');
            match *e {
                Elem::Nt(n) => s.push_str(self.name(n)),
                Elem::T(t) => s.push_str(&display_terminal(self.term(t))),
            }
        }
        s
    }

    /// Largest minimal derivation depth over all reachable nonterminals.
    pub fn max_min_depth(&self) -> u32 {
        self.symbols
            .iter()
            .filter(|s| s.reachable && s.productive)
            .map(|s| s.min_depth)
            .max()
            .unwrap_or(0)
    }
}

/// Shows a terminal for humans: as a JSON-style quoted string, with bytes
/// that are not UTF-8 as `\xNN`.
pub fn display_terminal(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Grammar {
    /// Prints the grammar in BNF, one alternative per line, simplest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rules.len() {
            writeln!(f, "{}", self.rule_to_string(RuleId(r as u32)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
