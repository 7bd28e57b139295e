//! Self-fuzzing: any text given to the grammar loader yields a grammar or
//! diagnostics, never a panic, and a loaded grammar decodes.
#![no_main]

use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    match Grammar::from_json_str(src, &LoadOptions::default()) {
        Ok(g) => {
            let cfg = DecodeConfig {
                max_depth: 32,
                max_len: 256,
            };
            let _ = decode(&g, data, &cfg);
        }
        Err(e) => assert!(e.errors().count() > 0, "a load error without errors: {e}"),
    }
});
