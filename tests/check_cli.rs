//! `check` on the shipped grammars, and its JSON output.

use assert_cmd::Command;
use std::path::Path;

fn shipped() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_grammar_checks_clean() {
    let all = shipped();
    for name in ["expr", "html", "int", "xyz", "assign", "json", "sql"] {
        assert!(
            all.iter().any(|p| p.file_stem().unwrap() == name),
            "grammars/{name}.json missing"
        );
    }
    for g in all {
        let out = Command::cargo_bin("cargo-grammar-min")
            .unwrap()
            .args(["check", "--grammar"])
            .arg(&g)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            g.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(": ok ("), "{stdout}");
        assert!(stdout.contains("no warnings"), "{}: {stdout}", g.display());
    }
}

#[test]
fn json_summary_and_json_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["grammar-min", "check", "--json", "--grammar"])
        .arg(root.join("grammars/expr.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["nonterminals"], 6);
    assert_eq!(v["alternatives"], 24);
    assert_eq!(v["max_min_depth"], 6);
    assert_eq!(v["format"], "fuzzingbook");

    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--json", "--grammar"])
        .arg(root.join("tests/data/bad-grammars/undefined-symbol.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "undefined-nonterminal");
    assert_eq!(d["nonterminal"], "<expr>");
    assert_eq!(d["severity"], "error");
}

#[test]
fn start_option_and_warnings_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.json");
    std::fs::write(&p, r#"{"<s>": ["<t>"], "<t>": ["t"], "<island>": ["i"]}"#).unwrap();
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--start", "<s>", "--grammar"])
        .arg(&p)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("warning[unreachable]"), "{stdout}");
    assert!(stdout.contains("<island>"), "{stdout}");
}

#[test]
fn grammar_file_may_be_given_without_the_flag() {
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars/expr.json");
    let bare = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check"])
        .arg(&g)
        .output()
        .unwrap();
    let flag = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--grammar"])
        .arg(&g)
        .output()
        .unwrap();
    assert!(bare.status.success());
    assert_eq!(bare.stdout, flag.stdout);
    // Neither, or both: a usage error naming the argument.
    let none = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("<FILE>"));
    let both = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .args(["check", "--grammar"])
        .arg(&g)
        .arg(&g)
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
}
