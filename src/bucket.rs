//! Crash bucketing by input pattern.
//!
//! [`Buckets`] groups failure-inducing inputs by their DDSET [`Pattern`]:
//! two crashes are the same bug when their generalised inputs render to the
//! same pattern (the canonical key), or when one's tree already fits the
//! other's pattern. The caller drives the pipeline (parse or decode, reduce,
//! generalise — each needs an oracle); this module holds the grouping logic
//! and the report, so it does no I/O.
//!
//! ```
//! use grammar_min::{bucket::*, ddset::Pattern, generate::decode_tree, grammar::Grammar};
//! let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
//!     &Default::default()).unwrap();
//! let t = decode_tree(&g, &[0], &Default::default());
//! let hole = t.children(t.root()).nth(1).unwrap();
//! let mut b = Buckets::new();
//! let id = b.add_pattern(&g, Pattern::with_abstract(t.clone(), &[hole]));
//! let other = decode_tree(&g, &[255], &Default::default()); // "(y)"
//! assert_eq!(b.find_match(&g, &other), Some(id));
//! ```

use crate::ddset::{Pattern, Precision};
use crate::grammar::Grammar;
use crate::tree::Tree;

/// Index of a bucket in [`Buckets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct BucketId(pub u32);

/// How an artifact came to join its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JoinedBy {
    /// Its unreduced tree already fit the bucket's pattern: no reduction, no
    /// generalisation was run for it.
    MatchedUnreduced,
    /// Its reduced tree fit the pattern: no generalisation was run.
    MatchedReduced,
    /// Generalised to the same canonical pattern.
    SamePattern,
    /// It created the bucket.
    Founded,
}

/// One artifact in a bucket.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Member {
    /// Where the artifact came from (a path, as the caller names it).
    pub name: String,
    /// Size of the input before reduction, in bytes of text.
    pub size: usize,
    /// Size after reduction, if it was reduced.
    pub reduced_size: Option<usize>,
    /// How it joined.
    pub joined_by: JoinedBy,
    /// Crash signature seen for it, if the oracle reports one.
    pub signature: Option<String>,
}

/// One bug: a pattern and the artifacts that fit it.
#[derive(Clone, Debug)]
pub struct Bucket {
    /// Its id (in order of creation).
    pub id: BucketId,
    /// The abstract failure-inducing input.
    pub pattern: Pattern,
    /// Canonical key: the rendered pattern.
    pub key: String,
    /// The artifacts, in the order they were added.
    pub members: Vec<Member>,
    /// Smallest reproducer seen (text).
    pub smallest: Option<Vec<u8>>,
    /// Measured precision of the pattern, if measured.
    pub precision: Option<Precision>,
}

/// The set of buckets built so far.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    buckets: Vec<Bucket>,
}

impl Buckets {
    /// No buckets yet.
    pub fn new() -> Buckets {
        Buckets::default()
    }

    /// All buckets, in order of creation.
    pub fn all(&self) -> &[Bucket] {
        &self.buckets
    }

    /// Mutable access to one bucket.
    pub fn get_mut(&mut self, id: BucketId) -> &mut Bucket {
        &mut self.buckets[id.0 as usize]
    }

    /// The first bucket whose pattern `tree` fits, if any.
    pub fn find_match(&self, g: &Grammar, tree: &Tree) -> Option<BucketId> {
        self.buckets
            .iter()
            .find(|b| b.pattern.matches(g, tree))
            .map(|b| b.id)
    }

    /// The bucket whose canonical key is that of `pattern`, creating it if
    /// there is none.
    pub fn add_pattern(&mut self, g: &Grammar, pattern: Pattern) -> BucketId {
        let key = pattern.render(g);
        if let Some(b) = self.buckets.iter().find(|b| b.key == key) {
            return b.id;
        }
        let id = BucketId(self.buckets.len() as u32);
        self.buckets.push(Bucket {
            id,
            pattern,
            key,
            members: Vec::new(),
            smallest: None,
            precision: None,
        });
        id
    }

    /// Records `member` in bucket `id`, keeping the smallest reproducer.
    pub fn join(&mut self, id: BucketId, member: Member, reproducer: Option<&[u8]>) {
        let b = &mut self.buckets[id.0 as usize];
        if let Some(r) = reproducer {
            if b.smallest.as_ref().is_none_or(|s| r.len() < s.len()) {
                b.smallest = Some(r.to_vec());
            }
        }
        b.members.push(member);
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// No buckets?
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

/// Purity of a bucketing against ground-truth labels: for each bucket, the
/// share of its most common label, weighted by bucket size. 1.0 means no
/// bucket mixes two bugs. Also returns the inverse purity (for each label,
/// the share in its most common bucket), 1.0 meaning no bug is split.
///
/// ```
/// use grammar_min::bucket::purity;
/// assert_eq!(purity(&[(0, "a"), (0, "a"), (1, "b")]), (1.0, 1.0));
/// assert_eq!(purity(&[(0, "a"), (0, "b")]), (0.5, 1.0));
/// ```
pub fn purity<L: Ord + Clone>(assignments: &[(u32, L)]) -> (f64, f64) {
    use std::collections::BTreeMap;
    if assignments.is_empty() {
        return (1.0, 1.0);
    }
    let n = assignments.len() as f64;
    let mut by_bucket: BTreeMap<u32, BTreeMap<L, usize>> = BTreeMap::new();
    let mut by_label: BTreeMap<L, BTreeMap<u32, usize>> = BTreeMap::new();
    for (b, l) in assignments {
        *by_bucket
            .entry(*b)
            .or_default()
            .entry(l.clone())
            .or_default() += 1;
        *by_label
            .entry(l.clone())
            .or_default()
            .entry(*b)
            .or_default() += 1;
    }
    let p: usize = by_bucket
        .values()
        .map(|m| m.values().copied().max().unwrap_or(0))
        .sum();
    let ip: usize = by_label
        .values()
        .map(|m| m.values().copied().max().unwrap_or(0))
        .sum();
    (p as f64 / n, ip as f64 / n)
}
