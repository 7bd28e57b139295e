//! `cargo grammar-min`: grammar-based fuzzing and crash triage for cargo fuzz.

mod bucket;
mod check;
mod common;
mod decode;
mod encode;
mod generalize;
mod generate;
mod instantiate;
mod parse;
mod reduce;
mod saved;
mod seed;
mod session;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Grammar-based fuzzing and crash triage for `cargo fuzz`.
///
/// Fuzz targets read libFuzzer's bytes as choice sequences of a grammar, so
/// every input is valid; crashes are reduced without drifting to other bugs
/// and bucketed by input pattern.
///
/// Grammars are JSON files in fuzzingbook form ({"<start>": ["<expr>"], ...})
/// or token-list form ({"<start>": [["<expr>"]], ...}).
#[derive(Parser, Debug)]
#[command(
    name = "cargo grammar-min",
    bin_name = "cargo grammar-min",
    version,
    about,
    long_about
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Check(check::Check),
    Parse(parse::Parse),
    Encode(encode::Encode),
    Seed(seed::Seed),
    Reduce(reduce::Reduce),
    Generalize(generalize::Generalize),
    Instantiate(instantiate::Instantiate),
    Bucket(bucket::Bucket),
    Generate(generate::Generate),
    Decode(decode::Decode),
}

impl Command {
    fn run(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Check(c) => c.run(),
            Command::Parse(c) => c.run(),
            Command::Encode(c) => c.run(),
            Command::Seed(c) => c.run(),
            Command::Reduce(c) => c.run(),
            Command::Generalize(c) => c.run(),
            Command::Instantiate(c) => c.run(),
            Command::Bucket(c) => c.run(),
            Command::Generate(c) => c.run(),
            Command::Decode(c) => c.run(),
        }
    }
}

fn main() -> ExitCode {
    // `cargo grammar-min x` runs `cargo-grammar-min grammar-min x`: drop the
    // subcommand's own name, as cargo-fuzz does for `fuzz`.
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "grammar-min") {
        args.remove(1);
    }
    // With --json a script reads stdout: an error is JSON there too.
    let json = args.iter().any(|a| a == "--json");
    let cli = Cli::parse_from(args);
    match cli.command.run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            if json {
                println!("{}", serde_json::json!({ "error": format!("{e:#}") }));
            }
            ExitCode::from(2)
        }
    }
}
