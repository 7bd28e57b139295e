//! `reduce`: minimise crash artifacts.

use crate::common::write_atomic;
use crate::reduce_summary::{PassReport, SettleReport, Summary};
use crate::session::{InputKind, OracleArgs, Session};
use crate::settle::{settle, History};
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::oracle::process::CommandOracle;
use grammar_min::oracle::{ConfirmStats, Confirming, Oracle, Outcome, Parsed};
use grammar_min::reduce::{
    ddmin, polish, reduce_choices, reduce_text, Event, OutcomeCache, ReduceError, Stats, Strategy,
    Tester,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Minimise crash artifacts without drifting to another bug.
///
/// With a TARGET (a cargo-fuzz target, built with `cargo fuzz build`), each
/// candidate runs through the target binary and is interesting iff it
/// crashes with the same signature as the original (see --signature). With
/// --cmd, any program decides: exit 0 = interesting.
///
/// Results go to `<artifact>.min` (text) and, for choice artifacts,
/// `<artifact>.min.choices` (the bytes the target reads); they are updated
/// after every improvement, so Ctrl-C keeps the best so far (and exits
/// 130, as an interrupted command does). The artifact itself is never
/// modified.
///
/// Examples:
///   cargo grammar-min reduce parse_expr
///   cargo grammar-min reduce parse_expr fuzz/artifacts/parse_expr/crash-1234 -j 2
///   cargo grammar-min reduce --cmd 'python3 check.py {}' --grammar grammars/expr.json bug.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Reduce {
    /// Fuzz target name (omit with --cmd). Without ARTIFACTs, every file in
    /// `fuzz/artifacts/TARGET/` is reduced.
    pub target: Option<String>,
    /// Artifacts to reduce.
    pub artifacts: Vec<PathBuf>,
    /// Directory of artifacts to reduce instead of the target's (our own
    /// results and `cargo fuzz tmin` leftovers in it are skipped).
    #[arg(long, value_name = "DIR", conflicts_with = "artifacts")]
    pub artifacts_dir: Option<PathBuf>,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// Reducers: auto, blind, ddmin, choices, perses, hdd, grabr.
    ///
    /// auto (best in size and runs on the benchmarks): grammar passes,
    /// then a token/byte polish, to a fixpoint; without a grammar, blind;
    /// on a choice artifact, all that on its text (each candidate encoded
    /// back into choices), then the choice passes, in turn.
    /// blind: grammar-blind, for any text (the fallback for text the
    /// grammar does not parse): comments, bracket pairs (a brace block with its
    /// header and the rest of its closing line, or its body lifted out;
    /// a deep nest many levels at once),
    /// markup elements (<x>…</x>) and attributes, list elements with
    /// their comma, keyword blocks (if…fi, do…done, …end, BEGIN…END), an
    /// argument from a definition and all its calls, indented blocks,
    /// lines, statements (split at `;`), repeated names shortened
    /// everywhere, tokens and bytes, to a fixpoint; then a definition
    /// inlined (NAME = VALUE deleted, VALUE put at its uses), a function
    /// inlined (f(){BODY} deleted, BODY put at its calls, o.f() with its
    /// receiver), the elements
    /// of a list outside brackets (VALUES (…), (…)), one position of all
    /// lists of a length (a table's column and its values), a pair
    /// emptied or replaced by one of its parts (a call with its receiver,
    /// an object; if (x) {…} → x;), a one-line compound statement by its
    /// body (for w in x: int(w) → int(w)), a call or index replaced by 0
    /// or 1 (an empty string, a name used as a value by 0, an argument
    /// or assigned value also by ""), an assignment's target deleted (x = f() → f()), a
    /// named scope flattened (mod s {…} and every s::), a declared result
    /// with the value returned (-> T {…; v} → {…;}), two or three
    /// adjacent tokens at once, and the tokens from one punctuation token
    /// through the next equal one (a=SEQUENCE:e [e] =V → a=V). Brackets and commas inside string literals are text. ddmin: Zeller's
    /// ddmin on lines, tokens and bytes. choices: the choice-sequence passes
    /// alone, with Hypothesis' grammar-blind ones (ddmin on the choices,
    /// run deletion, zeroing). perses, hdd (HDD*), grabr (fuzzingbook's GrammarReducer):
    /// one derivation-tree reducer alone, for comparison.
    #[arg(long, default_value = "auto")]
    pub strategy: Strategy,
    /// Output file (one artifact) or directory (several).
    #[arg(short, long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// Print a machine-readable summary on stdout.
    #[arg(long)]
    pub json: bool,
}

impl Reduce {
    pub fn run(self) -> Result<ExitCode> {
        let mut given = self.artifacts.clone();
        if let Some(dir) = &self.artifacts_dir {
            given = crate::artifacts::artifacts_in(dir)?;
        }
        let (session, artifacts) = self.oracle.resolve(self.target.clone(), given)?;
        let grammar = session.grammar.as_ref();
        let strategy = self.strategy;
        // With --cmd every positional is an artifact; a target without a
        // grammar file has its own note (session).
        if grammar.is_none()
            && (self.target.is_none() || self.oracle.cmd.is_some())
            && strategy == Strategy::Auto
            && !self.json
        {
            // The passes are listed in --help (`--strategy`) and the README.
            eprintln!(
                "note: no grammar (--grammar FILE{}): reducing grammar-blind (bracket pairs, \
                 blocks, functions inlined, lines, tokens, bytes)",
                if self.oracle.cmd.is_some() {
                    ""
                } else {
                    ", or grammars/TARGET.json"
                }
            );
        }
        let stop = Arc::new(AtomicBool::new(false));
        {
            let s = stop.clone();
            let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
        }
        let mut summaries = Vec::new();
        let multiple = artifacts.len() > 1;
        // With several artifacts one that cannot be reduced (it does not
        // fail, fails another way each run, does not parse) is reported
        // and the others go on; the exit code says some failed.
        let mut failed: Vec<(String, String)> = Vec::new();
        for artifact in &artifacts {
            let s = match self.reduce_one(&session, artifact, strategy, &stop, multiple) {
                Ok(s) => s,
                Err(e) if multiple && !stop.load(Ordering::SeqCst) => {
                    eprintln!(
                        "error: {}: {e:#}\n  (going on with the other artifacts)\n",
                        artifact.display()
                    );
                    failed.push((artifact.display().to_string(), format!("{e:#}")));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.json {
                s.print(multiple);
            }
            let interrupted = s.interrupted;
            summaries.push(s);
            if interrupted {
                break;
            }
        }
        if self.json {
            println!("{}", serde_json::to_string_pretty(&summaries)?);
        } else if summaries.len() > 1 {
            let total = |f: fn(&Summary) -> f64| summaries.iter().map(f).sum::<f64>();
            eprintln!(
                "{} artifact(s) reduced: {} -> {} bytes of text in all, {} tests, {:.1}s",
                summaries.len(),
                total(|s| s.bytes_before as f64),
                total(|s| s.bytes_after as f64),
                total(|s| s.tests as f64),
                total(|s| s.seconds)
            );
        }
        if stop.load(Ordering::SeqCst) {
            // As a shell reports an interrupted command: 128 + SIGINT.
            return Ok(ExitCode::from(130));
        }
        if failed.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "{} of {} artifact(s) could not be reduced:",
            failed.len(),
            artifacts.len()
        );
        for (a, e) in &failed {
            let first = e.lines().next().unwrap_or_default();
            eprintln!("  {a}: {first}");
        }
        Ok(ExitCode::from(2))
    }

    fn out_path(&self, artifact: &Path, multiple: bool) -> PathBuf {
        let name = format!(
            "{}.min",
            artifact
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        );
        match &self.out {
            Some(o) if multiple || o.is_dir() => o.join(name),
            Some(o) => o.clone(),
            None => artifact.with_file_name(name),
        }
    }

    fn reduce_one(
        &self,
        session: &Session,
        artifact: &Path,
        strategy: Strategy,
        stop: &Arc<AtomicBool>,
        multiple: bool,
    ) -> Result<Summary> {
        let original = session.read_artifact(artifact)?;
        let (kind, grammar, cfg) = (session.kind, session.grammar.as_ref(), session.cfg);
        let out_path = self.out_path(artifact, multiple);
        let choices_path = PathBuf::from(format!("{}.choices", out_path.display()));
        // The artifact is never written: refuse an output that is it.
        let is_artifact = |p: &Path| {
            matches!(
                (std::fs::canonicalize(p), std::fs::canonicalize(artifact)),
                (Ok(a), Ok(b)) if a == b
            )
        };
        if let Some(p) = [&out_path, &choices_path]
            .into_iter()
            .find(|p| is_artifact(p))
        {
            anyhow::bail!(
                "the output {} would overwrite the artifact {}; reduce never modifies an \
                 artifact: pass another -o path (the default is {}.min next to the artifact)",
                p.display(),
                artifact.display(),
                artifact.display()
            );
        }
        if let Some(dir) = out_path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut oracle = session.oracle(artifact, &original, self.json)?;
        // Failures at a threshold (a stack overflow) confirmed by runs,
        // and the result settled ([`settle`]) against the improvements.
        let confirm = session.confirm_times(&*oracle);
        let confirmed = Arc::new(ConfirmStats::default());
        let mut history = History::default();
        // For choice artifacts under --cmd, a second oracle polishes the
        // decoded text (after `oracle`, which sets the time limit).
        let polish_oracle = match session.command_config(artifact)? {
            Some(c) if kind == InputKind::Choices => {
                let o = CommandOracle::new(c)?;
                let o: Box<dyn Oracle + '_> = match grammar {
                    Some(g) if self.oracle.grammatical => Box::new(Parsed::new(o, g)),
                    _ => Box::new(o),
                };
                Some(o)
            }
            _ => None,
        }
        .map(|o| Confirming::new(o, confirm, confirmed.clone()));
        let bar = if self.json {
            ProgressBar::hidden()
        } else {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"),
            );
            b
        };
        let started = Instant::now();
        let text_of = |bytes: &[u8]| session.text_of(bytes);
        let mut write_err: Option<anyhow::Error> = None;
        let mut best_len = original.len();
        // Without a terminal (a log, CI), or with --json, the bar is
        // hidden: a line on stderr every half minute instead.
        let logged = self.json || !std::io::stderr().is_terminal();
        let mut last_line = Instant::now();
        let result = {
            let bar2 = bar.clone();
            let out_path = &out_path;
            let write_err = &mut write_err;
            let best_len = &mut best_len;
            let history = &mut history;
            let mut confirming = Confirming::new(&mut *oracle, confirm, confirmed.clone());
            let tester = Tester::new(&mut confirming)
                .with_stop(stop.clone())
                .with_observer(move |e| match e {
                    Event::Tested(s) => {
                        let secs = started.elapsed().as_secs_f64().max(1e-3);
                        let unparsed = match s.unparsed {
                            0 => String::new(),
                            n => format!(" | not parsed {n}"),
                        };
                        let line = format!(
                            "size {} | tests {} | {:.1} tests/s | cache hits {}{unparsed}",
                            best_len,
                            s.tests,
                            s.tests as f64 / secs,
                            s.cache_hits
                        );
                        if logged && last_line.elapsed() >= Duration::from_secs(30) {
                            last_line = Instant::now();
                            eprintln!("{}: {:.0}s {line}", artifact.display(), secs);
                        }
                        bar2.set_message(line);
                        bar2.tick();
                    }
                    Event::Improved(bytes) => {
                        *best_len = bytes.len();
                        if confirm > 1 {
                            history.push(bytes);
                        }
                        if let Err(e) = session.write_result(out_path, bytes) {
                            *write_err = Some(e);
                        }
                    }
                });
            let text_keyed = kind == InputKind::Choices && self.oracle.cmd.is_some();
            let mut tester = session.order_by_text(tester);
            // The reproduction check above already ran the original.
            tester.seed(&original, Outcome::Interesting);
            let r = match (kind, grammar) {
                (InputKind::Choices, Some(g)) => {
                    reduce_choices(g, &cfg, &original, strategy, &mut tester)
                }
                _ => reduce_text(grammar, &original, strategy, &mut tester),
            };
            let mut stats = tester.stats();
            // Texts of the text stage that did not parse, and (with
            // --grammatical) candidates the grammar rejected unrun.
            let not_parsed = stats.unparsed + split_unparsed(&mut stats, tester.runs());
            // Keyed by decoded text: the text polish below can reuse it.
            let cache = if text_keyed {
                tester.cache()
            } else {
                OutcomeCache::default()
            };
            r.map(|r| (r, stats, not_parsed, cache))
        };
        bar.finish_and_clear();
        if let Some(e) = write_err {
            return Err(e);
        }
        let (mut reduced, mut stats, mut not_parsed, cache) = result.map_err(|e| {
            let hint = match e {
                ReduceError::Unparseable { .. } => {
                    "\nfix the input or the grammar, or reduce without the grammar: \
                     --strategy blind (grammar-blind passes, see --help) or \
                     --strategy ddmin (plain ddmin)"
                }
                _ => "",
            };
            anyhow::anyhow!("cannot reduce {}: {e}{hint}", artifact.display())
        })?;
        let unit = if kind == InputKind::Choices && strategy != Strategy::Auto {
            "choices"
        } else {
            "bytes"
        };
        let mut passes = PassReport::list(&reduced.passes, unit, 0);
        let interrupted = stop.load(Ordering::SeqCst);
        let settled = (confirm > 1 && !interrupted && polish_oracle.is_none())
            .then(|| settle(&mut *oracle, &history, &reduced.output, &original));
        if let Some(f) = settled.as_ref().and_then(|s| s.fallback.clone()) {
            reduced.output = f;
        }
        // Final write (the observer already wrote every improvement).
        session.write_result(&out_path, &reduced.output)?;
        let mut text = text_of(&reduced.output);
        if let (Some(o2), true) = (
            polish_oracle,
            strategy == Strategy::Auto && !stop.load(Ordering::SeqCst),
        ) {
            // The --cmd program reads text: polish the decoded text with
            // token and byte ddmin, so `.min` is 1-minimal too (the
            // `.min.choices` file keeps the smallest choice sequence).
            let mut o2 = o2;
            let mut werr = None;
            // Both testers key by text, so outcomes carry over.
            let mut t2 = Tester::new(&mut o2)
                .with_cache(cache)
                .with_stop(stop.clone())
                .with_observer(|e| {
                    if let Event::Improved(b) = e {
                        if let Err(e) = write_atomic(&out_path, b) {
                            werr = Some(e);
                        }
                    }
                });
            t2.seed(&text, Outcome::Interesting);
            let keywords = grammar.map(ddmin::keywords).unwrap_or_default();
            let r2 = polish(&text, Some(&keywords), &mut t2);
            let mut s2 = t2.stats();
            not_parsed += split_unparsed(&mut s2, t2.runs());
            drop(t2);
            if let Some(e) = werr {
                return Err(e);
            }
            passes.extend(PassReport::list(&r2.passes, "bytes", stats.tests));
            text = r2.output;
            write_atomic(&out_path, &text)?;
            stats.tests += s2.tests;
            stats.cache_hits += s2.cache_hits;
            stats.invalid += s2.invalid;
            stats.timeouts += s2.timeouts;
        }
        let reproduce = session.reproduce_line(
            &out_path,
            (kind == InputKind::Choices).then_some(choices_path.as_path()),
        );
        Ok(Summary {
            artifact: artifact.display().to_string(),
            output: out_path.display().to_string(),
            output_choices: (kind == InputKind::Choices)
                .then(|| choices_path.display().to_string()),
            input: if kind == InputKind::Choices {
                "choices"
            } else {
                "text"
            },
            strategy,
            // A text artifact of a target was encoded in the grammar's
            // spelling: "before" is the user's file.
            bytes_before: match std::fs::metadata(artifact) {
                Ok(m) if session.text_artifacts => m.len() as usize,
                _ => text_of(&original).len(),
            },
            bytes_after: text.len(),
            choices_before: (kind == InputKind::Choices).then_some(original.len()),
            choices_after: (kind == InputKind::Choices).then_some(reduced.output.len()),
            tests: stats.tests,
            confirm,
            confirming_runs: confirmed.get().0,
            refuted: confirmed.get().1,
            settled: settled.map(|x| SettleReport {
                failed: x.result_failed.0,
                of: x.result_failed.1,
                fell_back: x.fallback.is_some(),
                runs: x.runs,
            }),
            cache_hits: stats.cache_hits,
            skipped: stats.skipped,
            invalid: stats.invalid,
            not_parsed,
            timeouts: stats.timeouts,
            seconds: started.elapsed().as_secs_f64(),
            interrupted: stop.load(Ordering::SeqCst),
            reproduce,
            passes,
        })
    }
}

/// With --grammatical, a tester's `tests` include candidates the grammar
/// rejected without a run (`oracle::Parsed`, also counted invalid); `runs`
/// is the program's. Takes them out of both counts and returns how many.
fn split_unparsed(stats: &mut Stats, runs: u64) -> u64 {
    let not_parsed = stats.tests - runs.min(stats.tests);
    stats.tests -= not_parsed;
    stats.invalid -= not_parsed.min(stats.invalid);
    not_parsed
}
