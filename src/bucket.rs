//! Crash bucketing by input pattern.
//!
//! [`Buckets`] groups failure-inducing inputs into bugs. Each bucket holds
//! one or more DDSET [`Pattern`]s — the input shapes known to trigger it —
//! and, when the oracle compares crash signatures (a fuzz target), the
//! signature of its crash:
//!
//! * an input whose tree fits one of a bucket's patterns joins it without
//!   generalisation (and, if it fits before reduction, without reduction);
//! * otherwise its generalised pattern decides: with signatures, it joins
//!   the bucket of the same crash (adding the pattern if new), so one bug
//!   found through several input shapes (`print <number> / 0;` and
//!   `let a = 0; print a / a;`) stays one bucket listing both shapes,
//!   while two bugs with the same shape but different crashes stay apart;
//!   without signatures (a `--cmd` oracle), inputs with the same rendered
//!   pattern (the canonical key) share a bucket.
//!
//! The caller drives the pipeline (parse or decode, reduce, generalise —
//! each needs an oracle); this module holds the grouping logic, so it does
//! no I/O.
//!
//! ```
//! use grammar_min::{bucket::*, ddset::Pattern, generate::decode_tree, grammar::Grammar};
//! let g = Grammar::from_json_str(r#"{"<start>": ["(<a>)"], "<a>": ["x", "y"]}"#,
//!     &Default::default()).unwrap();
//! let t = decode_tree(&g, &[0], &Default::default());
//! let hole = t.children(t.root()).nth(1).unwrap();
//! let mut b = Buckets::new(Default::default());
//! let (id, _) = b.add_pattern(&g, Pattern::with_abstract(t.clone(), &[hole]), None);
//! let other = decode_tree(&g, &[255], &Default::default()); // "(y)"
//! assert_eq!(b.find_match(&g, &other, None), Some(id));
//! ```

use crate::ddset::{Pattern, Precision};
use crate::grammar::Grammar;
use crate::oracle::signature::{Signature, SignatureLevel};
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
    /// Generalised to a pattern already in the bucket.
    SamePattern,
    /// Generalised to a new pattern of the same crash: the bucket now lists
    /// one more input shape.
    NewPattern,
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

/// One bug: its patterns and the artifacts that fit them.
#[derive(Clone, Debug)]
pub struct Bucket {
    /// Its id (in order of creation).
    pub id: BucketId,
    /// The input shapes known to trigger it (at least one).
    pub patterns: Vec<Pattern>,
    /// Rendered patterns, parallel to `patterns` (the first is the key).
    pub keys: Vec<String>,
    /// The crash signature, when the oracle compares signatures.
    pub signature: Option<Signature>,
    /// The artifacts, in the order they were added.
    pub members: Vec<Member>,
    /// Smallest reproducer seen (text).
    pub smallest: Option<Vec<u8>>,
    /// Measured precision of each pattern, if measured.
    pub precision: Vec<Option<Precision>>,
}

/// What [`Buckets::add_pattern`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// A new bucket was created.
    NewBucket,
    /// The bucket of the same crash got a new pattern.
    NewPattern,
    /// The pattern was already known.
    Known,
}

/// The set of buckets built so far.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    buckets: Vec<Bucket>,
    level: SignatureLevel,
}

impl Buckets {
    /// No buckets yet; signatures are compared at `level`.
    pub fn new(level: SignatureLevel) -> Buckets {
        Buckets {
            buckets: Vec::new(),
            level,
        }
    }

    /// All buckets, in order of creation.
    pub fn all(&self) -> &[Bucket] {
        &self.buckets
    }

    /// Mutable access to one bucket.
    pub fn get_mut(&mut self, id: BucketId) -> &mut Bucket {
        &mut self.buckets[id.0 as usize]
    }

    fn same_crash(&self, b: &Bucket, sig: Option<&Signature>) -> bool {
        match (&b.signature, sig) {
            (Some(a), Some(s)) => a.matches(s, self.level),
            (None, None) => true,
            _ => false,
        }
    }

    /// The first bucket of the same crash (if `sig` is given) one of whose
    /// patterns `tree` fits.
    pub fn find_match(
        &self,
        g: &Grammar,
        tree: &Tree,
        sig: Option<&Signature>,
    ) -> Option<BucketId> {
        self.buckets
            .iter()
            .find(|b| self.same_crash(b, sig) && b.patterns.iter().any(|p| p.matches(g, tree)))
            .map(|b| b.id)
    }

    /// [`Buckets::find_match`] for `tree` or else, if given, the parse
    /// of `text` (what `tree` renders to): a choice artifact's tree is the
    /// derivation its choices took, and a text can have others; the
    /// parser's is the one a pattern was built on when that input's
    /// reduction ended by re-encoding a parsed text
    /// ([`crate::reduce::choices::delete_text_runs`]).
    ///
    /// ```
    /// use grammar_min::{bucket::*, ddset::Pattern, generate::decode_tree, grammar::Grammar};
    /// let g = Grammar::from_json_str(
    ///     r#"{"<start>": ["<v>"], "<v>": ["<w>", "<k>"], "<k>": ["ab"],
    ///         "<w>": ["<l>", "<l><w>"], "<l>": ["a", "b"]}"#,
    ///     &Default::default()).unwrap();
    /// let parsed = grammar_min::parse::parse(&g, b"ab").unwrap();
    /// let mut b = Buckets::new(Default::default());
    /// let (id, _) = b.add_pattern(&g, Pattern::with_abstract(parsed.clone(), &[]), None);
    /// // The other derivation of `ab`.
    /// let other = (0..32u32)
    ///     .map(|bits| (0..5).map(|i| if bits >> i & 1 == 1 { 255 } else { 0 }).collect::<Vec<u8>>())
    ///     .map(|c| decode_tree(&g, &c, &Default::default()))
    ///     .find(|t| t.unparse(&g) == b"ab" && b.find_match(&g, t, None).is_none())
    ///     .unwrap();
    /// assert_eq!(b.find_match_text(&g, &other, Some(b"ab"), None), Some(id));
    /// assert_eq!(b.find_match_text(&g, &other, None, None), None);
    /// ```
    pub fn find_match_text(
        &self,
        g: &Grammar,
        tree: &Tree,
        text: Option<&[u8]>,
        sig: Option<&Signature>,
    ) -> Option<BucketId> {
        self.find_match(g, tree, sig).or_else(|| {
            let parsed = crate::parse::parse(g, text?).ok()?;
            self.find_match(g, &parsed, sig)
        })
    }

    /// Files `pattern` (of an input that crashed with `sig`): into the
    /// bucket of the same crash, or — without signatures — the bucket with
    /// the same rendered pattern; else a new bucket.
    pub fn add_pattern(
        &mut self,
        g: &Grammar,
        pattern: Pattern,
        sig: Option<&Signature>,
    ) -> (BucketId, Added) {
        let key = pattern.render(g);
        let level = self.level;
        let found = self.buckets.iter().position(|b| match (&b.signature, sig) {
            (Some(a), Some(s)) => a.matches(s, level),
            (None, None) => b.keys.contains(&key),
            _ => false,
        });
        if let Some(i) = found {
            let b = &mut self.buckets[i];
            if b.keys.contains(&key) {
                return (b.id, Added::Known);
            }
            b.keys.push(key);
            b.patterns.push(pattern);
            b.precision.push(None);
            return (b.id, Added::NewPattern);
        }
        let id = BucketId(self.buckets.len() as u32);
        self.buckets.push(Bucket {
            id,
            patterns: vec![pattern],
            keys: vec![key],
            signature: sig.cloned(),
            members: Vec::new(),
            smallest: None,
            precision: vec![None],
        });
        (id, Added::NewBucket)
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
