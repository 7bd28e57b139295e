//! The quick-start example: the `calc` interpreter fuzzed with its grammar
//! and grammar-min's mutator. Finds three planted bugs (see `src/calc.rs`).
#![no_main]

grammar_min::grammar_fuzz_target!(
    grammar = include_str!("../../grammars/calc.json"),
    config = grammar_min::generate::DecodeConfig {
        max_depth: 64,
        max_len: 4096
    },
    |program: &str| {
        grammar_min_fuzz::calc(program);
    }
);
