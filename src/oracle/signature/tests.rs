use super::*;

const LIBFUZZER_PANIC: &str = "INFO: Running with entropic power schedule (0xFF, 100).
INFO: Seed: 1234
Running: fuzz/artifacts/parse/crash-da39a3ee
thread '<unnamed>' panicked at src/parser.rs:42:17:
index out of bounds: the len is 3 but the index is 7
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
==41377== ERROR: libFuzzer: deadly signal
#0 0x55d0c8e3 in __sanitizer_print_stack_trace
#1 0x55d0c9a1 in fuzzer::PrintStackTrace() FuzzerUtil.cpp:210:5
#2 0x55d0ca22 in my_crate::parser::Parser::expect /home/u/proj/src/parser.rs:42:17
#3 0x55d0cb10 in my_crate::parser::parse /home/u/proj/src/parser.rs:90:9
#4 0x55d0cc00 in rust_fuzzer_test_input /home/u/.cargo/registry/src/libfuzzer-sys-0.4.7/src/lib.rs:224:17
NOTE: libFuzzer has rudimentary signal handlers.
SUMMARY: libFuzzer: deadly signal
";

const ASAN: &str = "=================================================================
==9020==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000015 at pc 0x55a1 bp 0x7ffd sp 0x7ffd
READ of size 1 at 0x602000000015 thread T0
#0 0x55a1b2 in my_crate::decode::read_u8::h0123456789abcdef /home/u/proj/src/decode.rs:17:13
#1 0x55a1c3 in my_crate::decode::run /home/u/proj/src/decode.rs:30:5
#2 0x55a1d4 in __libc_start_main
SUMMARY: AddressSanitizer: heap-buffer-overflow /home/u/proj/src/decode.rs:17:13 in my_crate::decode::read_u8
";

#[test]
fn libfuzzer_panic_is_a_panic_with_location_and_frames() {
    let s = extract(LIBFUZZER_PANIC, Exit::Code(77)).unwrap();
    assert_eq!(s.kind, CrashKind::Panic);
    assert_eq!(s.location.as_deref(), Some("src/parser.rs:42:17"));
    assert_eq!(
        s.message.as_deref(),
        Some("index out of bounds: the len is N but the index is N")
    );
    assert_eq!(
        s.frames,
        vec![
            "my_crate::parser::Parser::expect",
            "my_crate::parser::parse"
        ]
    );
}

#[test]
fn panic_lines_with_a_thread_id_are_panics() {
    // Rust 1.92 and later print the thread's id after its name.
    let new = LIBFUZZER_PANIC.replace("'<unnamed>' panicked", "'<unnamed>' (7804) panicked");
    let s = extract(&new, Exit::Code(77)).unwrap();
    assert_eq!(s.kind, CrashKind::Panic);
    assert_eq!(s.location.as_deref(), Some("src/parser.rs:42:17"));
    let named = "thread 'it's main' (1) panicked at src/a.rs:1:2:\nboom\n";
    let s = extract(named, Exit::Code(101)).unwrap();
    assert_eq!(
        (s.location.as_deref(), s.message.as_deref()),
        (Some("src/a.rs:1:2"), Some("boom"))
    );
    // Something else between the name and `panicked` is not a panic line.
    let other = "thread 'main' said it panicked at src/a.rs:1:2:\nboom\n";
    assert_ne!(
        extract(other, Exit::Code(101)).unwrap().kind,
        CrashKind::Panic
    );
}

#[test]
fn asan_report() {
    let s = extract(ASAN, Exit::Code(1)).unwrap();
    assert_eq!(
        s.kind,
        CrashKind::Sanitizer("AddressSanitizer: heap-buffer-overflow".into())
    );
    assert_eq!(s.location.as_deref(), Some("src/decode.rs:17:13"));
    assert_eq!(s.frames[0], "my_crate::decode::read_u8");
    assert!(s
        .message
        .unwrap()
        .starts_with("heap-buffer-overflow on address 0xX"));
}

#[test]
fn other_reports() {
    let t = extract(
        "==1== ERROR: libFuzzer: timeout after 1 seconds\n",
        Exit::Code(70),
    )
    .unwrap();
    assert_eq!(t.kind, CrashKind::Timeout);
    let o = extract(
        "==1== ERROR: libFuzzer: out-of-memory (malloc(2147483648))\n",
        Exit::Code(71),
    )
    .unwrap();
    assert_eq!(o.kind, CrashKind::OutOfMemory);
    let so = extract(
        "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n",
        Exit::Signal(libc::SIGABRT),
    )
    .unwrap();
    assert_eq!(so.kind, CrashKind::StackOverflow);
    let d = extract("==5== ERROR: libFuzzer: deadly signal\n", Exit::Code(1)).unwrap();
    assert_eq!(d.kind, CrashKind::Signal(libc::SIGABRT));
    assert_eq!(
        extract("", Exit::Signal(libc::SIGABRT)).unwrap().kind,
        CrashKind::Abort
    );
    assert_eq!(
        extract("bye", Exit::Code(3)).unwrap().kind,
        CrashKind::Exit(3)
    );
    assert!(extract("all fine", Exit::Code(0)).is_none());
    let oldfmt = extract(
        "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:4:37\n",
        Exit::Code(101),
    )
    .unwrap();
    assert_eq!(oldfmt.location.as_deref(), Some("src/main.rs:4:37"));
    assert_eq!(
        oldfmt.message.as_deref(),
        Some("called `Option::unwrap()` on a `None` value")
    );
}

#[test]
fn rust_backtrace_frames() {
    let bt = "thread 'main' panicked at src/lib.rs:5:9:
boom
stack backtrace:
   0: rust_begin_unwind
         at /rustc/abc/library/std/src/panicking.rs:652:5
   1: core::panicking::panic_fmt
         at /rustc/abc/library/core/src/panicking.rs:72:14
   2: demo::inner
         at ./src/lib.rs:5:9
   3: demo::outer
         at ./src/lib.rs:9:5
   4: main
";
    let s = extract(bt, Exit::Code(101)).unwrap();
    assert_eq!(s.frames, vec!["demo::inner", "demo::outer"]);
}

/// A panic inside std called from a dependency: the dependency's frames
/// tell its call sites apart, and a panic hook's own closures (which a
/// persistent target's backtrace starts with) are not among them.
#[test]
fn a_dependencys_frames_are_kept_and_a_hooks_are_not() {
    let reg = "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";
    let bt = format!(
        "   0: {{closure#0}}
             at /work/gm/src/oracle/inprocess.rs:101:38
   1: panic_with_hook
             at /rustc/abc/library/std/src/panicking.rs:833:13
   2: panic_fmt
             at /rustc/abc/library/core/src/panicking.rs:80:14
   3: range<u32>
             at /rustc/abc/library/alloc/src/collections/btree/set.rs:404:32
   4: next_after<chrono::offset::utc::Utc>
             at {reg}/cron-0.11.0/src/schedule.rs:63:22
   5: run
             at ./src/lib.rs:8:18
   6: t::_::__grammar_min_run
             at ./fuzz/fuzz_targets/t.rs:6:9
   7: {{closure#0}}
             at {reg}/libfuzzer-sys-0.4.13/src/lib.rs:62:9
"
    );
    assert_eq!(
        backtrace_frames(&bt),
        [
            "next_after<chrono::offset::utc::Utc>",
            "run",
            "t::_::__grammar_min_run"
        ]
    );
}

#[test]
fn levels_are_cumulative() {
    let a = extract(
        "thread 'main' panicked at src/a.rs:1:1:\nx\n",
        Exit::Code(101),
    )
    .unwrap();
    let mut b = a.clone();
    b.message = Some("y".into());
    assert!(a.matches(&b, SignatureLevel::Location));
    assert!(!a.matches(&b, SignatureLevel::Message));
    b.location = Some("src/a.rs:2:1".into());
    assert!(a.matches(&b, SignatureLevel::Kind));
    assert!(!a.matches(&b, SignatureLevel::Location));
    assert!(normalize_message("v2 at 12") == "v2 at N");
}

/// An ASan stack-overflow report of a recursion `a` → `b` → `a` … that
/// ran out of stack in frame `top` (`skip` = how many cycle frames the
/// innermost end lacks).
fn overflow_report(top: &str, skip: usize) -> String {
    const REG: &str = "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/p-0.1.0/src";
    let mut s = format!(
        "==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ffc8 (pc 0x55 bp 0x7f sp 0x7f T0)\n    #0 0x55 in {top} {REG}/lex.rs\n"
    );
    let cycle = [("p::a", "de.rs:130:25"), ("p::b", "value.rs:118:26")];
    for i in 0..40 {
        let (f, loc) = cycle[(i + skip) % 2];
        s.push_str(&format!("    #{} 0x55 in {f} {REG}/{loc}\n", i + 1));
    }
    s.push_str(&format!(
        "\nSUMMARY: AddressSanitizer: stack-overflow {REG}/lex.rs in {top}\n"
    ));
    s
}

#[test]
fn a_recursion_overflows_with_one_signature_wherever_it_stops() {
    let a = extract(&overflow_report("p::lex::ident", 0), Exit::Code(1)).unwrap();
    let b = extract(&overflow_report("p::b", 1), Exit::Code(1)).unwrap();
    assert_eq!(a.kind, CrashKind::StackOverflow);
    assert_eq!(a.location.as_deref(), Some("p-0.1.0/src/de.rs:130:25"));
    assert_eq!(a.frames, ["p::a", "p::b"]);
    assert!(a.matches(&b, SignatureLevel::Frames), "{a} / {b}");
}

#[test]
fn frames_stop_at_the_fuzz_target_body() {
    // A grammar target's panic: the macro's wrappers around the body
    // (`__grammar_min_run`) and libfuzzer-sys' entry are not the user's
    // frames, wherever grammar-min's source lies.
    let bt = "thread '<unnamed>' (4638) panicked at fuzz_targets/t.rs:21:41:
boom
   0: __rustc::rust_begin_unwind
             at /rustc/abc/library/std/src/panicking.rs:689:5
   1: my_crate::check
             at ./src/lib.rs:7:5
   2: __grammar_min_run
             at ./fuzz/fuzz_targets/t.rs:21:41
   3: {closure#0}
             at /src/gm/src/fuzz.rs:325:52
   4: run_skipping<t::_::rust_fuzzer_test_input::{closure_env#0}>
             at /src/gm/src/fuzz.rs:231:20
   5: rust_fuzzer_test_input
             at /src/gm/src/fuzz.rs:325:17
";
    let s = extract(bt, Exit::Code(77)).unwrap();
    assert_eq!(s.frames, ["my_crate::check", "__grammar_min_run"]);
    // A plain libfuzzer-sys target: the frames end before its entry.
    let plain = "thread '<unnamed>' (4638) panicked at src/lib.rs:7:5:
boom
   0: my_crate::check
             at ./src/lib.rs:7:5
   1: t::_::__libfuzzer_sys_run
             at ./fuzz/fuzz_targets/t.rs:9:5
   2: rust_fuzzer_test_input
             at ./fuzz/fuzz_targets/t.rs:8:1
   3: {closure#0}
             at ./fuzz/fuzz_targets/t.rs:8:1
";
    let s = extract(plain, Exit::Code(77)).unwrap();
    assert_eq!(s.frames, ["my_crate::check", "t::_::__libfuzzer_sys_run"]);
}
