//! Identical subtrees of one tree: a name defined and used (`h` in `def
//! h(a) = a; print h(0)`), the repeated levels of a generated nest.
//! [`super::canonicalize`] lowers twins together; [`super::generalize`]
//! judges one of each kind and gives its verdict to the others.

use crate::tree::{NodeId, Tree};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Per node, the first node in pre-order whose subtree is the same,
/// label for label (itself if none is earlier).
pub(crate) struct Twins {
    first: Vec<NodeId>,
    hash: Vec<u64>,
    by_hash: HashMap<u64, Vec<NodeId>>,
}

impl Twins {
    /// One pass bottom-up (a hash of each node's label and its children's
    /// hashes), then a comparison within each hash's nodes.
    pub(crate) fn of(t: &Tree) -> Twins {
        let mut hash = vec![0u64; t.len()];
        // Reverse pre-order: children before their parent.
        for i in (0..t.len()).rev() {
            let n = NodeId(i as u32);
            let mut h = std::hash::DefaultHasher::new();
            t.node(n).label().hash(&mut h);
            for c in t.children(n) {
                hash[c.index()].hash(&mut h);
            }
            hash[i] = h.finish();
        }
        let mut by_hash: HashMap<u64, Vec<NodeId>> = HashMap::new();
        let mut first: Vec<NodeId> = Vec::with_capacity(t.len());
        for (i, &h) in hash.iter().enumerate() {
            let n = NodeId(i as u32);
            let same = by_hash.entry(h).or_default();
            // The earlier kinds under this hash (almost always one).
            let f = same
                .iter()
                .copied()
                .filter(|&m| first[m.index()] == m)
                .find(|&m| identical(t, m, n))
                .unwrap_or(n);
            first.push(f);
            same.push(n);
        }
        Twins {
            first,
            hash,
            by_hash,
        }
    }

    /// The first node in pre-order whose subtree is `n`'s.
    pub(crate) fn first(&self, n: NodeId) -> NodeId {
        self.first[n.index()]
    }

    /// The nodes whose subtree is `n`'s, `n` among them, in pre-order.
    pub(crate) fn of_node(&self, n: NodeId) -> Vec<NodeId> {
        let f = self.first(n);
        self.by_hash[&self.hash[n.index()]]
            .iter()
            .copied()
            .filter(|&m| self.first(m) == f)
            .collect()
    }
}

/// Are the subtrees at `a` and `b` the same, label for label?
fn identical(t: &Tree, a: NodeId, b: NodeId) -> bool {
    let size = t.node(a).size as usize;
    size == t.node(b).size as usize
        && t.nodes()[a.index()..a.index() + size]
            .iter()
            .zip(&t.nodes()[b.index()..b.index() + size])
            .all(|(x, y)| x.label() == y.label())
}
