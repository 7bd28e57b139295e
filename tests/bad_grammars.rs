//! Data-driven: every file in `tests/data/bad-grammars/` is a broken grammar.
//! Its `.expect` sidecar holds the diagnostic code (line 1) and a substring
//! naming the culprit (line 2). `check` must exit 1 with both in its message,
//! and never panic.

use assert_cmd::Command;
use grammar_min::grammar::{Grammar, LoadOptions};
use std::path::{Path, PathBuf};

fn cases() -> Vec<(PathBuf, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad-grammars");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let expect = std::fs::read_to_string(path.with_extension("expect"))
                .unwrap_or_else(|_| panic!("{} has no .expect file", path.display()));
            let mut lines = expect.lines();
            let code = lines.next().unwrap().to_string();
            let culprit = lines.next().unwrap().to_string();
            out.push((path, code, culprit));
        }
    }
    out.sort();
    out
}

#[test]
fn at_least_twelve_bad_grammars() {
    assert!(cases().len() >= 12, "only {} cases", cases().len());
}

#[test]
fn library_reports_code_and_culprit() {
    for (path, code, culprit) in cases() {
        let err = Grammar::from_path(&path, &LoadOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{} loaded", path.display()));
        assert!(
            err.errors().any(|d| d.code == code),
            "{}: expected {code}, got {err}",
            path.display()
        );
        assert!(
            err.to_string().contains(&culprit),
            "{}: message does not name `{culprit}`: {err}",
            path.display()
        );
    }
}

#[test]
fn check_exits_1_naming_the_culprit() {
    for (path, code, culprit) in cases() {
        let out = Command::cargo_bin("cargo-grammar-min")
            .unwrap()
            .args(["check", "--grammar"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {stderr}", path.display());
        assert!(!stderr.contains("panicked"), "{}: {stderr}", path.display());
        assert!(
            stderr.contains(&format!("error[{code}]")),
            "{}: {stderr}",
            path.display()
        );
        assert!(stderr.contains(&culprit), "{}: {stderr}", path.display());
    }
}

#[test]
fn huge_file_is_refused_before_parsing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let limit = grammar_min::grammar::load::MAX_GRAMMAR_BYTES as usize;
    let mut s = String::with_capacity(limit + 100);
    s.push_str("{\"<start>\": [");
    while s.len() <= limit {
        s.push_str("\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",");
    }
    s.push_str("\"x\"]}");
    std::fs::write(&path, s).unwrap();
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--grammar"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[too-large]"), "{stderr}");
    assert!(stderr.contains("huge.json"), "{stderr}");
}

#[test]
fn missing_file_and_directory() {
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--grammar", "no/such/grammar.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("cannot read grammar file no/such/grammar.json"),
        "{stderr}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--grammar"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}
