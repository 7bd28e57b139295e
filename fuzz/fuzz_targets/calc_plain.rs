//! `calc` fed libFuzzer's bytes as text (a baseline for the benchmark).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(program) = std::str::from_utf8(data) {
        grammar_min_fuzz::calc(program);
    }
});
