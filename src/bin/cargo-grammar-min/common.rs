//! Flag groups and helpers shared by subcommands.

use anyhow::{bail, Context, Result};
use clap::Args;
use grammar_min::generate::DecodeConfig;
use grammar_min::grammar::{Grammar, GrammarError, LoadOptions};
use grammar_min::parse::{respace_first, Parser};
use grammar_min::tree::Tree;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which grammar to use.
#[derive(Args, Debug, Clone)]
pub struct GrammarArgs {
    /// Grammar file (fuzzingbook or token-list JSON).
    #[arg(short, long, value_name = "FILE")]
    pub grammar: PathBuf,
    /// Start symbol.
    #[arg(long, value_name = "NONTERMINAL", default_value = "<start>")]
    pub start: String,
}

impl GrammarArgs {
    /// Loads the grammar, printing its warnings to stderr.
    #[allow(dead_code)] // used by subcommands on other branches
    pub fn load(&self) -> Result<Grammar> {
        let g = self.try_load().map_err(|e| {
            anyhow::anyhow!(
                "{e}\n(while loading grammar {}; run `cargo grammar-min check --grammar {}` for a full report)",
                self.grammar.display(),
                self.grammar.display()
            )
        })?;
        for w in g.warnings() {
            eprintln!("{}: {w}", self.grammar.display());
        }
        Ok(g)
    }

    /// Loads the grammar, returning its typed error.
    pub fn try_load(&self) -> Result<Grammar, GrammarError> {
        Grammar::from_path(
            &self.grammar,
            &LoadOptions {
                start: Some(self.start.clone()),
            },
        )
    }
}

/// Decoder budgets (see `grammar_min::generate::DecodeConfig`).
#[derive(Args, Debug, Clone)]
pub struct DecodeArgs {
    /// Nodes deeper than this take only their shallowest alternatives, so
    /// generation winds down (root has depth 0). Default 2048; with a fuzz
    /// target, the target's own budget.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Once the output is sure to exceed this many bytes, expansions take
    /// only their shallowest alternatives (the output can overshoot by the
    /// shortest completions of what is pending). Default 1048576; with a
    /// fuzz target, the target's own budget.
    #[arg(long, value_name = "L")]
    pub max_len: Option<usize>,
}

impl DecodeArgs {
    /// The library config these flags describe (defaults where not given).
    pub fn config(&self) -> DecodeConfig {
        self.config_over(DecodeConfig::default())
    }

    /// `base` with the budgets given on the command line put in.
    pub fn config_over(&self, base: DecodeConfig) -> DecodeConfig {
        DecodeConfig {
            max_depth: self.max_depth.unwrap_or(base.max_depth),
            max_len: self.max_len.unwrap_or(base.max_len),
        }
    }

    /// Were both budgets given?
    pub fn complete(&self) -> bool {
        self.max_depth.is_some() && self.max_len.is_some()
    }

    /// A budget given that differs from the one a grammar target reports
    /// decodes its choices into other texts than the target does: an
    /// error that says what to change instead.
    pub fn check_target(&self, target: &DecodeConfig) -> Result<()> {
        let differs = [
            (
                "max-depth",
                self.max_depth.map(|d| d as usize),
                target.max_depth as usize,
            ),
            ("max-len", self.max_len, target.max_len),
        ]
        .into_iter()
        .find_map(|(flag, given, own)| given.filter(|&g| g != own).map(|g| (flag, g, own)));
        match differs {
            None => Ok(()),
            Some((flag, given, own)) => anyhow::bail!(
                "--{flag} {given} differs from the fuzz target's own budget ({own}, its \
                 DecodeConfig): the target would decode the choices into other texts. To take \
                 larger inputs, raise it in the target's DecodeConfig and rebuild; or reduce the \
                 text without the target, with --cmd CHECK --grammar FILE"
            ),
        }
    }
}

/// The regular files of `dir` that are not hidden (no leading `.`, so
/// temporary files of atomic writes are skipped), sorted.
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    v.sort();
    Ok(v)
}

/// `--target NAME`: decode with a built fuzz target's own budgets.
#[derive(Args, Debug, Clone)]
pub struct TargetBudgetArgs {
    /// Use the decoding budgets of this grammar fuzz target: its built
    /// binary (`cargo fuzz build NAME`) is asked for the `config` it
    /// decodes with, so the text matches what the target saw.
    /// --max-depth/--max-len override.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// With --target: the cargo-fuzz directory (default: `fuzz/` under the
    /// project root).
    #[arg(long, value_name = "DIR", requires = "target")]
    pub fuzz_dir: Option<PathBuf>,
    /// With --target: the cargo target directory of the fuzz build.
    #[arg(long, value_name = "DIR", requires = "target")]
    pub target_dir: Option<PathBuf>,
}

/// `--max-runs N`: DDSET's run budget (`generalize`, `bucket`).
#[derive(Args, Debug, Clone)]
pub struct DdsetBudgetArgs {
    /// DDSET's oracle runs at most (per artifact): past three quarters of
    /// them no more nodes are judged (they stay concrete), the rest go to
    /// verifying the abstractions together. A reduced input of a few
    /// dozen nodes needs far fewer; raise it for a large tree whose
    /// pattern should be as general as it can be. Before DDSET, lowering
    /// the reduced input to its canonical form (each node the grammar's
    /// earliest alternative of the same length that still fails, so that
    /// reductions of one bug agree) may take a fifth as many more.
    #[arg(long, value_name = "N", default_value_t = grammar_min::ddset::MAX_EXECUTIONS)]
    pub max_runs: u64,
}

impl DdsetBudgetArgs {
    /// The oracle runs [`grammar_min::ddset::canonicalize`] may take.
    pub fn canonical_runs(&self) -> u64 {
        self.max_runs / 5
    }

    /// What to tell the user when DDSET ran out of the budget.
    pub fn spent_note(&self) -> String {
        format!(
            "DDSET stopped at --max-runs {}: the nodes it did not judge stay concrete \
             (raise it for a more general pattern)",
            self.max_runs
        )
    }
}

/// A grammar file, optional where `--target` can name a grammar fuzz
/// target that reports its own.
#[derive(Args, Debug, Clone)]
pub struct TargetGrammarArgs {
    /// Grammar file (fuzzingbook or token-list JSON); default with
    /// --target: the grammar built into the target.
    #[arg(short, long, value_name = "FILE")]
    pub grammar: Option<PathBuf>,
    /// Start symbol.
    #[arg(long, value_name = "NONTERMINAL", default_value = "<start>")]
    pub start: String,
}

impl TargetBudgetArgs {
    /// The grammar and budgets to decode with. The grammar: `--grammar`,
    /// else the one built into `--target`; if both are given and differ,
    /// the target's (what it decodes with), with a warning. The budgets:
    /// the command line's, then the target's, then the defaults.
    pub fn grammar_and_config(
        &self,
        ga: &TargetGrammarArgs,
        decode: &DecodeArgs,
    ) -> Result<(Grammar, DecodeConfig)> {
        let file = |path: &PathBuf| {
            GrammarArgs {
                grammar: path.clone(),
                start: ga.start.clone(),
            }
            .load()
        };
        let Some(name) = &self.target else {
            let Some(path) = &ga.grammar else {
                bail!(
                    "no grammar: pass --grammar FILE, or --target NAME to use a built \
                     grammar fuzz target's own grammar and budgets"
                );
            };
            return Ok((file(path)?, decode.config()));
        };
        if let (Some(path), true) = (&ga.grammar, decode.complete()) {
            return Ok((file(path)?, decode.config()));
        }
        let reported = self.describe(name)?;
        let cfg = decode.config_over(reported.config);
        let Some(own) = reported.grammar else {
            let Some(path) = &ga.grammar else {
                bail!(
                    "{name} reports no grammar (built with an older grammar-min: rebuild it); \
                     pass --grammar FILE"
                );
            };
            return Ok((file(path)?, cfg));
        };
        if let Some(path) = &ga.grammar {
            if same_grammar(path, &own, name) {
                return Ok((file(path)?, cfg));
            }
        }
        let g = Grammar::from_json_str(
            &own,
            &LoadOptions {
                start: Some(ga.start.clone()),
            },
        )
        .map_err(|e| anyhow::anyhow!("the grammar built into {name} does not load: {e}"))?;
        Ok((g, cfg))
    }

    /// What the built target `name` reports (its budgets and grammar).
    fn describe(&self, name: &str) -> Result<grammar_min::oracle::describe::Described> {
        let cwd = std::env::current_dir()?;
        let project = grammar_min::oracle::discover::FuzzProject::discover(
            &cwd,
            self.fuzz_dir.as_deref(),
            self.target_dir.as_deref(),
        )
        .context("cannot find the cargo-fuzz project for --target")?;
        let binary = project
            .binary(name)
            .context("--target needs the built target (or give --max-depth and --max-len)")?;
        let Some(reported) =
            grammar_min::oracle::describe::ask(&binary, std::time::Duration::from_secs(10))
        else {
            bail!(
                "{} did not report its decoding budgets: it is not a `grammar_fuzz_target!` \
                 target, or was built with an older grammar-min (rebuild it); or pass \
                 --max-depth and --max-len",
                binary.display()
            );
        };
        Ok(reported)
    }
}

/// How several inputs are written to stdout.
#[derive(Args, Debug, Clone)]
pub struct StreamArgs {
    /// Separate inputs by NUL bytes instead of newlines (for `xargs -0`);
    /// an input containing a NUL byte is an error.
    #[arg(short = '0', long = "null", conflicts_with = "escape")]
    pub null: bool,
    /// Write each input on one line with backslash escapes (`\n`, `\r`,
    /// `\t`, `\\`, `\0`, `\xNN` for other control bytes and invalid UTF-8),
    /// so inputs containing newlines stay one per line.
    #[arg(long)]
    pub escape: bool,
}

impl StreamArgs {
    /// Writes input number `index` (for messages) followed by its
    /// separator.
    pub fn write_item(&self, out: &mut impl Write, index: usize, text: &[u8]) -> Result<()> {
        if self.escape {
            out.write_all(&escape(text))?;
            out.write_all(b"\n")?;
            return Ok(());
        }
        let sep = if self.null { b'\0' } else { b'\n' };
        if text.contains(&sep) {
            bail!(
                "input {index} contains a {} byte, so it cannot be written {}; \
                 use {}or -o DIR to write one file per input",
                if self.null { "NUL" } else { "newline" },
                if self.null {
                    "NUL-separated"
                } else {
                    "one per line"
                },
                if self.null {
                    "--escape "
                } else {
                    "--escape, -0 (NUL-separated) "
                }
            );
        }
        out.write_all(text)?;
        out.write_all(&[sep])?;
        Ok(())
    }
}

/// `text` for a terminal: as it is when it holds no control character
/// but line breaks and tabs and is valid UTF-8; else all of it escaped
/// as [`escape`] writes it, since a `\r` written out beside a raw `\`
/// could not be told from the two characters `\r`. The flag says which.
pub fn visible(text: &[u8]) -> (String, bool) {
    let plain = std::str::from_utf8(text)
        .is_ok_and(|s| !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
    if plain {
        (String::from_utf8_lossy(text).into_owned(), false)
    } else {
        (String::from_utf8_lossy(&escape(text)).into_owned(), true)
    }
}

/// Backslash-escapes `text` onto one line (see [`StreamArgs::escape`]).
pub fn escape(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\0' => out.extend_from_slice(b"\\0"),
                c if c.is_ascii_control() => {
                    out.extend_from_slice(format!("\\x{:02x}", c as u32).as_bytes())
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        for b in chunk.invalid() {
            out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
        }
    }
    out
}

/// Writes `bytes` to `path` through a hidden temporary file in the same
/// directory and a rename, so readers never see a half-written file and an
/// interrupted run leaves no partial output under the final name.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("output path {} has no file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp.{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .with_context(|| {
            let _ = std::fs::remove_file(&tmp);
            format!(
                "cannot write {}; check that the directory is writable and the disk not full",
                path.display()
            )
        })
}

/// Reads a text input and parses it with `g`; with `respell`, a text that
/// parses only in the grammar's spelling ([`respace_first`]) is taken in
/// that spelling, with a note. A parse error is printed (position,
/// expected terminals, the line with a caret) and gives `None`, for the
/// caller to exit 1; an unreadable file is an error.
pub fn read_and_parse(
    g: &Grammar,
    path: &Path,
    respell: bool,
) -> Result<Option<(Vec<u8>, grammar_min::tree::Tree)>> {
    let text = std::fs::read(path)
        .with_context(|| format!("cannot read input file {}", path.display()))?;
    match grammar_min::parse::parse(g, &text) {
        Ok(t) => Ok(Some((text, t))),
        Err(e) => match grammar_min::parse::respace_first(g, &text) {
            Some((how, r)) if respell => {
                eprintln!(
                    "note: {} taken in the grammar's spelling ({})",
                    path.display(),
                    how.describe()
                );
                Ok(Some((r.text, r.tree)))
            }
            respaced => {
                let e = grammar_min::parse::past_blanks(g, &text, e);
                eprintln!("{}: {e}", path.display());
                if let Some((how, _)) = respaced {
                    eprintln!(
                        "note: it parses with its spelling changed ({}); `reduce`, `seed`, \
                         `generalize` and `encode --respell` take it that way; `parse --respell` shows its tree",
                        how.describe()
                    );
                }
                Ok(None)
            }
        },
    }
}

/// Quotes `s` for a POSIX shell when needed.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The last 15 lines of a command's stderr, for an error message.
pub fn stderr_tail(stderr: &[u8]) -> String {
    let err = String::from_utf8_lossy(stderr);
    let tail: Vec<&str> = err.lines().collect();
    match tail.len() {
        0 => "\n(the command wrote nothing to stderr)".to_string(),
        n => format!(
            "\n--- stderr (tail) ---\n{}",
            tail[n.saturating_sub(15)..].join("\n")
        ),
    }
}

/// Advice when `cmd` holds shell syntax (`|`, `>`, `&&`, `2>&1`, ...),
/// which `--cmd` passes to the program as plain arguments: `gcc {} 2>&1 |
/// grep -q x` makes gcc see `|` and `grep` as file names.
pub fn shell_hint(cmd: &str) -> String {
    let words = grammar_min::oracle::split::split(cmd).unwrap_or_default();
    let shelly = |w: &str| {
        matches!(w, "|" | "||" | "&&" | ";" | "&" | "|&")
            || w.starts_with('>')
            || w.starts_with('<')
            || w.starts_with("2>")
            || w.starts_with("1>")
            || w.starts_with("&>")
    };
    match words.iter().find(|w| shelly(w)) {
        Some(w) => format!(
            "\nnote: --cmd runs the program without a shell, so `{w}` reached it as an \
             argument; for pipes or redirections let a shell run it, e.g.\n  \
             --cmd 'sh -c \"gcc -c {{}} 2>&1 | grep -q division\"'\nor put the \
             commands in a script and give --cmd 'sh check.sh {{}}'"
        ),
        None => String::new(),
    }
}

/// The error for a `--cmd` program that could not be started, with what
/// to do about it.
pub fn cannot_run(cmd: &str, e: std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind;
    let words = grammar_min::oracle::split::split(cmd).unwrap_or_default();
    let program = words.first().map_or("", String::as_str);
    let path = Path::new(program);
    let hint = match e.kind() {
        ErrorKind::NotFound if path.is_file() => format!(
            "\n`{program}` exists, but the interpreter its first line (`#!`) names does not; \
             fix that line or name the interpreter, e.g. --cmd 'sh {program} {{}}'"
        ),
        ErrorKind::NotFound if program.contains('=') && !program.contains('/') => format!(
            "\n`{program}` sets a variable, which takes a shell; or use env: \
             --cmd 'env {cmd}'"
        ),
        ErrorKind::NotFound if !program.contains('/') => format!(
            "\nno program `{program}` on PATH; give its path, e.g. --cmd './{program} {{}}'"
        ),
        ErrorKind::NotFound => {
            format!("\nno file `{program}` (a relative path is taken from the current directory)")
        }
        ErrorKind::PermissionDenied if path.is_dir() => {
            format!("\n`{program}` is a directory, not a program")
        }
        ErrorKind::PermissionDenied => format!(
            "\n`{program}` is not executable: make it so (chmod +x {program}) or name its \
             interpreter, e.g. --cmd 'sh {program} {{}}'"
        ),
        _ => String::new(),
    };
    anyhow::anyhow!("cannot run {cmd:?}: {e}{hint}")
}

/// The parse tree of a text; for a text whose blanks differ from the
/// grammar's spelling, the tree of the grammar's spelling
/// ([`grammar_min::parse::respace`]). On failure: the parse error, where,
/// and `advice`.
pub fn parse_text(g: &Grammar, text: &[u8], what: &Path, advice: &str) -> Result<Tree> {
    Parser::new(g).parse(text).or_else(|e| {
        respace_first(g, text).map(|(_, r)| r.tree).ok_or_else(|| {
            anyhow::anyhow!(
                "{} does not parse with the grammar: {e}\n{advice}",
                what.display()
            )
        })
    })
}

/// Whether the grammar file `path` is the grammar `own` built into fuzz
/// target `target` (the same JSON); if not, says so on stderr: the
/// target's is the one to use, since it is what the target ran.
pub fn same_grammar(path: &Path, own: &str, target: &str) -> bool {
    let same = std::fs::read_to_string(path).ok().is_some_and(|t| {
        serde_json::from_str::<serde_json::Value>(&t).ok()
            == serde_json::from_str::<serde_json::Value>(own).ok()
    });
    if !same {
        eprintln!(
            "warning: {} differs from the grammar built into {target}; using the target's, \
             which is what it ran (rebuild the target after editing the grammar: \
             `cargo fuzz build {target}`)",
            path.display()
        );
    }
    same
}
