//! Switching a node to another alternative of its symbol that keeps its
//! children: `t1 JOIN t2 ON b` → `t1, t2`, `x AS y` → `x`,
//! `if (c) s else e` → `if (c) s`.
//!
//! The fuzzingbook GrammarReducer's alternative expansions fill another
//! alternative's nonterminals with any descendants of matching symbols
//! (a product over slots). Here only the node's own children fill them,
//! matched by symbol in order, each at most once: one candidate per
//! alternative, so a round lists at most (nodes × alternatives) of them.
//! Deletion cannot reach these texts (the constraint `ON b` goes only
//! with the keyword `JOIN`), and [`super::restructure`] keeps one
//! descendant per rebuilt node, so it offers `t1, t1` but not `t1, t2`.

use super::restructure::shortest_texts_first;
use super::{span, spans, terminal_bytes};
use crate::choice::encode_choice;
use crate::generate::{decode_tree, DecodeConfig};
use crate::grammar::SymbolId;
use crate::reduce::edit::{Edit, Piece};
use crate::reduce::treeops::TreeCtx;
use crate::reduce::Tester;
use crate::tree::{Label, NodeId, NO_PARENT};

/// The most terminal-only alternatives tried in a node's place.
const MAX_SWAPS: usize = 8;

/// Replaces nodes by another alternative of their symbol whose
/// nonterminals are all filled by the node's children (in order, matched
/// by symbol; unmatched children are dropped), or by one of the
/// 8 shortest alternatives without nonterminals (`Swaps`: a name `A-b_c`
/// by `-` where `a`, the minimal expansion, does not fail), when the text
/// gets shorter: shortest text first, filtered as [`super::restructure`]'s
/// candidates are (`shorter_texts`: squeezed text shorter, within a run
/// budget).
pub fn switch_alternatives(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    let swaps = Swaps::new(ctx, cfg, &super::Minimal::new(ctx, cfg), false);
    shortest_texts_first(ctx, cfg, cur, tester, |c| {
        let t = decode_tree(g, c, cfg);
        let text_spans = t.text_spans(g);
        let text_of = |n: NodeId| text_spans[n.index()].len();
        let whole = text_of(t.root());
        let mut v: Vec<(usize, Edit)> = Vec::new();
        for n in spans(ctx, &t, &text_spans) {
            let Label::Rule(rule) = t.node(n).label() else {
                continue;
            };
            let sym = g.rule(rule).lhs;
            let kids: Vec<_> = t
                .children(n)
                .filter_map(|d| Some((t.symbol(g, d)?, d)))
                .collect();
            // The node's choices past the input's end read as zeros; a
            // span that starts there has nothing to keep.
            let r = span(&t, n, c.len());
            if r.is_empty() {
                continue;
            }
            // Alternatives without nonterminals: the few shortest whose
            // text is shorter (a key `A-b_c` → `-` where `a`, the minimal
            // expansion, makes a duplicate key); never a character class's
            // 95 letters, which are no shorter than each other (for a node
            // of one byte only the empty alternative would be shorter, and
            // that is the minimal expansion, which `Swaps` leaves out).
            for (len, c) in swaps.shorter(sym, text_of(n)).take(MAX_SWAPS) {
                v.push((
                    whole - text_of(n) + len,
                    Edit::replace(r.clone(), vec![Piece::Lit(c.clone())]),
                ));
            }
            for other in g.rules_of(sym).filter(|&o| o != rule) {
                if g.body_nonterminals(other).next().is_none() {
                    continue;
                }
                let mut head = Vec::new();
                encode_choice(g.alt_index(other), g.num_alts(sym), &mut head);
                let mut pieces = vec![Piece::Lit(head)];
                let mut next = kids.iter();
                let mut text = terminal_bytes(g, other);
                let mut filled = true;
                for want in g.body_nonterminals(other) {
                    let Some(&(_, d)) = next.by_ref().find(|(s, _)| *s == want) else {
                        filled = false;
                        break;
                    };
                    pieces.push(Piece::Src(span(&t, d, c.len())));
                    text += text_of(d);
                }
                if filled && text < text_of(n) {
                    v.push((whole - text_of(n) + text, Edit::replace(r.clone(), pieces)));
                }
            }
        }
        v
    })
}

/// Joins a list to the next list of its symbol, deleting what lies
/// between: `INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)` →
/// `INSERT INTO t VALUES (1), (1)`, `[1], [2]` → `[1, 2]`. The first
/// list's last node switches to the alternative that continues the list
/// (its own nonterminals, then one of the list's symbol), and the second
/// list's head fills that slot: in the choice sequence, the choices
/// between the last element and the second head go. What followed the
/// second list decodes in the first one's context, so the candidate
/// means the join where the two contexts have the same shape (two
/// statements of one kind) and is some other text where not; the tester
/// decides. Only lists in parallel contexts are joined (their parents
/// have one rule, the second after the first), and no lists of blanks:
/// in a deeply nested JSON array every level's whitespace list has a
/// next one, and 257 joins across brackets failed (`jq_depth` of the
/// generalisation tasks). An enclosing list that went on past the second
/// list still does, past the input's end (`…, (1); DROP;`): the passes
/// that follow delete that minimal tail. Deletion reaches no such text
/// when every list holds an element that is needed (a duplicate key
/// across two statements); one candidate per pair of consecutive lists,
/// shortest text first, filtered like [`super::restructure`]'s.
pub fn join_lists(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    shortest_texts_first(ctx, cfg, cur, tester, |c| {
        let t = decode_tree(g, c, cfg);
        let text_spans = t.text_spans(g);
        let mut v: Vec<(usize, Edit)> = Vec::new();
        // Per symbol, the list heads in sequence order (`spans` minus the
        // frozen nodes, then re-sorted by position).
        let mut heads: Vec<(SymbolId, NodeId)> = spans(ctx, &t, &text_spans)
            .into_iter()
            .filter_map(|n| {
                let s = t.symbol(g, n)?;
                super::is_list_head(&t, g, n, s).then_some((s, n))
            })
            .collect();
        heads.sort_by_key(|&(s, n)| (s, n.0));
        let text = t.unparse(g);
        let end = |n: u32| n + t.node(NodeId(n)).size;
        for (i, &(s, x)) in heads.iter().enumerate() {
            // Layout (a list of blanks) is the polish's to squeeze.
            if text[text_spans[x.index()].clone()]
                .iter()
                .all(u8::is_ascii_whitespace)
            {
                continue;
            }
            // The next list of the symbol in a parallel context: its
            // parent has the same rule as this list's parent and comes
            // after it (the next statement of the kind, not a list
            // nested in this one or a sibling list of the same node).
            let px = t.node(x).parent;
            if px == NO_PARENT {
                continue;
            }
            let Some(&(_, y)) =
                heads[i + 1..]
                    .iter()
                    .take_while(|(s2, _)| *s2 == s)
                    .find(|(_, y)| {
                        let py = t.node(*y).parent;
                        py != NO_PARENT
                            && py >= end(px)
                            && t.node(NodeId(py)).label() == t.node(NodeId(px)).label()
                    })
            else {
                continue;
            };
            let last = *super::list_spine(&t, g, x, s)
                .last()
                .expect("a spine holds its head");
            let Label::Rule(r_last) = t.node(last).label() else {
                continue;
            };
            let want: Vec<SymbolId> = g.body_nonterminals(r_last).chain([s]).collect();
            let Some(rec) = g
                .rules_of(s)
                .find(|&r| g.body_nonterminals(r).eq(want.iter().copied()))
            else {
                continue;
            };
            let (l, q) = (span(&t, last, c.len()), span(&t, y, c.len()));
            let alt = crate::choice::width(g.num_alts(s));
            if q.start >= c.len() || l.end > q.start || l.len() < alt {
                continue;
            }
            let mut head = Vec::new();
            encode_choice(g.alt_index(rec), g.num_alts(s), &mut head);
            let pieces = vec![Piece::Lit(head), Piece::Src(l.start + alt..l.end)];
            let (lt, qt) = (&text_spans[last.index()], &text_spans[y.index()]);
            let gone = qt.start.saturating_sub(lt.end);
            let whole = text_spans[t.root().index()].len();
            v.push((whole - gone, Edit::replace(l.start..q.start, pieces)));
        }
        v
    })
}

/// Per symbol, the texts other than its minimal expansion that a node of
/// it can take with the fewest choices: each alternative without
/// nonterminals, and the minimal expansion of each symbol a unit chain
/// reaches ([`super::chains::unit_chains`]: a `<number>` `0` for an `<expr>` whose
/// minimal text is a name the program does not define; `minimize_nodes`
/// tries the first as short as the minimal text). Distinct texts,
/// shortest first (grammar order among equals), as (text length, choice
/// bytes that spell it from the node's start). Without `chained`, only the
/// alternatives without nonterminals.
pub(super) struct Swaps(Vec<Vec<(usize, Vec<u8>)>>);

impl Swaps {
    pub(super) fn new(
        ctx: &TreeCtx<'_>,
        cfg: &DecodeConfig,
        min: &super::Minimal,
        chained: bool,
    ) -> Swaps {
        let g = ctx.g;
        let chains = if chained {
            super::chains::unit_chains(g)
        } else {
            vec![Vec::new(); g.num_symbols()]
        };
        let text =
            |a: SymbolId, c: &[u8]| crate::generate::decode_tree_from(g, a, c, cfg).unparse(g);
        Swaps(
            (0..g.num_symbols())
                .map(|i| {
                    let a = SymbolId(i as u32);
                    let mut seen = vec![text(a, &vec![0; min.bytes[i]])];
                    let mut out: Vec<(usize, Vec<u8>)> = Vec::new();
                    let terminal_only = g
                        .rules_of(a)
                        .filter(|&r| g.body_nonterminals(r).next().is_none());
                    let heads = terminal_only.map(|r| {
                        let mut head = Vec::new();
                        encode_choice(g.alt_index(r), g.num_alts(a), &mut head);
                        head
                    });
                    let chained = chains[i].iter().map(|(y, prefix, _)| {
                        let mut c = prefix.clone();
                        c.resize(prefix.len() + min.bytes[y.index()], 0);
                        c
                    });
                    for c in heads.chain(chained) {
                        let t = text(a, &c);
                        if !seen.contains(&t) {
                            out.push((t.len(), c));
                            seen.push(t);
                        }
                    }
                    out.sort_by_key(|(len, _)| *len);
                    out
                })
                .collect(),
        )
    }

    /// The swaps of `sym` whose text is shorter than `len` bytes.
    pub(super) fn shorter(
        &self,
        sym: SymbolId,
        len: usize,
    ) -> impl Iterator<Item = &(usize, Vec<u8>)> {
        self.0[sym.index()]
            .iter()
            .take_while(move |(l, _)| *l < len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Grammar;
    use crate::oracle::{FnOracle, Outcome};
    use crate::reduce::treeops::Render;

    type Pass = fn(&TreeCtx<'_>, &DecodeConfig, &[u8], &mut Tester<'_>) -> Vec<u8>;

    /// `pass` on the choices of `text` in `grammar`, with an oracle that
    /// calls a candidate interesting iff `holds` of its text: the text
    /// of the result.
    fn text_after(
        grammar: &str,
        text: &[u8],
        holds: impl Fn(&[u8]) -> bool,
        pass: Pass,
    ) -> Vec<u8> {
        let g = Grammar::from_json_str(grammar, &Default::default()).unwrap();
        let cfg = DecodeConfig::default();
        let ctx = TreeCtx::new(&g, Render::Text);
        let tree = crate::parse::parse(&g, text).unwrap();
        let start = crate::encode::encode(&g, &tree, &cfg).unwrap();
        let decoded = |c: &[u8]| crate::generate::decode(&g, c, &cfg);
        let mut o = FnOracle::new(|c: &[u8]| {
            if holds(&decoded(c)) {
                Outcome::Interesting
            } else {
                Outcome::NotInteresting
            }
        });
        let mut t = Tester::new(&mut o);
        decoded(&pass(&ctx, &cfg, &start, &mut t))
    }

    #[test]
    fn a_long_terminal_gives_way_to_a_shorter_one() {
        // `a`, the minimal expansion, fails; `b` too; `-` is the first
        // one-byte key that sorts before `a`.
        let out = text_after(
            r#"{"<start>": ["<key> = 1"], "<key>": ["a", "b", "-", "_", "A-b_c"]}"#,
            b"A-b_c = 1",
            |t| t < &b"a"[..],
            switch_alternatives,
        );
        assert_eq!(out, b"- = 1");
    }

    #[test]
    fn a_node_takes_another_minimal_text_down_its_unit_chains() {
        // The minimal `<d>` is the name `a`, which the program does not
        // define (not interesting); the `<num>` `0`, as short, two unit
        // alternatives down, is: `[b b]` → `0`, no descendant of which is
        // a number (and the `1` is lowered to `0`).
        let out = text_after(
            r#"{"<start>": ["<d>"], "<d>": ["<atom>", "[<d> <d>]"],
                "<atom>": ["<sym>", "<num>"], "<sym>": ["a", "b"], "<num>": ["0", "1"]}"#,
            b"[[b b] 1]",
            |t| t.starts_with(b"[") && !t.contains(&b'a'),
            super::super::minimize_nodes,
        );
        assert_eq!(out, b"[0 0]");
    }
}
