//! A tiny target for the persistent-oracle tests: panics on `panic`, aborts
//! on `abort`, hangs on `hang`, returns otherwise.

#[inline(never)]
fn check(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    if s.contains("abort") {
        std::process::abort();
    }
    if s.contains("hang") {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    if s.contains("panic") {
        panic!("found panic at {}", s.find("panic").unwrap_or(0));
    }
}

fn main() {
    // Budgets and grammar reported to `describe::ask` (tests/persistent.rs).
    grammar_min::oracle::describe::describe_if_requested(
        &grammar_min::generate::DecodeConfig {
            max_depth: 33,
            max_len: 77,
        },
        Some(r#"{"<start>": ["panic", "calm"]}"#),
    );
    grammar_min::oracle::persistent::serve_if_requested(check);
    // Outside persistent mode: behave like a libFuzzer target run on a file.
    if let Some(p) = std::env::args().nth(1) {
        check(&std::fs::read(p).expect("read input"));
    }
}
