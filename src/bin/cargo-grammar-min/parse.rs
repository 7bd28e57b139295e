//! `parse`: parse a text file with a grammar and print its derivation tree.

use crate::common::{DecodeArgs, TargetBudgetArgs, TargetGrammarArgs};
use anyhow::Result;
use clap::{Args, ValueEnum};
use grammar_min::grammar::{display_terminal, Grammar};
use grammar_min::tree::{Label, Tree, NO_PARENT};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Parse a text file with the grammar and print its derivation tree.
///
/// Exits 1 with the position, the expected terminals and the offending line
/// if the file is not a sentence of the grammar. Ambiguous texts get the
/// tree that prefers the simplest (lowest-index) alternatives.
///
/// Examples:
///   cargo grammar-min parse --grammar grammars/expr.json crash.txt --format json
///   cargo grammar-min parse --target calc fuzz/artifacts/calc/crash-1234.min
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Parse {
    #[command(flatten)]
    grammar: TargetGrammarArgs,
    /// The text file to parse.
    input: PathBuf,
    #[command(flatten)]
    target: TargetBudgetArgs,
    /// Output format: indented tree, nested JSON, or Graphviz DOT.
    #[arg(long, value_enum, default_value_t = Format::Tree)]
    format: Format,
    /// If the file parses only with its blanks (or letter case) changed
    /// to the grammar's, print the tree of that spelling, the one
    /// `reduce`, `seed` and `generalize` work on (a note says what
    /// changed).
    #[arg(long)]
    respell: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// One node per line, indented by depth.
    Tree,
    /// {"symbol": "<expr>", "alt": 0, "children": [...]} / {"terminal": "1"}.
    Json,
    /// Graphviz DOT (`dot -Tsvg`).
    Dot,
}

impl Parse {
    pub fn run(self) -> Result<ExitCode> {
        let none = DecodeArgs {
            max_depth: None,
            max_len: None,
        };
        let (g, _) = self.target.grammar_and_config(&self.grammar, &none)?;
        let Some((_, tree)) = crate::common::read_and_parse(&g, &self.input, self.respell)? else {
            return Ok(ExitCode::from(1));
        };
        let out = std::io::stdout();
        let mut out = std::io::BufWriter::new(out.lock());
        match self.format {
            Format::Tree => write_tree(&g, &tree, &mut out)?,
            Format::Json => write_json(&g, &tree, &mut out)?,
            Format::Dot => out.write_all(tree.to_dot(&g).as_bytes())?,
        }
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}

fn label(g: &Grammar, tree: &Tree, l: Label) -> String {
    match l {
        Label::Rule(r) => g.name(g.rule(r).lhs).to_string(),
        Label::Term(t) => display_terminal(g.term(t)),
        Label::Text(i) => display_terminal(tree.text(i)),
    }
}

/// Indentation is capped so that a 100,000-deep tree stays printable;
/// deeper nodes carry their depth instead.
const MAX_INDENT: u32 = 64;

fn write_tree(g: &Grammar, tree: &Tree, out: &mut impl Write) -> Result<()> {
    let depths = tree.depths();
    for (n, &depth) in tree.nodes().iter().zip(&depths) {
        let d = depth.min(MAX_INDENT) as usize;
        write!(out, "{:width$}", "", width = 2 * d)?;
        if depth > MAX_INDENT {
            write!(out, "[depth {depth}] ")?;
        }
        writeln!(out, "{}", label(g, tree, n.label()))?;
    }
    Ok(())
}

/// Nested JSON, written in one pre-order pass with explicit closing (no
/// recursion, so deep trees are fine).
fn write_json(g: &Grammar, tree: &Tree, out: &mut impl Write) -> Result<()> {
    let nodes = tree.nodes();
    // Ends (exclusive) of the open subtrees.
    let mut open: Vec<usize> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&e| e <= i) {
            open.pop();
            out.write_all(b"]}")?;
        }
        if n.parent != NO_PARENT && i != n.parent as usize + 1 {
            out.write_all(b",")?;
        }
        match n.label() {
            Label::Rule(r) => {
                write!(
                    out,
                    "{{\"symbol\":{},\"alt\":{},\"children\":[",
                    serde_json::to_string(g.name(g.rule(r).lhs))?,
                    g.alt_index(r)
                )?;
                open.push(i + n.size as usize);
            }
            Label::Term(t) => {
                out.write_all(b"{\"terminal\":")?;
                write_bytes(out, g.term(t))?;
                out.write_all(b"}")?;
            }
            Label::Text(ti) => {
                write!(
                    out,
                    "{{\"symbol\":{},\"text\":",
                    serde_json::to_string(g.name(tree.text_symbol(ti)))?
                )?;
                write_bytes(out, tree.text(ti))?;
                out.write_all(b"}")?;
            }
        }
    }
    for _ in open {
        out.write_all(b"]}")?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// A JSON string, or an array of byte values when the bytes are not UTF-8.
fn write_bytes(out: &mut impl Write, bytes: &[u8]) -> Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(s) => out.write_all(serde_json::to_string(s)?.as_bytes())?,
        Err(_) => out.write_all(serde_json::to_string(bytes)?.as_bytes())?,
    }
    Ok(())
}
