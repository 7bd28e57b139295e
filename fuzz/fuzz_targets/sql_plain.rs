//! `sql` harness fed libFuzzer's bytes as text (benchmark baseline).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        grammar_min_fuzz::sql(text);
    }
});
