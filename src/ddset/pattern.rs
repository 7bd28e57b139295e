//! [`Pattern`]: a derivation tree whose abstract nodes stand for "any
//! subtree of this nonterminal".

use crate::generate::{decode_tree_from, random_choices, DecodeConfig};
use crate::grammar::{Grammar, SymbolId};
use crate::tree::{Label, NodeId, Tree};
use rand::{Rng, RngExt};

/// An abstract failure-inducing input (DDSET): a concrete derivation tree in
/// which some nodes are *abstract*. It renders as text with placeholders
/// (`((<expr>))`), matches concrete trees without running anything, and
/// instantiates itself with random subtrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    tree: Tree,
    /// `abstract_[i]`: node `i` is abstract (its subtree is not part of the
    /// pattern). Only nonterminal nodes are ever abstract.
    abstract_: Vec<bool>,
}

/// How random instantiations of abstract nodes are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceConfig {
    /// Each abstract node is decoded from a fresh random choice sequence of
    /// `0..=max_choices` bytes (uniform length). Short sequences give small
    /// instances; the decoder completes them minimally.
    pub max_choices: usize,
    /// Budgets for decoding one instance.
    pub decode: DecodeConfig,
}

impl Default for InstanceConfig {
    /// Up to 24 choices per abstract node, depth 32, 4 KiB per instance:
    /// small, varied instances like fuzzingbook's `GrammarFuzzer` defaults.
    fn default() -> InstanceConfig {
        InstanceConfig {
            max_choices: 24,
            decode: DecodeConfig {
                max_depth: 32,
                max_len: 4096,
            },
        }
    }
}

/// A fresh random subtree for nonterminal `sym`.
pub fn random_subtree<R: Rng + ?Sized>(
    g: &Grammar,
    sym: SymbolId,
    rng: &mut R,
    cfg: &InstanceConfig,
) -> Tree {
    let len = rng.random_range(0..=cfg.max_choices);
    decode_tree_from(g, sym, &random_choices(rng, len), &cfg.decode)
}

/// A copy of `tree` with each listed node's subtree replaced by the root
/// subtree of the paired tree. The nodes must not overlap (none inside
/// another); they may be given in any order.
pub fn replace_all(tree: &Tree, repl: &[(NodeId, &Tree)]) -> Tree {
    let mut sorted: Vec<(NodeId, &Tree)> = repl.to_vec();
    // Right to left, so the ids of nodes still to replace stay valid.
    sorted.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    let mut out = tree.clone();
    for (n, t) in sorted {
        out = out.replace(n, t, t.root());
    }
    out
}

impl Pattern {
    /// A fully concrete pattern: exactly `tree`.
    pub fn concrete(tree: Tree) -> Pattern {
        let n = tree.len();
        Pattern {
            tree,
            abstract_: vec![false; n],
        }
    }

    /// `tree` with the given nodes abstract. Nodes inside another abstract
    /// node's subtree, and terminal nodes, are ignored.
    pub fn with_abstract(tree: Tree, nodes: &[NodeId]) -> Pattern {
        let mut p = Pattern::concrete(tree);
        for &n in nodes {
            if matches!(p.tree.node(n).label(), Label::Rule(_) | Label::Text(..)) {
                p.abstract_[n.index()] = true;
            }
        }
        p.normalise();
        p
    }

    /// Clears abstract marks nested inside abstract nodes.
    fn normalise(&mut self) {
        let mut i = 0;
        while i < self.tree.len() {
            if self.abstract_[i] {
                let end = i + self.tree.node(NodeId(i as u32)).size as usize;
                for a in &mut self.abstract_[i + 1..end] {
                    *a = false;
                }
                i = end;
            } else {
                i += 1;
            }
        }
    }

    /// The underlying concrete tree (abstract nodes keep the subtree of the
    /// input they were generalised from).
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Is node `n` abstract?
    pub fn is_abstract(&self, n: NodeId) -> bool {
        self.abstract_[n.index()]
    }

    /// The abstract nodes, in pre-order.
    pub fn abstract_nodes(&self) -> Vec<NodeId> {
        (0..self.tree.len())
            .filter(|&i| self.abstract_[i])
            .map(|i| NodeId(i as u32))
            .collect()
    }

    /// Renders the pattern: concrete text, abstract nodes as `<name>`.
    ///
    /// ```
    /// use grammar_min::{grammar::Grammar, generate::decode_tree, ddset::Pattern, tree::NodeId};
    /// let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
    ///     &Default::default()).unwrap();
    /// let t = decode_tree(&g, &[], &Default::default());
    /// let a = t.children(t.root()).nth(1).unwrap();
    /// assert_eq!(Pattern::with_abstract(t, &[a]).render(&g), "(<a>)");
    /// ```
    pub fn render(&self, g: &Grammar) -> String {
        String::from_utf8_lossy(&self.render_bytes(g)).into_owned()
    }

    /// [`Pattern::render`] as bytes (terminals may not be UTF-8).
    pub fn render_bytes(&self, g: &Grammar) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.tree.len() {
            let id = NodeId(i as u32);
            if self.abstract_[i] {
                let sym = self
                    .tree
                    .symbol(g, id)
                    .expect("abstract nodes are nonterminals");
                out.extend_from_slice(g.name(sym).as_bytes());
                i += self.tree.node(id).size as usize;
            } else {
                out.extend_from_slice(self.tree.leaf_bytes(g, id));
                i += 1;
            }
        }
        out
    }

    /// Does the concrete `tree` fit this pattern? Concrete nodes must use the
    /// same rules and terminals in the same places; an abstract node matches
    /// any subtree of its nonterminal. Purely structural: no oracle runs.
    pub fn matches(&self, g: &Grammar, tree: &Tree) -> bool {
        let (mut i, mut j) = (0usize, 0usize);
        while i < self.tree.len() {
            if j >= tree.len() {
                return false;
            }
            let (p, t) = (NodeId(i as u32), NodeId(j as u32));
            if self.abstract_[i] {
                if self.tree.symbol(g, p) != tree.symbol(g, t) {
                    return false;
                }
                i += self.tree.node(p).size as usize;
                j += tree.node(t).size as usize;
            } else {
                let same = match (self.tree.node(p).label(), tree.node(t).label()) {
                    (Label::Rule(a), Label::Rule(b)) => a == b,
                    (Label::Term(a), Label::Term(b)) => a == b,
                    (Label::Text(a), Label::Text(b)) => {
                        self.tree.text_symbol(a) == tree.text_symbol(b)
                            && self.tree.leaf_bytes(g, p) == tree.leaf_bytes(g, t)
                    }
                    _ => false,
                };
                if !same {
                    return false;
                }
                i += 1;
                j += 1;
            }
        }
        j == tree.len()
    }

    /// A random concrete instance: every abstract node replaced by a fresh
    /// random subtree of its nonterminal.
    pub fn instantiate<R: Rng + ?Sized>(
        &self,
        g: &Grammar,
        rng: &mut R,
        cfg: &InstanceConfig,
    ) -> Tree {
        self.fill(&self.fresh_parts(g, rng, cfg))
    }

    /// One fresh random subtree per abstract node, in pre-order (what
    /// [`Pattern::instantiate`] puts in; [`Pattern::fill`] puts them in).
    pub fn fresh_parts<R: Rng + ?Sized>(
        &self,
        g: &Grammar,
        rng: &mut R,
        cfg: &InstanceConfig,
    ) -> Vec<(NodeId, Tree)> {
        self.abstract_nodes()
            .into_iter()
            .map(|n| {
                let sym = self
                    .tree
                    .symbol(g, n)
                    .expect("abstract nodes are nonterminals");
                (n, random_subtree(g, sym, rng, cfg))
            })
            .collect()
    }

    /// The pattern's tree with the given abstract nodes replaced (any
    /// others keep the input's subtree).
    pub fn fill(&self, parts: &[(NodeId, Tree)]) -> Tree {
        let repl: Vec<(NodeId, &Tree)> = parts.iter().map(|(n, t)| (*n, t)).collect();
        replace_all(&self.tree, &repl)
    }

    /// The same pattern with node `n` concrete again (its whole subtree as
    /// in the input).
    pub fn make_concrete(&self, n: NodeId) -> Pattern {
        let mut p = self.clone();
        p.abstract_[n.index()] = false;
        p
    }

    /// Serialisable form (see [`PatternFile`]).
    pub fn to_file(&self, g: &Grammar) -> PatternFile {
        let nodes = self
            .tree
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let id = NodeId(i as u32);
                let (symbol, alternative, text) = match n.label() {
                    Label::Rule(r) => (
                        Some(g.name(g.rule(r).lhs).to_string()),
                        Some(g.alt_index(r)),
                        None,
                    ),
                    Label::Term(_) => (None, None, Some(self.tree.leaf_bytes(g, id).to_vec())),
                    Label::Text(ti) => (
                        Some(g.name(self.tree.text_symbol(ti)).to_string()),
                        None,
                        Some(self.tree.leaf_bytes(g, id).to_vec()),
                    ),
                };
                let (text, bytes) = match text.map(String::from_utf8) {
                    None => (None, None),
                    Some(Ok(s)) => (Some(s), None),
                    Some(Err(e)) => (None, Some(e.into_bytes())),
                };
                PatternNode {
                    symbol,
                    alternative,
                    text,
                    bytes,
                    parent: (n.parent != crate::tree::NO_PARENT).then_some(n.parent),
                    is_abstract: self.abstract_[i],
                }
            })
            .collect();
        PatternFile {
            pattern: self.render(g),
            nodes,
        }
    }

    /// Rebuilds a pattern from its serialised form against `g`.
    ///
    /// # Errors
    /// A message naming the node that does not fit the grammar (unknown
    /// nonterminal, alternative out of range, terminal text that differs from
    /// the grammar's, broken parent links).
    pub fn from_file(g: &Grammar, f: &PatternFile) -> Result<Pattern, String> {
        use crate::tree::Node;
        let mut nodes = Vec::with_capacity(f.nodes.len());
        let mut texts = Vec::new();
        let mut abstract_ = Vec::with_capacity(f.nodes.len());
        // Terminal ids are looked up through the parent rule's body.
        let mut child_pos: Vec<usize> = vec![0; f.nodes.len()];
        for (i, pn) in f.nodes.iter().enumerate() {
            let parent = match pn.parent {
                None if i == 0 => crate::tree::NO_PARENT,
                Some(p) if (p as usize) < i => p,
                _ => return Err(format!("node {i}: bad parent link")),
            };
            let text: Option<&[u8]> = pn
                .text
                .as_ref()
                .map(|s| s.as_bytes())
                .or(pn.bytes.as_deref());
            let label = match (&pn.symbol, pn.alternative, text) {
                (Some(name), Some(alt), None) => {
                    let sym = g
                        .symbol_by_name(name)
                        .ok_or_else(|| format!("node {i}: unknown nonterminal {name}"))?;
                    if alt >= g.num_alts(sym) {
                        return Err(format!("node {i}: {name} has no alternative {alt}"));
                    }
                    Label::Rule(g.alt(sym, alt))
                }
                (None, None, Some(text)) => {
                    let p = parent as usize;
                    let Some(Label::Rule(r)) = nodes.get(p).map(|n: &Node| n.label()) else {
                        return Err(format!("node {i}: terminal without a rule parent"));
                    };
                    let k = child_pos[p];
                    match g.body(r).get(k) {
                        Some(crate::grammar::Elem::T(t)) if g.term(*t) == text => Label::Term(*t),
                        _ => {
                            return Err(format!(
                                "node {i}: terminal {} does not fit {}",
                                crate::grammar::display_terminal(text),
                                g.rule_to_string(r)
                            ))
                        }
                    }
                }
                (Some(name), None, Some(text)) => {
                    let sym = g
                        .symbol_by_name(name)
                        .ok_or_else(|| format!("node {i}: unknown nonterminal {name}"))?;
                    texts.push((sym, text.into()));
                    Label::Text((texts.len() - 1) as u32)
                }
                _ => return Err(format!("node {i}: needs symbol+alternative or text")),
            };
            if parent != crate::tree::NO_PARENT {
                child_pos[parent as usize] += 1;
            }
            nodes.push(Node::new(label, parent));
            abstract_.push(pn.is_abstract);
        }
        let tree = Tree::from_preorder(nodes, texts)
            .ok_or_else(|| "nodes are not a pre-order tree".to_string())?;
        let mut p = Pattern { tree, abstract_ };
        p.normalise();
        Ok(p)
    }
}

/// JSON form of a [`Pattern`]: the rendering for humans, and the nodes in
/// pre-order for the machine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PatternFile {
    /// The rendered pattern, e.g. `((<expr>))`.
    pub pattern: String,
    /// Nodes in pre-order.
    pub nodes: Vec<PatternNode>,
}

/// One node of a [`PatternFile`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PatternNode {
    /// Nonterminal name, for rule nodes and hook text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Alternative index (simplest first), for rule nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<u32>,
    /// Text, for terminals and hook text (when it is UTF-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Raw bytes, for terminals and hook text that are not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<Vec<u8>>,
    /// Parent's index; absent for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u32>,
    /// Abstract node ("any subtree of `symbol`").
    #[serde(
        default,
        rename = "abstract",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub is_abstract: bool,
}
