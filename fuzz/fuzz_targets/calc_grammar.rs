//! `calc` with grammar decoding but libFuzzer's own byte mutations
//! (a baseline for the benchmark).
#![no_main]

grammar_min::grammar_fuzz_target!(
    grammar = include_str!("../../grammars/calc.json"),
    config = grammar_min::generate::DecodeConfig {
        max_depth: 64,
        max_len: 4096
    },
    custom_mutator = false,
    |program: &str| {
        grammar_min_fuzz::calc(program);
    }
);
