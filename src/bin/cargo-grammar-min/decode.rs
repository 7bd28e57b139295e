//! `decode`: choice-sequence files to the inputs they stand for.

use crate::common::{DecodeArgs, GrammarArgs, StreamArgs};
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::generate::{decode_into, decode_tree};
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
/// --dot prints each derivation tree as Graphviz DOT instead.
///
/// Examples:
///   cargo grammar-min decode --grammar grammars/expr.json fuzz/artifacts/expr/crash-0a1b2c
///   cargo grammar-min decode --grammar grammars/json.json --dot seed.choices | dot -Tsvg > tree.svg
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Decode {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// Choice-sequence files (fuzz artifacts, corpus entries, `generate -o`
    /// `.choices` files).
    #[arg(required = true, value_name = "ARTIFACT")]
    artifacts: Vec<PathBuf>,
    /// Print the derivation tree as Graphviz DOT instead of the text.
    #[arg(long)]
    dot: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    stream: StreamArgs,
}

impl Decode {
    pub fn run(self) -> Result<ExitCode> {
        let g = self.grammar.load()?;
        let cfg = self.decode.config();
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
                    .with_context(|| format!("while writing {}", self.artifacts[i].display()))?;
            }
        }
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}
