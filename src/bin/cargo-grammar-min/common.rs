//! Flag groups and helpers shared by subcommands.

use anyhow::Result;
use clap::Args;
use grammar_min::grammar::{Grammar, GrammarError, LoadOptions};
use std::path::PathBuf;

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
