//! `generate`: random inputs of a grammar from a seed.

use crate::common::{write_atomic, DecodeArgs, GrammarArgs, StreamArgs};
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::generate::{generate, GenerateConfig};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Generate random inputs of a grammar.
///
/// Each input is the decoding of a random choice sequence: random bytes from
/// a ChaCha8 generator seeded by --seed, of log-uniform length up to
/// --max-choices (as many short sequences as long ones). The same grammar,
/// seed and budgets always give the same inputs, and the first N inputs do
/// not depend on -n.
///
/// Without -o, inputs go to stdout one per line; an input containing a
/// newline is an error unless --escape (backslash escapes) or -0
/// (NUL-separated) is given. With -o DIR, input i is written to DIR/<i>.txt
/// and the choice sequence that decodes to it to DIR/<i>.choices (a seed for
/// a grammar fuzz target's corpus; `decode` turns it back into the text).
///
/// Example: cargo grammar-min generate --grammar grammars/expr.json -n 5 --seed 1
#[derive(Args, Debug)]
pub struct Generate {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// Number of inputs.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 10)]
    count: usize,
    /// Seed of the random generator.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Longest random choice sequence, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = GenerateConfig::default().max_choices)]
    max_choices: usize,
    #[command(flatten)]
    decode: DecodeArgs,
    /// Write DIR/<i>.txt (the input) and DIR/<i>.choices (its choice
    /// sequence) instead of printing; DIR is created if missing.
    #[arg(short, long, value_name = "DIR", conflicts_with_all = ["null", "escape"])]
    output: Option<PathBuf>,
    #[command(flatten)]
    stream: StreamArgs,
}

impl Generate {
    pub fn run(self) -> Result<ExitCode> {
        let g = self.grammar.load()?;
        let cfg = GenerateConfig {
            decode: self.decode.config(),
            max_choices: self.max_choices,
        };
        let samples = generate(&g, self.seed, &cfg).take(self.count);
        match &self.output {
            Some(dir) => {
                std::fs::create_dir_all(dir).with_context(|| {
                    format!(
                        "cannot create output directory {}; check the path and permissions",
                        dir.display()
                    )
                })?;
                let width = self.count.saturating_sub(1).to_string().len();
                for (i, s) in samples.enumerate() {
                    write_atomic(&dir.join(format!("{i:0width$}.txt")), &s.text)?;
                    write_atomic(&dir.join(format!("{i:0width$}.choices")), &s.choices)?;
                }
                eprintln!(
                    "wrote {} inputs to {} (<i>.txt: input, <i>.choices: its choice sequence)",
                    self.count,
                    dir.display()
                );
            }
            None => {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::new(stdout.lock());
                for (i, s) in samples.enumerate() {
                    self.stream.write_item(&mut out, i, &s.text)?;
                }
                out.flush()?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}
