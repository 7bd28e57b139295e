//! Benchmark control: grammar decoding with an empty harness. Its `cov:`
//! is the share of the grammar modes' coverage that belongs to
//! grammar-min's own decoder rather than to the code under test.
#![no_main]

grammar_min::grammar_fuzz_target!(
    grammar = include_str!("../../grammars/sql.json"),
    config = grammar_min::generate::DecodeConfig {
        max_depth: 64,
        max_len: 4096
    },
    |text: &[u8]| {
        std::hint::black_box(text);
    }
);
