//! `seed`: turn a directory of real inputs into a libFuzzer seed corpus of
//! choice sequences.

use crate::common::{write_atomic, DecodeArgs};
use anyhow::{Context, Result};
use clap::Args;
use grammar_min::parse::{respace_first, Parser};
use std::path::PathBuf;
use std::process::ExitCode;

/// Turn a directory of real inputs (text files) into a seed corpus for a
/// grammar fuzz target.
///
/// Every file is parsed with the grammar and encoded as the choice sequence
/// the target decodes back into exactly that file. A file whose blanks or
/// letter case differ from the grammar's spelling (a trailing newline,
/// `1+2` where the grammar writes `1 + 2`, `select` for `SELECT`) is
/// seeded in the grammar's spelling, and the
/// listing says so (--exact skips such files instead). Each sequence is written
/// to CORPUS_DIR under the hex SHA-1 of its content (libFuzzer's own naming,
/// so re-running is idempotent and libFuzzer sees no duplicates). Files that
/// do not parse, or do not fit the target's decoder budgets, are listed with
/// their error and skipped. Exits 0 if at least one file was written.
/// The budgets are the target's own with --target NAME (asked from its
/// built binary), else the defaults or --max-depth/--max-len.
///
/// Examples:
///
/// cargo grammar-min seed --grammar grammars/json.json examples/ fuzz/corpus/json/
///
/// cargo grammar-min seed --grammar grammars/calc.json --target calc progs/ fuzz/corpus/calc/
#[derive(Args, Debug)]
pub struct Seed {
    #[command(flatten)]
    grammar: crate::common::TargetGrammarArgs,
    /// Directory of real inputs (regular files; subdirectories are skipped).
    text_dir: PathBuf,
    /// Corpus directory to write (created if missing).
    corpus_dir: PathBuf,
    #[command(flatten)]
    budget: DecodeArgs,
    #[command(flatten)]
    target: crate::common::TargetBudgetArgs,
    /// Skip files that parse only with their blanks or letter case changed.
    #[arg(long)]
    exact: bool,
}

impl Seed {
    pub fn run(self) -> Result<ExitCode> {
        let (g, cfg) = self
            .target
            .grammar_and_config(&self.grammar, &self.budget)?;
        let parser = Parser::new(&g);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.text_dir)
            .with_context(|| format!("cannot read input directory {}", self.text_dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        std::fs::create_dir_all(&self.corpus_dir).with_context(|| {
            format!(
                "cannot create corpus directory {}",
                self.corpus_dir.display()
            )
        })?;
        let (mut written, mut skipped) = (0usize, 0usize);
        // Files that encode alike (other blanks, the same text) are one
        // corpus entry.
        let mut names = std::collections::HashSet::new();
        for f in &files {
            let text = match std::fs::read(f) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("skipped {}: cannot read: {e}", f.display());
                    skipped += 1;
                    continue;
                }
            };
            let mut note = String::new();
            let tree = parser.parse(&text).or_else(|e| {
                match (!self.exact).then(|| respace_first(&g, &text)).flatten() {
                    Some((how, r)) => {
                        note = format!(", {}", how.describe());
                        Ok(r.tree)
                    }
                    None => Err(grammar_min::parse::past_blanks(&g, &text, e)),
                }
            });
            let choices = tree
                .map_err(|e| e.to_string())
                .and_then(|t| grammar_min::encode::encode(&g, &t, &cfg).map_err(|e| e.to_string()));
            match choices {
                Ok(c) => {
                    let name = sha1_smol::Sha1::from(&c).digest().to_string();
                    if !names.insert(name.clone()) {
                        println!(
                            "{} -> {name} (the same as an earlier file{note})",
                            f.display()
                        );
                        continue;
                    }
                    write_atomic(&self.corpus_dir.join(&name), &c)?;
                    println!("{} -> {name} ({} bytes{note})", f.display(), c.len());
                    written += 1;
                }
                Err(e) => {
                    eprintln!("skipped {}: {e}", f.display());
                    skipped += 1;
                }
            }
        }
        // Every file is written, skipped or the same as one written.
        let same = files.len() - written - skipped;
        let dups = if same > 0 {
            format!(" ({same} encoded as an earlier file)")
        } else {
            String::new()
        };
        println!(
            "seed: {written} of {} files written to {}{dups}, {skipped} skipped",
            files.len(),
            self.corpus_dir.display()
        );
        Ok(if written > 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}
