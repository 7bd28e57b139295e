//! The grammar laid out for the decoder's hot loop.
//!
//! [`DecodeTable`] packs what one expansion needs into two small rows (one
//! per nonterminal, one per rule) and concatenates each rule's *leading
//! terminals* — the terminals before its first nonterminal — into one byte
//! string, so the fast path emits a digit, a keyword or `(` with one copy
//! and expands a rule of terminals only without touching the element table.
//! Built once per [`Grammar`] on first use and cached in it.

use crate::grammar::{Elem, Grammar};
use std::fmt;

/// What expanding a nonterminal needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SymRow {
    /// First rule (alternatives are contiguous, simplest first).
    pub first: u32,
    /// Number of alternatives, and how many have minimal depth.
    pub n_all: u32,
    pub n_min: u32,
    /// Where the minimal-depth alternatives are listed in
    /// `Grammar::restricted` (alternative indices).
    pub r_at: u32,
    /// Minimal output length.
    pub min_len: u64,
}

/// What taking a rule needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleRow {
    /// How much taking this rule raises the output's lower bound: its
    /// minimal length minus its nonterminal's.
    pub extra: u64,
    /// The leading terminals, concatenated: `lead[lead_at..lead_end]`.
    pub lead_at: u32,
    pub lead_end: u32,
    /// Body as element indices: `start..end`; `rest` is the first element
    /// after the leading terminals.
    pub start: u32,
    pub rest: u32,
    pub end: u32,
}

/// See the module docs.
#[derive(Clone, Default)]
pub(crate) struct DecodeTable {
    pub syms: Box<[SymRow]>,
    pub rules: Box<[RuleRow]>,
    pub lead: Box<[u8]>,
    /// The fast path's compiled program.
    pub fast: super::fast::Program,
}

impl fmt::Debug for DecodeTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DecodeTable({} symbols, {} rules)",
            self.syms.len(),
            self.rules.len()
        )
    }
}

/// The table of `g`, built on first use.
#[inline]
pub(crate) fn table(g: &Grammar) -> &DecodeTable {
    g.decode_table.get_or_init(|| build(g))
}

fn build(g: &Grammar) -> DecodeTable {
    let syms: Box<[SymRow]> = g
        .symbols
        .iter()
        .map(|s| SymRow {
            first: s.rules.start,
            n_all: s.rules.end - s.rules.start,
            n_min: s.min_depth_alts,
            r_at: s.restricted_at,
            min_len: s.min_len,
        })
        .collect();
    let mut lead = Vec::new();
    let rules = g
        .rules
        .iter()
        .map(|r| {
            let lead_at = lead.len() as u32;
            let mut rest = r.body.start;
            while rest < r.body.end {
                let Elem::T(t) = g.elems[rest as usize] else {
                    break;
                };
                lead.extend_from_slice(g.term(t));
                rest += 1;
            }
            RuleRow {
                extra: r.min_len.saturating_sub(g.symbols[r.lhs.index()].min_len),
                lead_at,
                lead_end: lead.len() as u32,
                start: r.body.start,
                rest,
                end: r.body.end,
            }
        })
        .collect();
    let fast = super::fast::Program::build(g, &syms);
    DecodeTable {
        syms,
        rules,
        lead: lead.into(),
        fast,
    }
}
