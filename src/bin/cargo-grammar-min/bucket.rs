//! `bucket`: group crash artifacts by DDSET pattern.

use crate::bucket_out::{clear_numbered, write_known_crashes, StableIds, SIGNATURE_FILE};
use crate::bucket_table::print_table;
use crate::common::{write_atomic, DdsetBudgetArgs};
use crate::heartbeat::Heartbeat;
use crate::session::{InputKind, OracleArgs};
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::bucket::{Added, BucketId, Buckets, JoinedBy, Member};
use grammar_min::ddset::{
    canonicalize_until, generalize, refine, Canonical, GeneralizeConfig, InstanceConfig,
};
use grammar_min::oracle::signature::Signature;
use grammar_min::oracle::Oracle;
use grammar_min::tree::Tree;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Group all crash artifacts of a target by input pattern: forty crash
/// files become a few bugs, each with a minimal reproducer, a pattern and
/// fresh failing inputs for regression tests.
///
/// For each artifact (in name order): if its derivation tree already fits a
/// bucket's pattern it joins that bucket at once; otherwise it is reduced
/// (reusing `<artifact>.min` from an earlier `reduce`) and joins a bucket
/// whose pattern its reduced tree fits; if none, its nodes are lowered to
/// the grammar's earliest alternatives of the same length that still fail
/// (so that `"{\` and `",\` of one bug become the same input) until it fits
/// one, or it is generalised with DDSET in that canonical form and starts a
/// new bucket (or joins one with the same pattern). Every oracle run checks
/// the artifact's own crash signature, so different bugs are not mixed.
///
/// Output: a table on stdout (or --json), and with -o DIR (default
/// `fuzz/buckets/TARGET` for a target) one directory per bucket holding
/// `pattern-N.json`, `patterns.txt`, the smallest reproducer (`reproducer.txt`,
/// and for a grammar target `reproducer.choices`, the bytes it reads), K instances
/// that were verified to fail and the crash (`signature.json`). A bucket keeps
/// its id across runs: that of the earlier run's bucket with the same crash
/// (or, with --cmd, a pattern in common); a new bug gets an unused id.
///
/// Example: cargo grammar-min bucket calc -j 2
#[derive(Args, Debug)]
pub struct Bucket {
    /// Fuzz target name (omit with --cmd).
    pub target: Option<String>,
    /// Artifacts (default: every file in `fuzz/artifacts/TARGET/`).
    pub artifacts: Vec<PathBuf>,
    /// Directory of artifacts to bucket instead of the target's.
    #[arg(long, value_name = "DIR", conflicts_with = "artifacts")]
    pub artifacts_dir: Option<PathBuf>,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// DDSET tries per node.
    #[arg(long, default_value_t = 10)]
    pub tries: u32,
    /// Seed of DDSET and of the instances.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: DdsetBudgetArgs,
    /// Instances per pattern used to measure its precision. One that does
    /// not fail makes the abstraction responsible concrete again, and the
    /// count starts over, before other artifacts are matched (0 = skip).
    #[arg(long, value_name = "K", default_value_t = 50)]
    pub precision: u32,
    /// Failing instances to keep per bucket as regression tests.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub instances: usize,
    /// Output directory (one sub-directory per bucket).
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the buckets as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// A failing instance kept as a regression test: its text, and its
/// choices for a target that reads them.
type Instance = (Vec<u8>, Option<Vec<u8>>);

#[derive(serde::Serialize)]
pub struct BucketReport {
    pub id: u32,
    pub patterns: Vec<String>,
    pub signature: Option<String>,
    /// The crash of the smallest reproducer's artifact (at the bucketing
    /// level it matches `signature`; its message may differ).
    pub smallest_signature: Option<String>,
    pub count: usize,
    pub smallest: String,
    pub smallest_bytes: usize,
    pub precision: Vec<Option<f64>>,
    pub members: Vec<Member>,
    pub dir: Option<String>,
}

#[derive(serde::Serialize)]
pub struct Report {
    pub artifacts: usize,
    pub buckets: Vec<BucketReport>,
    pub not_reproduced: Vec<(String, String)>,
    pub oracle_runs: u64,
    pub seconds: f64,
    /// The known-crash list written for `GRAMMAR_MIN_SKIP`, if any.
    pub known_crashes: Option<String>,
    /// How many of its crashes a fuzz target can skip (Rust panics; an
    /// abort or a stack overflow ends the process first).
    pub skippable: usize,
    /// The fuzz target, for the hint on how to fuzz past the known crashes.
    #[serde(skip)]
    pub target: Option<String>,
}

impl Bucket {
    pub fn run(self) -> Result<ExitCode> {
        let mut artifacts = self.artifacts.clone();
        if let Some(dir) = &self.artifacts_dir {
            artifacts = crate::artifacts::artifacts_in(dir)?;
        }
        let (session, artifacts) = self.oracle.resolve(self.target.clone(), artifacts)?;
        let g = session.grammar.as_ref().context(
            "bucketing needs a grammar: pass --grammar FILE (or add grammars/TARGET.json)",
        )?;
        let started = Instant::now();
        let mut buckets = Buckets::new(session.args.signature);
        let out_dir = self.out.clone().or_else(|| {
            let (t, p) = (session.target.as_ref()?, session.project.as_ref()?);
            Some(p.fuzz_dir.join("buckets").join(t))
        });
        let mut ids = StableIds::load(out_dir.as_deref(), session.args.signature);
        // Each bucket's failing instances (text, and choices for a target
        // that reads them), kept as regression tests.
        let mut kept: Vec<Vec<Instance>> = Vec::new();
        // The reduced texts generalised so far, with their crash and
        // bucket: the same text again (another derivation of it, which its
        // tree does not show) joins without a second generalisation.
        let mut generalised: Vec<(Vec<u8>, Option<Signature>, BucketId)> = Vec::new();
        // Reduced texts lowered to canonical form so far (with their crash).
        let mut lowered_before: HashMap<(Vec<u8>, Option<String>), Canonical> = HashMap::new();
        let mut not_reproduced = Vec::new();
        let mut runs = 0u64;
        let cfg = GeneralizeConfig {
            tries: self.tries,
            max_invalid: self.tries.saturating_mul(3),
            seed: self.seed,
            max_executions: self.budget.max_runs,
            ..Default::default()
        };
        // Ctrl-C: the artifact at hand is finished, and the buckets so
        // far are written; a second one quits at once.
        let stop = Arc::new(AtomicBool::new(false));
        {
            let s = stop.clone();
            let _ = ctrlc::set_handler(move || {
                if s.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
                eprintln!(
                    "\ninterrupted: finishing this artifact, then writing the buckets so far \
                     (Ctrl-C again to quit at once)"
                );
            });
        }
        let mut done = 0;
        for (i, artifact) in artifacts.iter().enumerate() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            done += 1;
            let original = session.read_artifact(artifact)?;
            let text0 = session.text_of(&original);
            let size = text0.len();
            let name = artifact.display().to_string();
            if !self.json {
                eprint!("[{}/{}] {} ", i + 1, artifacts.len(), name);
            }
            // An artifact that cannot go on is skipped with its reason.
            let json = self.json;
            let mut skip = |e: anyhow::Error, what: &str| {
                let why = format!("{e:#}");
                if !json {
                    // The error's first line names the cause (no crash, a
                    // different crash on the second run, a parse error).
                    let first = why.lines().next().unwrap_or_default();
                    eprintln!("skipped: {what}: {first}");
                }
                not_reproduced.push((name.clone(), why));
            };
            let tree0 = match session.tree_of(&original, artifact) {
                Ok(t) => t,
                Err(e) => {
                    skip(e, "does not parse");
                    continue;
                }
            };
            // Reproducing the crash first gives its signature (and keeps an
            // artifact that no longer crashes out of every bucket).
            let mut oracle = match session.oracle(artifact, &original, true) {
                Ok(o) => Heartbeat::new(o, !self.json, true),
                Err(e) => {
                    skip(e, "does not reproduce");
                    continue;
                }
            };
            runs += session.args.repeat as u64;
            let sig = oracle.signature().cloned();
            let member = |joined_by, reduced_size| Member {
                name: name.clone(),
                size,
                reduced_size,
                joined_by,
                signature: sig.as_ref().map(|s| s.to_string()),
            };
            // A choice artifact's tree is the derivation its choices took;
            // its text's parse may be the one a pattern was built on.
            let choices = session.kind == InputKind::Choices;
            let as_text = choices.then_some(&text0[..]);
            if let Some(b) = buckets.find_match_text(g, &tree0, as_text, sig.as_ref()) {
                buckets.join(b, member(JoinedBy::MatchedUnreduced, None), Some(&text0));
                if !self.json {
                    eprintln!("-> bucket {} (fits its pattern, no reduction)", ids.of(b.0));
                }
                continue;
            }
            oracle.stage("reducing");
            let reduced = match session.reduce_artifact(&mut oracle, artifact, &original) {
                Ok(r) => r,
                Err(e) => {
                    // E.g. it parses only with its blanks or case changed, and then
                    // no longer fails: this artifact only.
                    skip(e, "cannot reduce");
                    continue;
                }
            };
            runs += reduced.tests;
            let mut text = session.text_of(&reduced.bytes);
            let mut tree1 = session.tree_of(&reduced.bytes, artifact)?;
            // It fits a pattern, or its text was generalised before (same
            // crash): another derivation of it, which its tree does not show.
            let level = session.args.signature;
            let matched = |tree: &Tree, text: &[u8]| {
                buckets
                    .find_match_text(g, tree, choices.then_some(text), sig.as_ref())
                    .map(|b| (b, "fits its pattern"))
                    .or_else(|| {
                        let (_, _, b) = generalised.iter().find(|(t, s, _)| {
                            t == text
                                && match (s, &sig) {
                                    (Some(a), Some(b)) => a.matches(b, level),
                                    (a, b) => a.is_none() && b.is_none(),
                                }
                        })?;
                        Some((*b, "the text of one generalised before"))
                    })
            };
            let mut found = matched(&tree1, &text);
            let mut lowered = String::new();
            if found.is_none() {
                // Before a new pattern: the canonical form, which another
                // reduction of the same bug may have taken already (the
                // same reduced text again: lowered as before, without runs).
                let key = (text.clone(), sig.as_ref().map(|s| s.to_string()));
                let c = match lowered_before.get(&key) {
                    Some(c) => c.clone(),
                    None => {
                        oracle.stage("lowering to canonical form");
                        let c = canonicalize_until(
                            g,
                            &tree1,
                            self.budget.canonical_runs(),
                            |t, s| session.verdict(&mut oracle, t, s),
                            |t| matched(t, &t.unparse(g)).is_some(),
                        );
                        runs += c.executions;
                        lowered_before.insert(key, c.clone());
                        c
                    }
                };
                if c.lowered > 0 {
                    tree1 = c.tree;
                    text = tree1.unparse(g);
                    lowered = format!(", {} node(s) lowered to canonical form", c.lowered);
                    found = matched(&tree1, &text);
                }
            }
            if let Some((b, how)) = found {
                buckets.join(
                    b,
                    member(JoinedBy::MatchedReduced, Some(text.len())),
                    Some(&text),
                );
                if !self.json {
                    let id = ids.of(b.0);
                    eprintln!(
                        "-> bucket {id} (reduced to {} bytes{lowered}, {how})",
                        text.len()
                    );
                }
                continue;
            }
            oracle.stage("generalising (DDSET)");
            let r = generalize(g, &tree1, &cfg, |t, s| session.verdict(&mut oracle, t, s));
            runs += r.executions;
            // Precision, and the abstractions its instances disprove made
            // concrete again, before other artifacts are matched to it.
            oracle.stage("checking precision");
            let refined = (self.precision > 0).then(|| {
                let seed = self.seed ^ ((i as u64) << 16);
                let cfg = InstanceConfig::default();
                refine(g, r.pattern.clone(), self.precision, seed, &cfg, |t, s| {
                    session.verdict(&mut oracle, t, s)
                })
            });
            let pattern = refined.as_ref().map_or(r.pattern, |x| x.pattern.clone());
            let (b, added) = buckets.add_pattern(g, pattern, sig.as_ref());
            if added == Added::NewBucket {
                let first = crate::common::escape(buckets.all()[b.0 as usize].keys[0].as_bytes());
                ids.found(sig.as_ref(), &first);
            }
            generalised.push((text.clone(), sig.clone(), b));
            let checked = refined.as_ref().map_or(0, |x| x.executions);
            runs += checked;
            if let (Some(x), Added::NewBucket | Added::NewPattern) = (&refined, added) {
                *buckets.get_mut(b).precision.last_mut().expect("just added") = Some(x.precision);
                kept.resize_with(kept.len().max(b.0 as usize + 1), Vec::new);
                kept[b.0 as usize].extend(x.failing.iter().take(self.instances).map(|t| {
                    let text = t.unparse(g);
                    let choices = session.candidate_bytes(t, &text);
                    (text, choices)
                }));
            }
            let joined = match added {
                Added::NewBucket => JoinedBy::Founded,
                Added::NewPattern => JoinedBy::NewPattern,
                Added::Known => JoinedBy::SamePattern,
            };
            buckets.join(b, member(joined, Some(text.len())), Some(&text));
            if !self.json {
                let mut disproved = match refined.as_ref().map_or(0, |x| x.concretised) {
                    0 => String::new(),
                    n => format!(", {n} abstraction(s) disproved by an instance"),
                };
                if r.budget_spent {
                    disproved += &format!(", {}", self.budget.spent_note());
                }
                eprintln!(
                    "-> bucket {} ({}; {} bytes{lowered}, {} DDSET runs, {checked} precision runs{disproved})",
                    ids.of(b.0),
                    match added {
                        Added::NewBucket if ids.took_earlier_id(b.0) => "the earlier run's bug",
                        Added::NewBucket => "new bug",
                        Added::NewPattern => "same crash, new pattern",
                        Added::Known => "same pattern",
                    },
                    text.len(),
                    r.executions
                );
            }
        }

        let mut reports = Vec::new();
        kept.resize_with(buckets.all().len(), Vec::new);
        for (b, kept) in buckets.all().iter().zip(&kept) {
            let k = ids.of(b.id.0);
            let dir = match &out_dir {
                Some(d) => {
                    let bd = d.join(format!("bucket-{k}"));
                    clear_numbered(&bd)?;
                    std::fs::create_dir_all(bd.join("instances"))
                        .with_context(|| format!("cannot create {}", bd.display()))?;
                    if let Some(sig) = &b.signature {
                        write_atomic(&bd.join(SIGNATURE_FILE), &serde_json::to_vec(sig)?)?;
                    }
                    for (pi, p) in b.patterns.iter().enumerate() {
                        if let Some(saved) = session.save_pattern(p) {
                            write_atomic(
                                &bd.join(format!("pattern-{pi}.json")),
                                serde_json::to_string_pretty(&saved)?.as_bytes(),
                            )?;
                        }
                    }
                    // One pattern per line, backslash-escaped as
                    // `instantiate --escape` writes (a line grammar's
                    // patterns hold line ends).
                    let lines: Vec<u8> = b
                        .keys
                        .iter()
                        .flat_map(|k| {
                            let mut l = crate::common::escape(k.as_bytes());
                            l.push(b'\n');
                            l
                        })
                        .collect();
                    write_atomic(&bd.join("patterns.txt"), &lines)?;
                    if let Some(s) = &b.smallest {
                        write_atomic(&bd.join("reproducer.txt"), s)?;
                        // A grammar target reads choices: the reproducer as
                        // the bytes `cargo fuzz run TARGET FILE` takes.
                        let choices = (session.kind == InputKind::Choices)
                            .then(|| grammar_min::parse::Parser::new(g).parse(s).ok())
                            .flatten()
                            .and_then(|t| session.candidate_bytes(&t, s));
                        if let Some(c) = choices {
                            write_atomic(&bd.join("reproducer.choices"), &c)?;
                        }
                    }
                    for (j, (text, bytes)) in kept.iter().enumerate() {
                        write_atomic(&bd.join(format!("instances/{j}.txt")), text)?;
                        if let (Some(c), InputKind::Choices) = (bytes, session.kind) {
                            write_atomic(&bd.join(format!("instances/{j}.choices")), c)?;
                        }
                    }
                    Some(bd.display().to_string())
                }
                None => None,
            };
            reports.push(BucketReport {
                id: k,
                patterns: b.keys.clone(),
                signature: b.signature.as_ref().map(|s| s.to_string()),
                smallest_signature: smallest_member(b).and_then(|m| m.signature.clone()),
                count: b.members.len(),
                smallest: b
                    .smallest
                    .as_deref()
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .unwrap_or_default(),
                smallest_bytes: b.smallest.as_ref().map_or(0, |s| s.len()),
                precision: b.precision.iter().map(|p| p.map(|p| p.ratio())).collect(),
                members: b.members.clone(),
                dir,
            });
        }
        reports.sort_by_key(|r| r.id);
        let (known_crashes, skippable) = match &out_dir {
            Some(d) => write_known_crashes(
                d,
                &buckets,
                &ids,
                session.target.as_deref(),
                session.args.signature,
            )?,
            None => (None, 0),
        };
        let report = Report {
            known_crashes,
            skippable,
            target: session.target.clone(),
            artifacts: done,
            buckets: reports,
            not_reproduced,
            oracle_runs: runs,
            seconds: started.elapsed().as_secs_f64(),
        };
        if self.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print_table(&report);
        }
        if stop.load(Ordering::SeqCst) {
            eprintln!(
                "interrupted: {done} of {} artifact(s) bucketed; run again to go on (buckets \
                 keep their ids)",
                artifacts.len()
            );
            return Ok(ExitCode::from(130));
        }
        if report.not_reproduced.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        // As `reduce`: exit 2 when some artifact could not be handled.
        eprintln!(
            "{} of {} artifact(s) could not be bucketed (see \"not bucketed\" above)",
            report.not_reproduced.len(),
            report.artifacts
        );
        Ok(ExitCode::from(2))
    }
}

/// The member whose artifact gave the bucket's smallest reproducer: the
/// first of that size (`Buckets::join` keeps the first).
fn smallest_member(b: &grammar_min::bucket::Bucket) -> Option<&Member> {
    let len = b.smallest.as_ref()?.len();
    b.members
        .iter()
        .find(|m| m.reduced_size.unwrap_or(m.size) == len)
}

#[cfg(test)]
mod tests {
    use super::smallest_member;
    use grammar_min::bucket::{Bucket, BucketId, JoinedBy, Member};

    #[test]
    fn the_crash_shown_is_the_smallest_reproducers() {
        let member = |name: &str, size, reduced_size| Member {
            name: name.into(),
            size,
            reduced_size,
            joined_by: JoinedBy::MatchedReduced,
            signature: Some(format!("panic at x.rs:1:1: {name}")),
        };
        let b = Bucket {
            id: BucketId(0),
            patterns: Vec::new(),
            keys: Vec::new(),
            signature: None,
            // `b` fitted the pattern unreduced at 12 bytes, before `c`
            // reduced to 12 bytes too.
            members: vec![
                member("a", 90, Some(20)),
                member("b", 12, None),
                member("c", 40, Some(12)),
            ],
            smallest: Some(b"0..=92233720".to_vec()),
            precision: Vec::new(),
        };
        assert_eq!(smallest_member(&b).unwrap().name, "b");
    }
}
