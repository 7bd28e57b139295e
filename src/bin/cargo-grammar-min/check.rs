//! `check`: validate a grammar and summarise it.

use crate::common::GrammarArgs;
use anyhow::Result;
use clap::Args;
use grammar_min::grammar::Diagnostic;
use std::path::PathBuf;
use std::process::ExitCode;

/// Validate a grammar file and print a summary.
///
/// Exits 0 for a usable grammar (warnings allowed) and 1 with every problem
/// found (undefined, unproductive or unreachable nonterminals, empty
/// alternative lists, JSON errors with line:column) otherwise.
///
/// Examples:
///   cargo grammar-min check grammars/expr.json
///   cargo grammar-min check --grammar grammars/expr.json --print
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Check {
    /// Grammar file (fuzzingbook or token-list JSON); the same as --grammar.
    #[arg(
        value_name = "FILE",
        required_unless_present = "grammar",
        conflicts_with = "grammar"
    )]
    file: Option<PathBuf>,
    /// Grammar file (fuzzingbook or token-list JSON).
    #[arg(short, long, value_name = "FILE")]
    grammar: Option<PathBuf>,
    /// Start symbol.
    #[arg(long, value_name = "NONTERMINAL", default_value = "<start>")]
    start: String,
    /// Print the summary or the diagnostics as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Also print the grammar, alternatives ordered simplest first.
    #[arg(long)]
    print: bool,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    ok: bool,
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<&'a str>,
    nonterminals: usize,
    alternatives: usize,
    terminals: usize,
    nullable: Vec<&'a str>,
    recursive: usize,
    max_min_depth: u32,
    min_len: Option<u64>,
    diagnostics: Vec<Diagnostic>,
}

impl Check {
    pub fn run(self) -> Result<ExitCode> {
        let args = GrammarArgs {
            // clap requires one of the two.
            grammar: self.file.or(self.grammar).unwrap_or_default(),
            start: self.start,
        };
        let file = args.grammar.display().to_string();
        match args.try_load() {
            Ok(g) => {
                let s = Summary {
                    ok: true,
                    file: file.clone(),
                    format: Some(g.format().to_string()),
                    start: Some(g.name(g.start())),
                    nonterminals: g.num_symbols(),
                    alternatives: g.num_rules(),
                    terminals: g.terms().len(),
                    nullable: g
                        .symbols()
                        .iter()
                        .filter(|s| s.nullable)
                        .map(|s| s.name.as_str())
                        .collect(),
                    recursive: g.symbols().iter().filter(|s| s.recursive).count(),
                    max_min_depth: g.max_min_depth(),
                    min_len: Some(g.symbol(g.start()).min_len),
                    diagnostics: g.warnings().to_vec(),
                };
                if self.json {
                    println!("{}", serde_json::to_string_pretty(&s)?);
                } else {
                    println!(
                        "{file}: ok ({} format, start {})",
                        g.format(),
                        g.name(g.start())
                    );
                    println!(
                        "  {} nonterminals, {} alternatives, {} distinct terminals, {} recursive",
                        s.nonterminals, s.alternatives, s.terminals, s.recursive
                    );
                    let min_len = g.symbol(g.start()).min_len;
                    println!(
                        "  shortest sentence: {min_len} byte{}; max minimal derivation depth: {}",
                        if min_len == 1 { "" } else { "s" },
                        s.max_min_depth
                    );
                    if s.nullable.is_empty() {
                        println!("  nullable: none");
                    } else {
                        println!("  nullable: {}", s.nullable.join(" "));
                    }
                    for w in g.warnings() {
                        println!("  {w}");
                    }
                    if g.warnings().is_empty() {
                        println!("  no warnings");
                    }
                    if self.print {
                        print!("{g}");
                    }
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                if self.json {
                    let s = Summary {
                        ok: false,
                        file,
                        format: None,
                        start: None,
                        nonterminals: 0,
                        alternatives: 0,
                        terminals: 0,
                        nullable: vec![],
                        recursive: 0,
                        max_min_depth: 0,
                        min_len: None,
                        diagnostics: e.diagnostics.clone(),
                    };
                    println!("{}", serde_json::to_string_pretty(&s)?);
                } else {
                    eprintln!("{file}: {e}");
                }
                Ok(ExitCode::from(1))
            }
        }
    }
}
