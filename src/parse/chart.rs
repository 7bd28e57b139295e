//! The Earley recogniser: builds the chart that [`super::extract`] reads.
//!
//! Items are `(slot, origin, link)` triples of `u32`s. `slot` is the dot
//! position in the flattened rule (see [`super::tables`]); `link` is the
//! start of the nonterminal *just before* the dot's nearest preceding
//! nonterminal (the split point extraction needs), carried unchanged across
//! scanned bytes.
//!
//! Only two kinds of items are kept once a set is finished, in two flat
//! arenas: *waiting* items (a nonterminal after the dot; later completions
//! advance them, extraction looks up split points in them) and *complete*
//! items with `origin < i` (extraction picks rules from them). Items before a
//! terminal byte live only until the next byte is scanned; empty
//! completions (`origin == i`) are never stored because the Aycock–Horspool
//! rule (advance over a nullable nonterminal when predicting it) already did
//! their work.
//!
//! Right recursion is linear thanks to Leo's optimisation: when a
//! completion would only walk up a chain of unique, penultimate items, the
//! topmost item is added directly and tagged with the chain's bottom, from
//! which extraction rebuilds the chain.

use super::dedup::Dedup;
use super::mem::Prefault;
use super::tables::{Slot, Tables, EOF};
use crate::grammar::SymbolId;
use std::ops::Range;

/// An item of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    pub(crate) slot: u32,
    pub(crate) origin: u32,
    pub(crate) link: u32,
}

/// A complete item; `leo` is `NO_LEO`, or the nonterminal at the bottom of
/// the Leo chain this item stands for (the chain starts at `link`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Done {
    pub(crate) slot: u32,
    pub(crate) origin: u32,
    pub(crate) link: u32,
    pub(crate) leo: u32,
}

pub(crate) const NO_LEO: u32 = u32::MAX;

/// Leo memo per waiting group: not computed yet / no Leo item (other
/// values index [`Chart::tops`]).
const LEO_UNKNOWN: u32 = u32::MAX;
const LEO_NONE: u32 = u32::MAX - 1;

/// A finished Earley chart.
pub(crate) struct Chart {
    /// Waiting items of set `i`: `waiting[wait_off[i]..wait_off[i+1]]`,
    /// sorted by (symbol after the dot, slot, origin).
    pub(crate) waiting: Vec<Item>,
    pub(crate) wait_off: Vec<u32>,
    /// Leo memo, parallel to `waiting` (only the first item of each
    /// symbol group is used): `LEO_UNKNOWN`, `LEO_NONE` or an index into
    /// `tops`.
    leo: Vec<u32>,
    /// Chain tops found by Leo: `(slot << 32) | origin`.
    tops: Vec<u64>,
    /// Complete items of set `i`: `done[done_off[i]..done_off[i+1]]`,
    /// sorted by (lhs, origin, slot) so the lowest alternative comes first.
    pub(crate) done: Vec<Done>,
    pub(crate) done_off: Vec<u32>,
}

/// Where recognition stopped.
pub(crate) enum Outcome {
    /// The input is a sentence; the chart is complete.
    Accepted,
    /// Set `at` could not continue: `at == input.len()` means the input
    /// ended too early (or the parse could not end there).
    Failed { at: usize },
    /// Past [`recognise_within`]'s item limit at set `at`: undecided.
    TooCostly { at: usize },
}

/// Mutable state while building one set.
struct Builder<'t> {
    t: &'t Tables,
    chart: Chart,
    dedup: Dedup,
    /// Items still to process, as `(key(slot, origin), link)`: pushed and
    /// popped with the same access widths, so a pop right after a push is
    /// served by store forwarding (an `Item` written field by field and
    /// read back in one 8-byte load stalled here).
    work: Vec<(u64, u32)>,
    /// Symbol -> set index + 1 in which it was last predicted.
    predicted: Vec<u32>,
    /// Items scanned into the next set, as `(key(slot, origin), link)`
    /// (see `work`).
    next: Vec<(u64, u32)>,
    /// When recording what could have come next (error reporting), the
    /// lookahead filter is off and scan items are collected here.
    filter: bool,
    expected: Vec<Item>,
    /// Scratch for [`Builder::leo_top`].
    path: Vec<usize>,
    /// Direct-mapped cache of [`Chart::group`] over finished sets:
    /// `(set, symbol, start, end)`. Completions keep returning to the same
    /// few origins (a string's start, the enclosing array's), so most
    /// lookups hit.
    groups: Vec<[u32; 4]>,
    /// For `waiting`, `done`, `leo`, `wait_off` and `done_off`.
    prefault: [Prefault; 5],
    /// Items (waiting and complete) after which [`Builder::run`] gives up.
    max_items: usize,
}

const GROUP_CACHE: usize = 256;

#[inline]
fn key(slot: u32, origin: u32) -> u64 {
    ((slot as u64) << 32) | origin as u64
}

/// Completed `(symbol, origin)` pairs share the dedup table with items;
/// the top bit keeps them apart (slots are below 2^31).
#[inline]
fn completion_key(sym: SymbolId, origin: u32) -> u64 {
    (1u64 << 63) | ((sym.0 as u64) << 32) | origin as u64
}

/// Runs the recogniser for `start` over `input`, reusing the arenas of
/// `reuse` (a finished chart no longer needed) if given; gives up
/// ([`Outcome::TooCostly`]) once the chart holds more than `max_items`
/// waiting and complete items (an ambiguous grammar's grows faster than
/// the input: callers parsing many candidates bound each one this way).
pub(crate) fn recognise_within(
    t: &Tables,
    start: SymbolId,
    input: &[u8],
    reuse: Option<Chart>,
    max_items: usize,
) -> (Chart, Outcome) {
    let mut b = Builder::new(t, input.len(), reuse);
    b.max_items = max_items;
    let outcome = b.run(start, input, None);
    b.chart.wait_off.push(b.chart.waiting.len() as u32);
    b.chart.done_off.push(b.chart.done.len() as u32);
    (b.chart, outcome)
}

/// Re-runs the recogniser up to set `at` and processes that set without the
/// lookahead filter; returns the items that wait for a byte there (with
/// their slot index), plus whether the parse could end there. Used only to
/// explain errors.
pub(crate) fn expected_at(
    t: &Tables,
    start: SymbolId,
    input: &[u8],
    at: usize,
) -> (Vec<(Slot, u32)>, bool) {
    let mut b = Builder::new(t, 0, None);
    b.run(start, input, Some(at));
    let can_end = b.accepts_last(start, at);
    let out = b
        .expected
        .iter()
        .map(|it| (t.slots[it.slot as usize], it.slot))
        .collect();
    (out, can_end)
}

impl Chart {
    fn empty() -> Chart {
        Chart {
            waiting: Vec::new(),
            wait_off: Vec::new(),
            leo: Vec::new(),
            tops: Vec::new(),
            done: Vec::new(),
            done_off: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.waiting.clear();
        self.wait_off.clear();
        self.leo.clear();
        self.tops.clear();
        self.done.clear();
        self.done_off.clear();
    }

    /// The chain top of Leo memo value `memo` (not `LEO_UNKNOWN`).
    #[inline]
    fn top(&self, memo: u32) -> Option<(u32, u32)> {
        let k = *self.tops.get(memo as usize)?;
        Some(((k >> 32) as u32, k as u32))
    }

    /// Records a chain top (`None`: no Leo item); returns its memo value.
    fn new_top(&mut self, top: Option<u64>) -> u32 {
        match top {
            None => LEO_NONE,
            Some(k) => {
                self.tops.push(k);
                self.tops.len() as u32 - 1
            }
        }
    }

    /// Bytes held by the arenas (capacity, not length).
    pub(crate) fn capacity_bytes(&self) -> usize {
        use std::mem::size_of;
        self.waiting.capacity() * size_of::<Item>()
            + self.leo.capacity() * size_of::<u32>()
            + self.tops.capacity() * size_of::<u64>()
            + self.done.capacity() * size_of::<Done>()
            + (self.wait_off.capacity() + self.done_off.capacity()) * size_of::<u32>()
    }

    /// Hints the CPU to load the start of set `i`'s complete and waiting
    /// items into the cache (nothing if there is no set `i`).
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(&d), Some(&w)) = (self.done_off.get(i), self.wait_off.get(i)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: prefetching is a hint and never faults; the pointers
            // are computed with `wrapping_add` and only used as hints.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.done.as_ptr().wrapping_add(d as usize).cast());
                _mm_prefetch::<_MM_HINT_T0>(self.waiting.as_ptr().wrapping_add(w as usize).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Complete items of set `i`.
    #[inline]
    pub(crate) fn done_in(&self, i: usize) -> &[Done] {
        &self.done[self.done_off[i] as usize..self.done_off[i + 1] as usize]
    }

    /// Range (absolute indices into `waiting`) of set `j`'s items waiting
    /// for `sym`.
    #[inline]
    pub(crate) fn group(&self, t: &Tables, j: usize, sym: SymbolId) -> Range<usize> {
        let lo = self.wait_off[j] as usize;
        let hi = self.wait_off[j + 1] as usize;
        let s = &self.waiting[lo..hi];
        let sym_of = |it: &Item| t.slot_sym[it.slot as usize];
        if s.len() <= 12 {
            // Typical sets are tiny: a linear scan beats binary search.
            let Some(a) = s.iter().position(|it| sym_of(it) == sym.0) else {
                return hi..hi;
            };
            let b = s[a..]
                .iter()
                .position(|it| sym_of(it) != sym.0)
                .map_or(s.len(), |k| a + k);
            return lo + a..lo + b;
        }
        let a = s.partition_point(|it| sym_of(it) < sym.0);
        let b = a + s[a..].partition_point(|it| sym_of(it) <= sym.0);
        lo + a..lo + b
    }

    /// Is there exactly one item waiting for `sym` in set `j`, and is it
    /// penultimate (`B -> α . sym`)? Returns it.
    pub(crate) fn leo_link(&self, t: &Tables, j: usize, sym: SymbolId) -> Option<Item> {
        self.leo_link_in(t, self.group(t, j, sym), sym, j)
    }

    /// [`Chart::leo_link`] with the group already found.
    #[inline]
    fn leo_link_in(&self, t: &Tables, g: Range<usize>, sym: SymbolId, j: usize) -> Option<Item> {
        let mut found = None;
        for w in &self.waiting[g] {
            if is_self_loop(t, *w, sym, j as u32) {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(*w);
        }
        let it = found?;
        matches!(t.slots[it.slot as usize + 1], Slot::End(_)).then_some(it)
    }
}

impl<'t> Builder<'t> {
    /// A builder for an input of `n` bytes, reusing `reuse`'s arenas (a
    /// previous parse's chart) when given.
    fn new(t: &'t Tables, n: usize, reuse: Option<Chart>) -> Builder<'t> {
        // Generous reservations cost only address space; they avoid
        // copying the arenas as they grow.
        let mut chart = reuse.unwrap_or_else(Chart::empty);
        chart.clear();
        chart.waiting.reserve(3 * n + 16);
        chart.wait_off.reserve(n + 2);
        chart.leo.reserve(3 * n + 16);
        chart.done.reserve(3 * n + 16);
        chart.done_off.reserve(n + 2);
        Builder {
            t,
            chart,
            dedup: Dedup::new(),
            work: Vec::new(),
            predicted: vec![0; t.nullable.len()],
            next: Vec::new(),
            filter: true,
            expected: Vec::new(),
            path: Vec::new(),
            groups: vec![[u32::MAX; 4]; GROUP_CACHE],
            prefault: [(); 5].map(|_| Prefault::new()),
            max_items: usize::MAX,
        }
    }

    /// Builds sets `0..=n` (or up to `explain`, which then runs without the
    /// lookahead filter, collecting `expected`).
    fn run(&mut self, start: SymbolId, input: &[u8], explain: Option<usize>) -> Outcome {
        let n = input.len();
        let mut current = vec![(
            key(self.t.rule_start[self.t.virtual_rule(start) as usize], 0),
            0,
        )];
        for i in 0..=n {
            let la = input.get(i).map_or(EOF, |&c| c as usize);
            self.prefault[3].before_push(&mut self.chart.wait_off);
            self.chart.wait_off.push(self.chart.waiting.len() as u32);
            self.prefault[4].before_push(&mut self.chart.done_off);
            self.chart.done_off.push(self.chart.done.len() as u32);
            self.next.clear();
            self.filter = explain != Some(i);
            self.run_set(i as u32, la, &current);
            self.finish_set(i);
            if self.chart.waiting.len() + self.chart.done.len() > self.max_items {
                return Outcome::TooCostly { at: i };
            }
            if explain == Some(i) {
                return Outcome::Failed { at: i };
            }
            if i == n {
                break;
            }
            if self.next.is_empty() {
                return Outcome::Failed { at: i };
            }
            std::mem::swap(&mut current, &mut self.next);
        }
        if self.accepts_last(start, n) {
            Outcome::Accepted
        } else {
            Outcome::Failed { at: n }
        }
    }

    /// Does the last set built (`pos`) complete `start` from 0?
    fn accepts_last(&self, start: SymbolId, pos: usize) -> bool {
        if pos == 0 {
            return self.t.nullable[start.index()];
        }
        let accept = self.t.rule_start[self.t.virtual_rule(start) as usize] + 1;
        self.chart.done[self.chart.done_off[pos] as usize..]
            .iter()
            .any(|d| d.slot == accept && d.origin == 0)
    }

    /// Adds an item to the current set if it can still succeed under the
    /// lookahead.
    #[inline]
    fn add(&mut self, (k, link): (u64, u32), i: u32, la: usize) {
        let (slot, origin) = ((k >> 32) as usize, k as u32);
        let useful = if origin == i {
            // Started here: only useful if it can consume the next byte.
            self.t.first[slot].contains(la)
        } else {
            self.t.viable[slot].contains(la)
        };
        if useful || !self.filter {
            self.work.push((k, link));
        }
    }

    fn run_set(&mut self, i: u32, la: usize, scanned: &[(u64, u32)]) {
        let t = self.t;
        self.dedup.clear();
        for &it in scanned {
            self.add(it, i, la);
        }
        while let Some((k, link)) = self.work.pop() {
            // Scalars, not an `Item`: a struct spilled field by field and
            // reloaded whole stalls store forwarding (as in `work`).
            let (slot, origin) = ((k >> 32) as u32, k as u32);
            let it = || Item { slot, origin, link };
            match t.slots[slot as usize] {
                Slot::Byte { b, .. } => {
                    if !self.filter {
                        self.expected.push(it());
                    } else if la == b as usize {
                        self.next.push((key(slot + 1, origin), link));
                    }
                }
                Slot::Class(s) => {
                    if !self.filter {
                        self.expected.push(it());
                    } else if la != EOF
                        && t.class[s.index()].as_ref().is_some_and(|c| c.contains(la))
                    {
                        self.next.push((key(slot + 1, origin), link));
                    }
                }
                Slot::Nt(s) => {
                    self.prefault[0].before_push(&mut self.chart.waiting);
                    self.chart.waiting.push(it());
                    if self.predicted[s.index()] != i + 1 {
                        self.predicted[s.index()] = i + 1;
                        let all = t.sym_rules[s.index()].clone();
                        let preds = if self.filter {
                            t.predictions(s, la)
                        } else {
                            &[]
                        };
                        let unfiltered = (!self.filter).then_some(all).into_iter().flatten();
                        for r in preds.iter().copied().chain(unfiltered) {
                            self.add((key(t.rule_start[r as usize], i), i), i, la);
                        }
                    }
                    if t.nullable[s.index()] && self.dedup.insert(key(slot + 1, origin)) {
                        self.add((key(slot + 1, origin), i), i, la);
                    }
                }
                Slot::End(r) => {
                    if origin == i {
                        continue; // empty completion: done by Aycock–Horspool
                    }
                    self.complete(k, link, NO_LEO, (i, la), r);
                }
            }
        }
    }

    /// Records the complete item `key(slot, origin)` with `link` (and Leo
    /// tag `leo`) in set `i` (lookahead `la`) and advances what waited for
    /// it. Scalar arguments for the same reason as `work`'s layout.
    fn complete(&mut self, k: u64, link: u32, leo: u32, (i, la): (u32, usize), r: u32) {
        let t = self.t;
        let (slot, origin) = ((k >> 32) as u32, k as u32);
        self.prefault[1].before_push(&mut self.chart.done);
        self.chart.done.push(Done {
            slot,
            origin,
            link,
            leo,
        });
        if r >= t.num_rules {
            return; // virtual start rule: nothing waits for it
        }
        let lhs = lhs_of(t, r);
        if !self.dedup.insert(completion_key(lhs, origin)) {
            return;
        }
        let j = origin as usize;
        let g = self.group(j, lhs);
        if g.is_empty() {
            return;
        }
        // Leo needs an item `B -> α . lhs`: skipped for symbols that end no
        // rule (it would only find that out by scanning the group).
        let top = if t.ends_rule[lhs.index()] {
            self.leo_top(j, lhs, g.clone())
        } else {
            None
        };
        if let Some((top_slot, top_origin)) = top {
            // The chain's items are of use only through its top: if no
            // parent of the top can go on with `la`, the whole chain is dead.
            let live = !self.filter || t.viable[top_slot as usize].contains(la);
            if live && self.dedup.insert(key(top_slot, top_origin)) {
                if let Slot::End(tr) = t.slots[top_slot as usize] {
                    let top = key(top_slot, top_origin);
                    self.complete(top, origin, lhs.0, (i, la), tr);
                }
            }
            return;
        }
        for w in g {
            let w = self.chart.waiting[w];
            if is_self_loop(t, w, lhs, origin) {
                continue; // would re-derive the completion being processed
            }
            if self.dedup.insert(key(w.slot + 1, w.origin)) {
                self.add((key(w.slot + 1, w.origin), origin), i, la);
            }
        }
    }

    /// [`Chart::group`] through the cache; `j` must be a finished set.
    #[inline]
    fn group(&mut self, j: usize, sym: SymbolId) -> Range<usize> {
        let h = ((j as u32).wrapping_mul(0x9E37_79B1) ^ sym.0.wrapping_mul(0x85EB_CA77)) >> 24;
        let e = &mut self.groups[h as usize % GROUP_CACHE];
        if e[0] == j as u32 && e[1] == sym.0 {
            return e[2] as usize..e[3] as usize;
        }
        let g = self.chart.group(self.t, j, sym);
        *e = [j as u32, sym.0, g.start as u32, g.end as u32];
        g
    }

    /// The topmost item of the Leo chain for completing `sym` from set `j`
    /// (whose items waiting for `sym` are `g`), memoised per waiting group.
    /// Iterative: chains can be as long as the input.
    fn leo_top(&mut self, j: usize, sym: SymbolId, g: Range<usize>) -> Option<(u32, u32)> {
        let t = self.t;
        let memo = self.chart.leo[g.start];
        if memo != LEO_UNKNOWN {
            return self.chart.top(memo);
        }
        self.path.clear();
        let (mut cur_j, mut cur_sym, mut cur_g) = (j, sym, g);
        let mut last_top = None;
        let result = loop {
            let Some(it) = self.chart.leo_link_in(t, cur_g.clone(), cur_sym, cur_j) else {
                self.chart.leo[cur_g.start] = LEO_NONE;
                break self.chart.new_top(last_top);
            };
            if self.path.len() > self.chart.waiting.len() {
                break LEO_NONE; // a cycle of unique items: no Leo
            }
            self.path.push(cur_g.start);
            last_top = Some(key(it.slot + 1, it.origin));
            let Slot::End(r) = t.slots[it.slot as usize + 1] else {
                unreachable!("leo_link_in checks penultimate")
            };
            if r >= t.num_rules {
                break self.chart.new_top(last_top);
            }
            let up_sym = lhs_of(t, r);
            let up_j = it.origin as usize;
            let up_g = self.group(up_j, up_sym);
            if up_g.is_empty() {
                break self.chart.new_top(last_top);
            }
            match self.chart.leo[up_g.start] {
                LEO_NONE => break self.chart.new_top(last_top),
                LEO_UNKNOWN => (cur_j, cur_sym, cur_g) = (up_j, up_sym, up_g),
                top => break top,
            }
        };
        for &gi in &self.path {
            self.chart.leo[gi] = result;
        }
        self.chart.top(result)
    }

    fn finish_set(&mut self, i: usize) {
        let t = self.t;
        let lo = self.chart.wait_off[i] as usize;
        // Keys as single integers: the same order as (symbol, slot, origin)
        // and (lhs, origin, slot), so the same permutation, with cheaper
        // comparisons.
        // Most sets hold one to three items: skip the sort call for one.
        if self.chart.waiting.len() - lo > 1 {
            self.chart.waiting[lo..].sort_unstable_by_key(|it| {
                (t.slot_rank[it.slot as usize] as u64) << 32 | it.origin as u64
            });
        }
        self.prefault[2].before_push(&mut self.chart.leo);
        self.chart.leo.resize(self.chart.waiting.len(), LEO_UNKNOWN);
        let dlo = self.chart.done_off[i] as usize;
        if self.chart.done.len() - dlo > 1 {
            self.chart.done[dlo..].sort_unstable_by_key(|d| {
                (t.slot_sym[d.slot as usize] as u128) << 64
                    | (d.origin as u128) << 32
                    | d.slot as u128
            });
        }
    }
}

/// Left-hand side of real rule `r`, found through the table of rule
/// starts (rules of one symbol are contiguous).
#[inline]
pub(crate) fn lhs_of(t: &Tables, r: u32) -> SymbolId {
    t.rule_lhs[r as usize]
}

/// Is waiting item `w` (in the set where `sym` started at `j`) of the form
/// `sym -> α . sym` with origin `j`? Advancing it by `sym[j..i]` only
/// re-derives `sym[j..i]` through a nullable `α`: a cycle, useless for
/// recognition and harmful for extraction. Excluding it also keeps Leo's
/// uniqueness test working for grammars like `<chars> ::= <char> <chars>`
/// with a nullable `<char>`.
#[inline]
fn is_self_loop(t: &Tables, w: Item, sym: SymbolId, j: u32) -> bool {
    w.origin == j
        && matches!(t.slots[w.slot as usize + 1], Slot::End(r) if r < t.num_rules && lhs_of(t, r) == sym)
}
