//! `instantiate`: fresh random inputs that fit a pattern.

use crate::common::{write_atomic, StreamArgs};
use crate::saved::SavedPattern;
use anyhow::{bail, Context, Result};
use clap::Args;
use grammar_min::ddset::{InstanceConfig, Pattern};
use grammar_min::encode::encode;
use grammar_min::generate::DecodeConfig;
use grammar_min::grammar::{Grammar, LoadOptions};
use rand::SeedableRng;
use std::path::PathBuf;
use std::process::ExitCode;

/// Random draws per instance asked for before `instantiate` settles for
/// fewer distinct ones.
const MAX_DRAWS_PER_INSTANCE: usize = 20;

/// Instantiate a pattern: random inputs in which every abstract node
/// (`<expr>`, ...) is replaced by a fresh random subtree.
///
/// Instances of a failure pattern are regression tests for the fix. One
/// per line on stdout, or one file each with -o DIR (plus `.choices` files,
/// the bytes a grammar fuzz target reads, when the pattern came from one).
///
/// Example: cargo grammar-min instantiate --pattern crash-1234.pattern.json -n 20
#[derive(Args, Debug)]
pub struct Instantiate {
    /// Pattern file written by `generalize` or `bucket`.
    #[arg(long, value_name = "FILE")]
    pub pattern: PathBuf,
    /// Number of instances, all different (fewer, with a note, when the
    /// pattern has fewer than N that random draws find).
    #[arg(short, default_value_t = 10)]
    pub n: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Grammar file (default: the one named in the pattern file).
    #[arg(short, long, value_name = "FILE")]
    pub grammar: Option<PathBuf>,
    /// Write one file per instance into DIR.
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub stream: StreamArgs,
}

impl Instantiate {
    pub fn run(self) -> Result<ExitCode> {
        let src = std::fs::read_to_string(&self.pattern)
            .with_context(|| format!("cannot read pattern file {}", self.pattern.display()))?;
        let saved: SavedPattern = serde_json::from_str(&src).with_context(|| {
            format!(
                "{} is not a pattern file (write one with `cargo grammar-min generalize`)",
                self.pattern.display()
            )
        })?;
        let opts = LoadOptions {
            start: Some(saved.start.clone()),
        };
        let (g, gname) = match (self.grammar.as_ref().or(saved.grammar.as_ref()), &saved.grammar_json) {
            (Some(gpath), _) => (
                Grammar::from_path(gpath, &opts).map_err(|e| {
                    anyhow::anyhow!(
                        "{e}\n(while loading grammar {}; pass --grammar FILE)",
                        gpath.display()
                    )
                })?,
                gpath.display().to_string(),
            ),
            (None, Some(src)) => (
                Grammar::from_json_str(src, &opts).map_err(|e| {
                    anyhow::anyhow!("{e}\n(while loading the grammar saved in the pattern file; pass --grammar FILE)")
                })?,
                "(the grammar saved in the pattern file)".to_string(),
            ),
            (None, None) => bail!(
                "{} names no grammar; pass --grammar FILE",
                self.pattern.display()
            ),
        };
        let p = Pattern::from_file(&g, &saved.pattern).map_err(|e| {
            anyhow::anyhow!(
                "pattern {} does not fit grammar {}: {e}",
                self.pattern.display(),
                gname
            )
        })?;
        let cfg = DecodeConfig {
            max_depth: saved.max_depth,
            max_len: saved.max_len,
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.seed);
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        // A pattern without abstract parts has one instance: itself.
        let n = if p.abstract_nodes().is_empty() && self.n > 1 {
            eprintln!(
                "note: the pattern has no abstract part (no <symbol> in it): its one instance \
                 is the pattern itself, written once"
            );
            1
        } else {
            self.n
        };
        let mut stdout = std::io::stdout().lock();
        // Distinct instances: a pattern whose abstract parts have few
        // expansions (`<sign>`: `+` or `-`) would repeat them otherwise.
        let mut seen = std::collections::HashSet::new();
        let mut draws = 0usize;
        let max_draws = n.saturating_mul(MAX_DRAWS_PER_INSTANCE);
        while seen.len() < n && draws < max_draws {
            draws += 1;
            let t = p.instantiate(&g, &mut rng, &InstanceConfig::default());
            let text = t.unparse(&g);
            if !seen.insert(text.clone()) {
                continue;
            }
            let i = seen.len() - 1;
            match &self.out {
                Some(dir) => {
                    write_atomic(&dir.join(format!("{i}.txt")), &text)?;
                    if saved.input == "choices" {
                        match encode(&g, &t, &cfg) {
                            Ok(c) => write_atomic(&dir.join(format!("{i}.choices")), &c)?,
                            Err(e) => bail!("instance {i} cannot be encoded: {e}"),
                        }
                    }
                }
                None => self.stream.write_item(&mut stdout, i, &text)?,
            }
        }
        if seen.len() < n {
            eprintln!(
                "note: {} distinct instance(s) in {draws} draws, fewer than the {n} asked for: \
                 the pattern's abstract parts have few expansions (or rarely drawn ones)",
                seen.len()
            );
        }
        if let Some(dir) = &self.out {
            eprintln!(
                "{} instance(s) of {} in {}",
                seen.len(),
                saved.pattern.pattern,
                dir.display()
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}
