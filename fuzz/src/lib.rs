//! Code shared by grammar-min's fuzz targets: the `calc` example language
//! (with planted bugs) and the harnesses for the third-party crates.
//!
//! Each third-party crate is fuzzed in three modes, one binary each:
//! `<crate>_plain` (libFuzzer bytes as text), `<crate>_grammar` (grammar
//! decoding, libFuzzer's own mutations) and `<crate>_mutator` (grammar
//! decoding with grammar-min's mutator and crossover). The harness is the
//! same function in all three.

pub mod calc;

use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::oracle::catch_panic;

use std::sync::OnceLock;

/// Environment variable for coverage benchmarks: when set, panics in the
/// harnesses are caught and ignored, so a run that hits a bug keeps going
/// and its final coverage can be compared over the same number of
/// executions. Stack overflows and aborts still end the run.
pub const IGNORE_PANICS_VAR: &str = "GRAMMAR_MIN_BENCH_IGNORE_PANICS";

/// Environment variable for time-to-crash benchmarks of one particular bug:
/// when set, panics whose message does not contain its value are caught and
/// ignored, and a panic whose message does is reported (`panicked at
/// <location>:` and the message, as Rust's default hook prints them) and
/// aborts, which libFuzzer records as the crash. A target with several
/// shallow bugs then measures the time to the one asked for.
pub const CRASH_ON_VAR: &str = "GRAMMAR_MIN_BENCH_CRASH_ON";

/// How [`guard`] treats panics, read once from the environment.
enum PanicMode {
    /// libFuzzer's hook: every panic is a crash.
    Crash,
    /// Every panic is caught and ignored ([`IGNORE_PANICS_VAR`]).
    Ignore,
    /// Only panics whose message contains the pattern are crashes
    /// ([`CRASH_ON_VAR`]).
    CrashOn(String),
}

/// Runs `f`; panics are crashes, ignored, or crashes only when they match,
/// as [`IGNORE_PANICS_VAR`] and [`CRASH_ON_VAR`] say.
pub fn guard(f: impl FnOnce()) {
    static MODE: OnceLock<PanicMode> = OnceLock::new();
    let mode = MODE.get_or_init(|| {
        if let Some(pattern) = std::env::var_os(CRASH_ON_VAR) {
            PanicMode::CrashOn(pattern.to_string_lossy().into_owned())
        } else if std::env::var_os(IGNORE_PANICS_VAR).is_some() {
            PanicMode::Ignore
        } else {
            PanicMode::Crash
        }
    });
    // `catch_panic` keeps caught panics away from libfuzzer-sys's hook,
    // which would abort.
    match mode {
        PanicMode::Crash => f(),
        PanicMode::Ignore => {
            let _ = catch_panic(f);
        }
        PanicMode::CrashOn(pattern) => {
            if let Err(p) = catch_panic(f) {
                if p.message.contains(pattern.as_str()) {
                    eprintln!("panicked at {}:\n{}", p.location, p.message);
                    std::process::abort();
                }
            }
        }
    }
}

/// Parses SQL with sqlparser (generic dialect); errors are fine, panics
/// and stack overflows are bugs.
pub fn sql(text: &str) {
    guard(|| {
        let dialect = sqlparser::dialect::GenericDialect {};
        let _ = sqlparser::parser::Parser::parse_sql(&dialect, text);
    })
}

/// Evaluates an evalexpr expression in a fresh context; errors are fine.
pub fn evalexpr(text: &str) {
    guard(|| {
        let mut ctx = evalexpr::HashMapContext::new();
        let _ = evalexpr::eval_with_context_mut(text, &mut ctx);
    })
}

/// The `calc` harness: runs a program, errors are fine.
pub fn calc(program: &str) {
    guard(|| {
        let _ = calc::run(program);
    })
}

/// The shipped grammars the self-fuzzing targets use, by file stem.
const SHIPPED: &[(&str, &str)] = &[
    ("expr", include_str!("../../grammars/expr.json")),
    ("json", include_str!("../../grammars/json.json")),
    ("sql", include_str!("../../grammars/sql.json")),
    ("calc", include_str!("../../grammars/calc.json")),
];

/// Loads shipped grammars by file stem (`"expr"` for
/// `grammars/expr.json`), in the order given. Call it once, from a
/// `OnceLock`.
///
/// # Panics
/// On an unknown name or a grammar that does not load: both are bugs in
/// the fuzz project, caught the first time the target runs.
pub fn shipped_grammars(names: &[&str]) -> Vec<Grammar> {
    names
        .iter()
        .map(|name| {
            let (_, src) = SHIPPED
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("no shipped grammar {name:?}"));
            Grammar::from_json_str(src, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("grammars/{name}.json: {e}"))
        })
        .collect()
}

/// Self-fuzzing input layout: the first byte picks one of `grammars`, the
/// rest is the choice sequence. `None` for empty input.
pub fn pick_grammar<'g, 'd>(
    grammars: &'g [Grammar],
    data: &'d [u8],
) -> Option<(&'g Grammar, &'d [u8])> {
    let (&pick, rest) = data.split_first()?;
    Some((&grammars[pick as usize % grammars.len()], rest))
}

/// Decoding budgets of the self-fuzzing targets: small enough that a
/// run stays fast, large enough for nesting.
pub const SELF_FUZZ_CONFIG: grammar_min::generate::DecodeConfig =
    grammar_min::generate::DecodeConfig {
        max_depth: 48,
        max_len: 2048,
    };
