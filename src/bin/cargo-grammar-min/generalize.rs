//! `generalize`: turn a failing input into a DDSET pattern.

use crate::common::{write_atomic, DdsetBudgetArgs};
use crate::heartbeat::Heartbeat;
use crate::session::OracleArgs;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use grammar_min::ddset::{canonicalize, generalize, refine, GeneralizeConfig, Variant};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Which DDSET variant.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VariantArg {
    /// Each node judged alone, then a verification pass (ISSTA 2020).
    Paper,
    /// Abstractions accumulate; every try regenerates all of them.
    Simple,
}

/// Generalise a failing input into an abstract pattern (DDSET).
///
/// The input is reduced first (or the `.min` result of an earlier `reduce`
/// is reused) and lowered to its canonical form (each node the grammar's
/// earliest alternative of the same length that still fails), then every
/// node of its derivation tree is replaced by
/// --tries random subtrees of the same nonterminal: if all still fail the
/// same way, the node becomes abstract. The result reads like
/// `((<expr>))`: "any expression inside double parentheses fails".
///
/// Writes `<artifact>.pattern.json` (read by `instantiate`).
///
/// Examples:
///   cargo grammar-min generalize calc fuzz/artifacts/calc/crash-1234
///   cargo grammar-min generalize --cmd 'python3 check.py {}' --grammar grammars/expr.json bug.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Generalize {
    /// Fuzz target name (omit with --cmd).
    pub target: Option<String>,
    /// The failing input.
    pub artifact: Option<PathBuf>,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// Random replacements that must all fail for a node to become abstract.
    #[arg(long, default_value_t = 10)]
    pub tries: u32,
    /// Seed of the random replacements.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// DDSET variant.
    #[arg(long, value_enum, default_value = "paper")]
    pub variant: VariantArg,
    #[command(flatten)]
    pub budget: DdsetBudgetArgs,
    /// Also measure precision: instantiate the pattern K times and count
    /// how many instances still fail. An instance that does not fail makes
    /// the abstraction responsible concrete again, and the count starts
    /// over (0 = skip).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub precision: u32,
    /// Generalise the input as it is, without reducing it first.
    #[arg(long)]
    pub no_reduce: bool,
    /// Where to write the pattern (default `<artifact>.pattern.json`).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print a machine-readable summary on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(serde::Serialize)]
struct Summary {
    artifact: String,
    pattern: String,
    abstract_nodes: usize,
    reduced_bytes: usize,
    reduction_tests: u64,
    /// Nodes lowered to canonical form after the reduction, and the runs
    /// that took.
    lowered: usize,
    lowering_tests: u64,
    executions: u64,
    cache_hits: u64,
    invalid: u64,
    precision: Option<f64>,
    /// Abstractions made concrete again by the precision instances.
    disproved: usize,
    /// DDSET ran out of --max-runs before judging every node.
    budget_spent: bool,
    output: String,
    seconds: f64,
}

impl Generalize {
    pub fn run(self) -> Result<ExitCode> {
        let artifacts: Vec<PathBuf> = self.artifact.iter().cloned().collect();
        let (session, artifacts) = self.oracle.resolve(self.target.clone(), artifacts)?;
        let [artifact] = artifacts.as_slice() else {
            bail!("give exactly one artifact to generalise (bucket handles many)");
        };
        let g = session
            .grammar
            .as_ref()
            .context("generalising needs a grammar: pass --grammar FILE")?;
        let started = Instant::now();
        let original = session.read_artifact(artifact)?;
        let mut oracle = Heartbeat::new(
            session.oracle(artifact, &original, self.json)?,
            !self.json,
            false,
        );
        oracle.stage("reducing");
        let (input, reduction_tests) = if self.no_reduce {
            (original.clone(), 0)
        } else {
            let r = session.reduce_artifact(&mut oracle, artifact, &original)?;
            if !self.json {
                let (before, after) = (
                    session.text_of(&original).len(),
                    session.text_of(&r.bytes).len(),
                );
                eprintln!(
                    "{}: {} {before} -> {after} bytes ({} tests){}",
                    artifact.display(),
                    if r.reused {
                        "reusing reduction"
                    } else {
                        "reduced"
                    },
                    r.tests,
                    if after > before {
                        ", in the grammar's spelling (its blanks)"
                    } else {
                        ""
                    }
                );
            }
            (r.bytes, r.tests)
        };
        let mut tree = session.tree_of(&input, artifact)?;
        // The reduced input's canonical form, so that reductions of one
        // bug give one pattern (not with --no-reduce: the input as it is).
        let mut lowered = (0, 0);
        if !self.no_reduce {
            oracle.stage("lowering to canonical form");
            let c = canonicalize(g, &tree, self.budget.canonical_runs(), |t, text| {
                session.verdict(&mut oracle, t, text)
            });
            lowered = (c.lowered, c.executions);
            tree = c.tree;
        }
        let cfg = GeneralizeConfig {
            tries: self.tries,
            max_invalid: self.tries.saturating_mul(3),
            seed: self.seed,
            variant: match self.variant {
                VariantArg::Paper => Variant::Paper,
                VariantArg::Simple => Variant::Simple,
            },
            max_executions: self.budget.max_runs,
            ..Default::default()
        };
        oracle.stage("generalising (DDSET)");
        let mut r = generalize(g, &tree, &cfg, |t, text| {
            session.verdict(&mut oracle, t, text)
        });
        oracle.stage("checking precision");
        let refined = (self.precision > 0).then(|| {
            let seed = self.seed ^ 0x5eed;
            refine(
                g,
                r.pattern.clone(),
                self.precision,
                seed,
                &cfg.instance,
                |t, text| session.verdict(&mut oracle, t, text),
            )
        });
        let prec = refined.as_ref().map(|x| x.precision);
        let disproved = refined.as_ref().map_or(0, |x| x.concretised);
        if let Some(x) = refined {
            r.pattern = x.pattern;
            r.executions += x.executions;
        }
        let rendered = r.pattern.render(g);
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("{}.pattern.json", artifact.display())));
        let saved = session
            .save_pattern(&r.pattern)
            .context("cannot name the grammar file for the pattern")?;
        write_atomic(&out, serde_json::to_string_pretty(&saved)?.as_bytes())?;
        let s = Summary {
            artifact: artifact.display().to_string(),
            pattern: rendered.clone(),
            abstract_nodes: r.pattern.abstract_nodes().len(),
            reduced_bytes: tree.unparse(g).len(),
            reduction_tests,
            lowered: lowered.0,
            lowering_tests: lowered.1,
            executions: r.executions,
            cache_hits: r.cache_hits,
            invalid: r.invalid,
            precision: prec.map(|p| p.ratio()),
            disproved,
            budget_spent: r.budget_spent,
            output: out.display().to_string(),
            seconds: started.elapsed().as_secs_f64(),
        };
        if self.json {
            println!("{}", serde_json::to_string_pretty(&s)?);
        } else {
            let (shown, escaped) = crate::common::visible(rendered.as_bytes());
            println!("{shown}");
            if escaped {
                eprintln!(
                    "  (escaped, as in patterns.txt: \\n is a line end, \\r a carriage \
                     return, \\\\ a backslash; --json gives it raw)"
                );
            }
            if s.lowered > 0 {
                eprintln!(
                    "  {} node(s) lowered to canonical form ({} tests): {} bytes",
                    s.lowered, s.lowering_tests, s.reduced_bytes
                );
            }
            eprintln!(
                "  {} abstract node(s); {} executions, {} cache hits, {} invalid; {:.1}s",
                s.abstract_nodes, s.executions, s.cache_hits, s.invalid, s.seconds
            );
            if let Some(p) = prec {
                eprintln!(
                    "  precision: {:.3} ({} of {} instances fail, {} invalid)",
                    p.ratio(),
                    p.fail,
                    p.fail + p.pass,
                    p.invalid
                );
            }
            if disproved > 0 {
                eprintln!(
                    "  {disproved} abstraction(s) made concrete again: an instance did not fail"
                );
            }
            if r.budget_spent {
                eprintln!("  note: {}", self.budget.spent_note());
            }
            if !r.gave_up.is_empty() {
                eprintln!(
                    "  note: gave up on {} node(s) after too many invalid tries",
                    r.gave_up.len()
                );
            }
            eprintln!("  pattern saved: {}", out.display());
            // Instances go one per line: with a line break in the grammar,
            // escaped.
            let multiline = g.terms().iter().any(|t| t.contains(&b'\n'));
            eprintln!(
                "  instances: cargo grammar-min instantiate --pattern {} -n 10{}",
                crate::common::shell_quote(&out.display().to_string()),
                if multiline { " --escape" } else { "" }
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}
