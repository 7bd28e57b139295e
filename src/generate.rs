//! Decoding choice sequences into sentences of a grammar.
//!
//! Generation is a pure function of (grammar, choice bytes, [`DecodeConfig`]):
//! the generator walks the grammar left to right with an explicit stack, and
//! each expansion of a nonterminal with more than one candidate alternative
//! consumes one choice from a [`Chooser`]. Because exhausted
//! input yields choice 0 and alternative 0 is always the cheapest
//! (see [`crate::grammar`]), **every** byte string decodes to a valid
//! sentence, in time and memory linear in the input.
//!
//! # Budgets (the `LimitFuzzer` idea)
//!
//! A nonterminal is expanded *restricted* when its depth is beyond
//! [`DecodeConfig::max_depth`] or when the output's lower bound (bytes
//! emitted so far plus the minimal length of everything still pending)
//! exceeds [`DecodeConfig::max_len`]. A restricted expansion chooses only
//! among the alternatives of minimal derivation depth (the first
//! `min_depth_alts` ones), which strictly lowers the remaining depth, so
//! generation winds down. A tree whose depth is `<= max_depth` and whose
//! text is `<= max_len` bytes never meets a restricted expansion, so the
//! encoder can always produce it under such a config.
//!
//! # Monotonicity guarantee
//!
//! For a fixed config, *truncation simplifies*: decoding a prefix of a
//! sequence replaces the decisions that fell off the end by choice 0, the
//! simplest alternative; the empty sequence decodes to the tree that takes
//! alternative 0 everywhere, which is a shortest-depth (and, among those,
//! shortest) sentence. Lowering one byte lowers (or keeps) that decision.
//! Later decisions may be re-interpreted, so no global order on outputs is
//! promised beyond this (as in Hypothesis).

use crate::choice::Chooser;
use crate::grammar::{Elem, Grammar, RuleId, SymbolId, TermId};
use crate::tree::{Label, Tree, NO_PARENT};

/// Budgets for decoding; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DecodeConfig {
    /// Nodes deeper than this expand restricted (root has depth 0).
    pub max_depth: u32,
    /// Once the output's lower bound exceeds this many bytes, expansions are
    /// restricted. The output can overshoot by the minimal-depth completions
    /// of what is pending.
    pub max_len: usize,
}

impl Default for DecodeConfig {
    /// `max_depth` 2048, `max_len` 1 MiB: deep enough for realistic inputs of
    /// character-level grammars (where a list of n items is n deep).
    fn default() -> DecodeConfig {
        DecodeConfig {
            max_depth: 2048,
            max_len: 1 << 20,
        }
    }
}

/// Receives the decoder's output; lets the tree path and the fast path
/// share one walk.
pub(crate) trait Sink {
    /// A nonterminal is expanded by `rule`; returns its node handle.
    fn rule(&mut self, rule: RuleId, parent: u32, choice_pos: u32) -> u32;
    /// A terminal is emitted.
    fn term(&mut self, term: TermId, bytes: &[u8], parent: u32, choice_pos: u32);
}

enum Item {
    Nt {
        sym: SymbolId,
        depth: u32,
        parent: u32,
    },
    T {
        term: TermId,
        parent: u32,
    },
}

/// The one decoding walk. Returns the number of choice bytes consumed.
pub(crate) fn walk<S: Sink>(
    g: &Grammar,
    start: SymbolId,
    chooser: &mut Chooser<'_>,
    cfg: &DecodeConfig,
    sink: &mut S,
) {
    let mut stack: Vec<Item> = Vec::with_capacity(64);
    stack.push(Item::Nt {
        sym: start,
        depth: 0,
        parent: NO_PARENT,
    });
    let mut emitted: u64 = 0;
    let mut pending: u64 = g.symbol(start).min_len;
    let max_len = cfg.max_len as u64;
    while let Some(item) = stack.pop() {
        match item {
            Item::T { term, parent } => {
                let bytes = g.term(term);
                sink.term(term, bytes, parent, chooser.position() as u32);
                emitted += bytes.len() as u64;
                pending -= bytes.len() as u64;
            }
            Item::Nt { sym, depth, parent } => {
                let info = g.symbol(sym);
                let restricted = depth > cfg.max_depth || emitted + pending > max_len;
                let n = if restricted {
                    info.min_depth_alts
                } else {
                    info.rules.end - info.rules.start
                };
                let pos = chooser.position() as u32;
                let rule = RuleId(info.rules.start + chooser.choose(n));
                let id = sink.rule(rule, parent, pos);
                pending = pending - info.min_len + g.rule(rule).min_len;
                for e in g.body(rule).iter().rev() {
                    stack.push(match *e {
                        Elem::Nt(s) => Item::Nt {
                            sym: s,
                            depth: depth + 1,
                            parent: id,
                        },
                        Elem::T(t) => Item::T {
                            term: t,
                            parent: id,
                        },
                    });
                }
            }
        }
    }
}

struct TreeSink<'t>(&'t mut Tree);

impl Sink for TreeSink<'_> {
    #[inline]
    fn rule(&mut self, rule: RuleId, parent: u32, pos: u32) -> u32 {
        self.0.push(Label::Rule(rule), parent, pos)
    }
    #[inline]
    fn term(&mut self, term: TermId, _: &[u8], parent: u32, pos: u32) {
        self.0.push(Label::Term(term), parent, pos);
    }
}

struct BytesSink<'o>(&'o mut Vec<u8>);

impl Sink for BytesSink<'_> {
    #[inline]
    fn rule(&mut self, _: RuleId, _: u32, _: u32) -> u32 {
        0
    }
    #[inline]
    fn term(&mut self, _: TermId, bytes: &[u8], _: u32, _: u32) {
        self.0.extend_from_slice(bytes);
    }
}

/// Decodes `choices` into a derivation tree of the start symbol.
///
/// ```
/// use grammar_min::{grammar::Grammar, generate::decode_tree};
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let t = decode_tree(&g, &[0, 200], &Default::default());
/// assert_eq!(t.unparse(&g), b"01");
/// assert_eq!(t.node(t.root()).choices, 0..2);
/// ```
pub fn decode_tree(g: &Grammar, choices: &[u8], cfg: &DecodeConfig) -> Tree {
    decode_tree_from(g, g.start(), choices, cfg)
}

/// Decodes `choices` into a derivation tree of nonterminal `start`.
pub fn decode_tree_from(g: &Grammar, start: SymbolId, choices: &[u8], cfg: &DecodeConfig) -> Tree {
    let mut tree = Tree::new();
    let mut chooser = Chooser::new(choices);
    walk(g, start, &mut chooser, cfg, &mut TreeSink(&mut tree));
    tree.finish(chooser.position() as u32);
    tree
}

/// Fast path: decodes `choices` straight to the output bytes, building no
/// tree. Appends to `out` (so a fuzz loop can reuse one buffer).
///
/// ```
/// use grammar_min::{grammar::Grammar, generate::decode_into};
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let mut out = Vec::new();
/// decode_into(&g, &[255, 0], &Default::default(), &mut out);
/// assert_eq!(out, b"10");
/// ```
pub fn decode_into(g: &Grammar, choices: &[u8], cfg: &DecodeConfig, out: &mut Vec<u8>) {
    let mut chooser = Chooser::new(choices);
    walk(g, g.start(), &mut chooser, cfg, &mut BytesSink(out));
}

/// [`decode_into`] returning a fresh buffer.
pub fn decode(g: &Grammar, choices: &[u8], cfg: &DecodeConfig) -> Vec<u8> {
    let mut out = Vec::new();
    decode_into(g, choices, cfg, &mut out);
    out
}
