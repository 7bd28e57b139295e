//! `cargo grammar-min generate` and `decode` on real temporary directories.

#[allow(dead_code)]
mod fake_target;

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn grammar(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("grammars/{name}.json"))
}

fn cmd() -> Command {
    let mut c = Command::cargo_bin("cargo-grammar-min").unwrap();
    // As cargo runs it: `cargo grammar-min x` passes its own name first.
    c.arg("grammar-min");
    c
}

fn run(args: &[&str]) -> Vec<u8> {
    stdout(cmd().args(args))
}

/// Runs `c`, which must succeed, and returns its stdout.
fn stdout(c: &mut Command) -> Vec<u8> {
    c.assert().success().get_output().stdout.clone()
}

#[test]
fn generate_is_deterministic_for_a_seed() {
    let g = grammar("expr");
    let g = g.to_str().unwrap();
    let a = run(&["generate", "--grammar", g, "-n", "20", "--seed", "7"]);
    let b = run(&["generate", "--grammar", g, "-n", "20", "--seed", "7"]);
    let c = run(&["generate", "--grammar", g, "-n", "20", "--seed", "8"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.iter().filter(|&&b| b == b'\n').count(), 20);
    // The first inputs do not depend on -n.
    let five = run(&["generate", "--grammar", g, "-n", "5", "--seed", "7"]);
    assert!(a.starts_with(&five));
}

#[test]
fn newlines_need_escape_null_or_a_directory() {
    let g = grammar("assign");
    let g = g.to_str().unwrap();
    cmd()
        .args(["generate", "--grammar", g, "-n", "3"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("contains a newline")
                .and(predicate::str::contains("--escape")),
        );
    let esc = run(&["generate", "--grammar", g, "-n", "3", "--escape"]);
    let lines: Vec<&[u8]> = esc
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l.ends_with(b";\\n")));
    let nul = run(&["generate", "--grammar", g, "-n", "3", "-0"]);
    assert_eq!(nul.iter().filter(|&&b| b == 0).count(), 3);
}

#[test]
fn output_directory_round_trips_through_decode() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seeds");
    let g = grammar("json");
    let g = g.to_str().unwrap();
    cmd()
        .args(["generate", "--grammar", g, "-n", "12", "--seed", "3", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 12 inputs"));
    for i in 0..12 {
        let text = std::fs::read(out.join(format!("{i:02}.txt"))).unwrap();
        let choices = out.join(format!("{i:02}.choices"));
        let decoded = stdout(cmd().args(["decode", "--grammar", g]).arg(&choices));
        assert_eq!(decoded, text, "input {i}");
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(&text).is_ok());
    }
    // No temporary files are left behind.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 24);
}

#[test]
fn decode_several_artifacts_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::write(&a, [255u8, 0, 0, 0, 4, 0, 0, 9]).unwrap();
    std::fs::write(&b, []).unwrap();
    let g = grammar("expr");
    let out = stdout(
        cmd()
            .args(["decode", "--grammar", g.to_str().unwrap()])
            .arg(&a)
            .arg(&b),
    );
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains(" - "), "{}", lines[0]);
    assert_eq!(lines[1], "0");
    let dot = stdout(
        cmd()
            .args(["decode", "--dot", "--grammar", g.to_str().unwrap()])
            .arg(&b),
    );
    let dot = String::from_utf8(dot).unwrap();
    assert!(dot.starts_with("digraph tree {"));
    assert!(dot.contains("label=\"<start>\"") && dot.contains("label=\"\\\"0\\\"\""));
}

#[test]
fn decode_into_a_directory_names_outputs_after_artifacts() {
    let dir = tempfile::tempdir().unwrap();
    let gen = dir.path().join("gen");
    let g = grammar("assign");
    let g = g.to_str().unwrap();
    cmd()
        .args(["generate", "--grammar", g, "-n", "4", "--seed", "5", "-o"])
        .arg(&gen)
        .assert()
        .success();
    let choices: Vec<PathBuf> = (0..4).map(|i| gen.join(format!("{i}.choices"))).collect();
    let before: Vec<Vec<u8>> = choices.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let out = dir.path().join("text");
    // Multi-line inputs cannot go to stdout one per line, but can go to files.
    cmd()
        .args(["decode", "--grammar", g])
        .args(&choices)
        .assert()
        .failure()
        .stderr(predicate::str::contains("-o DIR"));
    cmd()
        .args(["decode", "--grammar", g, "-o"])
        .arg(&out)
        .args(&choices)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 4 file(s)"));
    for (i, c) in choices.iter().enumerate() {
        let text = std::fs::read(out.join(format!("{i}.choices.txt"))).unwrap();
        assert_eq!(text, std::fs::read(gen.join(format!("{i}.txt"))).unwrap());
        assert_eq!(
            std::fs::read(c).unwrap(),
            before[i],
            "artifact {i} untouched"
        );
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 4, "no temp files");
    // A directory stands for its files.
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    for c in &choices {
        std::fs::copy(c, corpus.join(c.file_name().unwrap())).unwrap();
    }
    // `reduce`'s results next to artifacts are not decoded with them.
    let results = [
        "0.choices.min",
        "0.choices.min.choices",
        "0.choices.pattern.json",
    ];
    for r in results {
        std::fs::write(corpus.join(r), "x = 1\n").unwrap();
    }
    let from_dir = dir.path().join("from-dir");
    cmd()
        .args(["decode", "--grammar", g, "-o"])
        .arg(&from_dir)
        .arg(&corpus)
        .assert()
        .success()
        .stderr(predicate::str::contains("skipping 3 result file(s)"));
    assert_eq!(std::fs::read_dir(&from_dir).unwrap().count(), 4);
    for r in results {
        std::fs::remove_file(corpus.join(r)).unwrap();
    }
    cmd()
        .args(["decode", "--grammar", g, "-o"])
        .arg(&corpus)
        .arg(&corpus)
        .assert()
        .failure()
        .stderr(predicate::str::contains("choose another -o DIR"));
    assert_eq!(
        std::fs::read_dir(&corpus).unwrap().count(),
        4,
        "corpus untouched"
    );
    for i in 0..4 {
        let name = format!("{i}.choices.txt");
        assert_eq!(
            std::fs::read(from_dir.join(&name)).unwrap(),
            std::fs::read(out.join(&name)).unwrap()
        );
    }
    cmd()
        .args(["decode", "--dot", "--grammar", g, "-o"])
        .arg(&out)
        .arg(&choices[0])
        .assert()
        .success();
    let dot = std::fs::read_to_string(out.join("0.choices.dot")).unwrap();
    assert!(dot.starts_with("digraph tree {"));
    // Two artifacts of the same name would overwrite each other: refused
    // before anything is written.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(&choices[1], other.join("0.choices")).unwrap();
    let clash = dir.path().join("clash");
    cmd()
        .args(["decode", "--grammar", g, "-o"])
        .arg(&clash)
        .arg(&choices[0])
        .arg(other.join("0.choices"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("would both be written to"));
    assert!(!clash.exists());
}

/// A stand-in fuzz target under `<root>/fuzz/target/<triple>/release/NAME`
/// that answers the budget question (`GRAMMAR_MIN_DESCRIBE`) as a
/// `grammar_fuzz_target!` binary does.
#[cfg(unix)]
fn describing_target(root: &std::path::Path, name: &str, depth: u32, len: usize) {
    fake_target::script_target(
        root,
        name,
        &format!(
            "#!/bin/sh\nprintf '{{\"max_depth\":{depth},\"max_len\":{len}}}' > \"$GRAMMAR_MIN_DESCRIBE\"\n"
        ),
    );
}

#[cfg(unix)]
#[test]
fn target_flag_decodes_encodes_and_seeds_with_the_targets_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    describing_target(root, "shallow", 4, 100_000);
    let g = grammar("expr");
    let g = g.to_str().unwrap();
    // A choice sequence whose text is deeper than 4 levels by default.
    let deep = root.join("deep.choices");
    std::fs::write(&deep, [255u8; 64]).unwrap();
    let decode = |extra: &[&str]| {
        stdout(
            cmd()
                .current_dir(root)
                .args(["decode", "--grammar", g])
                .args(extra)
                .arg(&deep),
        )
    };
    let default = decode(&[]);
    let by_flags = decode(&["--max-depth", "4", "--max-len", "100000"]);
    let by_target = decode(&["--target", "shallow", "--fuzz-dir", "fuzz"]);
    assert_ne!(default, by_flags, "the sequence must be budget-sensitive");
    assert_eq!(by_target, by_flags);
    // Explicit flags win over the target's.
    assert_eq!(
        decode(&[
            "--target",
            "shallow",
            "--fuzz-dir",
            "fuzz",
            "--max-depth",
            "2048"
        ]),
        decode(&["--max-depth", "2048", "--max-len", "100000"])
    );
    // encode and seed: text deeper than the target allows is refused with
    // the target's budget, accepted with the defaults.
    let text = root.join("in");
    std::fs::create_dir(&text).unwrap();
    std::fs::write(text.join("a.txt"), &default).unwrap();
    cmd()
        .current_dir(root)
        .args([
            "encode",
            "--grammar",
            g,
            "--target",
            "shallow",
            "--fuzz-dir",
            "fuzz",
            "-o",
        ])
        .arg(root.join("a.choices"))
        .arg(text.join("a.txt"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("depth"));
    cmd()
        .current_dir(root)
        .args(["encode", "--grammar", g, "-o"])
        .arg(root.join("a.choices"))
        .arg(text.join("a.txt"))
        .assert()
        .success();
    cmd()
        .current_dir(root)
        .args([
            "seed",
            "--grammar",
            g,
            "--target",
            "shallow",
            "--fuzz-dir",
            "fuzz",
        ])
        .arg(&text)
        .arg(root.join("corpus"))
        .assert()
        .stderr(predicate::str::contains("skipped"));
    // A target that is not built: the error says how to build it.
    cmd()
        .current_dir(root)
        .args([
            "decode",
            "--grammar",
            g,
            "--target",
            "nope",
            "--fuzz-dir",
            "fuzz",
        ])
        .arg(&deep)
        .assert()
        .failure()
        .stderr(predicate::str::contains("cargo fuzz build nope"));
}

#[test]
fn decode_budget_flags_apply() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("deep");
    std::fs::write(&a, vec![0xFFu8; 5000]).unwrap();
    let g = grammar("expr");
    let long = run(&[
        "decode",
        "--grammar",
        g.to_str().unwrap(),
        a.to_str().unwrap(),
    ]);
    let short = run(&[
        "decode",
        "--grammar",
        g.to_str().unwrap(),
        "--max-depth",
        "4",
        a.to_str().unwrap(),
    ]);
    assert!(
        short.len() < long.len() / 10,
        "{} vs {}",
        short.len(),
        long.len()
    );
}

#[test]
fn unreadable_inputs_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("crash-123");
    let g = grammar("expr");
    cmd()
        .args(["decode", "--grammar", g.to_str().unwrap()])
        .arg(&missing)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("cannot read choice sequence")
                .and(predicate::str::contains("crash-123")),
        );
    cmd()
        .args(["generate", "--grammar"])
        .arg(dir.path().join("nope.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nope.json"));
    // The output directory is a file.
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    cmd()
        .args(["generate", "--grammar", g.to_str().unwrap(), "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot create output directory"));
}

#[test]
fn help_teaches_with_examples() {
    for sub in ["generate", "decode"] {
        cmd()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::is_match(r"Examples?:\s+cargo grammar-min").unwrap());
    }
}

#[test]
fn decode_without_a_grammar_or_a_target_says_what_to_pass() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("x.choices");
    std::fs::write(&f, [1u8, 2, 3]).unwrap();
    let out = cmd().arg("decode").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("pass --grammar FILE, or --target NAME"),
        "{err}"
    );
}

/// A reader that stops early (`… | head -1`) ends a listing quietly: exit
/// 0, nothing on stderr, where `println!` panicked and a checked write
/// failed with exit 2.
#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let g = grammar("sql");
    let g = g.to_str().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("cargo-grammar-min");
    for args in [
        &["generate", "-g", g, "-n", "100000", "--escape"][..],
        &["check", "--print", g],
    ] {
        let mut child = std::process::Command::new(&bin)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The reading end closed before the first write.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.is_empty(),
            "{args:?}: {:?}: {err}",
            out.status
        );
    }
}
