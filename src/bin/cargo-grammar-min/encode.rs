//! `encode`: turn a text file into the choice sequence a grammar fuzz
//! target decodes back into it.

use crate::common::{write_atomic, DecodeArgs};
use anyhow::{bail, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turn a text file into a choice sequence (a libFuzzer input for a
/// grammar fuzz target) that decodes back to exactly that text.
///
/// The budgets must match the fuzz target's `DecodeConfig`: the defaults
/// match a target that keeps the default config; --target NAME takes them
/// from the built target. If the text is too deep or too long for them,
/// the command fails naming the value needed; `--auto` raises them instead
/// and prints the config the sequence needs.
///
/// Examples:
///
/// cargo grammar-min encode --grammar grammars/json.json doc.json -o seed.bin
///
/// cargo grammar-min encode --grammar grammars/calc.json --target calc prog.calc -o seed.bin
///
/// cargo grammar-min encode --grammar grammars/json.json doc.json | xxd
#[derive(Args, Debug)]
pub struct Encode {
    #[command(flatten)]
    grammar: crate::common::TargetGrammarArgs,
    /// The text file to encode.
    input: PathBuf,
    /// Where to write the choice sequence (written atomically). Without
    /// it, or with `-`, the bytes go to stdout, unless that is a terminal.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    #[command(flatten)]
    budget: DecodeArgs,
    #[command(flatten)]
    target: crate::common::TargetBudgetArgs,
    /// Raise the budgets as far as the text needs (print the config used).
    #[arg(long)]
    auto: bool,
    /// A text that parses only with its blanks or letter case changed (a
    /// final newline, `1+2` for the grammar's `1 + 2`) is encoded in the
    /// grammar's spelling, as `seed` and `reduce` take it: the sequence
    /// then decodes to that spelling, not byte for byte to the file.
    #[arg(long)]
    respell: bool,
}

impl Encode {
    pub fn run(self) -> Result<ExitCode> {
        let (g, cfg) = self
            .target
            .grammar_and_config(&self.grammar, &self.budget)?;
        let Some((text, tree)) = crate::common::read_and_parse(&g, &self.input, self.respell)?
        else {
            return Ok(ExitCode::from(1));
        };
        let (choices, used) = if self.auto {
            grammar_min::encode::encode_auto(&g, &tree, &cfg)
        } else {
            grammar_min::encode::encode(&g, &tree, &cfg).map(|c| (c, cfg))
        }
        .map_err(|e| anyhow::anyhow!("{}: {e}", self.input.display()))?;
        let to = match self.output.as_deref().filter(|o| *o != Path::new("-")) {
            Some(path) => {
                write_atomic(path, &choices)?;
                path.display().to_string()
            }
            None => {
                let mut out = std::io::stdout().lock();
                if out.is_terminal() {
                    bail!(
                        "a choice sequence is binary and stdout is a terminal: \
                         give -o FILE, or pipe the output (`| xxd`)"
                    );
                }
                out.write_all(&choices)?;
                out.flush()?;
                "stdout".to_string()
            }
        };
        eprintln!(
            "wrote {to} ({} choice bytes for {} bytes of text; decodes under max_depth {} max_len {})",
            choices.len(),
            text.len(),
            used.max_depth,
            used.max_len
        );
        Ok(ExitCode::SUCCESS)
    }
}
