//! The grammar compiled for Earley parsing: rule bodies flattened into
//! per-byte *slots*, byte-class symbols, FIRST sets and lookahead-filtered
//! prediction lists. Built once per grammar by [`super::Parser::new`].

use crate::grammar::{Elem, Grammar, RuleId, SymbolId, TermId, INFINITE};

/// 256 input bytes plus end of input, as a bit set.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ByteSet([u64; 5]);

/// Lookahead index of "end of input".
pub(crate) const EOF: usize = 256;

impl ByteSet {
    #[inline]
    pub(crate) fn contains(&self, b: usize) -> bool {
        self.0[b >> 6] >> (b & 63) & 1 == 1
    }
    #[inline]
    pub(crate) fn insert(&mut self, b: usize) {
        self.0[b >> 6] |= 1 << (b & 63);
    }
    /// Adds `o`; returns whether anything changed.
    fn union(&mut self, o: &ByteSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

/// One position inside a flattened rule body: the dot of an Earley item
/// stands *before* a slot. A terminal of `k` bytes occupies `k` slots, so
/// scanning always moves one byte forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Byte `b` of terminal `term`; `first` marks the terminal's first byte
    /// (where its tree leaf starts).
    Byte { b: u8, term: TermId, first: bool },
    /// One byte of a byte-class symbol (every alternative a single byte).
    Class(SymbolId),
    /// A nonterminal to predict.
    Nt(SymbolId),
    /// End of rule `rule` (or of a virtual start rule, see
    /// [`Tables::virtual_rule`]).
    End(u32),
}

/// The compiled grammar.
pub(crate) struct Tables {
    pub(crate) slots: Vec<Slot>,
    /// First slot of each rule (real rules, then one virtual rule
    /// `S' -> S` per symbol, for parsing as any nonterminal).
    pub(crate) rule_start: Vec<u32>,
    /// Bytes (and EOF) for which an item with its dot at the slot can make
    /// progress: FIRST of the rest of the rule, plus FOLLOW of the rule's
    /// left-hand side if the rest is nullable (then the item may complete,
    /// and the completion is of use only if something can go on with the
    /// next byte). FOLLOW always holds EOF: any symbol can be parsed as
    /// the root ([`super::parse_from`]).
    pub(crate) viable: Vec<ByteSet>,
    /// FIRST of the rest of the rule at each slot (bytes only). An item
    /// that started at the current position is useful only if the next
    /// byte is in it: otherwise it can only derive the empty string there,
    /// which the Aycock–Horspool rule has already accounted for.
    pub(crate) first: Vec<ByteSet>,
    /// Per symbol, the byte set a class symbol matches (empty otherwise).
    pub(crate) class: Vec<Option<Box<ByteSet>>>,
    /// Per class symbol, the alternative index per byte.
    pub(crate) class_alt: Vec<Option<Box<[u32; 256]>>>,
    /// `predict[sym * 257 + la] .. predict[sym * 257 + la + 1]` ranges over
    /// `predict_rules`: the rules of `sym` that can start with byte `la`
    /// (rules that could only derive the empty string there are left out,
    /// see `first`).
    pub(crate) predict_off: Vec<u32>,
    pub(crate) predict_rules: Vec<u32>,
    pub(crate) nullable: Vec<bool>,
    /// Left-hand side of each real rule.
    pub(crate) rule_lhs: Vec<SymbolId>,
    /// Rules of each symbol (ids), for unfiltered prediction.
    pub(crate) sym_rules: Vec<std::ops::Range<u32>>,
    /// Per nullable symbol, the alternative used for its empty derivation
    /// (minimal empty-derivation height, then lowest index), so extraction
    /// of empty spans never loops.
    pub(crate) eps_rule: Vec<Option<RuleId>>,
    pub(crate) num_rules: u32,
    /// Per slot: the nonterminal of an `Nt` slot, the left-hand side of a
    /// real rule's `End` slot, `u32::MAX` otherwise (sort keys of the
    /// chart's sets).
    pub(crate) slot_sym: Vec<u32>,
    /// Rank of each slot in the order (`slot_sym`, slot): sorting a set's
    /// waiting items by `(slot_rank, origin)` is sorting them by (symbol,
    /// slot, origin) with one integer key.
    pub(crate) slot_rank: Vec<u32>,
    /// Can a nonterminal derive itself over the same text through another
    /// one (`A -> B -> A`, or `A -> A A`, with nullable context)? Only
    /// cyclic grammars need cycle checks in extraction.
    pub(crate) cyclic: bool,
    /// Per symbol: is it the last element of some rule (so that Leo's
    /// optimisation can apply to its completions)?
    pub(crate) ends_rule: Vec<bool>,
}

impl Tables {
    pub(crate) fn new(g: &Grammar) -> Tables {
        Tables::build(g, true)
    }

    /// `fast == false` leaves out the optimisations that must not change
    /// trees or errors (FOLLOW in `viable`), for tests that compare both.
    pub(crate) fn build(g: &Grammar, fast: bool) -> Tables {
        let ns = g.num_symbols();
        let nr = g.num_rules();
        let mut class: Vec<Option<Box<ByteSet>>> = vec![None; ns];
        let mut class_alt: Vec<Option<Box<[u32; 256]>>> = vec![None; ns];
        for s in 0..ns {
            let sym = SymbolId(s as u32);
            let single = |r: RuleId| match g.body(r) {
                [Elem::T(t)] if g.term(*t).len() == 1 => Some(g.term(*t)[0]),
                _ => None,
            };
            if g.num_alts(sym) > 0 && g.rules_of(sym).all(|r| single(r).is_some()) {
                let mut set = ByteSet::default();
                let mut alt = [u32::MAX; 256];
                for (i, r) in g.rules_of(sym).enumerate() {
                    let b = single(r).unwrap_or(0);
                    set.insert(b as usize);
                    if alt[b as usize] == u32::MAX {
                        alt[b as usize] = i as u32;
                    }
                }
                class[s] = Some(Box::new(set));
                class_alt[s] = Some(Box::new(alt));
            }
        }
        let nullable: Vec<bool> = g.symbols().iter().map(|s| s.nullable).collect();

        let mut slots = Vec::new();
        let mut rule_start = Vec::with_capacity(nr + ns);
        let elem_slot = |e: Elem, slots: &mut Vec<Slot>| match e {
            Elem::Nt(s) if class[s.index()].is_some() => slots.push(Slot::Class(s)),
            Elem::Nt(s) => slots.push(Slot::Nt(s)),
            Elem::T(t) => {
                for (i, &b) in g.term(t).iter().enumerate() {
                    slots.push(Slot::Byte {
                        b,
                        term: t,
                        first: i == 0,
                    });
                }
            }
        };
        for r in 0..nr {
            rule_start.push(slots.len() as u32);
            for &e in g.body(RuleId(r as u32)) {
                elem_slot(e, &mut slots);
            }
            slots.push(Slot::End(r as u32));
        }
        for s in 0..ns {
            rule_start.push(slots.len() as u32);
            elem_slot(Elem::Nt(SymbolId(s as u32)), &mut slots);
            slots.push(Slot::End((nr + s) as u32));
        }

        // FIRST sets of symbols and of every slot suffix; fixpoint.
        let mut first_sym = vec![ByteSet::default(); ns];
        let mut first = vec![ByteSet::default(); slots.len()];
        let mut nullable_from = vec![false; slots.len()];
        loop {
            let mut changed = false;
            for (r, &start) in rule_start.iter().enumerate() {
                let start = start as usize;
                let mut p = start;
                while !matches!(slots[p], Slot::End(_)) {
                    p += 1;
                }
                nullable_from[p] = true;
                let mut acc = ByteSet::default();
                let mut null_rest = true;
                for q in (start..p).rev() {
                    let (mut f, null) = match slots[q] {
                        Slot::Byte { b, .. } => {
                            let mut f = ByteSet::default();
                            f.insert(b as usize);
                            (f, false)
                        }
                        Slot::Class(s) => (**class[s.index()].as_ref().expect("class"), false),
                        Slot::Nt(s) => (first_sym[s.index()], nullable[s.index()]),
                        Slot::End(_) => unreachable!("End only at the end"),
                    };
                    if null {
                        f.union(&acc);
                    }
                    null_rest &= null;
                    acc = f;
                    first[q] = acc;
                    nullable_from[q] = null_rest;
                }
                if r < nr {
                    let lhs = g.rule(RuleId(r as u32)).lhs.index();
                    changed |= first_sym[lhs].union(&first[start]);
                }
            }
            if !changed {
                break;
            }
        }
        let follow = follow_sets(g, &slots, &rule_start, &first, &nullable_from, nr);
        // Per slot, the follow set of its rule's left-hand side (`{EOF}`
        // for the virtual start rules).
        let mut eof_only = ByteSet::default();
        eof_only.insert(EOF);
        let mut all = ByteSet::default();
        for b in 0..=EOF {
            all.insert(b);
        }
        let mut viable = first.clone();
        for (r, &start) in rule_start.iter().enumerate() {
            let lhs_follow = if !fast {
                &all
            } else if r < nr {
                &follow[g.rule(RuleId(r as u32)).lhs.index()]
            } else {
                &eof_only
            };
            let mut q = start as usize;
            loop {
                if nullable_from[q] {
                    viable[q].union(lhs_follow);
                }
                if matches!(slots[q], Slot::End(_)) {
                    break;
                }
                q += 1;
            }
        }

        let mut predict_off = Vec::with_capacity(ns * 257 + 1);
        let mut predict_rules = Vec::new();
        for s in 0..ns {
            for la in 0..=EOF {
                predict_off.push(predict_rules.len() as u32);
                for r in g.rules_of(SymbolId(s as u32)) {
                    if g.rule(r).min_depth == INFINITE {
                        continue;
                    }
                    if first[rule_start[r.index()] as usize].contains(la) {
                        predict_rules.push(r.0);
                    }
                }
            }
        }
        predict_off.push(predict_rules.len() as u32);

        let slot_sym: Vec<u32> = slots
            .iter()
            .map(|s| match *s {
                Slot::Nt(x) => x.0,
                Slot::End(r) if (r as usize) < nr => g.rule(RuleId(r)).lhs.0,
                _ => u32::MAX,
            })
            .collect();
        let slot_rank = {
            let mut order: Vec<u32> = (0..slots.len() as u32).collect();
            order.sort_by_key(|&q| (slot_sym[q as usize], q));
            let mut rank = vec![0; slots.len()];
            for (k, &q) in order.iter().enumerate() {
                rank[q as usize] = k as u32;
            }
            rank
        };
        let mut ends_rule = vec![false; ns];
        for (q, slot) in slots.iter().enumerate() {
            // Virtual start rules (`End(r)`, `r >= nr`) have nothing
            // waiting for them.
            if let (Slot::Nt(x), Some(&Slot::End(r))) = (slot, slots.get(q + 1)) {
                ends_rule[x.index()] |= (r as usize) < nr;
            }
        }
        Tables {
            ends_rule,
            cyclic: is_cyclic(g),
            slot_rank,
            slot_sym,
            eps_rule: eps_rules(g),
            slots,
            rule_start,
            viable,
            first,
            class,
            class_alt,
            predict_off,
            predict_rules,
            nullable,
            rule_lhs: (0..nr).map(|r| g.rule(RuleId(r as u32)).lhs).collect(),
            sym_rules: g.symbols().iter().map(|s| s.rules.clone()).collect(),
            num_rules: nr as u32,
        }
    }

    /// The virtual rule `S' -> sym` used to parse as `sym`.
    pub(crate) fn virtual_rule(&self, sym: SymbolId) -> u32 {
        self.num_rules + sym.0
    }

    /// Rules of `sym` viable under lookahead `la`.
    #[inline]
    pub(crate) fn predictions(&self, sym: SymbolId, la: usize) -> &[u32] {
        let i = sym.index() * 257 + la;
        &self.predict_rules[self.predict_off[i] as usize..self.predict_off[i + 1] as usize]
    }
}

/// FOLLOW of every symbol (bytes that can come right after it in some
/// sentential form, and EOF for all, each symbol being a possible root):
/// fixpoint over the flattened rules, `first` and `nullable_from` being
/// per slot.
fn follow_sets(
    g: &Grammar,
    slots: &[Slot],
    rule_start: &[u32],
    first: &[ByteSet],
    nullable_from: &[bool],
    nr: usize,
) -> Vec<ByteSet> {
    let mut follow = vec![ByteSet::default(); g.num_symbols()];
    for f in &mut follow {
        f.insert(EOF);
    }
    loop {
        let mut changed = false;
        for (r, &start) in rule_start.iter().enumerate().take(nr) {
            let lhs = g.rule(RuleId(r as u32)).lhs.index();
            let mut q = start as usize;
            while let Some(slot) = slots.get(q) {
                let sym = match *slot {
                    Slot::Nt(s) | Slot::Class(s) => s.index(),
                    Slot::End(_) => break,
                    Slot::Byte { .. } => {
                        q += 1;
                        continue;
                    }
                };
                let mut f = first[q + 1];
                if nullable_from[q + 1] {
                    f.union(&follow[lhs]);
                }
                changed |= follow[sym].union(&f);
                q += 1;
            }
        }
        if !changed {
            return follow;
        }
    }
}

/// For each nullable symbol, an alternative deriving the empty string
/// through a finite derivation of minimal height, lowest index first: the
/// grammar's alternative 0 (alternatives are sorted by minimal length, then
/// by the depth of their shallowest shortest derivation).
fn eps_rules(g: &Grammar) -> Vec<Option<RuleId>> {
    g.symbols()
        .iter()
        .enumerate()
        .map(|(s, info)| info.nullable.then(|| g.alt(SymbolId(s as u32), 0)))
        .collect()
}

/// See [`Tables::cyclic`]. Edges `A -> B` for every rule `A -> α B β` with
/// `α`, `β` nullable (`B == A` included when `β` is not empty: `A -> A A`
/// with nullable `A` derives `A` over the same text, and extraction must not
/// take that rule forever); a cycle in that graph is found by an iterative
/// depth-first search.
fn is_cyclic(g: &Grammar) -> bool {
    let ns = g.num_symbols();
    let nullable = |e: &Elem| matches!(e, Elem::Nt(x) if g.symbol(*x).nullable);
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); ns];
    for (s, out) in edges.iter_mut().enumerate() {
        let sym = SymbolId(s as u32);
        for r in g.rules_of(sym) {
            let body = g.body(r);
            for (k, e) in body.iter().enumerate() {
                if let Elem::Nt(x) = *e {
                    // A self-loop in last position (`A -> α A`) is never
                    // recorded over the same span by the recogniser; one
                    // with a nullable tail (`A -> A β`) is.
                    if (x != sym || k + 1 < body.len())
                        && body[..k].iter().all(nullable)
                        && body[k + 1..].iter().all(nullable)
                    {
                        out.push(x.0);
                    }
                }
            }
        }
    }
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut color = vec![0u8; ns];
    for root in 0..ns {
        if color[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        color[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = edges[v].get(*next) {
                *next += 1;
                match color[w as usize] {
                    1 => return true,
                    0 => {
                        color[w as usize] = 1;
                        stack.push((w as usize, 0));
                    }
                    _ => {}
                }
            } else {
                color[v] = 2;
                stack.pop();
            }
        }
    }
    false
}
