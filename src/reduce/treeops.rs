//! Tree helpers shared by the tree reducers: minimal expansions, atomic
//! tokens, multi-edit rendering.
//!
//! **Atomic tokens.** A nonterminal is a *token* when every one of its
//! alternatives consists of terminals only (`<digit> ::= "0" | "1" | ...`),
//! or when its name (inside the angle brackets) is all upper-case, the ANTLR
//! lexer convention (`<NUMBER>`, `<IDENT>`). Tree reducers never descend
//! into tokens nor replace them by minimal expansions: that would turn
//! reduction into value shrinking (`9` → `0`), which changes what the
//! reduced input says without making it smaller.
//!
//! **Lexical nonterminals.** A nonterminal whose every derivation is a run
//! of word characters (`<digits> ::= <digit> | <digit> <digits>`,
//! identifier tails) spells part of one lexical token. Text reduction
//! ([`TreeCtx::with_lexical_atoms`]) treats those as atomic too: the
//! polish that follows deletes their bytes one sweep per text, while the
//! tree passes would test the same single-character deletions once per
//! pass and again after every success elsewhere (a 4,301-digit number
//! cost thousands of runs per round that way).

use crate::generate::{decode_tree_from, DecodeConfig};
use crate::grammar::{Elem, Grammar, SymbolId};
use crate::tree::{Label, NodeId, Tree};

/// Lazily computed minimal expansions and token flags of a grammar.
pub struct TreeCtx<'g> {
    /// The grammar.
    pub g: &'g Grammar,
    minimal: Vec<Tree>,
    token: Vec<bool>,
    /// Whether lexical nonterminals count as tokens (`token` includes them).
    lexical_atoms: bool,
    render: Render,
}

/// How a candidate tree becomes the oracle's input.
#[derive(Clone, Copy, Debug)]
pub enum Render {
    /// Its text.
    Text,
    /// Its choice sequence ([`crate::encode::encode`] under this config);
    /// trees the encoder rejects are skipped.
    Choices(DecodeConfig),
}

impl<'g> TreeCtx<'g> {
    /// Analyses `g`.
    pub fn new(g: &'g Grammar, render: Render) -> Self {
        let token = (0..g.num_symbols())
            .map(|i| {
                let s = SymbolId(i as u32);
                let name = g.name(s);
                let inner = name.trim_start_matches('<').trim_end_matches('>');
                let upper = inner.chars().any(|c| c.is_ascii_uppercase())
                    && !inner.chars().any(|c| c.is_ascii_lowercase());
                upper
                    || g.rules_of(s)
                        .all(|r| g.body(r).iter().all(|e| matches!(e, Elem::T(_))))
            })
            .collect();
        let minimal = (0..g.num_symbols())
            .map(|i| {
                let s = SymbolId(i as u32);
                if g.symbol(s).productive {
                    decode_tree_from(g, s, &[], &DecodeConfig::default())
                } else {
                    Tree::new()
                }
            })
            .collect();
        TreeCtx {
            g,
            minimal,
            token,
            lexical_atoms: false,
            render,
        }
    }

    /// This context with lexical nonterminals (see the module docs) atomic
    /// as well: for text reduction, whose polish deletes their bytes.
    pub fn with_lexical_atoms(mut self) -> Self {
        for (t, l) in self.token.iter_mut().zip(lexical_symbols(self.g)) {
            *t |= l;
        }
        self.lexical_atoms = true;
        self
    }

    /// Whether this context is for text reduction
    /// ([`TreeCtx::with_lexical_atoms`]).
    pub fn for_text(&self) -> bool {
        self.lexical_atoms
    }

    /// Per node of `t`, whether the choice passes leave it alone: it is,
    /// or lies inside, an atomic node. `None` unless
    /// [`TreeCtx::with_lexical_atoms`]: choice-sequence reduction edits
    /// every node (it has no text polish to leave tokens to).
    pub fn frozen(&self, t: &Tree) -> Option<Vec<bool>> {
        if !self.lexical_atoms {
            return None;
        }
        let mut out = vec![false; t.len()];
        // Pre-order: a parent comes before its children.
        for i in 0..t.len() {
            let n = NodeId(i as u32);
            let p = t.node(n).parent;
            let inside = p != crate::tree::NO_PARENT && out[p as usize];
            out[i] = inside || t.symbol(self.g, n).is_some_and(|s| self.is_token(s));
        }
        Some(out)
    }

    /// Renders `t` with `edits` applied (see [`render_edits`]) for the
    /// oracle; `None` if the result cannot be encoded.
    pub fn render(&self, t: &Tree, edits: &[(NodeId, &Tree)]) -> Option<Vec<u8>> {
        match self.render {
            Render::Text => {
                let mut out = Vec::new();
                render_edits(t, self.g, edits, &mut out);
                Some(out)
            }
            Render::Choices(cfg) => {
                let nt = apply_edits(t, edits);
                crate::encode::encode(self.g, &nt, &cfg).ok()
            }
        }
    }

    /// Renders `t` with subtree `target` replaced by subtree `src` of
    /// `other` (which may be `t`), without copying `t` in text mode.
    pub fn render_with(
        &self,
        t: &Tree,
        target: NodeId,
        other: &Tree,
        src: NodeId,
    ) -> Option<Vec<u8>> {
        match self.render {
            Render::Text => {
                let mut out = Vec::new();
                t.unparse_with(self.g, target, Some((other, src)), &mut out);
                Some(out)
            }
            Render::Choices(cfg) => {
                crate::encode::encode(self.g, &t.replace(target, other, src), &cfg).ok()
            }
        }
    }

    /// [`TreeCtx::render_with`] with `t`'s [`Layout`] at hand: in text
    /// mode the candidate is the text before `target`, the replacement's
    /// text and the text after it — two copies instead of a walk over
    /// every node of `t` (Perses renders every candidate of a deep tree).
    pub fn render_with_layout(
        &self,
        t: &Tree,
        layout: Option<&Layout>,
        target: NodeId,
        other: &Tree,
        src: NodeId,
    ) -> Option<Vec<u8>> {
        match (self.render, layout) {
            (Render::Text, Some(l)) => {
                let (a, b) = l.span(t, target);
                let mut out = Vec::with_capacity(l.text.len());
                out.extend_from_slice(&l.text[..a]);
                other.unparse_node_into(self.g, src, &mut out);
                out.extend_from_slice(&l.text[b..]);
                Some(out)
            }
            _ => self.render_with(t, target, other, src),
        }
    }

    /// The [`Layout`] of `t` when rendering as text (`None` otherwise).
    pub fn layout(&self, t: &Tree) -> Option<Layout> {
        match self.render {
            Render::Text => Some(Layout::new(t, self.g)),
            Render::Choices(_) => None,
        }
    }

    /// The oracle input of the whole tree.
    pub fn render_tree(&self, t: &Tree) -> Option<Vec<u8>> {
        self.render(t, &[])
    }

    /// The rules `t` uses that have a nonterminal other than a token in their
    /// body: its shape, whatever its tokens spell (`580`, `13.619` and `x`
    /// are one leaf), sorted, without repeats. What a failed candidate
    /// teaches [`greedy_deferring`](super::edit::greedy_deferring).
    pub fn rules_used(&self, t: &Tree) -> Vec<u32> {
        let mut out = Vec::new();
        let mut skip_to = 0usize;
        for i in 0..t.len() {
            if i < skip_to {
                continue;
            }
            let n = NodeId(i as u32);
            if t.symbol(self.g, n).is_some_and(|s| self.is_token(s)) {
                skip_to = i + t.node(n).size as usize;
                continue;
            }
            if let Label::Rule(r) = t.node(n).label() {
                if self.g.body_nonterminals(r).any(|s| !self.is_token(s)) {
                    out.push(r.0);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Is `sym` an atomic token (see the module docs)?
    pub fn is_token(&self, sym: SymbolId) -> bool {
        self.token[sym.index()]
    }

    /// The minimal expansion of `sym` (alternative 0 everywhere).
    pub fn minimal(&self, sym: SymbolId) -> &Tree {
        &self.minimal[sym.index()]
    }

    /// Is subtree `id` of `t` exactly its symbol's minimal expansion?
    pub fn is_minimal(&self, t: &Tree, id: NodeId) -> bool {
        let Some(sym) = t.symbol(self.g, id) else {
            return true;
        };
        let m = self.minimal(sym);
        let n = t.node(id).size as usize;
        if m.len() != n {
            return false;
        }
        (0..n).all(|k| m.nodes()[k].label() == t.nodes()[id.index() + k].label())
    }
}

/// Per symbol, whether it is *lexical*: productive, and every terminal it
/// can derive is a run of word characters (letters, digits, `_`, bytes ≥
/// 0x80; see [`crate::reduce::ddmin::tokens`]), so its text always lies
/// inside one lexical token. Greatest fixpoint: a symbol stays lexical
/// while all of its alternatives use only word terminals and lexical
/// nonterminals.
pub fn lexical_symbols(g: &Grammar) -> Vec<bool> {
    let n = g.num_symbols();
    let word_term = |t: &[u8]| t.iter().all(|&b| crate::reduce::ddmin::is_word(b));
    let mut lex: Vec<bool> = (0..n)
        .map(|i| {
            let s = SymbolId(i as u32);
            g.symbol(s).productive && g.rules_of(s).next().is_some()
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            if !lex[i] {
                continue;
            }
            let ok = g.rules_of(SymbolId(i as u32)).all(|r| {
                g.body(r).iter().all(|e| match e {
                    Elem::T(t) => word_term(g.term(*t)),
                    Elem::Nt(x) => lex[x.index()],
                })
            });
            if !ok {
                lex[i] = false;
                changed = true;
            }
        }
        if !changed {
            return lex;
        }
    }
}

/// A tree's text and where each node's text starts in it.
pub struct Layout {
    text: Vec<u8>,
    /// `start[i]`: offset of node `i`'s text; one more entry, the text's
    /// length. Node `i`'s text ends where node `i + size` starts (pre-order).
    start: Vec<u32>,
}

impl Layout {
    /// Lays out `t` (O(nodes)).
    pub fn new(t: &Tree, g: &Grammar) -> Layout {
        let mut text = Vec::new();
        let mut start = Vec::with_capacity(t.len() + 1);
        for i in 0..t.len() as u32 {
            start.push(text.len() as u32);
            text.extend_from_slice(t.leaf_bytes(g, NodeId(i)));
        }
        start.push(text.len() as u32);
        Layout { text, start }
    }

    /// Byte range of node `n`'s text.
    fn span(&self, t: &Tree, n: NodeId) -> (usize, usize) {
        let end = n.index() + t.node(n).size as usize;
        (self.start[n.index()] as usize, self.start[end] as usize)
    }
}

/// Number of leaves with text (tokens) under `id`.
pub fn leaf_count(t: &Tree, id: NodeId) -> usize {
    t.subtree(id)
        .filter(|&n| !matches!(t.node(n).label(), Label::Rule(_)))
        .count()
}

/// Renders `t` with several disjoint subtrees replaced: `edits` sorted by
/// node id, each `(target, replacement tree)` replaced by that tree's root.
pub fn render_edits(t: &Tree, g: &Grammar, edits: &[(NodeId, &Tree)], out: &mut Vec<u8>) {
    let mut i = 0usize;
    let mut e = 0usize;
    while i < t.len() {
        if e < edits.len() && edits[e].0.index() == i {
            let (target, with) = edits[e];
            with.unparse_node_into(g, with.root(), out);
            i += t.node(target).size as usize;
            e += 1;
        } else {
            out.extend_from_slice(t.leaf_bytes(g, NodeId(i as u32)));
            i += 1;
        }
    }
}

/// Applies disjoint edits (sorted by node id) and returns the new tree.
pub fn apply_edits(t: &Tree, edits: &[(NodeId, &Tree)]) -> Tree {
    let mut cur = t.clone();
    // Last first, so earlier ids stay valid.
    for &(target, with) in edits.iter().rev() {
        cur = cur.replace(target, with, with.root());
    }
    cur
}

/// Nearest descendants of `id` (excluding itself) labelled with the same
/// nonterminal: no node with that symbol lies strictly between.
pub fn frontier(t: &Tree, g: &Grammar, id: NodeId) -> Vec<NodeId> {
    match t.symbol(g, id) {
        Some(sym) => nearest(t, g, id, sym),
        None => vec![],
    }
}

/// Nearest descendants of `id` (excluding itself) labelled `sym`.
pub fn nearest(t: &Tree, g: &Grammar, id: NodeId, sym: SymbolId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let end = id.0 + t.node(id).size;
    let mut i = id.0 + 1;
    while i < end {
        let n = NodeId(i);
        if t.symbol(g, n) == Some(sym) {
            out.push(n);
            i += t.node(n).size;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout shortcut renders exactly what the node walk renders, for
    /// every node of a tree replaced by every node of it.
    #[test]
    fn layout_renders_like_the_node_walk() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let t = crate::parse::parse(&g, b"(1 + 2) * -3 / (4 - (5))").unwrap();
        let ctx = TreeCtx::new(&g, Render::Text);
        let l = ctx.layout(&t);
        assert!(l.is_some());
        for a in (0..t.len() as u32).map(NodeId) {
            for b in (0..t.len() as u32).map(NodeId) {
                assert_eq!(
                    ctx.render_with_layout(&t, l.as_ref(), a, &t, b),
                    ctx.render_with(&t, a, &t, b)
                );
            }
            let m = ctx.minimal(t.symbol(&g, a).unwrap_or(SymbolId(0)));
            assert_eq!(
                ctx.render_with_layout(&t, l.as_ref(), a, m, NodeId(0)),
                ctx.render_with(&t, a, m, NodeId(0))
            );
        }
        // Choice rendering has no layout.
        let choices = TreeCtx::new(&g, Render::Choices(DecodeConfig::default()));
        assert!(choices.layout(&t).is_none());
    }

    /// JSON: the digit runs are lexical; a number (sign, `.`), a string
    /// (quotes, blanks) and anything above them are not. Lexical atoms
    /// freeze exactly the nodes inside a digit run.
    #[test]
    fn lexical_symbols_are_the_word_only_ones() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/json.json");
        let g = Grammar::from_path(path.as_ref(), &Default::default()).unwrap();
        let lex = lexical_symbols(&g);
        let is = |name: &str| lex[g.symbol_by_name(name).unwrap().index()];
        for s in ["<digits>", "<digit>", "<onenine>", "<hex>"] {
            assert!(is(s), "{s} is lexical");
        }
        for s in [
            "<integer>",
            "<number>",
            "<string>",
            "<characters>",
            "<value>",
            "<ws>",
            "<start>",
        ] {
            assert!(!is(s), "{s} is not lexical");
        }
        let t = crate::parse::parse(&g, br#"[12345, "ab"]"#).unwrap();
        assert!(TreeCtx::new(&g, Render::Text).frozen(&t).is_none());
        let ctx = TreeCtx::new(&g, Render::Text).with_lexical_atoms();
        let frozen = ctx.frozen(&t).unwrap();
        for n in (0..t.len() as u32).map(NodeId) {
            let inside_digits = std::iter::successors(Some(n), |&m| {
                let p = t.node(m).parent;
                (p != crate::tree::NO_PARENT).then_some(NodeId(p))
            })
            .any(|m| {
                t.symbol(&g, m)
                    .is_some_and(|s| lex[s.index()] || ctx.is_token(s))
            });
            assert_eq!(frozen[n.index()], inside_digits, "node {n:?}");
        }
        assert!(frozen.iter().any(|&f| f) && !frozen[0]);
    }
}
