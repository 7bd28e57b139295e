//! `decode`: choice-sequence files to the inputs they stand for.

use crate::common::{write_atomic, DecodeArgs, StreamArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use grammar_min::generate::{decode_into, decode_tree};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Decode choice-sequence files into the inputs they stand for.
///
/// A grammar fuzz target reads libFuzzer's bytes as a choice sequence, so its
/// crash artifacts and corpus files are choice sequences: this prints the
/// text the target saw. With one ARTIFACT the text is written exactly (no
/// newline added), ready to pipe into the program under test; with several,
/// one per line (see --escape and -0 for inputs containing newlines).
/// --dot prints each derivation tree as Graphviz DOT instead. With -o DIR
/// each ARTIFACT is written to DIR/<its file name>.txt (or .dot) instead,
/// which suits a whole corpus.
///
/// A target decodes with its own grammar and budgets (`config` in
/// `grammar_fuzz_target!`); --target NAME asks the built target for both,
/// so inputs come out exactly as the target saw them (a --grammar file that
/// differs from the target's gets a warning: rebuild the target).
///
/// Examples:
///   cargo grammar-min decode --target calc fuzz/artifacts/calc/crash-0a1b
///   cargo grammar-min decode --target calc -o corpus-text fuzz/corpus/calc
///   cargo grammar-min decode --grammar grammars/json.json --dot seed.choices | dot -Tsvg > tree.svg
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Decode {
    #[command(flatten)]
    grammar: crate::common::TargetGrammarArgs,
    /// Choice-sequence files (fuzz artifacts, corpus entries, `generate -o`
    /// `.choices` files); a directory stands for its files (a corpus).
    #[arg(required = true, value_name = "ARTIFACT")]
    artifacts: Vec<PathBuf>,
    /// Print the derivation tree as Graphviz DOT instead of the text.
    #[arg(long)]
    dot: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    target: crate::common::TargetBudgetArgs,
    /// Write each ARTIFACT's text to DIR/<artifact file name>.txt (.dot with
    /// --dot) instead of printing; DIR is created if missing. Artifacts are
    /// never modified.
    #[arg(short, long, value_name = "DIR", conflicts_with_all = ["null", "escape"])]
    output: Option<PathBuf>,
    #[command(flatten)]
    stream: StreamArgs,
}

impl Decode {
    pub fn run(mut self) -> Result<ExitCode> {
        let (g, cfg) = self
            .target
            .grammar_and_config(&self.grammar, &self.decode)?;
        self.artifacts = expand_dirs(&self.artifacts)?;
        // Read everything first, so a bad path produces no partial output.
        let mut inputs = Vec::with_capacity(self.artifacts.len());
        for path in &self.artifacts {
            let bytes = std::fs::read(path).with_context(|| {
                format!(
                    "cannot read choice sequence {}; check the path (artifacts are under \
                     fuzz/artifacts/<target>/)",
                    path.display()
                )
            })?;
            inputs.push(bytes);
        }
        if let Some(dir) = &self.output {
            return self.write_files(&g, &cfg, &inputs, dir);
        }
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let raw = inputs.len() == 1 && !self.stream.null && !self.stream.escape;
        let mut text = Vec::new();
        for (i, choices) in inputs.iter().enumerate() {
            if self.dot {
                let t = decode_tree(&g, choices, &cfg);
                out.write_all(t.to_dot(&g).as_bytes())?;
                continue;
            }
            text.clear();
            decode_into(&g, choices, &cfg, &mut text);
            if raw {
                out.write_all(&text)?;
            } else {
                self.stream
                    .write_item(&mut out, i, &text)
                    .with_context(|| {
                        format!("while printing the text of {}", self.artifacts[i].display())
                    })?;
            }
        }
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }

    /// `-o DIR`: one output file per artifact, named after it.
    fn write_files(
        &self,
        g: &grammar_min::grammar::Grammar,
        cfg: &grammar_min::generate::DecodeConfig,
        inputs: &[Vec<u8>],
        dir: &std::path::Path,
    ) -> Result<ExitCode> {
        let ext = if self.dot { "dot" } else { "txt" };
        // Check every name before writing anything: two artifacts with the
        // same file name (from different directories) would overwrite each
        // other's output.
        let mut names: HashMap<PathBuf, &PathBuf> = HashMap::new();
        let mut outs = Vec::with_capacity(inputs.len());
        for path in &self.artifacts {
            let Some(name) = path.file_name() else {
                bail!(
                    "{} has no file name to name its output after; give the artifact's file path",
                    path.display()
                );
            };
            let mut file = name.to_os_string();
            file.push(".");
            file.push(ext);
            let out = dir.join(file);
            if let Some(prev) = names.insert(out.clone(), path) {
                bail!(
                    "{} and {} would both be written to {}; decode them into separate \
                     directories",
                    prev.display(),
                    path.display(),
                    out.display()
                );
            }
            outs.push(out);
        }
        // Text files written next to the artifacts would join the corpus
        // (libFuzzer reads every file of it) or the artifact directory.
        if let Ok(d) = dir.canonicalize() {
            if let Some(a) = self.artifacts.iter().find(|a| {
                a.canonicalize()
                    .ok()
                    .and_then(|a| a.parent().map(|p| p == d))
                    .unwrap_or(false)
            }) {
                bail!(
                    "{} is the directory of {}: the decoded files would be mixed into it; \
                     choose another -o DIR",
                    dir.display(),
                    a.display()
                );
            }
        }
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "cannot create output directory {}; check the path and permissions",
                dir.display()
            )
        })?;
        let mut text = Vec::new();
        for (choices, out) in inputs.iter().zip(&outs) {
            if self.dot {
                write_atomic(out, decode_tree(g, choices, cfg).to_dot(g).as_bytes())?;
            } else {
                text.clear();
                decode_into(g, choices, cfg, &mut text);
                write_atomic(out, &text)?;
            }
        }
        eprintln!("wrote {} file(s) to {}", outs.len(), dir.display());
        Ok(ExitCode::SUCCESS)
    }
}

/// `paths` with each directory replaced by its regular files (not hidden
/// ones, nor the results `reduce` and `generalize` leave next to
/// artifacts), sorted, so a whole corpus or artifacts directory can be
/// given.
fn expand_dirs(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        if !p.is_dir() {
            if p.to_string_lossy().ends_with(".min") {
                eprintln!(
                    "note: {} looks like `reduce`'s text result, not a choice sequence: \
                     decode {}.choices instead",
                    p.display(),
                    p.display()
                );
            }
            out.push(p.clone());
            continue;
        }
        let mut files = crate::common::files_in(p)?;
        let before = files.len();
        files.retain(|f| !crate::artifacts::is_reduce_result(f));
        if files.len() < before {
            eprintln!(
                "note: skipping {} result file(s) of reduce/generalize in {} (.min, \
                 .min.choices, .pattern.json); pass them by name to decode them",
                before - files.len(),
                p.display()
            );
        }
        if files.is_empty() {
            bail!("{} has no files to decode", p.display());
        }
        out.extend(files);
    }
    Ok(out)
}
