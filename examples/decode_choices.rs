//! Decodes a choice-sequence file with a grammar and prints the text
//! (used by the reduction benchmark suite to make artifacts).
//!
//! Usage: decode_choices GRAMMAR.json CHOICES_FILE

use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::Grammar;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: decode_choices GRAMMAR.json CHOICES_FILE");
        std::process::exit(2);
    }
    let g = Grammar::from_path(std::path::Path::new(&args[1]), &Default::default()).unwrap_or_else(
        |e| {
            eprintln!("{}: {e}", args[1]);
            std::process::exit(2)
        },
    );
    let c = std::fs::read(&args[2]).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[2]);
        std::process::exit(2)
    });
    std::io::stdout()
        .write_all(&decode(&g, &c, &DecodeConfig::default()))
        .expect("stdout");
}
