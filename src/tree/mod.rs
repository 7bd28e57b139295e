//! Derivation trees as flat pre-order arenas.
//!
//! A [`Tree`] stores its nodes in pre-order; every node knows its parent and
//! the size of its subtree, so a subtree is the contiguous slice
//! `id .. id + size`, children are found by hopping over sibling subtrees,
//! and a candidate edit ("replace node `a` by subtree `b`", "delete node
//! `a`") renders to text without copying the tree
//! ([`Tree::unparse_with`]). Nothing here recurses.
//!
//! A [`Node`] is 12 bytes (packed [`Label`], parent, size): a parse writes
//! a few per input byte. Depths are not stored; [`Tree::depths`] computes
//! them all in one pass. Trees produced by the choice-sequence
//! decoder also record, beside the nodes, the span of choice bytes each
//! subtree consumed ([`Tree::choices`]), which the mutator and
//! choice-sequence reducers use to edit whole subtrees in the bytes.

mod node;

pub use node::{Label, Node, NodeId, MAX_LABEL_ID, NO_PARENT};

use crate::grammar::{display_terminal, Grammar, SymbolId};
use std::fmt::Write as _;
use std::ops::Range;

/// A derivation tree; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Hook texts: the nonterminal each stands for and its bytes.
    texts: Vec<(SymbolId, Box<[u8]>)>,
    /// Choice span per node, for trees from the decoder; empty otherwise.
    choices: Vec<Range<u32>>,
}

impl Tree {
    /// An empty tree (no root yet).
    pub fn new() -> Tree {
        Tree::default()
    }

    /// An empty tree with room for `nodes` nodes (and their choice spans:
    /// this is the decoder's constructor).
    pub(crate) fn with_capacity(nodes: usize) -> Tree {
        Tree {
            nodes: Vec::with_capacity(nodes),
            texts: Vec::new(),
            choices: Vec::with_capacity(nodes),
        }
    }

    /// Builds a tree from nodes given in pre-order with parents set; sizes
    /// are computed here. Returns `None` if the parents do not
    /// describe a pre-order tree rooted at node 0. `texts` are the
    /// [`Label::Text`] leaves' nonterminals and bytes, by index. The tree has
    /// no choice spans.
    pub fn from_preorder(mut nodes: Vec<Node>, texts: Vec<(SymbolId, Box<[u8]>)>) -> Option<Tree> {
        if nodes.is_empty() || nodes[0].parent != NO_PARENT {
            return None;
        }
        // Every parent comes before its child.
        if nodes
            .iter()
            .enumerate()
            .skip(1)
            .any(|(i, n)| n.parent == NO_PARENT || n.parent as usize >= i)
        {
            return None;
        }
        for n in nodes.iter_mut() {
            n.size = 1;
        }
        for i in (1..nodes.len()).rev() {
            let p = nodes[i].parent as usize;
            nodes[p].size += nodes[i].size;
        }
        // Pre-order: each node's subtree must be contiguous.
        for i in 1..nodes.len() {
            let p = nodes[i].parent as usize;
            if i >= p + nodes[p].size as usize {
                return None;
            }
        }
        Some(Tree {
            nodes,
            texts,
            choices: Vec::new(),
        })
    }

    /// [`Tree::from_preorder`] for nodes whose sizes are already set, in
    /// pre-order by construction (the parser's extraction).
    /// Checks only the root in release builds (the full check is a pass
    /// over the whole tree); debug builds compare with `from_preorder`.
    pub(crate) fn from_preorder_sized(nodes: Vec<Node>) -> Option<Tree> {
        if nodes.first()?.parent != NO_PARENT || nodes[0].size as usize != nodes.len() {
            return None;
        }
        debug_assert!(
            Tree::from_preorder(nodes.clone(), Vec::new()).is_some_and(|t| t.nodes == nodes),
            "extracted sizes disagree with the parents"
        );
        Some(Tree {
            nodes,
            texts: Vec::new(),
            choices: Vec::new(),
        })
    }

    /// Appends a node (pre-order) and returns its id. Sizes are fixed up by
    /// [`Tree::finish`].
    pub(crate) fn push(&mut self, label: Label, parent: u32, choice_pos: u32) -> u32 {
        self.nodes.push(Node::new(label, parent));
        self.choices.push(choice_pos..choice_pos);
        (self.nodes.len() - 1) as u32
    }

    /// Stores hook text for nonterminal `sym` and returns its index for
    /// [`Label::Text`].
    pub(crate) fn push_text(&mut self, sym: SymbolId, bytes: &[u8]) -> u32 {
        self.texts.push((sym, bytes.into()));
        (self.texts.len() - 1) as u32
    }

    /// Computes subtree sizes and choice spans after pre-order pushes;
    /// `end` is the total number of choice bytes consumed.
    pub(crate) fn finish(&mut self, end: u32) {
        let n = self.nodes.len();
        for i in (1..n).rev() {
            let p = self.nodes[i].parent as usize;
            let s = self.nodes[i].size;
            self.nodes[p].size += s;
        }
        debug_assert_eq!(self.choices.len(), n, "push records a span per node");
        for i in 0..n {
            let after = i + self.nodes[i].size as usize;
            let e = if after < n {
                self.choices[after].start
            } else {
                end
            };
            self.choices[i].end = e;
        }
    }

    /// All nodes in pre-order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Has the tree no nodes?
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The root (node 0).
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// Bytes of a [`Label::Text`] leaf.
    pub fn text(&self, index: u32) -> &[u8] {
        &self.texts[index as usize].1
    }

    /// The nonterminal a [`Label::Text`] leaf stands for.
    pub fn text_symbol(&self, index: u32) -> SymbolId {
        self.texts[index as usize].0
    }

    /// Span of choice bytes consumed by the subtree `id`, for trees from the
    /// decoder (`decode_tree` and friends); empty (`0..0`) for other trees
    /// (parsed, edited, built by hand).
    ///
    /// ```
    /// use grammar_min::{grammar::Grammar, generate::decode_tree};
    /// let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
    ///     &Default::default()).unwrap();
    /// let t = decode_tree(&g, &[255], &Default::default());
    /// assert_eq!(t.choices(t.root()), 0..1);
    /// ```
    #[inline]
    pub fn choices(&self, id: NodeId) -> Range<u32> {
        self.choices.get(id.index()).cloned().unwrap_or(0..0)
    }

    /// Does the tree record choice spans (did it come from the decoder)?
    pub fn has_choices(&self) -> bool {
        !self.choices.is_empty()
    }

    /// The nonterminal a node stands for (`None` for terminals).
    pub fn symbol(&self, g: &Grammar, id: NodeId) -> Option<SymbolId> {
        match self.nodes[id.index()].label() {
            Label::Rule(r) => Some(g.rule(r).lhs),
            Label::Text(i) => Some(self.texts[i as usize].0),
            Label::Term(_) => None,
        }
    }

    /// Children of `id`, left to right.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        let n = &self.nodes[id.index()];
        Children {
            tree: self,
            next: id.0 + 1,
            end: id.0 + n.size,
        }
    }

    /// Ids of the subtree rooted at `id` (itself first), in pre-order.
    pub fn subtree(&self, id: NodeId) -> impl Iterator<Item = NodeId> {
        (id.0..id.0 + self.nodes[id.index()].size).map(NodeId)
    }

    /// Is `a` an ancestor of `b` (or `b` itself)?
    pub fn contains(&self, a: NodeId, b: NodeId) -> bool {
        a.0 <= b.0 && b.0 < a.0 + self.nodes[a.index()].size
    }

    /// Largest node depth (0 for a lone root or an empty tree); one pass
    /// over the nodes.
    pub fn depth(&self) -> u32 {
        self.depths().into_iter().max().unwrap_or(0)
    }

    /// Every node's depth (the root's is 0), indexed by node id: one
    /// pre-order pass, since a parent comes before its children.
    ///
    /// ```
    /// use grammar_min::{grammar::Grammar, parse::parse};
    /// let g = Grammar::from_json_str(r#"{"<start>": ["(<start>)", "x"]}"#, &Default::default()).unwrap();
    /// let t = parse(&g, b"((x))").unwrap();
    /// let d = t.depths();
    /// assert_eq!(d[t.root().index()], 0);
    /// assert_eq!(t.depth(), *d.iter().max().unwrap());
    /// assert_eq!(t.depth_of(grammar_min::tree::NodeId(t.len() as u32 - 1)), d[t.len() - 1]);
    /// ```
    pub fn depths(&self) -> Vec<u32> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        self.subtree_depths(self.root())
    }

    /// Depths below `root` of the nodes of its subtree, in pre-order
    /// (`[0]` is `root` itself): entry `k` is node `root + k`'s.
    pub fn subtree_depths(&self, root: NodeId) -> Vec<u32> {
        let nodes =
            &self.nodes[root.index()..root.index() + self.nodes[root.index()].size as usize];
        let mut d = vec![0u32; nodes.len()];
        for k in 1..nodes.len() {
            d[k] = d[nodes[k].parent as usize - root.index()] + 1;
        }
        d
    }

    /// Depth of one node, by walking up to the root (O(depth); use
    /// [`Tree::depths`] for many nodes).
    pub fn depth_of(&self, id: NodeId) -> u32 {
        let mut d = 0;
        let mut p = self.nodes[id.index()].parent;
        while p != NO_PARENT {
            d += 1;
            p = self.nodes[p as usize].parent;
        }
        d
    }

    /// The bytes a leaf contributes (empty for inner nodes).
    #[inline]
    pub fn leaf_bytes<'g>(&'g self, g: &'g Grammar, id: NodeId) -> &'g [u8] {
        match self.nodes[id.index()].label() {
            Label::Term(t) => g.term(t),
            Label::Text(i) => &self.texts[i as usize].1,
            Label::Rule(_) => &[],
        }
    }

    /// The text the whole tree derives.
    pub fn unparse(&self, g: &Grammar) -> Vec<u8> {
        let mut out = Vec::new();
        self.unparse_node_into(g, self.root(), &mut out);
        out
    }

    /// Appends the text of subtree `id` to `out`.
    pub fn unparse_node_into(&self, g: &Grammar, id: NodeId, out: &mut Vec<u8>) {
        if self.nodes.is_empty() {
            return;
        }
        let end = id.index() + self.nodes[id.index()].size as usize;
        for n in &self.nodes[id.index()..end] {
            // Most leaves are one byte: a push beats a memcpy call.
            match n.label() {
                Label::Rule(_) => {}
                Label::Term(t) => match g.term(t) {
                    [b] => out.push(*b),
                    bytes => out.extend_from_slice(bytes),
                },
                Label::Text(i) => out.extend_from_slice(&self.texts[i as usize].1),
            }
        }
    }

    /// The text of subtree `id`.
    pub fn node_text(&self, g: &Grammar, id: NodeId) -> Vec<u8> {
        let mut out = Vec::new();
        self.unparse_node_into(g, id, &mut out);
        out
    }

    /// Byte span of every node's text in the unparsed output, indexed by
    /// node.
    pub fn text_spans(&self, g: &Grammar) -> Vec<Range<usize>> {
        let mut starts = vec![0usize; self.nodes.len()];
        let mut pos = 0;
        for (i, s) in starts.iter_mut().enumerate() {
            *s = pos;
            pos += self.leaf_bytes(g, NodeId(i as u32)).len();
        }
        (0..self.nodes.len())
            .map(|i| {
                let after = i + self.nodes[i].size as usize;
                let end = if after < self.nodes.len() {
                    starts[after]
                } else {
                    pos
                };
                starts[i]..end
            })
            .collect()
    }

    /// Renders the tree with the subtree at `target` replaced: by subtree
    /// `with.1` of tree `with.0` (which may be `self`), or by nothing when
    /// `with` is `None`. No copy of the tree is made.
    ///
    /// ```
    /// use grammar_min::{grammar::Grammar, generate::decode_tree, tree::NodeId};
    /// let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
    ///     &Default::default()).unwrap();
    /// let t = decode_tree(&g, &[255], &Default::default());
    /// assert_eq!(t.unparse(&g), b"(y)");
    /// let a = t.children(t.root()).nth(1).unwrap();
    /// let mut out = Vec::new();
    /// t.unparse_with(&g, a, None, &mut out);
    /// assert_eq!(out, b"()");
    /// ```
    pub fn unparse_with(
        &self,
        g: &Grammar,
        target: NodeId,
        with: Option<(&Tree, NodeId)>,
        out: &mut Vec<u8>,
    ) {
        let t = target.index();
        let end = t + self.nodes[t].size as usize;
        for i in 0..t {
            out.extend_from_slice(self.leaf_bytes(g, NodeId(i as u32)));
        }
        if let Some((other, id)) = with {
            other.unparse_node_into(g, id, out);
        }
        for i in end..self.nodes.len() {
            out.extend_from_slice(self.leaf_bytes(g, NodeId(i as u32)));
        }
    }

    /// A new tree with the subtree at `target` replaced by a copy of subtree
    /// `src` of `other` (which may be `self`). Parents, sizes and depths are
    /// recomputed; choice spans of the result are cleared.
    pub fn replace(&self, target: NodeId, other: &Tree, src: NodeId) -> Tree {
        let t = target.index();
        let t_end = t + self.nodes[t].size as usize;
        let s = src.index();
        let s_end = s + other.nodes[s].size as usize;
        let mut texts = self.texts.clone();
        let mut nodes: Vec<Node> = Vec::with_capacity(self.nodes.len() - (t_end - t) + (s_end - s));
        nodes.extend_from_slice(&self.nodes[..t]);
        other.copy_subtree_into(src, self.nodes[t].parent, &mut nodes, &mut texts);
        let delta = (s_end - s) as i64 - (t_end - t) as i64;
        for n in &self.nodes[t_end..] {
            let mut n = n.clone();
            if n.parent != NO_PARENT && n.parent as usize >= t_end {
                n.parent = (n.parent as i64 + delta) as u32;
            }
            nodes.push(n);
        }
        Tree::from_preorder(nodes, texts).expect("replacing a subtree keeps pre-order")
    }

    /// Appends a copy of subtree `src` to `nodes` (pre-order) as a child of
    /// node `parent` there, copying its hook texts into `texts` (the two
    /// halves of a tree under construction, see [`Tree::from_preorder`]).
    /// Sizes and depths are copied as they are; `from_preorder` recomputes
    /// them.
    pub fn copy_subtree_into(
        &self,
        src: NodeId,
        parent: u32,
        nodes: &mut Vec<Node>,
        texts: &mut Vec<(SymbolId, Box<[u8]>)>,
    ) {
        let off = nodes.len() as u32;
        for n in self.subtree(src) {
            let mut node = self.node(n).clone();
            node.parent = if n == src {
                parent
            } else {
                node.parent - src.0 + off
            };
            if let Label::Text(i) = node.label() {
                texts.push(self.texts[i as usize].clone());
                node.set_label(Label::Text((texts.len() - 1) as u32));
            }
            nodes.push(node);
        }
    }

    /// The first node (in pre-order) at which the tree is not a derivation
    /// of `g`: a rule node whose children do not spell its rule's body (a
    /// [`Label::Text`] leaf stands for the nonterminal it is labelled with),
    /// or a root that is a terminal. `None` for a valid derivation tree.
    /// Linear time, no recursion.
    ///
    /// ```
    /// use grammar_min::{grammar::Grammar, generate::decode_tree};
    /// let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
    ///     &Default::default()).unwrap();
    /// assert_eq!(decode_tree(&g, &[7], &Default::default()).find_invalid(&g), None);
    /// ```
    pub fn find_invalid(&self, g: &Grammar) -> Option<NodeId> {
        use crate::grammar::Elem;
        if matches!(self.nodes.first()?.label(), Label::Term(_)) {
            return Some(self.root());
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let Label::Rule(r) = n.label() else { continue };
            let id = NodeId(i as u32);
            let mut kids = self.children(id);
            for e in g.body(r) {
                let ok = match (*e, kids.next().map(|k| self.nodes[k.index()].label())) {
                    (Elem::T(t), Some(Label::Term(u))) => t == u,
                    (Elem::Nt(s), Some(Label::Rule(cr))) => g.rule(cr).lhs == s,
                    (Elem::Nt(s), Some(Label::Text(i))) => self.texts[i as usize].0 == s,
                    _ => false,
                };
                if !ok {
                    return Some(id);
                }
            }
            if kids.next().is_some() {
                return Some(id);
            }
        }
        None
    }

    /// Graphviz DOT of the tree, as fuzzingbook's `display_tree` draws it.
    pub fn to_dot(&self, g: &Grammar) -> String {
        let mut s = String::from(
            "digraph tree {\n  node [shape=plain fontname=\"courier\"];\n  edge [arrowhead=none];\n",
        );
        for (i, n) in self.nodes.iter().enumerate() {
            let label = match n.label() {
                Label::Rule(r) => g.name(g.rule(r).lhs).to_string(),
                Label::Term(t) => display_terminal(g.term(t)),
                Label::Text(ti) => display_terminal(&self.texts[ti as usize].1),
            };
            let esc = label.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(s, "  n{i} [label=\"{esc}\"];");
            if n.parent != NO_PARENT {
                let _ = writeln!(s, "  n{} -> n{i};", n.parent);
            }
        }
        s.push_str("}\n");
        s
    }
}

/// Iterator over the children of a node.
pub struct Children<'t> {
    tree: &'t Tree,
    next: u32,
    end: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let id = NodeId(self.next);
        self.next += self.tree.nodes[id.index()].size;
        Some(id)
    }
}

#[cfg(test)]
mod tests;
