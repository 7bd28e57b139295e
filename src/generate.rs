//! Decoding choice sequences into sentences of a grammar.
//!
//! * [`decode_into`] / [`decode`] — the fast path: bytes straight to text,
//!   no tree ([`decode_into_consumed`] also says how many bytes were read).
//! * [`decode_tree`] — the same decoding as a derivation [`Tree`] whose
//!   nodes record the choice bytes they consumed.
//! * [`DecodeConfig`] — the depth and length budgets.
//! * [`Hooks`], [`decode_tree_with_hooks`], [`decode_with_hooks`] —
//!   context-sensitive generation (e.g. [`DefineBeforeUse`]); with
//!   [`NoHooks`] exactly the plain decoding.
//! * [`generate`], [`random_choices`] — seeded random inputs (random choice
//!   sequences from a caller-seeded ChaCha8, decoded).
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
//! among the alternatives of minimal derivation depth
//! ([`Grammar::restricted_alts`], in alternative order: the choice indexes
//! that list), which strictly lowers the remaining depth, so
//! generation winds down. A tree whose depth is `<= max_depth` and whose
//! text is `<= max_len` bytes never meets a restricted expansion, so the
//! encoder can always produce it under such a config.
//!
//! # Monotonicity guarantee
//!
//! For a fixed config, exactly this is promised (and tested in
//! `tests/generate_props.rs`):
//!
//! * **Truncation replaces dropped decisions by choice 0.** Decoding a
//!   prefix `c[..k]` makes the same decisions as decoding `c` up to the
//!   first decision that would read a byte at or past `k`; that decision
//!   and all later ones take alternative 0, the simplest.
//! * **Lowering a byte lowers (or keeps) the decision that read it**; all
//!   earlier decisions are unchanged. Later decisions may be re-interpreted,
//!   so no global order on outputs is promised beyond this (as in
//!   Hypothesis).
//! * **The empty sequence decodes to a shortest sentence**: the tree that
//!   takes alternative 0 everywhere. Alternatives are ordered by minimal
//!   length first (see [`crate::grammar`]), and among the shortest by the
//!   depth of their shallowest shortest derivation, which strictly
//!   decreases along alternative 0, so this tree is finite and its text has
//!   exactly `min_len` bytes (for `grammars/json.json`: `0`). (Past a
//!   budget, the first *minimal-depth* alternative is taken instead.)

mod fast;
mod hooks;
mod random;
mod table;

pub(crate) use table::DecodeTable;

pub use hooks::{DefineBeforeUse, HookCtx, Hooks, NoHooks, Occurrence, Pre, UnknownSymbol};
pub use random::{generate, random_choices, random_len, GenerateConfig, Generator, Sample};

use crate::choice::Chooser;
use crate::grammar::{Elem, Grammar, RuleId, SymbolId, TermId};
use crate::tree::{Label, Tree, NO_PARENT};
use std::ops::Range;

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
    /// The leading terminals of `rule` (elements `elems` of the grammar's
    /// element table), whose bytes are `bytes`, are emitted.
    fn lead(&mut self, g: &Grammar, elems: Range<u32>, bytes: &[u8], parent: u32, choice_pos: u32);
    /// A hook replaced the expansion of `sym` by `bytes`.
    fn text(&mut self, sym: SymbolId, bytes: &[u8], parent: u32, choice_pos: u32);
    /// Everything emitted so far. Only called when hooks are active (post
    /// hooks see the text of the nonterminal they watch); sinks that are
    /// never used with hooks may return nothing.
    fn written(&self) -> &[u8];
}

/// One nonterminal being expanded: a frame reads its rule's body left to
/// right, emitting terminals in place. The walk keeps the current frame in
/// locals and pushes its parent only when the parent still has elements to
/// read: a nonterminal in last position replaces its parent's frame (a tail
/// call), so right-recursive lists run in constant stack.
#[derive(Clone, Copy)]
struct Frame {
    /// Next element of the body, as an index into the grammar's element
    /// table, and the end of the body.
    pos: u32,
    end: u32,
    /// Depth of the nonterminal this frame expands.
    depth: u32,
    /// Sink handle of that nonterminal's node.
    node: u32,
    /// The rule being expanded (for hook occurrences).
    rule: RuleId,
    /// A post hook waits for this frame to finish (top of the watch stack);
    /// watched frames are never replaced by a tail call.
    watched: bool,
}

/// A nonterminal occurrence a post hook waits for, and where its text
/// starts in the output.
struct Watch {
    occ: Occurrence,
    start: usize,
}

/// The one decoding walk, with optional context-sensitive hooks (see
/// [`Hooks`]; [`NoHooks`] compiles the hook calls away).
///
/// Every expansion of a nonterminal reads one choice among its alternatives
/// (all of them, or only the minimal-depth ones when restricted), in
/// pre-order, left to right. All hot state is in plain locals (the chooser
/// too, copied in and back) so that it can live in registers.
pub(crate) fn walk<S: Sink, H: Hooks>(
    g: &Grammar,
    start: SymbolId,
    chooser: &mut Chooser<'_>,
    cfg: &DecodeConfig,
    sink: &mut S,
    hooks: &mut H,
) {
    let table = table::table(g);
    let syms = &table.syms[..];
    let rules = &table.rules[..];
    let leads = &table.lead[..];
    let elems = &g.elems[..];
    let restricted_alts = &g.restricted[..];
    let max_depth = cfg.max_depth;
    let max_len = cfg.max_len as u64;
    let mut ch = chooser.clone();
    let mut frames: Vec<Frame> = Vec::with_capacity(32);
    let mut watches: Vec<Watch> = Vec::new();
    // Lower bound on the output length: bytes emitted so far plus the
    // minimal length of everything pending. Emitting a terminal moves bytes
    // from "pending" to "emitted", so only expansions change it.
    let mut bound = syms[start.index()].min_len;
    // A finished dummy frame: the root's expansion replaces it.
    let mut cur = Frame {
        pos: 0,
        end: 0,
        depth: 0,
        node: NO_PARENT,
        rule: RuleId(0),
        watched: false,
    };
    // The occurrence to expand next, and its parent node.
    let mut occ = Occurrence {
        sym: start,
        parent: None,
        index: 0,
        depth: 0,
    };
    let mut parent = NO_PARENT;
    'expand: loop {
        // Expand `occ`: choose its rule and make the rule's frame current,
        // saving `cur` unless it is finished and unwatched (a tail call).
        'done: {
            let info = &syms[occ.sym.index()];
            let restricted = occ.depth > max_depth || bound > max_len;
            let pos = ch.position() as u32;
            let mut watched = false;
            if H::ACTIVE {
                let mut text = Vec::new();
                let mut ctx = HookCtx {
                    chooser: &mut ch,
                    text: &mut text,
                    restricted,
                };
                match hooks.pre(g, &occ, &mut ctx) {
                    Pre::Expand => {}
                    Pre::Watch => watched = true,
                    Pre::Replace => {
                        sink.text(occ.sym, &text, parent, pos);
                        bound = bound - info.min_len + text.len() as u64;
                        break 'done;
                    }
                }
            }
            let rule = if restricted {
                info.first + restricted_alts[(info.r_at + ch.choose(info.n_min)) as usize]
            } else {
                info.first + ch.choose(info.n_all)
            };
            let node = sink.rule(RuleId(rule), parent, pos);
            let r = &rules[rule as usize];
            bound = bound.saturating_add(r.extra);
            if watched {
                watches.push(Watch {
                    occ,
                    start: sink.written().len(),
                });
            }
            // Emit the body's leading terminals right away: a body of
            // terminals only (a digit, a keyword) then needs no frame.
            let lead = &leads[r.lead_at as usize..r.lead_end as usize];
            sink.lead(g, r.start..r.rest, lead, node, ch.position() as u32);
            if r.rest == r.end && !watched {
                break 'done;
            }
            if cur.pos != cur.end || (H::ACTIVE && cur.watched) {
                frames.push(cur);
            }
            cur = Frame {
                pos: r.rest,
                end: r.end,
                depth: occ.depth,
                node,
                rule: RuleId(rule),
                watched,
            };
        }
        // Read elements until the next nonterminal.
        loop {
            if cur.pos == cur.end {
                if H::ACTIVE && cur.watched {
                    let watch = watches.pop().expect("a watched frame has a watch");
                    hooks.post(g, &watch.occ, &sink.written()[watch.start..]);
                }
                match frames.pop() {
                    Some(f) => cur = f,
                    None => break 'expand,
                }
                continue;
            }
            let e = elems[cur.pos as usize];
            cur.pos += 1;
            match e {
                Elem::T(t) => sink.term(t, g.term(t), cur.node, ch.position() as u32),
                Elem::Nt(sym) => {
                    occ = Occurrence {
                        sym,
                        parent: Some(cur.rule),
                        // Only hooks look at the index; skip the look-up
                        // otherwise.
                        index: if H::ACTIVE {
                            cur.pos - 1 - g.rule(cur.rule).body.start
                        } else {
                            0
                        },
                        depth: cur.depth + 1,
                    };
                    parent = cur.node;
                    continue 'expand;
                }
            }
        }
    }
    *chooser = ch;
}

/// Builds a [`Tree`]; with `TEXT` it also keeps the output text, which post
/// hooks need.
struct TreeSink<'t, const TEXT: bool> {
    tree: &'t mut Tree,
    text: Vec<u8>,
}

impl<const TEXT: bool> Sink for TreeSink<'_, TEXT> {
    #[inline]
    fn rule(&mut self, rule: RuleId, parent: u32, pos: u32) -> u32 {
        self.tree.push(Label::Rule(rule), parent, pos)
    }
    #[inline]
    fn term(&mut self, term: TermId, bytes: &[u8], parent: u32, pos: u32) {
        self.tree.push(Label::Term(term), parent, pos);
        if TEXT {
            self.text.extend_from_slice(bytes);
        }
    }
    #[inline]
    fn lead(&mut self, g: &Grammar, elems: Range<u32>, _: &[u8], parent: u32, pos: u32) {
        for e in &g.elems[elems.start as usize..elems.end as usize] {
            if let Elem::T(t) = *e {
                self.term(t, g.term(t), parent, pos);
            }
        }
    }
    fn text(&mut self, sym: SymbolId, bytes: &[u8], parent: u32, pos: u32) {
        let i = self.tree.push_text(sym, bytes);
        self.tree.push(Label::Text(i), parent, pos);
        if TEXT {
            self.text.extend_from_slice(bytes);
        }
    }
    fn written(&self) -> &[u8] {
        &self.text
    }
}

/// Owns the output buffer while decoding (moved out of the caller's and
/// back), so the hot loop works on a local vector.
struct BytesSink(Vec<u8>);

impl Sink for BytesSink {
    #[inline]
    fn rule(&mut self, _: RuleId, _: u32, _: u32) -> u32 {
        0
    }
    #[inline]
    fn term(&mut self, _: TermId, bytes: &[u8], _: u32, _: u32) {
        self.0.extend_from_slice(bytes);
    }
    #[inline]
    fn lead(&mut self, _: &Grammar, _: Range<u32>, bytes: &[u8], _: u32, _: u32) {
        match bytes {
            [] => {}
            [b] => self.0.push(*b),
            _ => self.0.extend_from_slice(bytes),
        }
    }
    fn text(&mut self, _: SymbolId, bytes: &[u8], _: u32, _: u32) {
        self.0.extend_from_slice(bytes);
    }
    fn written(&self) -> &[u8] {
        &self.0
    }
}

/// Initial node capacity for decoding `choices`: enough for small trees
/// to need no regrowth, small enough (2 KiB) that keeping many trees, or
/// decoding mostly unread random sequences, wastes little memory.
fn node_estimate(choices: &[u8]) -> usize {
    (choices.len() * 2).clamp(16, 64)
}

/// Decodes `choices` into a derivation tree of the start symbol.
///
/// ```
/// use grammar_min::{grammar::Grammar, generate::decode_tree};
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let t = decode_tree(&g, &[0, 200], &Default::default());
/// assert_eq!(t.unparse(&g), b"01");
/// assert_eq!(t.choices(t.root()), 0..2);
/// ```
pub fn decode_tree(g: &Grammar, choices: &[u8], cfg: &DecodeConfig) -> Tree {
    decode_tree_from(g, g.start(), choices, cfg)
}

/// Decodes `choices` into a derivation tree of nonterminal `start`.
pub fn decode_tree_from(g: &Grammar, start: SymbolId, choices: &[u8], cfg: &DecodeConfig) -> Tree {
    let mut tree = Tree::with_capacity(node_estimate(choices));
    let mut chooser = Chooser::new(choices);
    let mut sink = TreeSink::<false> {
        tree: &mut tree,
        text: Vec::new(),
    };
    walk(g, start, &mut chooser, cfg, &mut sink, &mut NoHooks);
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
    decode_into_consumed(g, choices, cfg, out);
}

/// [`decode_into`], returning how many choice bytes the decoding read.
/// Bytes past that point never influence the output, so
/// `&choices[..consumed]` decodes to the same text.
///
/// ```
/// use grammar_min::{grammar::Grammar, generate::decode_into_consumed};
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let mut out = Vec::new();
/// assert_eq!(decode_into_consumed(&g, &[255, 0, 7, 7], &Default::default(), &mut out), 2);
/// assert_eq!(out, b"10");
/// ```
pub fn decode_into_consumed(
    g: &Grammar,
    choices: &[u8],
    cfg: &DecodeConfig,
    out: &mut Vec<u8>,
) -> usize {
    let mut chooser = Chooser::new(choices);
    fast::run(g, g.start(), &mut chooser, cfg, out);
    chooser.position()
}

/// [`decode_into`] returning a fresh buffer.
pub fn decode(g: &Grammar, choices: &[u8], cfg: &DecodeConfig) -> Vec<u8> {
    let mut out = Vec::new();
    decode_into(g, choices, cfg, &mut out);
    out
}

/// Decodes `choices` into a derivation tree with context-sensitive
/// [`Hooks`]. Occurrences a pre hook replaced become
/// [`Label::Text`] leaves; with [`NoHooks`] the result equals
/// [`decode_tree`].
///
/// ```
/// use grammar_min::generate::{decode_tree, decode_tree_with_hooks, NoHooks};
/// use grammar_min::grammar::Grammar;
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1"]}"#,
///     &Default::default()).unwrap();
/// let cfg = Default::default();
/// assert_eq!(decode_tree_with_hooks(&g, &[9, 200], &cfg, &mut NoHooks),
///            decode_tree(&g, &[9, 200], &cfg));
/// ```
pub fn decode_tree_with_hooks<H: Hooks>(
    g: &Grammar,
    choices: &[u8],
    cfg: &DecodeConfig,
    hooks: &mut H,
) -> Tree {
    let mut tree = Tree::with_capacity(node_estimate(choices));
    let mut chooser = Chooser::new(choices);
    let mut sink = TreeSink::<true> {
        tree: &mut tree,
        text: Vec::new(),
    };
    walk(g, g.start(), &mut chooser, cfg, &mut sink, hooks);
    tree.finish(chooser.position() as u32);
    tree
}

/// Fast path with context-sensitive [`Hooks`]: appends the output to `out`
/// and returns the number of choice bytes read. With [`NoHooks`] it is
/// [`decode_into_consumed`].
pub fn decode_with_hooks<H: Hooks>(
    g: &Grammar,
    choices: &[u8],
    cfg: &DecodeConfig,
    hooks: &mut H,
    out: &mut Vec<u8>,
) -> usize {
    let mut chooser = Chooser::new(choices);
    let mut sink = BytesSink(std::mem::take(out));
    walk(g, g.start(), &mut chooser, cfg, &mut sink, hooks);
    *out = sink.0;
    chooser.position()
}

#[cfg(test)]
mod tests;
