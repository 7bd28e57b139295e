//! [`restructure`]: rebuilding a node through another alternative that
//! keeps one of its descendants.

use super::chains::unit_chains;
use super::{span, spans, terminal_bytes, Minimal};
use crate::choice::encode_choice;
use crate::generate::{decode_tree, DecodeConfig};
use crate::grammar::{Grammar, SymbolId};
use crate::reduce::edit::{greedy_keeping, Edit, Piece};
use crate::reduce::treeops::{nearest, TreeCtx};
use crate::reduce::Tester;
use crate::tree::NodeId;

/// Most candidates [`restructure`] lists per round.
const MAX_RESTRUCTURE: usize = 4096;

/// One way [`restructure`] rebuilds a node of some symbol: the choice
/// bytes that select a unit chain and then an alternative (`head`), the
/// alternative's nonterminals (`body`), and which of them (`slot`) holds
/// a descendant of symbol `fill`, reached from the slot's symbol through
/// the chain bytes `bridge`; `text` is the length of the text the shape
/// adds around the descendant (terminals of the chains and the
/// alternative, minimal texts of the other nonterminals).
struct Shape {
    head: Vec<u8>,
    body: Vec<SymbolId>,
    slot: usize,
    fill: SymbolId,
    bridge: Vec<u8>,
    text: usize,
}

/// Per symbol, every [`Shape`]: through any unit chain (or none) to any
/// alternative with nonterminals, any slot, any unit chain (or none) from
/// the slot's symbol.
fn shapes(g: &Grammar, min_text: &[usize]) -> Vec<Vec<Shape>> {
    let chains = unit_chains(g);
    let reach =
        |a: SymbolId| std::iter::once((a, Vec::new(), 0)).chain(chains[a.index()].iter().cloned());
    (0..g.num_symbols())
        .map(|i| {
            let mut out = Vec::new();
            for (b, chain, chain_text) in reach(SymbolId(i as u32)) {
                for rule in g.rules_of(b) {
                    let body: Vec<SymbolId> = g.body_nonterminals(rule).collect();
                    if body.len() < 2 {
                        // Through one nonterminal the rebuilt node is the
                        // descendant with terminals around it: hoisting
                        // (`replace_by_descendant`) already offers the
                        // descendant alone.
                        continue;
                    }
                    let mut head = chain.clone();
                    encode_choice(g.alt_index(rule), g.num_alts(b), &mut head);
                    let around = chain_text + terminal_bytes(g, rule);
                    let all_min: usize = body.iter().map(|x| min_text[x.index()]).sum();
                    for (slot, &y) in body.iter().enumerate() {
                        for (fill, bridge, bridge_text) in reach(y) {
                            out.push(Shape {
                                head: head.clone(),
                                body: body.clone(),
                                slot,
                                fill,
                                bridge,
                                text: around + all_min - min_text[y.index()] + bridge_text,
                            });
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// Rebuilds a node through *another* alternative: the node's symbol `A`
/// (or a symbol a unit chain of `A` reaches) takes an alternative with
/// nonterminals, one of them is filled with a nearest descendant (through
/// a unit chain again) and the others with their minimal expansions. This
/// reaches `SELECT t1.a` from `UPDATE t3 SET a=t1.a`, which deletion and
/// same-symbol replacement cannot. Costly in candidates, so the pipeline
/// runs it only when the other passes are at a fixpoint; shortest first.
pub fn restructure(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
) -> Vec<u8> {
    let g = ctx.g;
    let Minimal {
        bytes: min_bytes,
        text: min_text,
    } = Minimal::new(ctx, cfg);
    let shapes = shapes(g, &min_text);
    shortest_texts_first(ctx, cfg, cur, tester, |c0| {
        // Minimal fills follow the descendant, so its span must be exact
        // even where it reads past the input's end: decode with zeros
        // appended (read like missing bytes); `Piece::Src` reads zeros past
        // the end too, and the candidates are trimmed.
        let c = &[c0, &[0u8; 256][..]].concat()[..];
        let t = decode_tree(g, c, cfg);
        let text_spans = t.text_spans(g);
        let text_of = |n: NodeId| text_spans[n.index()].len();
        let whole = text_of(t.root());
        // Each candidate with the length of its text (estimated: depth
        // limits can change what the minimal parts decode to).
        let mut v: Vec<(usize, Edit)> = Vec::new();
        // Bounds the descendant scans on big trees (each `nearest` call
        // walks a subtree).
        let mut budget = RESTRUCTURE_SCAN;
        // In text reduction, a descendant inside an atom (a letter of a
        // name) is no fill: the atoms are whole tokens, and a fragment of
        // one makes a candidate that differs from its neighbours by a
        // letter (`I = a`, `s = a`, `m = a` from `Inventory`, `self`,
        // `main`), each a run.
        let frozen = ctx.frozen(&t);
        let inside_atom = |d: NodeId| {
            frozen.as_ref().is_some_and(|f| {
                let p = t.node(d).parent;
                p != crate::tree::NO_PARENT && f[p as usize]
            })
        };
        for n in spans(ctx, &t, &text_spans) {
            let Some(a) = t.symbol(g, n) else { continue };
            let r = span(&t, n, c.len());
            // (fill's text range, candidate's text, edit)
            let mut mine: Vec<((usize, usize), usize, Edit)> = Vec::new();
            let mut full = false;
            'shapes: for shape in &shapes[a.index()] {
                budget = budget.saturating_sub(t.node(n).size as usize);
                if budget == 0 {
                    full = true;
                    break 'shapes;
                }
                for d in nearest(&t, g, n, shape.fill) {
                    if inside_atom(d) {
                        continue;
                    }
                    let mut pieces = Vec::with_capacity(shape.body.len() + 3);
                    if r.start > c0.len() {
                        pieces.push(Piece::Zeros(r.start - c0.len()));
                    }
                    pieces.push(Piece::Lit(shape.head.clone()));
                    for (q, x) in shape.body.iter().enumerate() {
                        if q == shape.slot {
                            pieces.push(Piece::Lit(shape.bridge.clone()));
                            pieces.push(Piece::Src(span(&t, d, c.len())));
                        } else {
                            pieces.push(Piece::Zeros(min_bytes[x.index()]));
                        }
                    }
                    let range = r.start.min(c0.len())..r.end.min(c0.len());
                    let text = whole - text_of(n) + shape.text + text_of(d);
                    let fill = &text_spans[d.index()];
                    mine.push((
                        (fill.start, fill.end),
                        text,
                        Edit {
                            range,
                            pieces,
                            trim: true,
                        },
                    ));
                    if v.len() + mine.len() >= MAX_RESTRUCTURE {
                        full = true;
                        break 'shapes;
                    }
                }
            }
            // Per fill (a descendant's text; nested nodes of one text are
            // one fill), the node's shortest rebuild around it: the root
            // alone offers a dozen wrappers around each small descendant
            // (`a = a\n`, `a += a\n`, `if a:\n`, `import a\n`), which would
            // take the whole run budget of a call from the nodes below it.
            mine.sort_by_key(|&(fill, text, _)| (fill, text));
            mine.dedup_by_key(|&mut (fill, _, _)| fill);
            v.extend(mine.into_iter().map(|(_, text, e)| (text, e)));
            if full {
                break;
            }
        }
        v
    })
}

/// One greedy call of a pass whose rounds list candidates with the length
/// of their text (estimated from the tree): shortest text first (the text
/// is what is being reduced), then shortest choice sequence, and only
/// those [`shorter_texts`] admits. With the image bound (the user reduces
/// the decoded text) a shorter text is progress even when its choice
/// sequence is longer, e.g. a statement kind further down the
/// alternatives (`SELECT a` from `INSERT INTO t1 VALUES (a)`).
pub(super) fn shortest_texts_first(
    ctx: &TreeCtx<'_>,
    cfg: &DecodeConfig,
    cur: &[u8],
    tester: &mut Tester<'_>,
    mut list: impl FnMut(&[u8]) -> Vec<(usize, Edit)>,
) -> Vec<u8> {
    let by_text = tester.image_bounded();
    // The oracle reads the text: a polish that squeezes blanks follows.
    let squeeze = ctx.for_text() || tester.reads_image();
    greedy_keeping(cur.to_vec(), tester, |c| {
        let mut v = list(c);
        v.sort_by_cached_key(|(text, e)| (*text, e.len_after(c)));
        let edits = v.into_iter().map(|(_, e)| e).collect();
        (edits, shorter_texts(ctx.g, cfg, c, by_text, squeeze))
    })
}

/// The filter of a pass whose candidates are worth an oracle run only if
/// their text is shorter than `c0`'s, with `squeeze` (an oracle that
/// reads the text, which a polish that squeezes blanks ends) measured with blanks
/// squeezed as that polish will (`0 / 0` → `0.0` is no progress over
/// `0/0`), else as it is (a fuzz target's choices: no polish squeezes
/// `x\r\n` to `x\n` there): one
/// candidate per text (kept as hashes: the texts can be large), at most
/// [`crate::reduce::pass_budget`] per call (a 40-element JSON list whose
/// every element is needed: 827 failing rebuilds without it). Without
/// `by_text` (no image bound) the choice sequence must also get
/// shortlex-smaller.
pub(super) fn shorter_texts<'a>(
    g: &'a Grammar,
    cfg: &'a DecodeConfig,
    c0: &[u8],
    by_text: bool,
    squeeze: bool,
) -> impl FnMut(&[u8]) -> bool + 'a {
    let squeezed = move |t: &[u8]| {
        if squeeze {
            crate::reduce::ddmin::squeeze_blanks(t).len()
        } else {
            t.len()
        }
    };
    let cur_text = crate::generate::decode(g, c0, cfg);
    let text_len = squeezed(&cur_text);
    let mut seen = std::collections::HashSet::new();
    let base = c0.to_vec();
    let mut budget = crate::reduce::pass_budget(&cur_text);
    move |x: &[u8]| {
        if budget == 0 || (!by_text && !crate::reduce::shortlex_lt(x, &base)) {
            return false;
        }
        let text = crate::generate::decode(g, x, cfg);
        let ok = squeezed(&text) < text_len && seen.insert(crate::reduce::tester::key(&text));
        budget -= usize::from(ok);
        ok
    }
}

/// Most subtree nodes [`restructure`] scans for descendants per round.
const RESTRUCTURE_SCAN: usize = 1 << 24;
