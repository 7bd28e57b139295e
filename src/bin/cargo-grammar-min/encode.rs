//! `encode`: turn a text file into the choice sequence a grammar fuzz
//! target decodes back into it.

use crate::common::GrammarArgs;
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::generate::DecodeConfig;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turn a text file into a choice sequence (a libFuzzer input for a
/// grammar fuzz target) that decodes back to exactly that text.
///
/// The budgets must match the fuzz target's `DecodeConfig` (the defaults
/// do). If the text is too deep or too long for them, the command fails
/// naming the value needed; `--auto` raises them instead and prints the
/// config the sequence needs.
///
/// Example: cargo grammar-min encode --grammar grammars/json.json doc.json -o seed.bin
#[derive(Args, Debug)]
pub struct Encode {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// The text file to encode.
    input: PathBuf,
    /// Where to write the choice sequence (written atomically).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Raise the budgets as far as the text needs (print the config used).
    #[arg(long)]
    auto: bool,
}

/// The decoder's budgets, as the fuzz target sets them.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// DecodeConfig::max_depth of the fuzz target.
    #[arg(long, value_name = "D", default_value_t = DecodeConfig::default().max_depth)]
    pub max_depth: u32,
    /// DecodeConfig::max_len of the fuzz target.
    #[arg(long, value_name = "L", default_value_t = DecodeConfig::default().max_len)]
    pub max_len: usize,
}

impl BudgetArgs {
    pub fn config(&self) -> DecodeConfig {
        DecodeConfig {
            max_depth: self.max_depth,
            max_len: self.max_len,
        }
    }
}

impl Encode {
    pub fn run(self) -> Result<ExitCode> {
        let g = self.grammar.load()?;
        let text = std::fs::read(&self.input)
            .with_context(|| format!("cannot read input file {}", self.input.display()))?;
        let tree = match grammar_min::parse::parse(&g, &text) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", self.input.display());
                return Ok(ExitCode::from(1));
            }
        };
        let cfg = self.budget.config();
        let (choices, used) = if self.auto {
            grammar_min::encode::encode_auto(&g, &tree, &cfg)
        } else {
            grammar_min::encode::encode(&g, &tree, &cfg).map(|c| (c, cfg))
        }
        .map_err(|e| anyhow::anyhow!("{}: {e}", self.input.display()))?;
        write_atomic(&self.output, &choices)?;
        eprintln!(
            "wrote {} ({} choice bytes for {} bytes of text; decodes under max_depth {} max_len {})",
            self.output.display(),
            choices.len(),
            text.len(),
            used.max_depth,
            used.max_len
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// Writes `bytes` to `path` through a temporary file in the same
/// directory and a rename, so readers never see a partial file.
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
    std::fs::write(&tmp, bytes).with_context(|| {
        format!(
            "cannot write {} (is the directory writable?)",
            tmp.display()
        )
    })?;
    std::fs::rename(&tmp, path).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot rename {} to {}", tmp.display(), path.display())
    })?;
    Ok(())
}
