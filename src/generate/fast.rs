//! The fast path: the grammar compiled to a small op program, run without
//! building a tree.
//!
//! [`Program`] holds, per rule, a run of [`Op`]s that reproduce exactly what
//! the reference walk does with the rule's body, with less work:
//!
//! * adjacent terminals (also across inlined rules) become one [`Op::Lit`],
//!   emitted with one copy;
//! * a nonterminal whose alternatives are all terminal strings (a digit, a
//!   hex digit, a sign) becomes an [`Op::Byte`] or [`Op::Pick`]: choose and
//!   emit in place, no frame. Its depth cannot matter: all its alternatives
//!   have minimal depth 1, so a restricted expansion chooses among the same
//!   list (checked when compiling);
//! * a nonterminal with a single alternative consumes no choice and cannot
//!   raise the output's lower bound, so its body is inlined; the
//!   nonterminals inside it carry the extra depth in [`Op::Call`]'s `delta`;
//! * a nonterminal last in a body is a [`Op::Tail`] call: it replaces the
//!   current frame, so right-recursive lists run in constant stack;
//! * a right-recursive list of bytes (`<integer> ::= <digit> |
//!   <digit><integer>`) is an [`Op::List`]: a loop, no frames;
//! * a rule's leading literal (up to 8 bytes) is emitted when the rule is
//!   taken, with one fixed-size copy;
//! * a call to a nonterminal with 2 to 256 alternatives looks the choice
//!   byte up in a 256-entry table ([`Program::choice`]) that gives the rule
//!   and its first op at once.
//!
//! [`run`] interprets the program with an explicit stack of suspended
//! frames `(pc, depth)`. Budgets, choices and their order are those of
//! [`super::walk`]; the unit proptests `walk_matches_the_reference` (shipped
//! grammars) and `fast_path_matches_the_reference_on_random_grammars` check
//! this against the reference walk.
//!
//! Hot-loop indexing whose bound the program's construction guarantees is
//! unchecked (see the `SAFETY` comments): it cut the instructions per output
//! byte by a seventh, measurably faster (BENCHMARKS.md, `## generate`).

use super::table::SymRow;
use super::DecodeConfig;
use crate::choice::Chooser;
use crate::grammar::{Elem, Grammar, SymbolId};
use std::cell::Cell;

/// One step of a compiled rule body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Emit `lits[at..at + len]`.
    Lit { at: u32, len: u32 },
    /// A nonterminal whose `n` alternatives are single bytes: choose one
    /// and emit `lits[at + alt]`.
    Byte { at: u32, n: u32 },
    /// A nonterminal whose `n` alternatives are terminal strings: choose
    /// one and emit `picks[at + alt]`.
    Pick { at: u32, n: u32 },
    /// Expand a nonterminal at the current depth plus `delta`, then come
    /// back.
    Call { to: Target, delta: u8 },
    /// As [`Op::Call`], but nothing follows it in the body.
    Tail { to: Target, delta: u8 },
    /// A right-recursive list of bytes (`<integer> ::= <digit> |
    /// <digit><integer>`, `<ws> ::= "" | " "<ws>`): every rule of the
    /// nonterminal is a leading literal, maybe a byte nonterminal
    /// ([`FastRule::item_n`]) and maybe the nonterminal itself
    /// ([`FastRule::again`]). Expanded in a loop, one level deeper per
    /// round, without frames.
    List { to: Target, delta: u8 },
    /// End of the body: resume the suspended frame.
    Ret,
}

/// The nonterminal a call expands and its choice table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    sym: u32,
    /// Where its choice table starts in [`Program::choice`], or
    /// [`NO_TABLE`].
    table: u32,
}

/// [`Target::table`] of a nonterminal without a choice table.
const NO_TABLE: u32 = u32::MAX;
/// Choice tables are made for at most this many nonterminals (2 KiB each).
const MAX_TABLES: usize = 32;

/// One alternative of an [`Op::Pick`] nonterminal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PickAlt {
    /// Its text: `lits[at..at + len]`.
    at: u32,
    len: u32,
    /// How much taking it raises the output's lower bound.
    extra: u64,
}

/// What taking a rule needs on the fast path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastRule {
    /// See [`super::table::RuleRow::extra`].
    extra: u64,
    /// The body's leading literal, emitted when the rule is taken:
    /// `lits[lead_at..lead_at + lead_len]`.
    lead_at: u32,
    lead_len: u32,
    /// First op after the leading literal.
    pc: u32,
    /// For a rule of an [`Op::List`] nonterminal: its byte nonterminal's
    /// table `lits[item_at..]` and number of alternatives (0: none), and
    /// whether the list goes on.
    item_at: u32,
    item_n: u32,
    again: bool,
}

/// See the module docs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    ops: Box<[Op]>,
    rules: Box<[FastRule]>,
    lits: Box<[u8]>,
    picks: Box<[PickAlt]>,
    /// Choice tables: for a nonterminal with 2 to 256 alternatives, 256
    /// entries indexed by the choice byte, each the chosen rule's first op
    /// (high half) and the rule (low half). A table look-up replaces the
    /// multiplication and the rule row's load on the way from one op to
    /// the next, the walk's critical path.
    choice: Box<[u64]>,
}

/// How deep single-alternative nonterminals are inlined into each other
/// (bounds the compile-time recursion and the program's size).
const MAX_INLINE: usize = 4;
/// Longest body (in elements, counted over all inlined levels) that is
/// still inlined.
const MAX_INLINED_ELEMS: usize = 32;

/// How a nonterminal is compiled at its use sites.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Call,
    /// Single alternative, inlined.
    Inline,
    /// All alternatives terminal strings.
    Pick,
}

struct Builder<'g> {
    g: &'g Grammar,
    syms: &'g [SymRow],
    kinds: Vec<Kind>,
    /// Per symbol: where its `Byte` or `Pick` op's table starts, once made.
    pick_op: Vec<Option<Op>>,
    ops: Vec<Op>,
    lits: Vec<u8>,
    picks: Vec<PickAlt>,
    /// Per symbol: its choice table's number, once given one.
    table_of: Vec<Option<u32>>,
    /// The symbols with a table, in table order.
    tabled: Vec<SymbolId>,
}

impl Program {
    /// Compiles `g`; `syms` are the decoder's symbol rows.
    pub(crate) fn build(g: &Grammar, syms: &[SymRow]) -> Program {
        let kinds = g
            .symbols
            .iter()
            .enumerate()
            .map(|(si, _)| kind(g, &syms[si], SymbolId(si as u32)))
            .collect();
        let mut b = Builder {
            g,
            syms,
            kinds,
            pick_op: vec![None; g.symbols.len()],
            ops: Vec::new(),
            lits: Vec::new(),
            picks: Vec::new(),
            table_of: vec![None; g.symbols.len()],
            tabled: Vec::new(),
        };
        let rules = g
            .rules
            .iter()
            .map(|r| {
                let pc = b.ops.len() as u32;
                let mut path = Vec::new();
                b.body(r.body.start..r.body.end, 1, &mut path);
                if let Some(Op::Call { to, delta }) = b.ops.last().copied() {
                    if b.ops.len() as u32 > pc {
                        *b.ops.last_mut().expect("just matched") = Op::Tail { to, delta };
                    }
                }
                b.ops.push(Op::Ret);
                let (lead_at, lead_len, pc) = match b.ops[pc as usize] {
                    Op::Lit { at, len } if len as usize <= SMALL => (at, len, pc + 1),
                    _ => (0, 0, pc),
                };
                FastRule {
                    extra: r.min_len.saturating_sub(g.symbols[r.lhs.index()].min_len),
                    lead_at,
                    lead_len,
                    pc,
                    item_at: 0,
                    item_n: 0,
                    again: false,
                }
            })
            .collect::<Box<[FastRule]>>();
        let mut rules = rules;
        lists(syms, &mut b.ops, &mut rules);
        let mut choice = Vec::with_capacity(b.tabled.len() * 256);
        for s in &b.tabled {
            let row = &syms[s.index()];
            choice.extend((0..256u32).map(|byte| {
                let rule = row.first + Chooser::new(&[byte as u8]).choose(row.n_all);
                (rules[rule as usize].pc as u64) << 32 | rule as u64
            }));
        }
        // Slack for `emit`'s fixed-size copies.
        b.lits.extend_from_slice(&[0; SMALL]);
        Program {
            ops: b.ops.into(),
            rules,
            lits: b.lits.into(),
            picks: b.picks.into(),
            choice: choice.into(),
        }
    }
}

/// Finds the right-recursive lists of bytes (see [`Op::List`]) among the
/// compiled rules and turns the calls to them into [`Op::List`].
fn lists(syms: &[SymRow], ops: &mut [Op], rules: &mut [FastRule]) {
    let mut list = vec![false; syms.len()];
    for (si, row) in syms.iter().enumerate() {
        let alts = row.first as usize..(row.first + row.n_all) as usize;
        // The shape of each rule after its leading literal: an optional
        // byte nonterminal, an optional tail call to itself one level down.
        let shape = |r: &FastRule| {
            let mut i = r.pc as usize;
            let mut item = (0, 0);
            if let Op::Byte { at, n } = ops[i] {
                item = (at, n);
                i += 1;
            }
            let mut again = false;
            if let Op::Tail { to, delta: 1 } = ops[i] {
                again = to.sym as usize == si;
                i += again as usize;
            }
            (ops[i] == Op::Ret).then_some((item, again))
        };
        if row.n_all < 2 || !rules[alts.clone()].iter().all(|r| shape(r).is_some()) {
            continue;
        }
        list[si] = true;
        for r in &mut rules[alts] {
            let ((at, n), again) = shape(r).expect("checked above");
            (r.item_at, r.item_n, r.again) = (at, n, again);
        }
    }
    for op in ops {
        if let Op::Call { to, delta } | Op::Tail { to, delta } = *op {
            if list[to.sym as usize] {
                *op = Op::List { to, delta };
            }
        }
    }
}

/// The elements of a body, as a slice.
fn body_elems<'g>(g: &'g Grammar, sym_row: &SymRow) -> &'g [Elem] {
    let r = &g.rules[sym_row.first as usize];
    &g.elems[r.body.start as usize..r.body.end as usize]
}

fn kind(g: &Grammar, s: &SymRow, sym: SymbolId) -> Kind {
    let restricted = &g.restricted[s.r_at as usize..(s.r_at + s.n_min) as usize];
    // A restricted expansion must choose exactly as an unrestricted one.
    let same_when_restricted =
        s.n_min == s.n_all && restricted.iter().enumerate().all(|(i, &a)| a == i as u32);
    if !same_when_restricted || s.n_all == 0 {
        return Kind::Call;
    }
    let first = s.first as usize;
    let rules = &g.rules[first..first + s.n_all as usize];
    if s.n_all == 1 && rules[0].min_len == g.symbols[sym.index()].min_len {
        return Kind::Inline;
    }
    let all_terminal = rules.iter().all(|r| {
        g.elems[r.body.start as usize..r.body.end as usize]
            .iter()
            .all(|e| matches!(e, Elem::T(_)))
    });
    if all_terminal {
        Kind::Pick
    } else {
        Kind::Call
    }
}

impl Builder<'_> {
    /// Compiles elements `range` of the element table, whose nonterminals
    /// are `delta` deeper than the frame's.
    fn body(&mut self, range: std::ops::Range<u32>, delta: u32, path: &mut Vec<SymbolId>) {
        let g = self.g;
        for e in &g.elems[range.start as usize..range.end as usize] {
            match *e {
                Elem::T(t) => self.lit(g.term(t)),
                Elem::Nt(s) => match self.kinds[s.index()] {
                    Kind::Inline
                        if path.len() < MAX_INLINE
                            && !path.contains(&s)
                            && body_elems(g, &self.syms[s.index()]).len() <= MAX_INLINED_ELEMS =>
                    {
                        path.push(s);
                        let r = &g.rules[self.syms[s.index()].first as usize];
                        self.body(r.body.start..r.body.end, delta + 1, path);
                        path.pop();
                    }
                    Kind::Pick => {
                        let op = self.pick(s);
                        self.ops.push(op);
                    }
                    _ => {
                        let to = Target {
                            sym: s.0,
                            table: self.table(s),
                        };
                        let delta = u8::try_from(delta).expect("inlining is bounded");
                        self.ops.push(Op::Call { to, delta });
                    }
                },
            }
        }
    }

    /// The choice table of `s`, if it gets one.
    fn table(&mut self, s: SymbolId) -> u32 {
        if let Some(t) = self.table_of[s.index()] {
            return t;
        }
        let n = self.syms[s.index()].n_all;
        if !(2..=256).contains(&n) || self.tabled.len() >= MAX_TABLES {
            return NO_TABLE;
        }
        let t = self.tabled.len() as u32 * 256;
        self.tabled.push(s);
        self.table_of[s.index()] = Some(t);
        t
    }

    /// Appends `bytes` to the body, merged with a literal right before.
    fn lit(&mut self, bytes: &[u8]) {
        let at = self.lits.len() as u32;
        self.lits.extend_from_slice(bytes);
        if let Some(Op::Lit { at: a, len }) = self.ops.last_mut() {
            if *a + *len == at {
                *len += bytes.len() as u32;
                return;
            }
        }
        self.ops.push(Op::Lit {
            at,
            len: bytes.len() as u32,
        });
    }

    /// The op of a [`Kind::Pick`] nonterminal, its tables made once.
    fn pick(&mut self, s: SymbolId) -> Op {
        if let Some(op) = self.pick_op[s.index()] {
            return op;
        }
        let g = self.g;
        let row = &self.syms[s.index()];
        let first = row.first as usize;
        let rules = &g.rules[first..first + row.n_all as usize];
        let text = |r: &crate::grammar::Rule| -> Vec<u8> {
            g.elems[r.body.start as usize..r.body.end as usize]
                .iter()
                .flat_map(|e| match *e {
                    Elem::T(t) => g.term(t).to_vec(),
                    Elem::Nt(_) => unreachable!("a pick nonterminal has terminal bodies"),
                })
                .collect()
        };
        let texts: Vec<Vec<u8>> = rules.iter().map(text).collect();
        let op = if texts.iter().all(|t| t.len() == 1) {
            // All of length 1: every rule has the symbol's minimal length,
            // so taking one leaves the bound unchanged.
            let at = self.lits.len() as u32;
            self.lits.extend(texts.iter().map(|t| t[0]));
            Op::Byte { at, n: row.n_all }
        } else {
            let at = self.picks.len() as u32;
            let sym_len = g.symbols[s.index()].min_len;
            for (t, r) in texts.iter().zip(rules) {
                let lit = self.lits.len() as u32;
                self.lits.extend_from_slice(t);
                self.picks.push(PickAlt {
                    at: lit,
                    len: t.len() as u32,
                    extra: r.min_len.saturating_sub(sym_len),
                });
            }
            Op::Pick { at, n: row.n_all }
        };
        self.pick_op[s.index()] = Some(op);
        op
    }
}

thread_local! {
    /// The frame stack, kept between calls so that decoding many short
    /// inputs allocates nothing.
    static STACK: Cell<Vec<(u32, u32)>> = const { Cell::new(Vec::new()) };
}

/// Decodes from nonterminal `start`, appending to `out`: the same output
/// and the same choices as [`super::walk`] with [`super::NoHooks`].
pub(crate) fn run(
    g: &Grammar,
    start: SymbolId,
    chooser: &mut Chooser<'_>,
    cfg: &DecodeConfig,
    out_ref: &mut Vec<u8>,
) {
    let table = super::table::table(g);
    let p = &table.fast;
    let syms = &table.syms[..];
    let ops = &p.ops[..];
    let rules = &p.rules[..];
    let lits = &p.lits[..];
    let picks = &p.picks[..];
    let choice = &p.choice[..];
    let restricted_alts = &g.restricted[..];
    let max_depth = cfg.max_depth;
    let max_len = cfg.max_len as u64;
    let mut ch = chooser.clone();
    // A local buffer (moved back at the end) so that its length can stay
    // in a register.
    let mut buf = std::mem::take(out_ref);
    let out = &mut buf;
    let mut stack = STACK.with(Cell::take);
    stack.clear();
    let mut bound = syms[start.index()].min_len;
    // Chooses a rule for `sym` expanded at depth `d`, emits its leading
    // literal and returns the rule and its first op.
    macro_rules! expand {
        ($to:expr, $d:expr) => {{
            let to: Target = $to;
            let (rule, pc) = if $d > max_depth || bound > max_len {
                let s = &syms[to.sym as usize];
                let rule = s.first + restricted_alts[(s.r_at + ch.choose(s.n_min)) as usize];
                (rule, rules[rule as usize].pc)
            } else if to.table != NO_TABLE {
                // choose(256) is the next byte (0 once exhausted), read as
                // choose(n) would read it for 2 <= n <= 256.
                // SAFETY: `to.table` starts a 256-entry table and
                // choose(256) < 256.
                let e = unsafe { *choice.get_unchecked((to.table + ch.choose(256)) as usize) };
                (e as u32, (e >> 32) as u32)
            } else {
                let s = &syms[to.sym as usize];
                let rule = s.first + ch.choose(s.n_all);
                (rule, rules[rule as usize].pc)
            };
            // SAFETY: `rule` is one of the symbol's rules: from the choice
            // table, or its first rule plus a choice below its count, or
            // plus a restricted alternative index.
            let r = unsafe { rules.get_unchecked(rule as usize) };
            bound = bound.saturating_add(r.extra);
            emit_small(out, lits, r.lead_at, r.lead_len);
            (r, pc)
        }};
    }
    let mut depth = 0u32;
    let root = expand!(
        Target {
            sym: start.0,
            table: NO_TABLE,
        },
        depth
    );
    let mut pc = root.1;
    loop {
        // SAFETY: `pc` is a rule's first op or follows an op that is not
        // `Ret`, and every rule's ops end with `Ret`.
        let op = unsafe { *ops.get_unchecked(pc as usize) };
        pc += 1;
        match op {
            Op::Lit { at, len } => emit(out, lits, at, len),
            Op::Byte { at, n } => {
                out.push(lits[(at + ch.choose(n)) as usize]);
            }
            Op::Pick { at, n } => {
                let a = &picks[(at + ch.choose(n)) as usize];
                emit(out, lits, a.at, a.len);
                bound = bound.saturating_add(a.extra);
            }
            Op::Call { to, delta } => {
                let d = depth + delta as u32;
                let (_, next) = expand!(to, d);
                stack.push((pc, depth));
                pc = next;
                depth = d;
            }
            Op::Tail { to, delta } => {
                let d = depth + delta as u32;
                pc = expand!(to, d).1;
                depth = d;
            }
            Op::List { to, delta } => {
                let mut d = depth + delta as u32;
                loop {
                    let (r, _) = expand!(to, d);
                    if r.item_n != 0 {
                        out.push(lits[(r.item_at + ch.choose(r.item_n)) as usize]);
                    }
                    if !r.again {
                        break;
                    }
                    d += 1;
                }
            }
            Op::Ret => match stack.pop() {
                Some((p, d)) => {
                    pc = p;
                    depth = d;
                }
                None => break,
            },
        }
    }
    STACK.with(|s| s.set(stack));
    *chooser = ch;
    *out_ref = buf;
}

/// Longest literal copied with one fixed-size move; `lits` ends with this
/// many bytes of slack.
const SMALL: usize = 8;

/// Appends `lits[at..at + len]` to `out`. Short literals (most keywords and
/// punctuation) are copied as a fixed `SMALL`-byte block and the excess cut
/// off, which is cheaper than a variable-length copy.
#[inline(always)]
fn emit_small(out: &mut Vec<u8>, lits: &[u8], at: u32, len: u32) {
    let (at, len) = (at as usize, len as usize);
    let keep = out.len() + len;
    // SAFETY: every literal starts at least `SMALL` bytes before the end
    // of `lits` (see `Program::build`).
    out.extend_from_slice(unsafe { lits.get_unchecked(at..at + SMALL) });
    out.truncate(keep);
}

#[inline(always)]
fn emit(out: &mut Vec<u8>, lits: &[u8], at: u32, len: u32) {
    let (at, len) = (at as usize, len as usize);
    if len <= SMALL {
        let keep = out.len() + len;
        out.extend_from_slice(&lits[at..at + SMALL]);
        out.truncate(keep);
    } else {
        out.extend_from_slice(&lits[at..at + len]);
    }
}
