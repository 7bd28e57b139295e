//! `sql` harness with grammar decoding (`grammars/sql.json`) and
//! grammar-min's mutator and crossover.
#![no_main]

grammar_min::grammar_fuzz_target!(
    grammar = include_str!("../../grammars/sql.json"),
    config = grammar_min::generate::DecodeConfig {
        max_depth: 64,
        max_len: 4096
    },
    |text: &str| grammar_min_fuzz::sql(text)
);
