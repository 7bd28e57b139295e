//! `check`: validate a grammar and summarise it.

use crate::common::GrammarArgs;
use anyhow::Result;
use clap::Args;
use grammar_min::grammar::Diagnostic;
use std::process::ExitCode;

/// Validate a grammar file and print a summary.
///
/// Exits 0 for a usable grammar (warnings allowed) and 1 with every problem
/// found (undefined, unproductive or unreachable nonterminals, empty
/// alternative lists, JSON errors with line:column) otherwise.
///
/// Example: cargo grammar-min check --grammar grammars/expr.json
#[derive(Args, Debug)]
pub struct Check {
    #[command(flatten)]
    grammar: GrammarArgs,
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
        let file = self.grammar.grammar.display().to_string();
        match self.grammar.try_load() {
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
