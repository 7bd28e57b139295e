//! DDSET: generalise a failure-inducing input into an abstract pattern.
//!
//! * [`generalize`] — given a (reduced) derivation tree and an oracle, find
//!   the nodes that can be *abstracted*: replacing the node by
//!   [`GeneralizeConfig::tries`] fresh random subtrees of the same
//!   nonterminal always still fails. The result is a [`Pattern`] such as
//!   `((<expr>))`.
//! * [`Pattern`] — render, serialise ([`PatternFile`]), match, instantiate.
//! * [`precision`] — instantiate a pattern K times and measure how often the
//!   failure reproduces.
//! * [`canonicalize`] — before generalising, lower each node to the
//!   earliest alternative of the same length that still fails, so reductions
//!   of one bug that differ only in such a choice become one input.
//!
//! # Variants
//!
//! * [`Variant::Simple`] (simple DDSET): nodes are visited top-down; every
//!   try regenerates the candidate *and all abstractions found so far*, so
//!   abstractions are always judged together.
//! * [`Variant::Paper`] (the ISSTA 2020 DDSET): each node is judged on its
//!   own (only it is regenerated), then a verification pass re-checks the
//!   candidates together, in pre-order, and drops any abstraction that makes
//!   the combined pattern pass. It first tries all candidates together
//!   and keeps them all if that holds.
//!
//! In the paper variant a subtree identical to one judged before (a
//! name defined and used, the repeated levels of a generated nest) takes
//! that one's verdict without runs: concrete stays concrete, and the
//! abstractions are verified together anyway.
//!
//! The default is [`Variant::Paper`]: judging nodes alone keeps every other
//! part of the input concrete, so semantic constraints (a variable defined
//! elsewhere, a matching pair) are broken less often and fewer tries come
//! back invalid; the verification pass still guarantees that the abstractions
//! hold *together*, which is what precision measures.
//!
//! ```
//! use grammar_min::{grammar::Grammar, generate::decode_tree, ddset::*};
//! let g = Grammar::from_json_str(
//!     r#"{"<start>": ["<sign><digits>"], "<sign>": ["", "-"],
//!         "<digits>": ["<d>", "<d><digits>"], "<d>": ["0", "1", "2"]}"#,
//!     &Default::default()).unwrap();
//! // "-" then digits: the failure is "negative".
//! let t = decode_tree(&g, &[255, 0, 100], &Default::default());
//! assert!(t.unparse(&g).starts_with(b"-"));
//! let r = generalize(&g, &t, &GeneralizeConfig::default(),
//!     |_, s: &[u8]| if s.starts_with(b"-") { Verdict::Fail } else { Verdict::Pass });
//! assert_eq!(r.pattern.render(&g), "-<digits>");
//! ```

mod canonical;
mod pattern;
mod twins;

pub use canonical::{canonicalize, canonicalize_until, Canonical};
pub use pattern::{random_subtree, replace_all, InstanceConfig, Pattern, PatternFile, PatternNode};

use crate::grammar::Grammar;
use crate::tree::{Label, NodeId, Tree};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// What one test run says, from DDSET's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The failure reproduced.
    Fail,
    /// The program ran fine (or failed differently, if the oracle says so).
    Pass,
    /// Not a valid test (rejected input, timeout, a different failure when
    /// the oracle marks that as invalid): retried, not counted.
    Invalid,
}

/// Which DDSET variant; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Simple DDSET: abstractions accumulate and are regenerated together.
    Simple,
    /// Paper DDSET: independent judgement, then a verification pass.
    #[default]
    Paper,
}

/// Options for [`generalize`].
#[derive(Clone, Copy, Debug)]
pub struct GeneralizeConfig {
    /// Random replacements that must all fail for a node to be abstracted
    /// (default 10, as in the reference).
    pub tries: u32,
    /// Invalid outcomes tolerated per node before giving up on it (default
    /// 3 × tries).
    pub max_invalid: u32,
    /// Seed of the random replacements.
    pub seed: u64,
    /// DDSET variant.
    pub variant: Variant,
    /// How replacements are generated.
    pub instance: InstanceConfig,
    /// Oracle executions the generalisation may spend (default
    /// [`MAX_EXECUTIONS`]). Judging nodes stops at three quarters of it,
    /// leaving the rest to the verification pass; a node not judged stays
    /// concrete, so the pattern is never less precise for it, only less
    /// general ([`Generalization::budget_spent`]).
    pub max_executions: u64,
}

/// The default [`GeneralizeConfig::max_executions`]: a reduced input's
/// tree of a few dozen nodes takes 17–106 (BENCHMARKS.md); a thousand
/// nodes of a reduced 10,000-deep nest whose every run is a stack overflow
/// (a second each) would otherwise take an hour.
pub const MAX_EXECUTIONS: u64 = 1_000;

impl Default for GeneralizeConfig {
    fn default() -> GeneralizeConfig {
        GeneralizeConfig {
            tries: 10,
            max_invalid: 30,
            seed: 0,
            variant: Variant::Paper,
            instance: InstanceConfig::default(),
            max_executions: MAX_EXECUTIONS,
        }
    }
}

/// Result of [`generalize`].
#[derive(Clone, Debug)]
pub struct Generalization {
    /// The abstract pattern.
    pub pattern: Pattern,
    /// Oracle executions (cache hits excluded).
    pub executions: u64,
    /// Tests answered from the cache (identical candidate text).
    pub cache_hits: u64,
    /// Invalid outcomes seen.
    pub invalid: u64,
    /// Nodes given up on because too many tries were invalid.
    pub gave_up: Vec<NodeId>,
    /// [`GeneralizeConfig::max_executions`] ran out: some nodes were not
    /// judged (or candidates not verified) and stay concrete.
    pub budget_spent: bool,
}

struct Judge<'a, F> {
    g: &'a Grammar,
    tree: &'a Tree,
    cfg: &'a GeneralizeConfig,
    oracle: F,
    rng: ChaCha8Rng,
    cache: HashMap<Vec<u8>, Verdict>,
    executions: u64,
    cache_hits: u64,
    invalid: u64,
    gave_up: Vec<NodeId>,
    /// Executions after which [`Judge::all_fail`] says no without a run.
    limit: u64,
    budget_spent: bool,
}

impl<F: FnMut(&Tree, &[u8]) -> Verdict> Judge<'_, F> {
    fn run(&mut self, tree: &Tree) -> Verdict {
        let text = tree.unparse(self.g);
        if let Some(&v) = self.cache.get(&text) {
            self.cache_hits += 1;
            return v;
        }
        self.executions += 1;
        let v = (self.oracle)(tree, &text);
        self.cache.insert(text, v);
        v
    }

    /// Do `tries` random regenerations of all `nodes` still fail?
    fn all_fail(&mut self, nodes: &[NodeId]) -> bool {
        let mut fails = 0;
        let mut invalid = 0;
        while fails < self.cfg.tries {
            if self.executions >= self.limit {
                self.budget_spent = true;
                return false;
            }
            let fresh: Vec<Tree> = nodes
                .iter()
                .map(|&n| {
                    let sym = self
                        .tree
                        .symbol(self.g, n)
                        .expect("candidate is a nonterminal");
                    random_subtree(self.g, sym, &mut self.rng, &self.cfg.instance)
                })
                .collect();
            let repl: Vec<(NodeId, &Tree)> = nodes.iter().copied().zip(fresh.iter()).collect();
            let candidate = replace_all(self.tree, &repl);
            match self.run(&candidate) {
                Verdict::Fail => fails += 1,
                Verdict::Pass => return false,
                Verdict::Invalid => {
                    self.invalid += 1;
                    invalid += 1;
                    if invalid > self.cfg.max_invalid {
                        if let Some(&n) = nodes.last() {
                            self.gave_up.push(n);
                        }
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Generalises `tree` (which must fail) into a [`Pattern`]; see the module
/// docs. Deterministic for a given seed and oracle. The oracle sees each
/// candidate both as a tree (to encode it as a choice sequence) and as text.
pub fn generalize<F: FnMut(&Tree, &[u8]) -> Verdict>(
    g: &Grammar,
    tree: &Tree,
    cfg: &GeneralizeConfig,
    oracle: F,
) -> Generalization {
    let mut j = Judge {
        g,
        tree,
        cfg,
        oracle,
        rng: ChaCha8Rng::seed_from_u64(cfg.seed),
        cache: HashMap::new(),
        executions: 0,
        cache_hits: 0,
        invalid: 0,
        gave_up: Vec::new(),
        limit: match cfg.variant {
            Variant::Paper => cfg.max_executions / 4 * 3,
            Variant::Simple => cfg.max_executions,
        },
        budget_spent: false,
    };
    let is_candidate = |i: usize| matches!(tree.nodes()[i].label(), Label::Rule(_));
    let mut accepted: Vec<NodeId> = Vec::new();
    match cfg.variant {
        Variant::Simple => {
            let mut i = 0;
            while i < tree.len() {
                let n = NodeId(i as u32);
                if is_candidate(i) {
                    let mut with = accepted.clone();
                    with.push(n);
                    if j.all_fail(&with) {
                        accepted.push(n);
                        i += tree.node(n).size as usize;
                        continue;
                    }
                }
                i += 1;
            }
        }
        Variant::Paper => {
            // One judgement per kind of subtree: a twin of one judged
            // before takes its verdict (concrete stays concrete; abstract
            // ones are verified together below). A generated nest of a
            // thousand nodes has a few dozen kinds.
            let twins = twins::Twins::of(tree);
            let mut verdicts: HashMap<NodeId, bool> = HashMap::new();
            // Candidates, and those of them judged by runs of their own.
            let mut candidates = Vec::new();
            let mut judged = Vec::new();
            let mut i = 0;
            while i < tree.len() {
                let n = NodeId(i as u32);
                let abstracted = is_candidate(i)
                    && match verdicts.get(&twins.first(n)) {
                        Some(&v) => v,
                        None => {
                            let v = j.all_fail(&[n]);
                            // A verdict the budget cut short is no verdict.
                            if !j.budget_spent {
                                verdicts.insert(twins.first(n), v);
                            }
                            if v {
                                judged.push(n);
                            }
                            v
                        }
                    };
                if abstracted {
                    candidates.push(n);
                    i += tree.node(n).size as usize;
                } else {
                    i += 1;
                }
            }
            // All together first: if the whole pattern holds, the one-by-one
            // pass would keep every candidate, at `tries` runs each (255
            // repeated `<` of an XML DOCTYPE: 2,713 runs). If not, a twin's
            // borrowed verdict may be what breaks it (the first `<d1>` of a
            // nest may be any of its alternatives, a later one not): the
            // judged ones alone, then one by one, and the borrowed ones stay
            // concrete.
            j.limit = cfg.max_executions;
            if candidates.len() <= 1 || j.all_fail(&candidates) {
                accepted = candidates;
            } else if judged.len() < candidates.len() && (judged.len() <= 1 || j.all_fail(&judged))
            {
                accepted = judged;
            } else {
                for n in judged {
                    let mut with = accepted.clone();
                    with.push(n);
                    if j.all_fail(&with) {
                        accepted.push(n);
                    }
                }
            }
        }
    }
    Generalization {
        pattern: Pattern::with_abstract(tree.clone(), &accepted),
        executions: j.executions,
        cache_hits: j.cache_hits,
        invalid: j.invalid,
        gave_up: j.gave_up,
        budget_spent: j.budget_spent,
    }
}

/// How often instances of a pattern reproduce the failure.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Precision {
    /// Instances that failed (reproduced).
    pub fail: u64,
    /// Instances that passed.
    pub pass: u64,
    /// Instances that were invalid (not counted in the ratio).
    pub invalid: u64,
}

impl Precision {
    /// `fail / (fail + pass)`; 1.0 when nothing was valid.
    pub fn ratio(&self) -> f64 {
        let n = self.fail + self.pass;
        if n == 0 {
            1.0
        } else {
            self.fail as f64 / n as f64
        }
    }
}

/// Instantiates `pattern` `k` times (seeded) and runs each instance.
pub fn precision<F: FnMut(&Tree, &[u8]) -> Verdict>(
    g: &Grammar,
    pattern: &Pattern,
    k: u32,
    seed: u64,
    cfg: &InstanceConfig,
    mut oracle: F,
) -> Precision {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Precision::default();
    for _ in 0..k {
        let tree = pattern.instantiate(g, &mut rng, cfg);
        match oracle(&tree, &tree.unparse(g)) {
            Verdict::Fail => p.fail += 1,
            Verdict::Pass => p.pass += 1,
            Verdict::Invalid => p.invalid += 1,
        }
    }
    p
}

/// Result of [`refine`].
#[derive(Clone, Debug)]
pub struct Refined {
    /// The pattern, with every abstraction an instance disproved made
    /// concrete again.
    pub pattern: Pattern,
    /// Its precision, measured on the instances drawn since the last
    /// abstraction was dropped.
    pub precision: Precision,
    /// The distinct instances that failed, in order (regression tests).
    pub failing: Vec<Tree>,
    /// Abstract nodes made concrete again.
    pub concretised: usize,
    /// Oracle executions.
    pub executions: u64,
}

/// Measures `pattern`'s precision on `k` random instances (as
/// [`precision`]) and mends it: DDSET accepts an abstraction after
/// [`GeneralizeConfig::tries`] failing instances, so one that holds for
/// most values (a value of every type but tables) can slip through. When
/// an instance passes, its replacements go back into the input one
/// abstract node more at a time, in pre-order; the node whose replacement
/// first makes the input pass (the last, if none does alone) becomes
/// concrete again, and the measurement starts over with fresh instances.
/// At most one restart per abstract node; an instance that passes only by
/// chance (a flaky program) costs a node its abstraction, not a wrong
/// claim.
///
/// ```
/// use grammar_min::{grammar::Grammar, generate::decode_tree, ddset::*};
/// let g = Grammar::from_json_str(r#"{"<start>": ["<d><d>"], "<d>": ["0", "1", "2", "3"]}"#,
///     &Default::default()).unwrap();
/// let t = decode_tree(&g, &[100, 100], &Default::default());
/// let digits: Vec<_> = t.children(t.root()).collect();
/// let both = Pattern::with_abstract(t.clone(), &digits);
/// // Fails unless the first digit is 3: only the second may vary.
/// let r = refine(&g, both, 40, 0, &InstanceConfig::default(),
///     |_, s: &[u8]| if s[0] == b'3' { Verdict::Pass } else { Verdict::Fail });
/// assert_eq!(r.pattern.render(&g), "1<d>");
/// assert_eq!((r.precision.fail, r.precision.pass, r.concretised), (40, 0, 1));
/// ```
pub fn refine<F: FnMut(&Tree, &[u8]) -> Verdict>(
    g: &Grammar,
    pattern: Pattern,
    k: u32,
    seed: u64,
    cfg: &InstanceConfig,
    mut oracle: F,
) -> Refined {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Refined {
        pattern,
        precision: Precision::default(),
        failing: Vec::new(),
        concretised: 0,
        executions: 0,
    };
    let mut run = |t: &Tree, executions: &mut u64| {
        *executions += 1;
        oracle(t, &t.unparse(g))
    };
    let mut drawn = 0;
    while drawn < k {
        drawn += 1;
        let parts = out.pattern.fresh_parts(g, &mut rng, cfg);
        let instance = out.pattern.fill(&parts);
        match run(&instance, &mut out.executions) {
            Verdict::Fail => {
                out.precision.fail += 1;
                // Kept once each (a concrete pattern has one instance,
                // whose runs still show a flaky program).
                if !out.failing.contains(&instance) {
                    out.failing.push(instance);
                }
            }
            Verdict::Invalid => out.precision.invalid += 1,
            Verdict::Pass => {
                out.precision.pass += 1;
                let Some(last) = parts.len().checked_sub(1) else {
                    continue; // a concrete pattern that passes: flaky
                };
                let culprit = (1..parts.len())
                    .find(|&j| {
                        let partial = out.pattern.fill(&parts[..j]);
                        run(&partial, &mut out.executions) == Verdict::Pass
                    })
                    .map_or(last, |j| j - 1);
                out.pattern = out.pattern.make_concrete(parts[culprit].0);
                out.concretised += 1;
                (out.precision, drawn) = (Precision::default(), 0);
                out.failing.clear();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
