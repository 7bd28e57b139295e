//! What `reduce`, `generalize` and `bucket` share: the oracle flags, finding
//! the cargo-fuzz project, the grammar and the artifacts, and building the
//! oracle that reproduces one artifact's failure.

use crate::common::{shell_hint, DecodeArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use grammar_min::encode::encode;
use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::oracle::discover::FuzzProject;
use grammar_min::oracle::parallel::repeat_runs;
use grammar_min::oracle::persistent::{PersistentOracle, PersistentPool};
use grammar_min::oracle::process::{
    CommandConfig, CommandOracle, RunLimits, TargetConfig, TargetOracle,
};
use grammar_min::oracle::signature::{CrashKind, SignatureLevel};
use grammar_min::oracle::{split, Decoded, Oracle, Outcome, Parsed};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// Oracle flags shared by reduce, generalize and bucket.
#[derive(Args, Debug, Clone)]
pub struct OracleArgs {
    /// Grammar file; default: the grammar built into the TARGET (a
    /// `grammar_fuzz_target!` reports it), else `grammars/TARGET.json` in
    /// the project root (else in the fuzz dir).
    #[arg(short, long, value_name = "FILE")]
    pub grammar: Option<PathBuf>,
    /// Start symbol.
    #[arg(long, value_name = "NONTERMINAL", default_value = "<start>")]
    pub start: String,
    /// Any program as oracle, `{}` = candidate path (appended if absent);
    /// run without a shell (write `sh -c '...'` for one). Exit 0 means
    /// interesting. A run that times out is killed with its process
    /// group; a program that leaves the group (`timeout` without
    /// `--foreground`, `setsid`) escapes that and runs on: inside the
    /// command, write `timeout --foreground 5 prog` instead.
    #[arg(long, value_name = "CMD")]
    pub cmd: Option<String>,
    /// With --cmd: this exit code means "invalid input" (not interesting).
    #[arg(long, value_name = "N")]
    pub invalid_exit: Option<i32>,
    /// With --cmd and a grammar: only candidates the grammar parses are
    /// run (the others are answered "invalid" without a run; reduce's
    /// summary counts them as "not parsed"), so the result is a sentence
    /// of the grammar. Without it the final polish may leave the grammar
    /// where the program still fails (`0/0` from `0 / 0`).
    #[arg(long)]
    pub grammatical: bool,
    /// How to read artifacts.
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputKind,
    /// Candidates tested in parallel (the result is the same as with 1).
    #[arg(short = 'j', long, default_value_t = 1)]
    pub jobs: usize,
    /// Seconds before a run is killed (counted as a timeout). Default
    /// with --cmd: 20 times the original's slowest reproduction run, at
    /// least 0.5 s (a deletion that leaves an endless loop then costs half
    /// a second, not ten; the reproduction runs get 60 s); for fuzz
    /// targets 10 s.
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// How much of the crash signature must match: kind, location
    /// (default: kind + panic location; for a sanitizer report the first
    /// frame in your code; for a stack overflow from recursion the
    /// recursion's cycle, wherever the stack ran out), message, frames.
    #[arg(long, default_value = "location")]
    pub signature: SignatureLevel,
    /// Runs of the original that must reproduce before starting.
    #[arg(long, default_value_t = 2)]
    pub repeat: usize,
    /// While reducing, a candidate counts as failing only if it fails N
    /// runs in a row. Default 2 for a stack overflow, timeout or
    /// out-of-memory crash (they come and go at the depth or size where
    /// they begin, which reduction seeks), else 1; raise it for a flaky
    /// --cmd check.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub confirm: Option<u32>,
    /// Keep one target process alive across candidates (one per job with
    /// -j). The default for targets built with `grammar_fuzz_target!`
    /// (with `--signature frames` the target sends each panic's
    /// backtrace); a hard crash (abort, sanitizer)
    /// restarts it.
    #[arg(long, conflicts_with = "no_persistent")]
    pub persistent: bool,
    /// Start the target once per candidate, as `cargo fuzz run` does.
    #[arg(long)]
    pub no_persistent: bool,
    /// cargo-fuzz directory (default: `fuzz/` under the project root).
    #[arg(long, value_name = "DIR")]
    pub fuzz_dir: Option<PathBuf>,
    /// Cargo target directory of the fuzz build.
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
    #[command(flatten)]
    pub decode: DecodeArgs,
}

/// A resolved run: project, grammar, input kind, target binary.
pub struct Session {
    pub args: OracleArgs,
    pub target: Option<String>,
    /// The cargo-fuzz project (with a TARGET).
    pub project: Option<FuzzProject>,
    pub grammar: Option<Grammar>,
    /// The file `grammar` was loaded from.
    pub grammar_path: Option<PathBuf>,
    pub kind: InputKind,
    /// With a grammar target and `--input text`: the artifacts are text,
    /// parsed and encoded into the choices the target reads
    /// ([`Session::read_artifact`]); `kind` is then `Choices`.
    pub text_artifacts: bool,
    /// The grammar's JSON text when it came from the target itself
    /// (`grammar_path` is then `None`).
    pub grammar_source: Option<String>,
    /// Whether candidates run in one long-lived target process.
    pub persistent: bool,
    /// Built with `grammar_fuzz_target!` (it described itself): its body
    /// sees only the decoded text.
    pub grammar_target: bool,
    pub binary: Option<PathBuf>,
    pub cfg: DecodeConfig,
    /// Without --timeout: the time limit of `--cmd` runs measured on the
    /// current artifact's reproduction runs (see [`Session::oracle`]).
    measured_timeout: Cell<Option<Duration>>,
}

impl OracleArgs {
    /// Finds the project, grammar and binary; lists the target's artifacts
    /// when none are given.
    pub fn resolve(
        &self,
        mut target: Option<String>,
        mut artifacts: Vec<PathBuf>,
    ) -> Result<(Session, Vec<PathBuf>)> {
        if self.cmd.is_some() {
            // With --cmd every positional is an artifact.
            if let Some(t) = target.take() {
                artifacts.insert(0, PathBuf::from(t));
            }
        }
        crate::artifacts::check_artifacts_exist(&artifacts, self.cmd.is_some())?;
        if self.cmd.is_none() && target.is_none() {
            bail!("nothing to run: give a fuzz TARGET or an oracle command with --cmd 'PROGRAM ... {{}}'");
        }
        let cwd = std::env::current_dir()?;
        let project = match &target {
            Some(_) => Some(
                FuzzProject::discover(&cwd, self.fuzz_dir.as_deref(), self.target_dir.as_deref())
                    .context("cannot find the cargo-fuzz project")?,
            ),
            None => None,
        };
        if artifacts.is_empty() {
            let (Some(t), Some(p)) = (&target, &project) else {
                bail!("no artifacts given; pass artifact files after the target or the --cmd");
            };
            p.check_target(t)?;
            let dir = p.artifacts_dir(t);
            if !dir.is_dir() {
                bail!(
                    "no artifacts yet: {} does not exist; run `cargo +nightly fuzz run {t}` first",
                    dir.display()
                );
            }
            artifacts = crate::artifacts::artifacts_in(&dir)
                .map_err(|e| anyhow::anyhow!("{e}; run `cargo +nightly fuzz run {t}` first"))?;
        }
        let binary = match (&target, &project) {
            (Some(t), Some(p)) => Some(p.binary(t).context("cannot find the fuzz target binary")?),
            _ => None,
        };
        // A `grammar_fuzz_target!` target reports its grammar and decoding
        // budgets (which the flags must not contradict); others do not answer.
        let described = binary
            .as_deref()
            .and_then(|b| grammar_min::oracle::describe::ask(b, Duration::from_secs(10)));
        described
            .as_ref()
            .map_or(Ok(()), |d| self.decode.check_target(&d.config))?;
        let mut grammar_source = None;
        let own = described.as_ref().and_then(|d| d.grammar.as_deref());
        let grammar_path = match (&self.grammar, &target, &project) {
            // A grammar target decodes with its own grammar, whatever the
            // file says now.
            (Some(g), Some(t), _)
                if own.is_some_and(|own| !crate::common::same_grammar(g, own, t)) =>
            {
                grammar_source = own.map(str::to_string);
                None
            }
            (Some(g), _, _) => Some(g.clone()),
            (None, Some(_), Some(_)) if described.as_ref().is_some_and(|d| d.grammar.is_some()) => {
                grammar_source = described.as_ref().and_then(|d| d.grammar.clone());
                None
            }
            // A target without a grammar file is handled as plain bytes.
            (None, Some(t), Some(p)) => Some(p.grammar(t)).filter(|g| {
                g.is_file() || {
                    eprintln!(
                        "note: no grammar {} for target {t}, and the target reports none (it is not a \
                         `grammar_fuzz_target!`, or was built with an older grammar-min); treating \
                         artifacts as plain bytes (pass --grammar FILE for grammar-aware steps)",
                        g.display()
                    );
                    false
                }
            }),
            _ => None,
        };
        let opts = LoadOptions {
            start: Some(self.start.clone()),
        };
        let grammar = match (&grammar_path, &grammar_source) {
            (Some(p), _) => Some(Grammar::from_path(p, &opts).map_err(|e| {
                anyhow::anyhow!(
                    "{e}\n(while loading grammar {}; pass --grammar FILE or run `cargo grammar-min check --grammar {}`)",
                    p.display(),
                    p.display()
                )
            })?),
            (None, Some(src)) => Some(Grammar::from_json_str(src, &opts).map_err(|e| {
                anyhow::anyhow!(
                    "{e}\n(while loading the grammar built into target {}; pass --grammar FILE)",
                    target.as_deref().unwrap_or_default()
                )
            })?),
            (None, None) => None,
        };
        let grammar_target = described.is_some();
        let mut kind = match self.input {
            InputKind::Auto if grammar_target && grammar.is_some() => InputKind::Choices,
            InputKind::Auto => InputKind::Text,
            k => k,
        };
        if let (InputKind::Auto, Some(t), Some(_), false) =
            (self.input, &target, &grammar, grammar_target)
        {
            eprintln!(
                "note: target {t} reports no grammar (it is not a `grammar_fuzz_target!`, or was \
                 built with an older grammar-min): its artifacts are read as text and parsed \
                 with the grammar (if it decodes choice sequences, rebuild it or pass --input choices)"
            );
        }
        if kind == InputKind::Choices && grammar.is_none() {
            bail!("--input choices needs a grammar (--grammar FILE)");
        }
        if self.grammatical && (grammar.is_none() || self.cmd.is_none()) {
            bail!(
                "--grammatical keeps --cmd candidates inside a grammar: it needs --cmd and a \
                 grammar (--grammar FILE); a fuzz target's candidates are sentences of its \
                 grammar already"
            );
        }
        // Text artifacts for a target that reads choices: encoded first.
        let text_artifacts = self.input == InputKind::Text && self.cmd.is_none() && grammar_target;
        if text_artifacts {
            if grammar.is_none() {
                bail!(
                    "--input text: target {} reads choice sequences, so text artifacts are parsed \
                     and encoded with its grammar, and it reports none (built with an older \
                     grammar-min?); pass --grammar FILE",
                    target.as_deref().unwrap_or_default()
                );
            }
            kind = InputKind::Choices;
        }
        // Decode the target's artifacts with the target's own budgets; the
        // command line overrides them.
        let reported = match (&binary, kind) {
            (Some(b), InputKind::Choices) if !self.decode.complete() => {
                let r = described.as_ref().map(|d| d.config);
                if r.is_none() {
                    let cfg = self.decode.config();
                    eprintln!(
                        "note: {} did not report its decoding budgets (rebuild it with this grammar-min); \
                         decoding with max_depth {} and max_len {}, pass --max-depth/--max-len if the target uses others",
                        b.display(),
                        cfg.max_depth,
                        cfg.max_len
                    );
                }
                r
            }
            _ => None,
        };
        let persistent = self.persistent || (grammar_target && !self.no_persistent);
        Ok((
            Session {
                args: self.clone(),
                target,
                project,
                grammar,
                grammar_path,
                kind,
                text_artifacts,
                grammar_source,
                persistent,
                grammar_target,
                binary,
                cfg: self.decode.config_over(reported.unwrap_or_default()),
                measured_timeout: Cell::new(None),
            },
            artifacts,
        ))
    }
}

impl Session {
    /// The text a candidate stands for (decoded for choice artifacts).
    pub fn text_of(&self, bytes: &[u8]) -> Vec<u8> {
        match (self.kind, &self.grammar) {
            (InputKind::Choices, Some(g)) => decode(g, bytes, &self.cfg),
            _ => bytes.to_vec(),
        }
    }

    fn limits(&self) -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs_f64(self.args.timeout.unwrap_or(10.0).max(0.001)),
            ..Default::default()
        }
    }

    /// The `--cmd` program's configuration (None without --cmd). Candidate
    /// files keep the artifact's extension.
    pub fn command_config(&self, artifact: &Path) -> Result<Option<CommandConfig>> {
        let Some(cmd) = &self.args.cmd else {
            return Ok(None);
        };
        let argv = split::split(cmd).with_context(|| format!("cannot split --cmd {cmd:?}"))?;
        let suffix = artifact
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let mut limits = self.limits();
        if self.args.timeout.is_none() {
            // 60 s until the original has reproduced (see `oracle`).
            limits.timeout = self
                .measured_timeout
                .get()
                .unwrap_or(Duration::from_secs(60));
        }
        Ok(Some(CommandConfig {
            argv,
            invalid_exit: self.args.invalid_exit,
            limits,
            jobs: self.args.jobs,
            suffix,
        }))
    }

    /// The oracle that checks for `original`'s failure. Verifies first
    /// that the original reproduces (`--repeat` times), with a clear error
    /// otherwise ([`Session::oracle`] adds a hint to it).
    pub fn start_oracle<'s>(
        &'s self,
        artifact: &Path,
        original: &[u8],
        quiet: bool,
    ) -> Result<Box<dyn Oracle + 's>> {
        let a = &self.args;
        let limits = self.limits();
        self.measured_timeout.set(None);
        match (self.command_config(artifact)?, &self.binary) {
            (Some(ccfg), _) => {
                let cmd = a.cmd.as_deref().unwrap_or_default();
                let mut o = CommandOracle::new(ccfg)?;
                let probe = self.text_of(original);
                let runs = repeat_runs(a.repeat, a.jobs, || o.run_raw(&probe));
                let mut slowest = Duration::ZERO;
                for (i, r) in runs.into_iter().enumerate() {
                    let run = i + 1;
                    let r = r.map_err(|e| crate::common::cannot_run(cmd, e))?;
                    let outcome = o.classify(&r);
                    if outcome != Outcome::Interesting {
                        let tail = crate::common::stderr_tail(&r.stderr);
                        bail!(
                            "the original {} is not interesting: run {run} of {} ended with {} \
                             ({outcome}); the command must exit 0 on it{}{tail}",
                            artifact.display(),
                            a.repeat,
                            r.exit,
                            shell_hint(cmd),
                        );
                    }
                    slowest = slowest.max(r.elapsed);
                }
                // Reproduced, perhaps only because a shell word made the
                // command another one (`echo {} >> log; grep -q x {}`).
                let hint = shell_hint(cmd);
                if !quiet && !hint.is_empty() {
                    eprintln!("warning:{}", hint.trim_start_matches("\nnote:"));
                }
                if a.timeout.is_none() {
                    let t = auto_timeout(slowest);
                    self.measured_timeout.set(Some(t));
                    o.set_timeout(t);
                    if !quiet {
                        eprintln!(
                            "note: runs time out after {:.1} s (20 × the original's slowest run, \
                             {} ms, at least 0.5 s; --timeout S to set)",
                            t.as_secs_f64(),
                            slowest.as_millis()
                        );
                    }
                }
                Ok(match (self.kind, &self.grammar) {
                    (InputKind::Choices, Some(g)) => Box::new(Decoded::new(o, g, self.cfg)),
                    (_, Some(g)) if a.grammatical => Box::new(Parsed::new(o, g)),
                    _ => Box::new(o),
                })
            }
            (None, Some(bin)) => {
                if self.persistent {
                    let mut o = PersistentOracle::new(
                        bin.to_path_buf(),
                        vec![],
                        a.signature,
                        limits.timeout,
                        original,
                    )
                    .with_context(|| {
                        format!(
                            "cannot reproduce {} (persistent mode; --no-persistent starts \
                             the target once per candidate)",
                            artifact.display()
                        )
                    })?;
                    let first = o.reference().to_string();
                    // The child left without a report (its exit status 0):
                    // not a crash, but a target that does not answer in
                    // persistent mode.
                    if o.reference().kind == CrashKind::Exit(-1) && o.reference().location.is_none()
                    {
                        bail!(
                            "{}: in persistent mode the target ended without answering, so \
                             nothing shows it crashes: it does not speak this grammar-min's \
                             persistent mode (rebuild it: `cargo +nightly fuzz build`), or pass \
                             --no-persistent to run it once per candidate",
                            artifact.display()
                        );
                    }
                    for run in 2..=a.repeat {
                        match o.run_signature(original)? {
                            None => bail!(
                                "{} crashed on run 1 ({first}) but not on run {run} of {} in \
                                 persistent mode: a flaky crash, or one that needs a fresh \
                                 process (try --no-persistent)",
                                artifact.display(),
                                a.repeat
                            ),
                            Some(sig) if !o.reference().matches(&sig, a.signature) => bail!(
                                "{} is flaky: run 1 gave `{first}`, run {run} of {} gave `{sig}`; \
                                 compare less of the crash with --signature kind (or message), \
                                 or fix the nondeterminism",
                                artifact.display(),
                                a.repeat
                            ),
                            Some(_) => {}
                        }
                    }
                    if !quiet {
                        eprintln!(
                            "{}: reproduces (persistent mode): {}",
                            artifact.display(),
                            o.reference()
                        );
                    }
                    if a.jobs > 1 {
                        let pool = PersistentPool::new(o, a.jobs, original).with_context(|| {
                            format!(
                                "cannot start {} persistent target processes for -j {}",
                                a.jobs, a.jobs
                            )
                        })?;
                        return Ok(Box::new(pool));
                    }
                    Ok(Box::new(o))
                } else {
                    let o = TargetOracle::new(
                        TargetConfig {
                            binary: bin.to_path_buf(),
                            args: vec![],
                            level: a.signature,
                            limits: limits.clone(),
                            jobs: a.jobs,
                        },
                        original,
                        a.repeat,
                    )
                    .with_context(|| {
                        format!("cannot reproduce the crash of {}", artifact.display())
                    })?;
                    if !quiet {
                        eprintln!("{}: reproduces: {}", artifact.display(), o.reference());
                    }
                    Ok(Box::new(o))
                }
            }
            (None, None) => bail!("no oracle: give a TARGET or --cmd"),
        }
    }

    /// The bytes of an artifact as the oracle takes them: the file, or
    /// for text artifacts of a grammar target (`--input text`), the choice
    /// sequence of the text's parse.
    pub fn read_artifact(&self, artifact: &Path) -> Result<Vec<u8>> {
        let bytes = std::fs::read(artifact)
            .with_context(|| format!("cannot read artifact {}", artifact.display()))?;
        if !self.text_artifacts {
            return Ok(bytes);
        }
        let g = self
            .grammar
            .as_ref()
            .context("text artifacts need a grammar")?;
        let tree = crate::common::parse_text(
            g,
            &bytes,
            artifact,
            "(--input text: a text artifact is parsed and encoded into the choices the \
             target reads; fix the text, or drop --input text if the file is a choice sequence)",
        )?;
        encode(g, &tree, &self.cfg).map_err(|e| {
            anyhow::anyhow!(
                "{}: its parse cannot be encoded within the target's budgets \
                 (max_depth {}, max_len {}): {e}",
                artifact.display(),
                self.cfg.max_depth,
                self.cfg.max_len
            )
        })
    }
}

/// The default time limit of a `--cmd` run: 20 times the original's
/// slowest reproduction run, at least 0.5 s. Endless loops are common
/// among candidates of interpreter inputs (a loop's update deleted): on
/// a new user's awk scripts 98 of 908 runs timed out, most of the wall
/// time at the earlier floor of 1 s.
fn auto_timeout(slowest: Duration) -> Duration {
    (slowest * 20).max(Duration::from_millis(500))
}
