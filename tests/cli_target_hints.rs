//! CLI tests of what `cargo grammar-min bucket` tells a fuzz target's user.

use assert_cmd::Command;

#[allow(dead_code)]
mod fake_target;
use fake_target::{fake_project, host_triple};
use std::path::Path;

/// Puts `script` in place of the fake project's target binary.
fn replace_target(root: &Path, script: &str) {
    let bin = root
        .join("fuzz/target")
        .join(host_triple())
        .join("release/t");
    std::fs::write(bin, script).unwrap();
}

/// `bucket t --input text ARGS` in the fake project at `root`, which must
/// succeed: its stdout.
fn bucket_in(root: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(root)
        .env_remove("CARGO_TARGET_DIR")
        .args(["bucket", "t", "--input", "text"])
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// `bucket` tells how to fuzz past the known crashes: with
/// `GRAMMAR_MIN_SKIP` when a bucket is a Rust panic, and otherwise (a
/// stack overflow cannot be skipped in-process) with libFuzzer's own
/// `-fork`/`-ignore_crashes`.
#[test]
fn bucket_hints_how_to_fuzz_past_what_it_found() {
    let overflow = "#!/bin/sh\n\
        if grep -q '((' \"$1\"; then echo '==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ffc (pc 0x55 bp 0x7f sp 0x7f T0)' >&2; exit 1; fi\n\
        exit 0\n";
    for (script, want, not) in [
        (
            None,
            "fuzz past its 1 panic(s): GRAMMAR_MIN_SKIP=",
            "-ignore_crashes",
        ),
        (
            Some(overflow),
            "-fork=2 -ignore_crashes=1",
            "GRAMMAR_MIN_SKIP=",
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        fake_project(d.path());
        std::fs::remove_file(d.path().join("fuzz/artifacts/t/crash-1")).unwrap();
        if let Some(s) = script {
            replace_target(d.path(), s);
        }
        let stdout = bucket_in(d.path(), &["--precision", "2"]);
        assert!(stdout.contains(want) && !stdout.contains(not), "{stdout}");
        assert!(stdout.contains("cargo +nightly fuzz run t"), "{stdout}");
    }
}

/// An instance that crashes differently (another bug) counts against a
/// pattern: the fake target panics elsewhere on `!`, so `((!))` keeps
/// `((<a>))` from being the pattern of the `((` crash.
#[test]
fn an_instance_with_another_crash_counts_against_the_pattern() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    std::fs::write(
        d.path().join("grammars/t.json"),
        r#"{"<start>": ["<e>"], "<e>": ["((<a>))", "<a>"], "<a>": ["1", "2", "!"]}"#,
    )
    .unwrap();
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "((1))").unwrap();
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(d.path())
        .env_remove("CARGO_TARGET_DIR")
        .args(["generalize", "t", "--input", "text", "--json"])
        .arg(&bug)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["pattern"], "((1))", "{v:#}");
}

/// One line that fails for two input shapes (an assert of a round-trip
/// harness): one bucket, two patterns, and a note that they may be two
/// bugs, with the way to split them.
#[test]
fn one_crash_line_with_two_patterns_gets_a_note() {
    let script = "#!/bin/sh\n\
        if grep -qE '[(][(]|[-][-]' \"$1\"; then echo \"thread '<unnamed>' panicked at src/lib.rs:3:5:\" >&2; echo 'round trip' >&2; exit 77; fi\n\
        exit 0\n";
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::remove_file(arts.join("crash-1")).unwrap();
    std::fs::write(arts.join("crash-3"), "4 + 1 - --2").unwrap();
    replace_target(d.path(), script);
    let stdout = bucket_in(d.path(), &["--precision", "2"]);
    assert!(stdout.contains("2 artifact(s) -> 1 bucket(s)"), "{stdout}");
    assert!(
        stdout.contains("note: bucket(s) 0 hold several patterns under one crash signature"),
        "{stdout}"
    );
    assert!(stdout.contains("--signature message"), "{stdout}");
}

/// A pattern some of whose instances do not fail (DDSET with one try per
/// node drew no `!` for `<a>`, which crashes elsewhere): the instance
/// that passes makes `<a>` concrete again, before the pattern is used.
#[test]
fn an_abstraction_an_instance_disproves_is_made_concrete() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let alts: Vec<String> = "0123456789abcdefghi!"
        .chars()
        .map(|c| format!("\"{c}\""))
        .collect();
    std::fs::write(
        d.path().join("grammars/t.json"),
        format!(
            r#"{{"<start>": ["<e>"], "<e>": ["((<a>))", "<a>"], "<a>": [{}]}}"#,
            alts.join(", ")
        ),
    )
    .unwrap();
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::remove_file(arts.join("crash-1")).unwrap();
    std::fs::write(arts.join("crash-2"), "((1))").unwrap();
    let stdout = bucket_in(d.path(), &["--tries", "1", "--precision", "200"]);
    // `1` lowered to `0` (the canonical form), then made concrete again.
    assert!(
        stdout.contains("((0))") && !stdout.contains("<a>"),
        "{stdout}"
    );
    assert!(stdout.contains("1.00"), "{stdout}");
    assert!(!stdout.contains("note: a precision below 1.00"), "{stdout}");
}

/// A program that passes now and then whatever the input (every fifth
/// run here) leaves a precision below 1 even on a concrete pattern: the
/// table shows it, and a note says what it means.
#[test]
fn an_imprecise_pattern_gets_a_note() {
    let flaky = "#!/bin/sh\n\
        n=$(cat \"$0.n\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$0.n\"\n\
        if [ $((n % 5)) -eq 0 ]; then exit 0; fi\n\
        if grep -q '((' \"$1\"; then echo \"thread '<unnamed>' panicked at src/lib.rs:3:5:\" >&2; exit 77; fi\n\
        exit 0\n";
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    replace_target(d.path(), flaky);
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::remove_file(arts.join("crash-1")).unwrap();
    let stdout = bucket_in(d.path(), &["--precision", "50"]);
    assert!(stdout.contains("note: a precision below 1.00"), "{stdout}");
}

/// A fake grammar target: it answers `describe` (budgets 64 / 4096, no
/// grammar: the project's `grammars/t.json`) and never crashes.
const DESCRIBED_CALM: &str = "#!/bin/sh\n\
    if [ -n \"$GRAMMAR_MIN_DESCRIBE\" ]; then echo '{\"max_depth\":64,\"max_len\":4096}' > \"$GRAMMAR_MIN_DESCRIBE\"; exit 0; fi\n\
    exit 0\n";

/// `reduce t ARGS` in the fake project at `root`: its exit code and stderr.
fn reduce_in(root: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(root)
        .env_remove("CARGO_TARGET_DIR")
        .args(["reduce", "t", "--no-persistent"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Budgets given on the command line must be the target's own: other
/// ones decode its choices into other texts.
#[test]
fn a_budget_other_than_the_targets_own_is_refused() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    replace_target(d.path(), DESCRIBED_CALM);
    let (code, stderr) = reduce_in(
        d.path(),
        &["--max-depth", "200", "fuzz/artifacts/t/crash-1"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--max-depth 200 differs from the fuzz target's own budget (64"),
        "{stderr}"
    );
    // Its own budget is fine (the artifact then does not crash).
    let (_, stderr) = reduce_in(d.path(), &["--max-depth", "64", "fuzz/artifacts/t/crash-1"]);
    assert!(!stderr.contains("differs"), "{stderr}");
}

/// A text artifact the grammar takes only respelled runs respelled; when
/// that does not crash, the error says so and shows the difference.
#[test]
fn a_respelled_text_artifact_that_does_not_crash_gets_a_note() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    replace_target(d.path(), DESCRIBED_CALM);
    std::fs::write(d.path().join("tab.txt"), "1 +\t2").unwrap();
    let (code, stderr) = reduce_in(d.path(), &["--input", "text", "tab.txt"]);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("tab.txt does not parse as it is, so the target ran it in the grammar's spelling (first at line 1: `1 +\t2` became `1 + 2`)"),
        "{stderr}"
    );
}

/// A libFuzzer timeout artifact that does not fail at the default
/// timeout: the error says to give `--timeout`.
#[test]
fn a_timeout_artifact_that_does_not_fail_hints_at_timeout() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    replace_target(d.path(), "#!/bin/sh\nexit 0\n");
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::write(arts.join("timeout-1"), "1 + 2").unwrap();
    let (code, stderr) = reduce_in(d.path(), &["--input", "text", "fuzz/artifacts/t/timeout-1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("libFuzzer saved timeout-1 as a timeout: give --timeout S"),
        "{stderr}"
    );
}

/// A bucket keeps its id from one run to the next: a new artifact of
/// another bug that sorts first (and so is bucketed first) takes a new
/// id, not the one the earlier run gave the first bug, and each
/// `bucket-K/` records its crash.
#[test]
fn bucket_ids_stay_with_their_crash_across_runs() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    replace_target(
        d.path(),
        "#!/bin/sh\n\
         if grep -q '/ 0' \"$1\"; then echo \"thread '<unnamed>' panicked at src/div.rs:7:7:\" >&2; echo div >&2; exit 77; fi\n\
         if grep -q '((' \"$1\"; then echo \"thread '<unnamed>' panicked at src/lib.rs:3:5:\" >&2; echo nested >&2; exit 77; fi\n\
         exit 0\n",
    );
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::remove_file(arts.join("crash-1")).unwrap();
    let table = |stdout: &str, id: u32| {
        stdout
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("id "))
            .skip(1)
            .find(|l| l.trim_start().starts_with(&format!("{id} ")))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let first = bucket_in(d.path(), &["--precision", "2"]);
    assert!(table(&first, 0).contains("((<"), "{first}");
    std::fs::write(arts.join("crash-0"), "6 / 0").unwrap();
    let second = bucket_in(d.path(), &["--precision", "2"]);
    assert!(table(&second, 0).contains("((<"), "{second}");
    assert!(table(&second, 1).contains("/ 0"), "{second}");
    let buckets = d.path().join("fuzz/buckets/t");
    let sig = std::fs::read_to_string(buckets.join("bucket-1/signature.json")).unwrap();
    assert!(sig.contains("src/div.rs:7:7"), "{sig}");
    let known = std::fs::read_to_string(buckets.join("known-crashes.txt")).unwrap();
    assert!(known.contains("# bucket-1: "), "{known}");
}

/// A stack overflow comes and goes at the depth where it begins: below 9
/// bytes this target overflows every other run. Its failures are
/// confirmed by default, so the result overflows every time.
#[test]
fn a_stack_overflow_is_confirmed_by_default() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let count = d.path().join("count");
    let script = format!(
        "#!/bin/sh\n\
         n=$(cat '{c}' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '{c}'\n\
         grep -q '((' \"$1\" || exit 0\n\
         if [ \"$(wc -c < \"$1\")\" -lt 9 ] && [ $((n % 2)) -eq 0 ]; then exit 0; fi\n\
         echo \"thread 'main' has overflowed its stack\" >&2\n\
         echo 'fatal runtime error: stack overflow' >&2\n\
         exit 134\n",
        c = count.display()
    );
    replace_target(d.path(), &script);
    std::fs::remove_file(d.path().join("fuzz/artifacts/t/crash-1")).unwrap();
    let art = d.path().join("fuzz/artifacts/t/crash-2");
    let (code, stderr) = reduce_in(d.path(), &["--input", "text", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let min = std::fs::read_to_string(art.with_file_name("crash-2.min")).unwrap();
    assert!(min.contains("((") && min.len() >= 9, "{min:?}\n{stderr}");
    // With one run per candidate, the lucky runs win.
    let (code, stderr) = reduce_in(d.path(), &["--input", "text", "--confirm", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    let min = std::fs::read_to_string(art.with_file_name("crash-2.min")).unwrap();
    assert!(min.len() < 9, "{min:?}\n{stderr}");
}

/// A target that reports no grammar reads its bytes as they are: with a
/// grammar file its artifacts are texts, parsed with it, not choice
/// sequences decoded into something the target never ran.
#[test]
fn a_plain_target_with_a_grammar_reads_text_artifacts() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let (code, stderr) = reduce_in(d.path(), &["fuzz/artifacts/t/crash-2"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("its artifacts are read as text"),
        "{stderr}"
    );
    let min = std::fs::read_to_string(d.path().join("fuzz/artifacts/t/crash-2.min")).unwrap();
    assert!(min.contains("((") && min.len() < 17, "{min:?}");
    assert!(!d
        .path()
        .join("fuzz/artifacts/t/crash-2.min.choices")
        .exists());
}

/// `--grammar FILE` that is not the grammar built into a grammar target:
/// warned about, and the target's own used (the one its artifacts were
/// decoded with).
#[test]
fn a_grammar_file_other_than_the_targets_own_is_overruled() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let own = std::fs::read_to_string(d.path().join("grammars/t.json")).unwrap();
    let answer = serde_json::json!({"max_depth": 2048, "max_len": 1048576, "grammar": own});
    std::fs::write(d.path().join("answer.json"), answer.to_string()).unwrap();
    replace_target(
        d.path(),
        &format!(
            "#!/bin/sh\n\
             if [ -n \"$GRAMMAR_MIN_DESCRIBE\" ]; then cp {}/answer.json \"$GRAMMAR_MIN_DESCRIBE\"; exit 0; fi\n\
             exit 0\n",
            d.path().display()
        ),
    );
    let other = r#"{"<start>": ["L <start>", "L"]}"#;
    std::fs::write(d.path().join("other.json"), other).unwrap();
    let (code, stderr) = reduce_in(
        d.path(),
        &["--grammar", "other.json", "fuzz/artifacts/t/crash-2"],
    );
    assert!(
        stderr.contains("other.json differs from the grammar built into t; using the target's"),
        "{stderr}"
    );
    // The artifact, decoded with the target's grammar, does not fail.
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains("L L"), "{stderr}");
}

/// `--artifacts-dir` holding no artifact is an error, not a cue to take
/// the target's own artifacts.
#[test]
fn an_artifacts_dir_without_artifacts_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    std::fs::create_dir(d.path().join("empty")).unwrap();
    std::fs::create_dir(d.path().join("results")).unwrap();
    std::fs::write(d.path().join("results/crash-1.min"), "1").unwrap();
    for (dir, says) in [
        ("empty", "no artifacts in empty"),
        ("results", "its 1 file(s) are results"),
    ] {
        for cmd in ["reduce", "bucket"] {
            let out = Command::cargo_bin("cargo-grammar-min")
                .unwrap()
                .current_dir(d.path())
                .env_remove("CARGO_TARGET_DIR")
                .args([cmd, "t", "--artifacts-dir", dir])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {dir}: {stderr}");
            assert!(stderr.contains(says), "{cmd} {dir}: {stderr}");
        }
    }
    assert!(!d.path().join("fuzz/artifacts/t/crash-1.min").exists());
}

/// Ctrl-C during `bucket`: the artifact at hand is finished, the buckets
/// so far are written, the rest is left, and the exit status says so.
#[test]
fn an_interrupted_bucket_writes_what_it_has() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    let arts = d.path().join("arts");
    std::fs::create_dir(&arts).unwrap();
    for (name, text) in [
        ("a1", "((1)) + 2"),
        ("a2", "((3)) * 4"),
        ("a3", "((5)) - 6"),
    ] {
        std::fs::write(arts.join(name), text).unwrap();
    }
    // The first run on a text with a 9 (a DDSET instance of the first
    // artifact) interrupts the bucketing, as Ctrl-C would.
    replace_target(
        d.path(),
        "#!/bin/sh\n\
         if grep -q 9 \"$1\" && mkdir stopped 2>/dev/null; then kill -INT $PPID; fi\n\
         if grep -q '((' \"$1\"; then echo \"thread '<unnamed>' panicked at src/lib.rs:3:5:\" >&2; echo nested >&2; exit 77; fi\n\
         exit 0\n",
    );
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(d.path())
        .env_remove("CARGO_TARGET_DIR")
        .args(["bucket", "t", "--input", "text", "--no-persistent"])
        .args(["--artifacts-dir", "arts", "-o", "b"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("1 of 3 artifact(s) bucketed"), "{err}");
    assert!(!err.contains("arts/a2"), "{err}");
    assert!(d.path().join("b/bucket-0").is_dir(), "{err}");
    assert!(d.path().join("b/known-crashes.txt").is_file(), "{err}");
}
