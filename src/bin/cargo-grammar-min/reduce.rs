//! `reduce`: minimise crash artifacts.

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::oracle::discover::FuzzProject;
use grammar_min::oracle::persistent::PersistentOracle;
use grammar_min::oracle::process::{
    CommandConfig, CommandOracle, RunLimits, TargetConfig, TargetOracle,
};
use grammar_min::oracle::signature::SignatureLevel;
use grammar_min::oracle::{split, Decoded, Oracle, Outcome};
use grammar_min::reduce::{reduce_choices, reduce_text, Event, Strategy, Tester};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to read an artifact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputKind {
    /// Choice sequences with a TARGET (grammar fuzz targets read their
    /// bytes as choices), text with --cmd.
    Auto,
    /// The artifact is text in the grammar's language.
    Text,
    /// The artifact is a choice sequence decoded by the grammar.
    Choices,
}

/// Minimise crash artifacts without drifting to another bug.
///
/// With a TARGET (a cargo-fuzz target, built with `cargo fuzz build`), each
/// candidate runs through the target binary and is interesting iff it
/// crashes with the same signature as the original (see --signature). With
/// --cmd, any program decides: exit 0 = interesting.
///
/// Results go to `<artifact>.min` (text) and, for choice artifacts,
/// `<artifact>.min.choices` (the bytes the target reads); they are updated
/// after every improvement, so Ctrl-C keeps the best so far. The artifact
/// itself is never modified.
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
    /// Grammar file; default `grammars/TARGET.json` in the project root
    /// (else in the fuzz dir).
    #[arg(short, long, value_name = "FILE")]
    pub grammar: Option<PathBuf>,
    /// Start symbol.
    #[arg(long, value_name = "NONTERMINAL", default_value = "<start>")]
    pub start: String,
    /// Any program as oracle, `{}` = candidate path (appended if absent);
    /// run without a shell (write `sh -c '...'` for one). Exit 0 means
    /// interesting.
    #[arg(long, value_name = "CMD")]
    pub cmd: Option<String>,
    /// With --cmd: this exit code means "invalid input" (not interesting).
    #[arg(long, value_name = "N")]
    pub invalid_exit: Option<i32>,
    /// How to read artifacts.
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputKind,
    /// Reducers: auto, ddmin, choices, perses, hdd, grabr.
    #[arg(long, default_value = "auto")]
    pub strategy: Strategy,
    /// Candidates tested in parallel (the result is the same as with 1).
    #[arg(short = 'j', long, default_value_t = 1)]
    pub jobs: usize,
    /// Seconds before a run is killed (counted as a timeout).
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Output file (one artifact) or directory (several).
    #[arg(short, long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// Print a machine-readable summary on stdout.
    #[arg(long)]
    pub json: bool,
    /// How much of the crash signature must match: kind, location
    /// (default: kind + panic location), message, frames.
    #[arg(long, default_value = "location")]
    pub signature: SignatureLevel,
    /// Runs of the original that must reproduce before reducing.
    #[arg(long, default_value_t = 2)]
    pub repeat: usize,
    /// Keep one target process alive across candidates (targets built with
    /// `grammar_fuzz_target!`); one job only.
    #[arg(long)]
    pub persistent: bool,
    /// cargo-fuzz directory (default: `fuzz/` under the project root).
    #[arg(long, value_name = "DIR")]
    pub fuzz_dir: Option<PathBuf>,
    /// Cargo target directory of the fuzz build.
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
    /// Decoder depth budget for choice artifacts.
    #[arg(long, default_value_t = DecodeConfig::default().max_depth)]
    pub max_depth: u32,
    /// Decoder length budget (bytes) for choice artifacts.
    #[arg(long, default_value_t = DecodeConfig::default().max_len)]
    pub max_len: usize,
}

#[derive(serde::Serialize)]
struct Summary {
    artifact: String,
    output: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_choices: Option<String>,
    input: &'static str,
    strategy: Strategy,
    bytes_before: usize,
    bytes_after: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    choices_before: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    choices_after: Option<usize>,
    tests: u64,
    cache_hits: u64,
    invalid: u64,
    timeouts: u64,
    seconds: f64,
    interrupted: bool,
    reproduce: String,
    /// (pass, size after, oracle runs so far)
    passes: Vec<(&'static str, usize, u64)>,
}

/// Writes `data` to `path` atomically (temp file in the same directory,
/// then rename).
fn write_atomic(path: &Path, data: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, data)?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

impl Reduce {
    pub fn run(mut self) -> Result<ExitCode> {
        if self.cmd.is_some() {
            // With --cmd every positional is an artifact.
            if let Some(t) = self.target.take() {
                self.artifacts.insert(0, PathBuf::from(t));
            }
        }
        if self.cmd.is_none() && self.target.is_none() {
            bail!("nothing to run: give a fuzz TARGET or an oracle command with --cmd 'PROGRAM ... {{}}'");
        }
        let cwd = std::env::current_dir()?;
        let project = match &self.target {
            Some(_) => Some(
                FuzzProject::discover(&cwd, self.fuzz_dir.as_deref(), self.target_dir.as_deref())
                    .context("cannot find the cargo-fuzz project")?,
            ),
            None => None,
        };
        if self.artifacts.is_empty() {
            let (Some(t), Some(p)) = (&self.target, &project) else {
                bail!("no artifacts given; pass artifact files after the target or the --cmd");
            };
            let dir = p.artifacts_dir(t);
            let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
                .with_context(|| format!("cannot list artifacts in {}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && !p.extension().is_some_and(|e| e == "min" || e == "choices")
                        && !p.to_string_lossy().ends_with(".min.choices")
                })
                .collect();
            v.sort();
            if v.is_empty() {
                bail!(
                    "no artifacts in {}; run `cargo fuzz run {t}` first",
                    dir.display()
                );
            }
            self.artifacts = v;
        }
        let grammar_path = match (&self.grammar, &self.target, &project) {
            (Some(g), _, _) => Some(g.clone()),
            // A target without a grammar file is reduced as plain bytes.
            (None, Some(t), Some(p)) => Some(p.grammar(t)).filter(|g| {
                g.is_file() || {
                    if !self.json {
                        eprintln!(
                            "note: no grammar {} for target {t}; reducing bytes with ddmin (pass --grammar FILE for grammar-aware reduction)",
                            g.display()
                        );
                    }
                    false
                }
            }),
            _ => None,
        };
        let grammar = match &grammar_path {
            Some(p) => Some(
                Grammar::from_path(p, &LoadOptions { start: Some(self.start.clone()) }).map_err(|e| {
                    anyhow::anyhow!(
                        "{e}\n(while loading grammar {}; pass --grammar FILE or run `cargo grammar-min check --grammar {}`)",
                        p.display(),
                        p.display()
                    )
                })?,
            ),
            None => None,
        };
        let kind = match self.input {
            InputKind::Auto if self.target.is_some() && grammar.is_some() => InputKind::Choices,
            InputKind::Auto => InputKind::Text,
            k => k,
        };
        if kind == InputKind::Choices && grammar.is_none() {
            bail!("--input choices needs a grammar (--grammar FILE)");
        }
        let strategy = if grammar.is_none() && self.strategy == Strategy::Auto {
            Strategy::Ddmin
        } else {
            self.strategy
        };
        let stop = Arc::new(AtomicBool::new(false));
        {
            let s = stop.clone();
            let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
        }
        let binary = match (&self.target, &project) {
            (Some(t), Some(p)) => Some(p.binary(t).context("cannot find the fuzz target binary")?),
            _ => None,
        };
        let mut summaries = Vec::new();
        let multiple = self.artifacts.len() > 1;
        for artifact in self.artifacts.clone() {
            let s = self.reduce_one(
                &artifact,
                kind,
                strategy,
                grammar.as_ref(),
                binary.as_deref(),
                &stop,
                multiple,
            )?;
            if !self.json {
                eprintln!(
                    "{}: {} -> {} bytes ({} tests, {} cache hits, {} invalid, {} timeouts) in {:.1}s{}",
                    s.artifact,
                    s.bytes_before,
                    s.bytes_after,
                    s.tests,
                    s.cache_hits,
                    s.invalid,
                    s.timeouts,
                    s.seconds,
                    if s.interrupted { " [interrupted]" } else { "" }
                );
                eprintln!("  minimised: {}", s.output);
                if let Some(c) = &s.output_choices {
                    eprintln!("  choices:   {c}");
                }
                eprintln!("Reproduce with:\n\n  {}\n", s.reproduce);
            }
            let interrupted = s.interrupted;
            summaries.push(s);
            if interrupted {
                break;
            }
        }
        if self.json {
            println!("{}", serde_json::to_string_pretty(&summaries)?);
        }
        Ok(ExitCode::SUCCESS)
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

    #[allow(clippy::too_many_arguments)]
    fn reduce_one(
        &self,
        artifact: &Path,
        kind: InputKind,
        strategy: Strategy,
        grammar: Option<&Grammar>,
        binary: Option<&Path>,
        stop: &Arc<AtomicBool>,
        multiple: bool,
    ) -> Result<Summary> {
        let original = std::fs::read(artifact)
            .with_context(|| format!("cannot read artifact {}", artifact.display()))?;
        let cfg = DecodeConfig {
            max_depth: self.max_depth,
            max_len: self.max_len,
        };
        let limits = RunLimits {
            timeout: Duration::from_secs_f64(self.timeout.max(0.001)),
            ..Default::default()
        };
        let out_path = self.out_path(artifact, multiple);
        if let Some(dir) = out_path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let choices_path = PathBuf::from(format!("{}.choices", out_path.display()));
        let mut polish_oracle: Option<CommandOracle> = None;
        let mut oracle: Box<dyn Oracle> = match (&self.cmd, binary) {
            (Some(cmd), _) => {
                let argv =
                    split::split(cmd).with_context(|| format!("cannot split --cmd {cmd:?}"))?;
                let suffix = artifact
                    .extension()
                    .map(|e| format!(".{}", e.to_string_lossy()))
                    .unwrap_or_default();
                let ccfg = CommandConfig {
                    argv,
                    invalid_exit: self.invalid_exit,
                    limits: limits.clone(),
                    jobs: self.jobs,
                    suffix,
                };
                if kind == InputKind::Choices {
                    polish_oracle = Some(CommandOracle::new(ccfg.clone())?);
                }
                let o = CommandOracle::new(ccfg)?;
                let probe = match (kind, grammar) {
                    (InputKind::Choices, Some(g)) => decode(g, &original, &cfg),
                    _ => original.clone(),
                };
                for run in 1..=self.repeat.max(1) {
                    let r = o
                        .run_raw(&probe)
                        .with_context(|| format!("cannot run {cmd:?}"))?;
                    let outcome = o.classify(&r);
                    if outcome != Outcome::Interesting {
                        let err = String::from_utf8_lossy(&r.stderr);
                        let tail: Vec<&str> = err.lines().collect();
                        bail!(
                            "the original {} is not interesting (run {run}: {:?}, outcome {:?}); the command must exit 0 on it\n--- stderr (tail) ---\n{}",
                            artifact.display(),
                            r.exit,
                            outcome,
                            tail[tail.len().saturating_sub(15)..].join("\n")
                        );
                    }
                }
                match (kind, grammar) {
                    (InputKind::Choices, Some(g)) => Box::new(Decoded::new(o, g, cfg)),
                    _ => Box::new(o),
                }
            }
            (None, Some(bin)) => {
                if self.persistent {
                    Box::new(
                        PersistentOracle::new(
                            bin.to_path_buf(),
                            vec![],
                            self.signature,
                            limits.timeout,
                            &original,
                        )
                        .with_context(|| {
                            format!("cannot reproduce {} in persistent mode", artifact.display())
                        })?,
                    )
                } else {
                    let o = TargetOracle::new(
                        TargetConfig {
                            binary: bin.to_path_buf(),
                            args: vec![],
                            level: self.signature,
                            limits: limits.clone(),
                            jobs: self.jobs,
                        },
                        &original,
                        self.repeat,
                    )
                    .with_context(|| {
                        format!("cannot reproduce the crash of {}", artifact.display())
                    })?;
                    if !self.json {
                        eprintln!("{}: reproduces: {}", artifact.display(), o.reference());
                    }
                    Box::new(o)
                }
            }
            (None, None) => bail!("no oracle: give a TARGET or --cmd"),
        };
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
        let text_of = |bytes: &[u8]| -> Vec<u8> {
            match (kind, grammar) {
                (InputKind::Choices, Some(g)) => decode(g, bytes, &cfg),
                _ => bytes.to_vec(),
            }
        };
        let mut write_err: Option<anyhow::Error> = None;
        let mut best_len = original.len();
        let result = {
            let bar2 = bar.clone();
            let (out_path, choices_path) = (&out_path, &choices_path);
            let write_err = &mut write_err;
            let best_len = &mut best_len;
            let mut tester = Tester::new(&mut *oracle)
                .with_stop(stop.clone())
                .with_observer(move |e| match e {
                    Event::Tested(s) => {
                        let secs = started.elapsed().as_secs_f64().max(1e-3);
                        bar2.set_message(format!(
                            "size {} | tests {} | {:.1} tests/s | cache hits {}",
                            best_len,
                            s.tests,
                            s.tests as f64 / secs,
                            s.cache_hits
                        ));
                        bar2.tick();
                    }
                    Event::Improved(bytes) => {
                        *best_len = bytes.len();
                        let r = (|| -> Result<()> {
                            if kind == InputKind::Choices {
                                write_atomic(choices_path, bytes)?;
                            }
                            write_atomic(out_path, &text_of(bytes))
                        })();
                        if let Err(e) = r {
                            *write_err = Some(e);
                        }
                    }
                });
            if let (Some(g), true) = (grammar, kind == InputKind::Choices && self.cmd.is_some()) {
                // The --cmd program sees only the decoded text.
                tester = tester.with_cache_key(move |c| decode(g, c, &cfg));
            }
            // The reproduction check above already ran the original.
            tester.seed(&original, Outcome::Interesting);
            let r = match (kind, grammar) {
                (InputKind::Choices, Some(g)) => {
                    reduce_choices(g, &cfg, &original, strategy, &mut tester)
                }
                _ => reduce_text(grammar, &original, strategy, &mut tester),
            };
            let stats = tester.stats();
            r.map(|r| (r, stats))
        };
        bar.finish_and_clear();
        if let Some(e) = write_err {
            return Err(e);
        }
        let (reduced, mut stats) =
            result.with_context(|| format!("cannot reduce {}", artifact.display()))?;
        let mut passes = reduced.passes.clone();
        // Final write (the observer already wrote every improvement).
        if kind == InputKind::Choices {
            write_atomic(&choices_path, &reduced.output)?;
        }
        let mut text = text_of(&reduced.output);
        write_atomic(&out_path, &text)?;
        if let (Some(o2), true) = (
            polish_oracle,
            strategy == Strategy::Auto && !stop.load(Ordering::SeqCst),
        ) {
            // The --cmd program reads text: polish the decoded text with
            // token and byte ddmin, so `.min` is 1-minimal too (the
            // `.min.choices` file keeps the smallest choice sequence).
            let mut o2 = o2;
            let mut werr = None;
            let mut t2 = Tester::new(&mut o2)
                .with_stop(stop.clone())
                .with_observer(|e| {
                    if let Event::Improved(b) = e {
                        if let Err(e) = write_atomic(&out_path, b) {
                            werr = Some(e);
                        }
                    }
                });
            t2.seed(&text, Outcome::Interesting);
            let r2 = reduce_text(None, &text, Strategy::Ddmin, &mut t2);
            let s2 = t2.stats();
            drop(t2);
            if let Some(e) = werr {
                return Err(e);
            }
            if let Ok(r2) = r2 {
                passes.extend(
                    r2.passes
                        .iter()
                        .map(|&(n, size, t)| (n, size, t + stats.tests)),
                );
                text = r2.output;
                write_atomic(&out_path, &text)?;
            }
            stats.tests += s2.tests;
            stats.cache_hits += s2.cache_hits;
            stats.invalid += s2.invalid;
            stats.timeouts += s2.timeouts;
        }
        let reproduce = match (&self.cmd, &self.target) {
            (Some(cmd), _) => {
                let p = shell_quote(&out_path.display().to_string());
                if cmd.contains("{}") {
                    cmd.replace("{}", &p)
                } else {
                    format!("{cmd} {p}")
                }
            }
            (None, Some(t)) => format!(
                "cargo fuzz run {t} {}",
                shell_quote(
                    &if kind == InputKind::Choices {
                        &choices_path
                    } else {
                        &out_path
                    }
                    .display()
                    .to_string()
                )
            ),
            _ => String::new(),
        };
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
            bytes_before: text_of(&original).len(),
            bytes_after: text.len(),
            choices_before: (kind == InputKind::Choices).then_some(original.len()),
            choices_after: (kind == InputKind::Choices).then_some(reduced.output.len()),
            tests: stats.tests,
            cache_hits: stats.cache_hits,
            invalid: stats.invalid,
            timeouts: stats.timeouts,
            seconds: started.elapsed().as_secs_f64(),
            interrupted: stop.load(Ordering::SeqCst),
            reproduce,
            passes,
        })
    }
}
