//! Encoding derivation trees back into choice sequences.
//!
//! * [`encode`] — the choice sequence that [`crate::generate::decode_tree`]
//!   turns back into exactly a given tree under a given [`DecodeConfig`].
//! * [`encode_auto`] — the same, raising the config's budgets as far as the
//!   tree needs; returns the config used (the CLI's `encode` and `seed` use
//!   plain [`encode`] with the fuzz target's config, so that the corpus
//!   decodes under the target's budgets; `encode_auto` is for callers that
//!   control the decoder's config, such as reducers).
//! * [`EncodeError`] — why not: hook text, a malformed tree, or a budget
//!   that is too small (naming the value needed).
//!
//! The encoder replays the decoder's walk ([`crate::generate`]) over the tree
//! in pre-order: same depth, same output lower bound `emitted + pending`, so
//! it knows for each nonterminal how many alternatives the decoder offers
//! and emits [`crate::choice::encode_choice`] for the alternative the tree
//! took. Trailing zero bytes are trimmed (exhausted input reads as zero).
//!
//! ```
//! use grammar_min::{grammar::Grammar, parse::parse, encode::encode};
//! use grammar_min::generate::{decode, DecodeConfig};
//! let g = Grammar::from_path("grammars/expr.json".as_ref(), &Default::default()).unwrap();
//! let tree = parse(&g, b"1 + (2 * 3)").unwrap();
//! let cfg = DecodeConfig::default();
//! let choices = encode(&g, &tree, &cfg).unwrap();
//! assert_eq!(decode(&g, &choices, &cfg), b"1 + (2 * 3)");
//! ```

use crate::choice::encode_choice;
use crate::generate::DecodeConfig;
use crate::grammar::{Elem, Grammar};
use crate::tree::{Label, NodeId, Tree};

/// Why a tree cannot be encoded under a config.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EncodeError {
    /// What went wrong and what to do.
    pub message: String,
}

fn err(message: String) -> EncodeError {
    EncodeError { message }
}

/// The budgets a tree needs: with `max_depth >= depth` and
/// `max_len >= len`, no node that takes a non-minimal alternative is
/// expanded restricted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Smallest `max_depth` that lets the decoder reproduce the tree.
    pub depth: u32,
    /// Smallest `max_len` that lets the decoder reproduce the tree.
    pub len: usize,
}

/// Replays the decoder's walk over `tree`. Calls `emit(k, n)` for every
/// nonterminal node whose alternative `k` is chosen among `n > k` offered
/// (nodes the decoder would expand restricted past their alternative are
/// only recorded in the returned [`Needs`]).
fn replay(
    g: &Grammar,
    tree: &Tree,
    cfg: &DecodeConfig,
    mut emit: impl FnMut(u32, u32),
) -> Result<Needs, EncodeError> {
    let nodes = tree.nodes();
    if nodes.is_empty() {
        return Err(err("cannot encode an empty tree".into()));
    }
    let root_sym = tree
        .symbol(g, tree.root())
        .ok_or_else(|| err("the tree's root is a terminal, not a nonterminal".into()))?;
    let mut needs = Needs::default();
    let mut emitted: u64 = 0;
    let mut pending: u64 = g.symbol(root_sym).min_len;
    let max_len = cfg.max_len as u64;
    let depths = tree.depths();
    for (i, node) in nodes.iter().enumerate() {
        match node.label() {
            Label::Text(ti) => {
                return Err(err(format!(
                    "node {i} ({}) holds text produced by a generation hook, which no \
                     choice sequence of the plain grammar can reproduce",
                    g.name(tree.text_symbol(ti))
                )))
            }
            Label::Term(t) => {
                let len = g.term(t).len() as u64;
                emitted += len;
                pending = pending.checked_sub(len).ok_or_else(|| {
                    err(format!(
                        "node {i}: terminal not expected by its parent's rule"
                    ))
                })?;
            }
            Label::Rule(r) => {
                let sym = g.rule(r).lhs;
                let info = g.symbol(sym);
                // The children must be exactly the rule's body, or the
                // decoder would walk a different tree.
                let body = g.body(r);
                let mut kids = tree.children(NodeId(i as u32));
                for (k, e) in body.iter().enumerate() {
                    let Some(c) = kids.next() else {
                        return Err(err(format!(
                            "node {i} ({}): has fewer children than its rule `{}`",
                            g.name(sym),
                            g.rule_to_string(r)
                        )));
                    };
                    let ok = match (e, tree.node(c).label()) {
                        (Elem::T(t), Label::Term(u)) => *t == u,
                        (Elem::Nt(s), Label::Rule(q)) => g.rule(q).lhs == *s,
                        (Elem::Nt(s), Label::Text(q)) => *s == tree.text_symbol(q),
                        _ => false,
                    };
                    if !ok {
                        return Err(err(format!(
                            "node {i} ({}): child {k} does not match its rule `{}`",
                            g.name(sym),
                            g.rule_to_string(r)
                        )));
                    }
                }
                if kids.next().is_some() {
                    return Err(err(format!(
                        "node {i} ({}): has more children than its rule `{}`",
                        g.name(sym),
                        g.rule_to_string(r)
                    )));
                }
                let k = g.alt_index(r);
                let lower_bound = emitted + pending;
                // Position among the minimal-depth alternatives, the only
                // ones a restricted expansion offers.
                let in_restricted = g.restricted_alts(sym).iter().position(|&a| a == k);
                if in_restricted.is_none() {
                    needs.depth = needs.depth.max(depths[i]);
                    needs.len = needs.len.max(lower_bound.min(usize::MAX as u64) as usize);
                }
                let restricted = depths[i] > cfg.max_depth || lower_bound > max_len;
                if !restricted {
                    emit(k, g.num_alts(sym));
                } else if let Some(p) = in_restricted {
                    emit(p as u32, info.min_depth_alts);
                }
                pending = pending - info.min_len + g.rule(r).min_len;
            }
        }
    }
    Ok(needs)
}

/// The budgets `tree` needs to be decodable (see [`Needs`]).
///
/// # Errors
/// As [`encode`], except for budget problems.
pub fn needs(g: &Grammar, tree: &Tree) -> Result<Needs, EncodeError> {
    replay(g, tree, &DecodeConfig::default(), |_, _| {})
}

/// The choice sequence that [`crate::generate::decode_tree`] turns back into
/// exactly `tree` under `cfg`.
///
/// # Errors
/// If the tree needs a restricted expansion to take an alternative the
/// decoder would not offer (it is deeper than `cfg.max_depth` or longer than
/// `cfg.max_len`; the message names the budget and the value needed), if it
/// contains hook text, or if it is not a derivation of the grammar.
pub fn encode(g: &Grammar, tree: &Tree, cfg: &DecodeConfig) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    let needs = replay(g, tree, cfg, |_, _| {})?;
    let mut problems = Vec::new();
    if needs.depth > cfg.max_depth {
        problems.push(format!(
            "it is too deep for max_depth {} (needs max_depth >= {})",
            cfg.max_depth, needs.depth
        ));
    }
    if needs.len > cfg.max_len {
        problems.push(format!(
            "it is too long for max_len {} (needs max_len >= {})",
            cfg.max_len, needs.len
        ));
    }
    if !problems.is_empty() {
        return Err(err(format!(
            "the decoder cannot reproduce this tree: {}; raise the budget: a fuzz \
             target's in its DecodeConfig (then rebuild it), and --max-depth/--max-len \
             to match it",
            problems.join(" and ")
        )));
    }
    // With the budgets checked, every alternative the tree takes is among
    // the ones offered (`k < n`), so `encode_choice` cannot fail.
    replay(g, tree, cfg, |k, n| encode_choice(k, n, &mut out))?;
    while out.last() == Some(&0) {
        out.pop();
    }
    Ok(out)
}

/// [`encode`] under `cfg` with its budgets raised as far as `tree` needs;
/// returns the sequence and the config it decodes under.
///
/// ```
/// use grammar_min::{grammar::Grammar, parse::parse, encode::encode_auto};
/// use grammar_min::generate::{decode, DecodeConfig};
/// let g = Grammar::from_path("grammars/json.json".as_ref(), &Default::default()).unwrap();
/// let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
/// let tree = parse(&g, deep.as_bytes()).unwrap();
/// let (choices, cfg) = encode_auto(&g, &tree, &DecodeConfig::default()).unwrap();
/// assert!(cfg.max_depth > DecodeConfig::default().max_depth);
/// assert_eq!(decode(&g, &choices, &cfg), deep.as_bytes());
/// ```
///
/// # Errors
/// If the tree contains hook text or is not a derivation of the grammar.
pub fn encode_auto(
    g: &Grammar,
    tree: &Tree,
    cfg: &DecodeConfig,
) -> Result<(Vec<u8>, DecodeConfig), EncodeError> {
    let n = needs(g, tree)?;
    let cfg = DecodeConfig {
        max_depth: cfg.max_depth.max(n.depth),
        max_len: cfg.max_len.max(n.len),
    };
    Ok((encode(g, tree, &cfg)?, cfg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{decode_tree, decode_tree_from};
    use crate::parse::parse_from;

    fn expr() -> Grammar {
        let path = format!("{}/grammars/expr.json", env!("CARGO_MANIFEST_DIR"));
        Grammar::from_path(path.as_ref(), &Default::default()).unwrap()
    }

    #[test]
    fn simplest_tree_encodes_to_nothing() {
        let g = expr();
        let t = decode_tree(&g, &[], &DecodeConfig::default());
        assert_eq!(encode(&g, &t, &DecodeConfig::default()).unwrap(), b"");
    }

    #[test]
    fn fragments_encode_for_their_own_root() {
        let g = expr();
        let factor = g.symbol_by_name("<factor>").unwrap();
        let cfg = DecodeConfig::default();
        let t = parse_from(&g, factor, b"-(4 / 2.5)").unwrap();
        let c = encode(&g, &t, &cfg).unwrap();
        assert_eq!(
            decode_tree_from(&g, factor, &c, &cfg).unparse(&g),
            b"-(4 / 2.5)"
        );
    }

    #[test]
    fn restricted_minimal_choices_still_encode() {
        // Under a tiny budget every expansion is restricted; a tree that only
        // takes minimal-depth alternatives still encodes, and decodes back.
        let g = expr();
        let cfg = DecodeConfig {
            max_depth: 0,
            max_len: 0,
        };
        let t = crate::parse::parse(&g, b"7.3").unwrap();
        let c = encode(&g, &t, &cfg).unwrap();
        assert_eq!(decode_tree(&g, &c, &cfg).unparse(&g), b"7.3");
        let deep = crate::parse::parse(&g, b"(7)").unwrap();
        let e = encode(&g, &deep, &cfg).unwrap_err();
        assert!(
            e.message.contains("max_depth 0") && e.message.contains("max_len 0"),
            "{e}"
        );
    }

    #[test]
    fn malformed_trees_are_rejected() {
        let g = expr();
        let t = crate::parse::parse(&g, b"1").unwrap();
        let mut nodes = t.nodes().to_vec();
        nodes.pop(); // drop the terminal under <digit>
        let broken = Tree::from_preorder(nodes, vec![]).unwrap();
        let e = encode(&g, &broken, &DecodeConfig::default()).unwrap_err();
        assert!(e.message.contains("fewer children"), "{e}");
    }
}
