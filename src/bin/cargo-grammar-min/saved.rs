//! What `reduce`, `generalize`, `bucket` and `instantiate` keep on disk
//! between runs: `reduce`'s `.min` results (written here, reused when
//! they still fail), and saved patterns.

use crate::common::{shell_quote, write_atomic};
use crate::session::{InputKind, Session};
use crate::settle::{settle, History};
use anyhow::Result;
use grammar_min::oracle::signature::CrashKind;
use grammar_min::oracle::{ConfirmStats, Confirming, Oracle, Outcome, Parsed};
use grammar_min::reduce::{Event, Tester};
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Session {
    /// Runs a failing candidate must fail in a row to count while
    /// reducing: `--confirm`, else 2 for a crash that happens past a
    /// threshold (stack overflow, timeout, out of memory), else 1.
    pub fn confirm_times(&self, oracle: &dyn Oracle) -> u32 {
        self.args
            .confirm
            .unwrap_or_else(|| match oracle.signature().map(|s| &s.kind) {
                Some(CrashKind::StackOverflow | CrashKind::Timeout | CrashKind::OutOfMemory) => 2,
                _ => 1,
            })
    }

    /// A copy-pasteable command that reruns `path` (the result of a step).
    pub fn reproduce_line(&self, text_path: &Path, choices_path: Option<&Path>) -> String {
        match (&self.args.cmd, &self.target) {
            (Some(cmd), _) => {
                let p = shell_quote(&text_path.display().to_string());
                if cmd.contains("{}") {
                    cmd.replace("{}", &p)
                } else {
                    format!("{cmd} {p}")
                }
            }
            (None, Some(t)) => format!(
                "cargo +nightly fuzz run {t} {}",
                shell_quote(&choices_path.unwrap_or(text_path).display().to_string())
            ),
            _ => String::new(),
        }
    }

    /// Writes a result (text, plus choices for choice artifacts).
    pub fn write_result(&self, text_path: &Path, bytes: &[u8]) -> Result<Option<PathBuf>> {
        write_atomic(text_path, &self.text_of(bytes))?;
        if self.kind == InputKind::Choices {
            let c = PathBuf::from(format!("{}.choices", text_path.display()));
            write_atomic(&c, bytes)?;
            return Ok(Some(c));
        }
        Ok(None)
    }
}

/// Result of [`Session::reduce_artifact`].
pub struct ReducedArtifact {
    /// The reduced input, as the oracle takes it (choices or text).
    pub bytes: Vec<u8>,
    /// Oracle runs spent (0 when an earlier `.min` result was reused).
    pub tests: u64,
    /// An earlier result of `reduce` was reused.
    pub reused: bool,
}

impl Session {
    /// [`Session::start_oracle`]; when the original does not reproduce as
    /// a choice sequence but is a text of the grammar, the error says to
    /// pass `--input text` (a text read as choices decodes to something
    /// else, which seldom fails).
    pub fn oracle<'s>(
        &'s self,
        artifact: &Path,
        original: &[u8],
        quiet: bool,
    ) -> Result<Box<dyn Oracle + 's>> {
        self.start_oracle(artifact, original, quiet).map_err(|e| {
            let name = artifact.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with("timeout-") && self.args.timeout.is_none() {
                return anyhow::anyhow!(
                    "{e:#}\nnote: libFuzzer saved {name} as a timeout: give --timeout S, below \
                     the time the input takes and at most the -timeout it was fuzzed with, so \
                     that a run that long is the failure"
                );
            }
            let (InputKind::Choices, Some(g)) = (self.kind, &self.grammar) else {
                return e;
            };
            // A text artifact the grammar parses only respelled: the
            // target ran the respelling, which may not fail.
            let read = grammar_min::generate::decode(g, original, &self.cfg);
            match std::fs::read(artifact) {
                Ok(file) if self.text_artifacts && file != read => {
                    return anyhow::anyhow!(
                        "{e:#}\nnote: {} does not parse as it is, so the target ran it in the \
                         grammar's spelling ({}): if that difference matters to the crash, \
                         reduce the file without the target (--cmd CHECK, --strategy blind) or \
                         let the grammar take it as it is",
                        artifact.display(),
                        grammar_min::reduce::first_difference(&file, &read)
                            .trim_start_matches("; ")
                    );
                }
                _ => {}
            }
            let text = !original.is_empty()
                && std::str::from_utf8(original).is_ok()
                && crate::common::parse_text(g, original, artifact, "").is_ok();
            if !text {
                return e;
            }
            anyhow::anyhow!(
                "{e:#}\nnote: {} is a text of the grammar, read here as a choice sequence \
                 (the bytes a grammar target decodes): if it is a text, pass --input text",
                artifact.display()
            )
        })
    }

    /// `tester` ordering a choice artifact's candidates by the text they
    /// decode to (the user reads the text: a shorter one is the better
    /// result), shorter ones first. A `--cmd` program sees only that text,
    /// and so does the body of a `grammar_fuzz_target!`: the text is also
    /// the cache key (two sequences of one text run once). Another fuzz
    /// target reads the choices (its outcome may depend on more than the
    /// text). Other inputs: `tester`.
    pub fn order_by_text<'o>(&'o self, tester: Tester<'o>) -> Tester<'o> {
        let (InputKind::Choices, Some(g)) = (self.kind, &self.grammar) else {
            return tester;
        };
        let cfg = self.cfg;
        let text = move |c: &[u8]| grammar_min::generate::decode(g, c, &cfg);
        if self.args.cmd.is_some() || self.grammar_target {
            tester.with_cache_key(text)
        } else {
            tester.with_image(text)
        }
        .with_image_bound()
    }

    /// Where `reduce` leaves its result for `artifact`, as the oracle takes
    /// it: `<artifact>.min.choices` for choice artifacts, else `.min`.
    pub fn min_path(&self, artifact: &Path) -> PathBuf {
        let base = format!("{}.min", artifact.display());
        PathBuf::from(if self.kind == InputKind::Choices {
            format!("{base}.choices")
        } else {
            base
        })
    }

    /// Reduces `original` to a smaller input that still fails and is still a
    /// sentence of the grammar (DDSET needs its derivation tree): the choice
    /// passes for choice artifacts; for text the `auto` pipeline with every
    /// candidate parsed before it runs (as `reduce --grammatical`), since
    /// its final token polish would otherwise leave the grammar. Reuses
    /// the `.min` result `reduce` left next to the artifact when it is no
    /// larger, still fails and still parses. Writes a new result next to
    /// the artifact only when there was none.
    pub fn reduce_artifact(
        &self,
        oracle: &mut dyn Oracle,
        artifact: &Path,
        original: &[u8],
    ) -> Result<ReducedArtifact> {
        use grammar_min::reduce::{reduce_choices, reduce_text, ReduceError, Strategy};
        let min = self.min_path(artifact);
        let prev = std::fs::read(&min).ok();
        // A text written otherwise than the grammar spells it may reduce
        // to a longer sentence of the grammar (below).
        let respelled = || {
            self.kind != InputKind::Choices
                && self
                    .grammar
                    .as_ref()
                    .is_some_and(|g| grammar_min::parse::parse(g, original).is_err())
        };
        if let Some(prev) = &prev {
            if (prev.len() <= original.len() || respelled())
                && self.tree_of(prev, &min).is_ok()
                && oracle.test(prev) == Outcome::Interesting
            {
                return Ok(ReducedArtifact {
                    bytes: prev.clone(),
                    tests: 1,
                    reused: true,
                });
            }
        }
        // A text is reduced as `reduce --grammatical` does (`auto`, every
        // candidate parsed first), so the result keeps a derivation tree.
        let times = self.confirm_times(oracle);
        let confirmed = Arc::new(ConfirmStats::default());
        let mut history = History::default();
        let (r, runs) = {
            let mut confirming = Confirming::new(&mut *oracle, times, confirmed.clone());
            let mut parsed;
            let oracle: &mut dyn Oracle = match (self.kind, &self.grammar) {
                (InputKind::Choices, _) | (_, None) => &mut confirming,
                (_, Some(g)) => {
                    parsed = Parsed::new(&mut confirming, g);
                    &mut parsed
                }
            };
            let tester = Tester::new(oracle).with_observer(|e| {
                if let (Event::Improved(b), true) = (e, times > 1) {
                    history.push(b);
                }
            });
            let mut tester = self.order_by_text(tester);
            tester.seed(original, Outcome::Interesting);
            let r = match (self.kind, &self.grammar) {
                (InputKind::Choices, Some(g)) => {
                    reduce_choices(g, &self.cfg, original, Strategy::Auto, &mut tester)
                }
                (_, g) => reduce_text(g.as_ref(), original, Strategy::Auto, &mut tester),
            };
            // Candidates the grammar did not parse cost no run.
            (r, tester.runs())
        };
        let mut r = r.map_err(|e| {
            let hint = match e {
                ReduceError::Unparseable { .. } => {
                    "\na pattern is built on the input's derivation tree, so the input \
                     must parse with the grammar. A `.min` file from `reduce` may have \
                     left the grammar's language in its final token and byte polish: \
                     give the original artifact instead (this command reduces it \
                     within the grammar); otherwise fix the input or the grammar"
                }
                _ => "",
            };
            anyhow::anyhow!("cannot generalise {}: {e}{hint}", artifact.display())
        })?;
        // DDSET needs a sentence of the grammar: for a text that parses
        // only respaced, the reduction in the grammar's spelling, even
        // where that is longer than the text.
        if let Some(spelled) = r.spelled.take() {
            r.output = spelled;
        }
        // Confirming runs cost runs too; so does settling the result.
        let mut tests = runs + confirmed.get().0;
        if times > 1 {
            let s = settle(oracle, &history, &r.output, original);
            tests += s.runs;
            if let Some(f) = s.fallback {
                r.output = f;
            }
        }
        if prev.is_none() {
            let text_path = PathBuf::from(format!("{}.min", artifact.display()));
            self.write_result(&text_path, &r.output)?;
        }
        Ok(ReducedArtifact {
            bytes: r.output,
            tests,
            reused: false,
        })
    }
}

/// A pattern as saved by `generalize` and `bucket`: enough to instantiate it
/// later without the original run.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct SavedPattern {
    /// The grammar file the pattern refers to (absent when the grammar
    /// came from the fuzz target itself: then `grammar_json` holds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grammar: Option<PathBuf>,
    /// The grammar's JSON text, when no file holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grammar_json: Option<String>,
    /// Its start symbol.
    pub start: String,
    /// Instances are fed to the target as choice sequences (`choices`) or
    /// as text (`text`).
    pub input: String,
    /// Decoder budgets used for choice sequences.
    pub max_depth: u32,
    pub max_len: usize,
    #[serde(flatten)]
    pub pattern: grammar_min::ddset::PatternFile,
}

impl Session {
    /// Serialisable form of a pattern of this session.
    pub fn save_pattern(&self, p: &grammar_min::ddset::Pattern) -> Option<SavedPattern> {
        let g = self.grammar.as_ref()?;
        Some(SavedPattern {
            grammar: self.grammar_path.clone(),
            grammar_json: self
                .grammar_path
                .is_none()
                .then(|| self.grammar_source.clone())
                .flatten(),
            start: self.args.start.clone(),
            input: if self.kind == InputKind::Choices {
                "choices".into()
            } else {
                "text".into()
            },
            max_depth: self.cfg.max_depth,
            max_len: self.cfg.max_len,
            pattern: p.to_file(g),
        })
    }
}
