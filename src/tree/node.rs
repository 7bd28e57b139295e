//! [`Node`]s of a [`Tree`](super::Tree) and what they stand for
//! ([`Label`]), packed into 12 bytes: a parse writes a few per input byte.

use crate::grammar::{RuleId, TermId};

/// A node, as an index into [`Tree::nodes`](super::Tree::nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// A nonterminal expanded by this rule; children are the rule's body.
    Rule(RuleId),
    /// A terminal of the grammar (a leaf).
    Term(TermId),
    /// Text produced outside the grammar (by a context-sensitive generation
    /// hook): a leaf whose bytes are [`Tree::text`](super::Tree::text)`(index)` and whose
    /// nonterminal is [`Tree::text_symbol`](super::Tree::text_symbol)`(index)`.
    Text(u32),
}

/// No parent (the root).
pub const NO_PARENT: u32 = u32::MAX;

/// Largest id a [`Label`] can carry (rule, terminal or text index): the
/// label is packed into 30 bits. Grammars and trees that large do not fit
/// in memory (a grammar file is limited to far fewer rules).
pub const MAX_LABEL_ID: u32 = (1 << 30) - 1;

const TAG_SHIFT: u32 = 30;
const TAG_RULE: u32 = 0;
const TAG_TERM: u32 = 1;
const TAG_TEXT: u32 = 2;

/// One node of a [`Tree`](super::Tree): 12 bytes, as a parse writes a few of them per
/// input byte. Choice spans of decoded trees are kept beside the nodes
/// ([`Tree::choices`](super::Tree::choices)); depths are computed when
/// asked for ([`Tree::depths`](super::Tree::depths)), since only reducers
/// and reports need them and one pre-order pass finds them all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The [`Label`], packed: tag in the top two bits, id below.
    packed: u32,
    /// Parent index, or [`NO_PARENT`].
    pub parent: u32,
    /// Number of nodes in this subtree, itself included.
    pub size: u32,
}

impl Node {
    /// A node with `label` under `parent` and size 1 (what
    /// [`Tree::from_preorder`](super::Tree::from_preorder) expects; it computes sizes).
    ///
    /// Panics if the label's id exceeds [`MAX_LABEL_ID`].
    #[inline]
    pub fn new(label: Label, parent: u32) -> Node {
        Node {
            packed: pack(label),
            parent,
            size: 1,
        }
    }

    /// What the node stands for.
    #[inline]
    pub fn label(&self) -> Label {
        let id = self.packed & MAX_LABEL_ID;
        match self.packed >> TAG_SHIFT {
            TAG_RULE => Label::Rule(RuleId(id)),
            TAG_TERM => Label::Term(TermId(id)),
            _ => Label::Text(id),
        }
    }

    /// Changes what the node stands for (same limit as [`Node::new`]).
    #[inline]
    pub fn set_label(&mut self, label: Label) {
        self.packed = pack(label);
    }
}

#[inline]
fn pack(label: Label) -> u32 {
    let (tag, id) = match label {
        Label::Rule(r) => (TAG_RULE, r.0),
        Label::Term(t) => (TAG_TERM, t.0),
        Label::Text(i) => (TAG_TEXT, i),
    };
    assert!(id <= MAX_LABEL_ID, "label id {id} exceeds MAX_LABEL_ID");
    tag << TAG_SHIFT | id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_12_bytes_and_labels_round_trip() {
        assert_eq!(std::mem::size_of::<Node>(), 12);
        for label in [
            Label::Rule(RuleId(0)),
            Label::Rule(RuleId(MAX_LABEL_ID)),
            Label::Term(TermId(0)),
            Label::Term(TermId(12345)),
            Label::Text(0),
            Label::Text(MAX_LABEL_ID),
        ] {
            let mut n = Node::new(label, 7);
            assert_eq!((n.label(), n.parent, n.size), (label, 7, 1));
            n.set_label(Label::Term(TermId(3)));
            assert_eq!(n.label(), Label::Term(TermId(3)));
        }
    }

    #[test]
    #[should_panic(expected = "exceeds MAX_LABEL_ID")]
    fn oversized_label_ids_are_refused() {
        Node::new(Label::Rule(RuleId(MAX_LABEL_ID + 1)), NO_PARENT);
    }
}
