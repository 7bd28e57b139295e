//! CLI tests for `parse`, `encode` and `seed` on real temporary directories.

#[allow(dead_code)]
mod fake_target;

use assert_cmd::Command;
use grammar_min::generate::{decode, DecodeConfig};
use grammar_min::grammar::Grammar;
use predicates::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cli() -> Command {
    Command::cargo_bin("cargo-grammar-min").unwrap()
}

fn json_grammar() -> (PathBuf, Grammar) {
    let p = root().join("grammars/json.json");
    let g = Grammar::from_path(&p, &Default::default()).unwrap();
    (p, g)
}

/// `seed [FLAGS] -g GRAMMAR TEXTS OUT`, to be asserted on.
fn seed(flags: &[&str], grammar: &Path, texts: &Path, out: &Path) -> assert_cmd::assert::Assert {
    cli()
        .arg("seed")
        .args(flags)
        .arg("-g")
        .arg(grammar)
        .arg(texts)
        .arg(out)
        .assert()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn seed_encodes_the_whole_json_corpus() {
    let (grammar, g) = json_grammar();
    let corpus = root().join("tests/data/json-corpus");
    let originals: BTreeSet<Vec<u8>> = files_in(&corpus)
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(originals.len() >= 20);
    let out = tempfile::tempdir().unwrap();
    let cfg = DecodeConfig {
        max_depth: 8192,
        ..DecodeConfig::default()
    };
    cli()
        .args(["grammar-min", "seed", "--grammar"])
        .arg(&grammar)
        .arg(&corpus)
        .arg(out.path())
        .args(["--max-depth", "8192"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "seed: {n} of {n} files written",
            n = originals.len()
        )));
    let written = files_in(out.path());
    assert_eq!(written.len(), originals.len());
    let mut decoded = BTreeSet::new();
    for f in &written {
        let choices = std::fs::read(f).unwrap();
        // Named by the SHA-1 of the content, like libFuzzer's corpus files.
        let name = f.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, sha1_smol::Sha1::from(&choices).digest().to_string());
        decoded.insert(decode(&g, &choices, &cfg));
    }
    assert_eq!(
        decoded, originals,
        "every corpus file decodes back to an original"
    );
}

#[test]
fn seed_lists_and_skips_bad_files() {
    let (grammar, g) = json_grammar();
    let texts = tempfile::tempdir().unwrap();
    std::fs::write(texts.path().join("good.json"), b"[1, {\"a\": null}]").unwrap();
    std::fs::write(texts.path().join("bad.json"), b"{\"a\": }").unwrap();
    // Deeper than the default decoder budget (max_depth 2048).
    let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
    std::fs::write(texts.path().join("deep.json"), &deep).unwrap();
    let out = tempfile::tempdir().unwrap();
    seed(&[], &grammar, texts.path(), out.path())
        .success()
        .stderr(predicate::str::contains("skipped").and(predicate::str::contains("bad.json")))
        .stderr(predicate::str::contains("line 1, column 7"))
        .stderr(predicate::str::contains("deep.json").and(predicate::str::contains("max_depth")))
        .stdout(predicate::str::contains("seed: 1 of 3 files written"));
    let written = files_in(out.path());
    assert_eq!(written.len(), 1);
    let choices = std::fs::read(&written[0]).unwrap();
    assert_eq!(
        decode(&g, &choices, &DecodeConfig::default()),
        b"[1, {\"a\": null}]"
    );

    // Nothing usable: exit 1.
    let only_bad = tempfile::tempdir().unwrap();
    std::fs::write(only_bad.path().join("bad.json"), b"nope").unwrap();
    seed(&[], &grammar, only_bad.path(), &out.path().join("sub"))
        .code(1)
        .stdout(predicate::str::contains("seed: 0 of 1 files written"));
}

#[test]
fn seed_takes_files_with_other_blanks_in_the_grammars_spelling() {
    let grammar = root().join("grammars/expr.json");
    let g = Grammar::from_path(&grammar, &Default::default()).unwrap();
    let texts = tempfile::tempdir().unwrap();
    // As editors write them: a trailing newline, tight operators.
    std::fs::write(texts.path().join("a.txt"), b"1 + 2\n").unwrap();
    std::fs::write(texts.path().join("b.txt"), b"(3*4)-5").unwrap();
    let out = tempfile::tempdir().unwrap();
    seed(&[], &grammar, texts.path(), out.path())
        .success()
        .stdout(predicate::str::contains(
            "leading and trailing blanks removed",
        ))
        .stdout(predicate::str::contains("seed: 2 of 2 files written"));
    let mut decoded: Vec<Vec<u8>> = files_in(out.path())
        .iter()
        .map(|f| decode(&g, &std::fs::read(f).unwrap(), &DecodeConfig::default()))
        .collect();
    decoded.sort();
    assert_eq!(decoded, [b"(3 * 4) - 5".to_vec(), b"1 + 2".to_vec()]);
    // `encode` keeps to the exact text, and says what would parse.
    cli()
        .args(["encode", "-g"])
        .arg(&grammar)
        .arg(texts.path().join("a.txt"))
        .arg("-o")
        .arg(out.path().join("a.choices"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 1, column 6"))
        .stderr(predicate::str::contains(
            "note: it parses with its spelling changed (leading and trailing blanks removed)",
        ));
    // --exact skips them instead.
    seed(
        &["--exact"],
        &grammar,
        texts.path(),
        &out.path().join("exact"),
    )
    .code(1)
    .stdout(predicate::str::contains("seed: 0 of 2 files written"));
}

#[test]
fn encode_writes_a_sequence_that_decodes_back() {
    let (grammar, g) = json_grammar();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("doc.json");
    let text = "{\"name\": \"caf\u{e9}\", \"n\": [1e3, -0.5]}";
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("doc.bin");
    cli()
        .args(["encode", "-g"])
        .arg(&grammar)
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let choices = std::fs::read(&out).unwrap();
    assert_eq!(
        decode(&g, &choices, &DecodeConfig::default()),
        text.as_bytes()
    );
    // No temporary file is left behind.
    assert_eq!(files_in(dir.path()).len(), 2);
    // Without -o (or with `-`) the same bytes go to stdout.
    for extra in [&[][..], &["-o", "-"]] {
        let piped = cli()
            .args(["encode", "-g"])
            .arg(&grammar)
            .arg(&input)
            .args(extra)
            .assert()
            .success()
            .stderr(predicate::str::contains("wrote stdout"));
        assert_eq!(piped.get_output().stdout, choices);
    }
    assert_eq!(files_in(dir.path()).len(), 2);

    // Too deep for the given budget: a clear error, then --auto succeeds.
    let deep = dir.path().join("deep.json");
    std::fs::write(&deep, format!("{}{}", "[".repeat(50), "]".repeat(50))).unwrap();
    cli()
        .args(["encode", "-g"])
        .arg(&grammar)
        .arg(&deep)
        .arg("-o")
        .arg(dir.path().join("deep.bin"))
        .args(["--max-depth", "20"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs max_depth >="));
    cli()
        .args(["encode", "--auto", "-g"])
        .arg(&grammar)
        .arg(&deep)
        .arg("-o")
        .arg(dir.path().join("deep.bin"))
        .args(["--max-depth", "20"])
        .assert()
        .success()
        .stderr(predicate::str::contains("decodes under max_depth"));
}

#[test]
fn parse_prints_trees_and_reports_errors() {
    let grammar = root().join("grammars/expr.json");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("e.txt");
    std::fs::write(&input, "1 + (2 * 3)").unwrap();
    cli()
        .args(["parse", "-g"])
        .arg(&grammar)
        .arg(&input)
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "<start>\n  <expr>\n    <term>\n",
        ))
        .stdout(predicate::str::contains("          \"(\"\n"));
    let out = cli()
        .args(["parse", "--format", "json", "-g"])
        .arg(&grammar)
        .arg(&input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["symbol"], "<start>");
    assert_eq!(v["children"][0]["symbol"], "<expr>");
    assert_eq!(v["children"][0]["children"][1]["terminal"], " + ");
    cli()
        .args(["parse", "--format", "dot", "-g"])
        .arg(&grammar)
        .arg(&input)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("digraph tree {"));

    std::fs::write(&input, "1 + (2 * )").unwrap();
    cli()
        .args(["parse", "-g"])
        .arg(&grammar)
        .arg(&input)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "unexpected \")\" at line 1, column 10 (byte 9)",
        ))
        .stderr(predicate::str::contains("1 | 1 + (2 * )\n  |          ^"));
}

#[test]
fn seed_counts_files_that_encode_alike_once() {
    // Two copies of one file are one corpus entry.
    let (grammar, _) = json_grammar();
    let d = tempfile::tempdir().unwrap();
    let texts = d.path().join("texts");
    std::fs::create_dir(&texts).unwrap();
    std::fs::write(texts.join("a.json"), "[1, 2]").unwrap();
    std::fs::write(texts.join("b.json"), "[1, 2]").unwrap();
    let out = d.path().join("out");
    seed(&[], &grammar, &texts, &out)
        .success()
        .stdout(predicate::str::contains("seed: 1 of 2 files written to"))
        .stdout(predicate::str::contains("(1 encoded as an earlier file)"));
    assert_eq!(files_in(&out).len(), 1);
}

#[test]
fn encode_respells_a_text_only_when_asked() {
    // A final newline the grammar does not write: exact by default (with
    // a note naming --respell), the grammar's spelling with --respell.
    let g = root().join("grammars/expr.json");
    let d = tempfile::tempdir().unwrap();
    let text = d.path().join("e.txt");
    std::fs::write(&text, "1 + 2\n").unwrap();
    let out = d.path().join("e.bin");
    let encode = |flags: &[&str]| {
        cli()
            .arg("encode")
            .args(flags)
            .arg("--grammar")
            .arg(&g)
            .arg(&text)
            .arg("-o")
            .arg(&out)
            .assert()
    };
    encode(&[]).code(1).stderr(predicate::str::contains(
        "`encode --respell` take it that way",
    ));
    assert!(!out.exists());
    encode(&["--respell"])
        .success()
        .stderr(predicate::str::contains("taken in the grammar's spelling"));
    let g = Grammar::from_path(&g, &Default::default()).unwrap();
    let choices = std::fs::read(&out).unwrap();
    assert_eq!(decode(&g, &choices, &DecodeConfig::default()), b"1 + 2");
}

#[test]
fn parse_respell_shows_the_tree_reduce_works_on() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("e.txt");
    std::fs::write(&f, "1+2\n").unwrap();
    let g = root().join("grammars/expr.json");
    cli()
        .args(["parse", "--grammar"])
        .arg(&g)
        .arg(&f)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("`parse --respell` shows its tree"));
    cli()
        .args(["parse", "--respell", "--format", "json", "--grammar"])
        .arg(&g)
        .arg(&f)
        .assert()
        .success()
        .stdout(predicate::str::contains("\" + \""))
        .stderr(predicate::str::contains("taken in the grammar's spelling"));
}

/// `parse --target NAME` parses with the grammar the built target reports
/// (a script answering `GRAMMAR_MIN_DESCRIBE` as a grammar target does).
#[cfg(unix)]
#[test]
fn parse_takes_the_grammar_of_a_target() {
    let d = tempfile::tempdir().unwrap();
    let grammar = r#"{"<start>": ["a<b>"], "<b>": ["b", "c"]}"#;
    let described = serde_json::json!({"max_depth": 64, "max_len": 1000, "grammar": grammar});
    std::fs::write(d.path().join("described.json"), described.to_string()).unwrap();
    fake_target::script_target(
        d.path(),
        "ab",
        &format!(
            "#!/bin/sh\ncat '{}' > \"$GRAMMAR_MIN_DESCRIBE\"\n",
            d.path().join("described.json").display()
        ),
    );
    std::fs::write(d.path().join("in.txt"), "ac").unwrap();
    cli()
        .current_dir(d.path())
        .args(["parse", "--target", "ab", "--fuzz-dir", "fuzz", "in.txt"])
        .assert()
        .success()
        .stdout(predicate::str::contains("<b>").and(predicate::str::contains("\"c\"")));
    // Without a grammar or a target: the error says what to pass.
    cli()
        .current_dir(d.path())
        .args(["parse", "in.txt"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--grammar FILE, or --target NAME"));
}
