//! Grammar analysis: productive / nullable, minimal depth and length,
//! reachability, recursion. All iterative (work lists and explicit stacks),
//! linear or `n log n` in the grammar's size, so huge generated grammars load
//! quickly and deep ones cannot overflow the stack.

use super::{Elem, Grammar, SymbolId, INFINITE};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Fills every analysis field of `g`'s symbols and rules (rule order does not
/// matter here).
pub(super) fn analyse(g: &mut Grammar) {
    let n_syms = g.symbols.len();
    // occurrences[s] = the rules in which s occurs, once per occurrence.
    let mut occ_start = vec![0u32; n_syms + 1];
    for e in &g.elems {
        if let Elem::Nt(s) = e {
            occ_start[s.index() + 1] += 1;
        }
    }
    for i in 0..n_syms {
        occ_start[i + 1] += occ_start[i];
    }
    let mut occ = vec![0u32; occ_start[n_syms] as usize];
    let mut fill = occ_start.clone();
    for (ri, r) in g.rules.iter().enumerate() {
        for e in &g.elems[r.body.start as usize..r.body.end as usize] {
            if let Elem::Nt(s) = e {
                occ[fill[s.index()] as usize] = ri as u32;
                fill[s.index()] += 1;
            }
        }
    }
    let occurrences = |s: usize| &occ[occ_start[s] as usize..occ_start[s + 1] as usize];

    // Minimal depth: rule = 1 + max(children); symbol = min(rules).
    let all = |_: usize| true;
    let depth = knuth(
        g,
        &occurrences,
        &all,
        |acc, child| acc.max(child),
        |_, _| 0,
        |m| m + 1,
    );
    // Minimal length: rule = terminals + sum(children); symbol = min(rules).
    let len = knuth(
        g,
        &occurrences,
        &all,
        |acc, child| acc.saturating_add(child),
        |g, ri| {
            let r = &g.rules[ri];
            g.elems[r.body.start as usize..r.body.end as usize]
                .iter()
                .map(|e| match e {
                    Elem::T(t) => g.terms[t.index()].len() as u64,
                    Elem::Nt(_) => 0,
                })
                .sum()
        },
        |m| m,
    );
    for (ri, r) in g.rules.iter_mut().enumerate() {
        r.min_depth = depth.rules[ri].map_or(INFINITE, |d| d.min(INFINITE as u64 - 1) as u32);
        r.min_len = len.rules[ri].unwrap_or(u64::MAX);
        r.nullable = r.min_len == 0;
    }
    for (si, s) in g.symbols.iter_mut().enumerate() {
        s.min_depth = depth.symbols[si].map_or(INFINITE, |d| d.min(INFINITE as u64 - 1) as u32);
        s.min_len = len.symbols[si].unwrap_or(u64::MAX);
        s.productive = depth.symbols[si].is_some();
        s.nullable = s.min_len == 0;
    }

    // Depth of the shallowest among the *shortest* derivations: the same
    // recurrence over the rules that reach their nonterminal's minimal
    // length. Following the rule that attains it strictly lowers it, so
    // "alternative 0 everywhere" terminates and yields a shortest sentence.
    let shortest = |ri: usize| {
        let r = &g.rules[ri];
        r.min_len != u64::MAX && r.min_len == g.symbols[r.lhs.index()].min_len
    };
    let short = knuth(
        g,
        &occurrences,
        &shortest,
        |acc, child| acc.max(child),
        |_, _| 0,
        |m| m + 1,
    );
    for (ri, r) in g.rules.iter_mut().enumerate() {
        r.short_depth = short.rules[ri].map_or(INFINITE, |d| d.min(INFINITE as u64 - 1) as u32);
    }

    // Reachability from the start symbol.
    let mut stack = vec![g.start];
    g.symbols[g.start.index()].reachable = true;
    while let Some(s) = stack.pop() {
        let rules = g.symbols[s.index()].rules.clone();
        for r in rules {
            let body = g.rules[r as usize].body.clone();
            for e in &g.elems[body.start as usize..body.end as usize] {
                if let Elem::Nt(c) = *e {
                    if !g.symbols[c.index()].reachable {
                        g.symbols[c.index()].reachable = true;
                        stack.push(c);
                    }
                }
            }
        }
    }

    mark_recursive(g);
}

struct Costs {
    rules: Vec<Option<u64>>,
    symbols: Vec<Option<u64>>,
}

/// Knuth's generalisation of Dijkstra's algorithm to grammars (superior
/// functions): symbols are finalised in order of increasing cost, and a rule's
/// cost is known once all its nonterminal occurrences are final.
fn knuth<'o>(
    g: &Grammar,
    occurrences: &dyn Fn(usize) -> &'o [u32],
    include: &dyn Fn(usize) -> bool,
    combine: impl Fn(u64, u64) -> u64,
    base: impl Fn(&Grammar, usize) -> u64,
    finish: impl Fn(u64) -> u64,
) -> Costs {
    let n_rules = g.rules.len();
    // Excluded rules never complete: their count cannot reach zero.
    let mut pending: Vec<u32> = g
        .rules
        .iter()
        .enumerate()
        .map(|(ri, r)| {
            if !include(ri) {
                return u32::MAX;
            }
            g.elems[r.body.start as usize..r.body.end as usize]
                .iter()
                .filter(|e| matches!(e, Elem::Nt(_)))
                .count() as u32
        })
        .collect();
    let mut acc: Vec<u64> = (0..n_rules).map(|ri| base(g, ri)).collect();
    let mut rules: Vec<Option<u64>> = vec![None; n_rules];
    let mut symbols: Vec<Option<u64>> = vec![None; g.symbols.len()];
    let mut heap = BinaryHeap::new();
    for ri in 0..n_rules {
        if pending[ri] == 0 {
            let c = finish(acc[ri]);
            rules[ri] = Some(c);
            heap.push(Reverse((c, g.rules[ri].lhs.0)));
        }
    }
    while let Some(Reverse((c, s))) = heap.pop() {
        let s = s as usize;
        if symbols[s].is_some() {
            continue;
        }
        symbols[s] = Some(c);
        for &ri in occurrences(s) {
            let ri = ri as usize;
            acc[ri] = combine(acc[ri], c);
            pending[ri] -= 1;
            if pending[ri] == 0 {
                let rc = finish(acc[ri]);
                rules[ri] = Some(rc);
                let lhs = g.rules[ri].lhs.index();
                if symbols[lhs].is_none() {
                    heap.push(Reverse((rc, lhs as u32)));
                }
            }
        }
    }
    Costs { rules, symbols }
}

/// Marks symbols that occur in their own derivations: members of a strongly
/// connected component of size > 1, or with a self-loop.
fn mark_recursive(g: &mut Grammar) {
    let next: Vec<Vec<u32>> = g
        .symbols
        .iter()
        .map(|s| {
            s.rules
                .clone()
                .flat_map(|r| {
                    let body = g.rules[r as usize].body.clone();
                    g.elems[body.start as usize..body.end as usize].iter()
                })
                .filter_map(|e| match *e {
                    Elem::Nt(c) => Some(c.0),
                    Elem::T(_) => None,
                })
                .collect()
        })
        .collect();
    let on_cycle = on_cycles(&next);
    for (s, r) in g
        .symbols
        .iter_mut()
        .zip(on_cycle.into_iter().map(|c| c.is_some()))
    {
        s.recursive = r;
    }
}

/// Strongly connected components of the graph `next` (iterative Tarjan,
/// linear): for each node on a cycle (a component of more than one node,
/// or a self-loop), its component's number; `None` for the others.
fn on_cycles(next: &[Vec<u32>]) -> Vec<Option<u32>> {
    const UNSEEN: u32 = u32::MAX;
    let n = next.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = vec![None; n];
    let (mut counter, mut components) = (0u32, 0u32);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, position in its successors)
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(frame) = call.last_mut() {
            let (v, i) = *frame;
            if let Some(&w) = next[v].get(i) {
                frame.1 += 1;
                let w = w as usize;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(p, _)) = call.last() {
                low[p] = low[p].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                loop {
                    let w = stack.pop().expect("tarjan stack");
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 || next[v].contains(&(v as u32)) {
                    for m in members {
                        out[m] = Some(components);
                    }
                }
                components += 1;
            }
        }
    }
    out
}

/// The nonterminals that derive themselves without consuming input
/// (`A ⇒+ A`: through alternatives whose other parts are all nullable),
/// each with one such cycle, e.g. `<a> → <start> → <a>`. Every text such
/// a nonterminal matches has infinitely many derivation trees. One entry
/// per cycle found (the first symbol of the cycle in grammar order).
pub(crate) fn unit_cycles(g: &Grammar) -> Vec<Vec<SymbolId>> {
    let n = g.symbols.len();
    // next[a] = the symbols b with a ⇒ α b β, α and β nullable.
    let mut next: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Terminals are never empty (the builder drops empty ones).
    let nullable = |e: &Elem| matches!(e, Elem::Nt(x) if g.symbols[x.index()].nullable);
    for (a, s) in g.symbols.iter().enumerate() {
        for r in s.rules.clone() {
            let r = &g.rules[r as usize];
            let body = &g.elems[r.body.start as usize..r.body.end as usize];
            let blockers = body.iter().filter(|e| !nullable(e)).count();
            for e in body {
                let Elem::Nt(b) = e else { continue };
                // b alone need not be nullable; every other part must be.
                let others = blockers - usize::from(!nullable(e));
                if others == 0 {
                    next[a].push(b.0);
                }
            }
        }
        next[a].sort_unstable();
        next[a].dedup();
    }
    // One cycle per component on a cycle, through its first member:
    // breadth-first within the component, so linear in all.
    let comp = on_cycles(&next);
    let mut done = std::collections::HashSet::new();
    let mut parent = vec![u32::MAX; n];
    let mut out = Vec::new();
    for a in 0..n {
        let Some(c) = comp[a] else { continue };
        if !done.insert(c) {
            continue;
        }
        let mut queue = std::collections::VecDeque::from([a as u32]);
        let mut seen = vec![a as u32];
        let mut back = None;
        'search: while let Some(x) = queue.pop_front() {
            for &y in &next[x as usize] {
                if comp[y as usize] != Some(c) {
                    continue;
                }
                if y as usize == a {
                    back = Some(x);
                    break 'search;
                }
                if parent[y as usize] == u32::MAX {
                    parent[y as usize] = x;
                    seen.push(y);
                    queue.push_back(y);
                }
            }
        }
        // Walk back from the last step to a, then read it forwards.
        let mut cycle = vec![SymbolId(a as u32)];
        let mut path = Vec::new();
        // (A component on a cycle always leads back.)
        let Some(mut at) = back else { continue };
        while at as usize != a {
            path.push(SymbolId(at));
            at = parent[at as usize];
        }
        cycle.extend(path.into_iter().rev());
        cycle.push(SymbolId(a as u32));
        for x in seen {
            parent[x as usize] = u32::MAX;
        }
        out.push(cycle);
    }
    out
}
