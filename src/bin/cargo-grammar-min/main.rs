//! `cargo grammar-min`: grammar-based fuzzing and crash triage for cargo fuzz.

mod artifacts;
mod bucket;
mod bucket_out;
mod bucket_table;
mod check;
mod common;
mod decode;
mod encode;
mod generalize;
mod generate;
mod heartbeat;
mod instantiate;
mod parse;
mod reduce;
mod reduce_summary;
mod saved;
mod seed;
mod session;
mod session_trees;
mod settle;

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
    #[command(mut_arg("target", |a| {
        let help = "Parse with the grammar built into this grammar fuzz target (its built \
                    binary, `cargo fuzz build NAME`, reports it)";
        a.help(help).long_help(help)
    }))]
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
    // A reader that stops early (`… | head`) closes stdout: `println!`
    // then panics, and a checked write fails with `BrokenPipe`. Both end
    // the command quietly, as `cat` would.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !closed_stdout(info.payload()) {
            hook(info);
        }
    }));
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cli.command.run()));
    let result = match ran {
        Ok(r) => r,
        Err(p) if closed_stdout(&*p) => return ExitCode::SUCCESS,
        Err(p) => std::panic::resume_unwind(p),
    };
    match result {
        Ok(code) => code,
        // A broken pipe to a child (an oracle) is an error; one on our
        // own stdout, whose reader went, is not.
        Err(e)
            if stdout_gone()
                && e.chain().any(|c| {
                    c.downcast_ref::<std::io::Error>()
                        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
                }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            if json {
                println!("{}", serde_json::json!({ "error": format!("{e:#}") }));
            }
            ExitCode::from(2)
        }
    }
}

/// Whether a panic's payload is `println!`'s message on a stdout whose
/// reader has gone.
fn closed_stdout(payload: &(dyn std::any::Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    message.is_some_and(|m| m.starts_with("failed printing to stdout") && m.contains("Broken pipe"))
}

/// Whether stdout is a pipe whose reading end is closed.
fn stdout_gone() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid `pollfd`, a zero timeout.
    let n = unsafe { libc::poll(&mut fd, 1, 0) };
    n == 1 && fd.revents & libc::POLLERR != 0
}
