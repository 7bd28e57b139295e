//! Reading one derivation tree out of a finished chart, iteratively.
//!
//! A node is described by a complete item: its rule, its span, and the
//! split point of its last nonterminal (`link`). Walking the rule body right
//! to left, each nonterminal child's start is the current `link`, and the
//! item that waited for that child (found by binary search in the waiting
//! set where the child started) gives the next `link`. A nonterminal child
//! spanning `[from, to)` takes the complete item of that span with the
//! **lowest alternative index** (the simplest); empty spans take the
//! symbol's precomputed empty derivation. Leo items are expanded back into
//! the chain of items they stand for.
//!
//! Nodes are emitted in pre-order from an explicit stack, so input depth
//! never reaches the call stack.

use super::chart::{lhs_of, Chart, Done, Item, NO_LEO};
use super::tables::{Slot, Tables};
use crate::grammar::{RuleId, SymbolId, TermId};
use crate::tree::{Label, Node, Tree, NO_PARENT};

/// What a pending node is.
#[derive(Clone, Copy)]
enum What {
    /// A terminal leaf.
    Term(TermId),
    /// A byte-class symbol matched byte `b`.
    Class(SymbolId, u8),
    /// A nullable symbol over an empty span.
    Eps(SymbolId),
    /// The simplest complete item of `sym` over `[from, to)`.
    Lookup { sym: SymbolId, from: u32, to: u32 },
    /// A specific complete item ending at `at`.
    /// (An index into the chart's complete items, not the item itself:
    /// that keeps `What` at 16 bytes and the task stack small.)
    Exact { idx: u32, at: u32 },
    /// Element `idx` of a rebuilt Leo chain (in `chains`), ending at `at`.
    Chain { idx: u32, at: u32 },
}

struct Task {
    what: What,
    parent: u32,
    /// The symbols of the consecutive ancestors with the same span, as a
    /// linked list in `Extractor::runs` (`NONE` = empty): a cyclic grammar
    /// (`A -> B -> A`) would otherwise descend forever over one span.
    run: u32,
}

const NONE: u32 = u32::MAX;

/// Extraction visits the chart's sets roughly left to right (pre-order)
/// but in steps the hardware prefetcher does not follow; asking for the
/// sets this many positions ahead hides most of the cache misses.
const PREFETCH_AHEAD: usize = 96;
/// The same for Leo chains, rebuilt right to left.
const PREFETCH_BACK: usize = 12;

/// One rebuilt element of a Leo chain.
#[derive(Clone, Copy)]
struct ChainElem {
    d: Done,
    /// Index of the chain's bottom element in the arena.
    base: u32,
    bottom_sym: SymbolId,
    bottom_from: u32,
}

/// Why extraction gave up (only for cyclic grammars or internal bugs;
/// reported as a parse error, never a panic).
pub(crate) struct ExtractError(pub(crate) String);

pub(crate) fn extract(
    t: &Tables,
    chart: &Chart,
    start: SymbolId,
    input: &[u8],
) -> Result<Tree, ExtractError> {
    let mut ex = Extractor {
        t,
        chart,
        input,
        nodes: Vec::with_capacity(input.len() * 4 + 16),
        open: Vec::new(),
        stack: Vec::new(),
        chains: Vec::new(),
        runs: Vec::new(),
        prefault: super::mem::Prefault::new(),
    };
    let n = input.len() as u32;
    if n == 0 {
        ex.stack.push(Task {
            what: What::Eps(start),
            parent: NO_PARENT,
            run: NONE,
        });
    } else {
        let accept = t.rule_start[t.virtual_rule(start) as usize] + 1;
        let set = chart.done_in(n as usize);
        let k = set
            .iter()
            .rposition(|d| d.slot == accept && d.origin == 0)
            .ok_or_else(|| ExtractError("no accepting item".into()))?;
        let idx = (chart.done_off[n as usize] as usize + k) as u32;
        ex.stack.push(Task {
            what: What::Exact { idx, at: n },
            parent: NO_PARENT,
            run: NONE,
        });
    }
    ex.run()?;
    ex.close_until(NO_PARENT);
    Tree::from_preorder_sized(ex.nodes)
        .ok_or_else(|| ExtractError("extracted nodes are not in pre-order".into()))
}

struct Extractor<'a> {
    t: &'a Tables,
    chart: &'a Chart,
    input: &'a [u8],
    /// The tree's nodes in pre-order, with depths and sizes.
    nodes: Vec<Node>,
    /// Rule nodes whose subtree may still grow, root first: the chain of
    /// ancestors of the next node (so its depth is this stack's length).
    /// A node is closed, its size set, when a node outside its subtree is
    /// emitted: this replaces a close marker on the task stack per rule
    /// node and a pass over the finished tree.
    open: Vec<u32>,
    stack: Vec<Task>,
    chains: Vec<ChainElem>,
    /// Linked lists of same-span ancestors: `(symbol, next)`.
    runs: Vec<(SymbolId, u32)>,
    prefault: super::mem::Prefault,
}

impl Extractor<'_> {
    fn run(&mut self) -> Result<(), ExtractError> {
        while let Some(task) = self.stack.pop() {
            match task.what {
                What::Term(term) => {
                    self.leaf(Label::Term(term), task.parent);
                }
                What::Class(sym, b) => self.class_node(sym, b, task.parent)?,
                What::Eps(sym) => self.eps_node(sym, task.parent)?,
                What::Lookup { sym, from, to } => {
                    let mut seen = 0;
                    let mut r = task.run;
                    while r != NONE {
                        seen += (self.runs[r as usize].0 == sym) as usize;
                        r = self.runs[r as usize].1;
                    }
                    self.chart.prefetch(to as usize + PREFETCH_AHEAD);
                    let d = self.lookup(sym, from, to, seen)?;
                    self.node(d, to, None, task)?;
                }
                What::Exact { idx, at } => {
                    let d = *self
                        .chart
                        .done
                        .get(idx as usize)
                        .ok_or_else(|| ExtractError("complete item out of range".into()))?;
                    self.node(d, at, None, task)?;
                }
                What::Chain { idx, at } => {
                    let e = self.chains[idx as usize];
                    let below = if idx > e.base {
                        What::Chain { idx: idx - 1, at }
                    } else {
                        // The chain's last element: no task refers to it
                        // any more, nor to chains rebuilt above it (they
                        // were descendants of its elements, and the stack
                        // finished them first). Dropping them keeps the
                        // arena as small as the nesting of chains instead
                        // of growing (into fresh pages) over the parse.
                        self.chains.truncate(idx as usize);
                        What::Lookup {
                            sym: e.bottom_sym,
                            from: e.bottom_from,
                            to: at,
                        }
                    };
                    self.node(e.d, at, Some(below), task)?;
                }
            }
        }
        Ok(())
    }

    /// Closes the open nodes after `parent` (their subtrees are complete:
    /// the next node is not in them).
    #[inline]
    fn close_until(&mut self, parent: u32) {
        let len = self.nodes.len() as u32;
        while let Some(&top) = self.open.last() {
            if top == parent {
                break;
            }
            self.nodes[top as usize].size = len - top;
            self.open.pop();
        }
    }

    /// Appends a node (size 1); returns its index.
    #[inline]
    fn emit(&mut self, label: Label, parent: u32) -> u32 {
        self.prefault.before_push(&mut self.nodes);
        self.nodes.push(Node::new(label, parent));
        self.nodes.len() as u32 - 1
    }

    /// Emits a leaf under `parent` (an open node).
    #[inline]
    fn leaf(&mut self, label: Label, parent: u32) {
        self.close_until(parent);
        self.emit(label, parent);
    }

    /// Emits a rule node under `parent` (an open node, or `NO_PARENT` for
    /// the root) and opens it; returns its index.
    #[inline]
    fn rule(&mut self, rule: RuleId, parent: u32) -> u32 {
        self.close_until(parent);
        let id = self.emit(Label::Rule(rule), parent);
        self.open.push(id);
        id
    }

    /// Emits the two nodes of class symbol `sym` matching byte `b`.
    #[inline]
    fn class_node(&mut self, sym: SymbolId, b: u8, parent: u32) -> Result<(), ExtractError> {
        let alt = self.t.class_alt[sym.index()]
            .as_ref()
            .map(|a| a[b as usize])
            .filter(|&a| a != u32::MAX)
            .ok_or_else(|| ExtractError(format!("byte {b} not in class")))?;
        let rule = RuleId(self.t.sym_rules[sym.index()].start + alt);
        let term = self.class_term(rule)?;
        // A complete subtree of two nodes: never opened.
        self.close_until(parent);
        let id = self.emit(Label::Rule(rule), parent);
        self.emit(Label::Term(term), id);
        self.nodes[id as usize].size = 2;
        Ok(())
    }

    /// Emits the empty derivation of nullable `sym` (its children, if any,
    /// as tasks).
    fn eps_node(&mut self, sym: SymbolId, parent: u32) -> Result<(), ExtractError> {
        let rule = self.t.eps_rule[sym.index()]
            .ok_or_else(|| ExtractError("nullable symbol without empty derivation".into()))?;
        let id = self.rule(rule, parent);
        let s = self.t.rule_start[rule.index()] as usize;
        let mut e = s;
        while !matches!(self.t.slots[e], Slot::End(_)) {
            e += 1;
        }
        // A nullable rule's body is all nullable nonterminals.
        for q in (s..e).rev() {
            if let Slot::Nt(x) = self.t.slots[q] {
                self.stack.push(Task {
                    what: What::Eps(x),
                    parent: id,
                    run: NONE,
                });
            }
        }
        Ok(())
    }

    /// The terminal of a class alternative.
    fn class_term(&self, rule: RuleId) -> Result<TermId, ExtractError> {
        match self.t.slots[self.t.rule_start[rule.index()] as usize] {
            Slot::Byte { term, .. } => Ok(term),
            _ => Err(ExtractError("class rule without terminal".into())),
        }
    }

    /// The simplest complete item of `sym` over `[from, to)`; the `skip`
    /// simplest ones are passed over (`sym` already occurs `skip` times
    /// above over the same span, so they lead round a cycle).
    fn lookup(&self, sym: SymbolId, from: u32, to: u32, skip: usize) -> Result<Done, ExtractError> {
        let t = self.t;
        let set = self.chart.done_in(to as usize);
        let key = |d: &Done| (t.slot_sym[d.slot as usize], d.origin);
        let i = if set.len() <= 12 {
            set.iter()
                .position(|d| key(d) >= (sym.0, from))
                .unwrap_or(set.len())
        } else {
            set.partition_point(|d| key(d) < (sym.0, from))
        } + skip;
        match set.get(i) {
            Some(d) if key(d) == (sym.0, from) => Ok(*d),
            _ if skip > 0 => Err(ExtractError(
                "the grammar is cyclic (a nonterminal derives itself over the same text) \
                 and no finite derivation was found"
                    .into(),
            )),
            _ => Err(ExtractError(format!(
                "no complete item for symbol {} over {from}..{to}",
                sym.0
            ))),
        }
    }

    /// Emits the node for complete item `d` ending at `at` and schedules its
    /// children. `last` overrides the last nonterminal child (Leo chains).
    fn node(
        &mut self,
        d: Done,
        at: u32,
        last: Option<What>,
        task: Task,
    ) -> Result<(), ExtractError> {
        if d.leo != NO_LEO && last.is_none() {
            let idx = self.rebuild_chain(d)?;
            self.stack.push(Task {
                what: What::Chain { idx, at },
                ..task
            });
            return Ok(());
        }
        let t = self.t;
        let Slot::End(r) = t.slots[d.slot as usize] else {
            return Err(ExtractError("complete item not at End".into()));
        };
        let virtual_rule = r >= t.num_rules;
        let id = if virtual_rule {
            task.parent
        } else {
            self.rule(RuleId(r), task.parent)
        };
        let start = t.rule_start[r as usize];
        let mut p = d.slot;
        let mut pos = at;
        let mut link = d.link;
        let mut last = last;
        // Children come right to left, which is the order the pre-order
        // stack wants them pushed. Same-span children inherit this node's
        // symbol in their run (cyclic grammars only).
        let run = if t.cyclic && !virtual_rule {
            self.runs.push((t.rule_lhs[r as usize], task.run));
            self.runs.len() as u32 - 1
        } else {
            NONE
        };
        let child = |what: What, same_span: bool| Task {
            what,
            parent: id,
            run: if same_span { run } else { NONE },
        };
        while p > start {
            // The leftmost child comes right after this node in pre-order
            // (everything else was only pushed): a leaf there is emitted at
            // once instead of going through the task stack.
            let leftmost = p - 1 == start;
            match t.slots[p as usize - 1] {
                Slot::Byte { first, term, .. } => {
                    if leftmost {
                        self.leaf(Label::Term(term), id);
                    } else if first {
                        self.stack.push(child(What::Term(term), false));
                    }
                    pos = self.back_one(pos)?;
                }
                Slot::Class(s) => {
                    pos = self.back_one(pos)?;
                    let b = self.input[pos as usize];
                    if leftmost {
                        self.class_node(s, b, id)?;
                    } else {
                        self.stack.push(child(What::Class(s, b), false));
                    }
                }
                Slot::Nt(x) => {
                    let from = link;
                    if from > pos {
                        return Err(ExtractError(format!("split {from} after end {pos}")));
                    }
                    let what = match last.take() {
                        Some(w) => Some(w),
                        None if from == pos && leftmost => {
                            self.eps_node(x, id)?;
                            None
                        }
                        None if from == pos => Some(What::Eps(x)),
                        None => Some(What::Lookup {
                            sym: x,
                            from,
                            to: pos,
                        }),
                    };
                    if let Some(what) = what {
                        self.stack.push(child(what, from == d.origin && pos == at));
                    }
                    pos = from;
                    if p - 1 > start {
                        link = self.waiting_link(p - 1, d.origin, pos, x)?;
                    }
                }
                Slot::End(_) => return Err(ExtractError("End inside a rule".into())),
            }
            p -= 1;
        }
        if pos != d.origin {
            return Err(ExtractError(format!(
                "split mismatch: rule walk ended at {pos}, item starts at {}",
                d.origin
            )));
        }
        Ok(())
    }

    /// The position one byte before `pos` (which a consistent chart keeps
    /// inside the input; checked so that a bug is an error, not a panic).
    #[inline]
    fn back_one(&self, pos: u32) -> Result<u32, ExtractError> {
        match pos.checked_sub(1) {
            Some(p) if (p as usize) < self.input.len() => Ok(p),
            _ => Err(ExtractError(format!("terminal before position {pos}"))),
        }
    }

    /// The link of the waiting item `(slot, origin)` in set `set` (its dot
    /// before nonterminal `x`).
    fn waiting_link(
        &self,
        slot: u32,
        origin: u32,
        set: u32,
        x: SymbolId,
    ) -> Result<u32, ExtractError> {
        let lo = self.chart.wait_off[set as usize] as usize;
        let hi = self.chart.wait_off[set as usize + 1] as usize;
        let found = if hi - lo <= 12 {
            self.chart.waiting[lo..hi]
                .iter()
                .find(|it| it.slot == slot && it.origin == origin)
        } else {
            let items = &self.chart.waiting[self.chart.group(self.t, set as usize, x)];
            let i = items.partition_point(|it| (it.slot, it.origin) < (slot, origin));
            items.get(i)
        };
        match found {
            Some(it) if it.slot == slot && it.origin == origin => Ok(it.link),
            _ => Err(ExtractError(format!(
                "waiting item (slot {slot}, origin {origin}) missing in set {set}"
            ))),
        }
    }

    /// Rebuilds the chain of the Leo item `top` from its bottom; returns
    /// the arena index of the top element.
    fn rebuild_chain(&mut self, top: Done) -> Result<u32, ExtractError> {
        let t = self.t;
        let base = self.chains.len() as u32;
        let bottom_sym = SymbolId(top.leo);
        let bottom_from = top.link;
        let (mut j, mut sym) = (top.link as usize, bottom_sym);
        let limit = self.chart.waiting.len() + 1;
        for _ in 0..limit {
            // Chains walk back through the sets (string bodies: one set per
            // byte): fetch the sets a little before this one.
            self.chart.prefetch(j.saturating_sub(PREFETCH_BACK));
            let Some(Item { slot, origin, .. }) = self.chart.leo_link(t, j, sym) else {
                break;
            };
            let d = Done {
                slot: slot + 1,
                origin,
                link: j as u32,
                leo: NO_LEO,
            };
            self.chains.push(ChainElem {
                d,
                base,
                bottom_sym,
                bottom_from,
            });
            if d.slot == top.slot && d.origin == top.origin {
                return Ok(self.chains.len() as u32 - 1);
            }
            let Slot::End(r) = t.slots[d.slot as usize] else {
                break;
            };
            if r >= t.num_rules {
                break;
            }
            (j, sym) = (origin as usize, lhs_of(t, r));
        }
        Err(ExtractError("Leo chain does not reach its top item".into()))
    }
}
