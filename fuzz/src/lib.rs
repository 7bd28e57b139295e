//! Code shared by grammar-min's fuzz targets: the `calc` example language
//! (with planted bugs) and the harnesses for the third-party crates.
//!
//! Each third-party crate is fuzzed in three modes, one binary each:
//! `<crate>_plain` (libFuzzer bytes as text), `<crate>_grammar` (grammar
//! decoding, libFuzzer's own mutations) and `<crate>_mutator` (grammar
//! decoding with grammar-min's mutator and crossover). The harness is the
//! same function in all three.

pub mod calc;

/// Parses SQL with sqlparser (generic dialect); errors are fine, panics
/// and stack overflows are bugs.
pub fn sql(text: &str) {
    let dialect = sqlparser::dialect::GenericDialect {};
    let _ = sqlparser::parser::Parser::parse_sql(&dialect, text);
}

/// Evaluates an evalexpr expression in a fresh context; errors are fine.
pub fn evalexpr(text: &str) {
    let mut ctx = evalexpr::HashMapContext::new();
    let _ = evalexpr::eval_with_context_mut(text, &mut ctx);
}
