//! `generalize`, `instantiate` and `bucket` end to end, with `grep` as the
//! oracle: "the input has `((` before `))`".

use assert_cmd::Command;
use std::path::Path;

fn bin() -> Command {
    Command::cargo_bin("cargo-grammar-min").unwrap()
}

fn expr() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("grammars/expr.json")
        .display()
        .to_string()
}

/// Runs `cmd`, which must succeed (its stderr is shown if not), and
/// reads its `--json` output.
fn json_of(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const ORACLE: &str = "grep -qE [(][(].*[)][)] {}";

#[test]
fn generalize_then_instantiate() {
    let d = tempfile::tempdir().unwrap();
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "1 + ((2 * 3 / 4))").unwrap();
    let v = json_of(
        bin()
            .args([
                "generalize",
                "--cmd",
                ORACLE,
                "--grammar",
                &expr(),
                "--precision",
                "30",
                "--json",
            ])
            .arg(&bug),
    );
    assert_eq!(v["pattern"], "((<expr>))");
    assert_eq!(v["precision"], 1.0);
    assert!(v["executions"].as_u64().unwrap() >= 10);
    // The artifact is untouched; results sit next to it.
    assert_eq!(std::fs::read_to_string(&bug).unwrap(), "1 + ((2 * 3 / 4))");
    let pattern = d.path().join("bug.txt.pattern.json");
    assert!(pattern.is_file());

    let out = bin()
        .args(["instantiate", "-n", "20", "--pattern"])
        .arg(&pattern)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 20);
    for l in text.lines() {
        assert!(l.starts_with("((") && l.ends_with("))"), "{l}");
    }
}

#[test]
fn unparseable_input_says_what_a_pattern_needs() {
    let d = tempfile::tempdir().unwrap();
    let bug = d.path().join("bug.txt.min");
    // What the token polish of `reduce` may leave: out of the language.
    std::fs::write(&bug, "((2)) )").unwrap();
    let out = bin()
        .args(["generalize", "--cmd", ORACLE, "--grammar", &expr()])
        .arg(&bug)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot generalise"), "{err}");
    assert!(err.contains("line 1, column 7"), "{err}");
    assert!(err.contains("give the original artifact"), "{err}");
    // `reduce`'s advice does not apply here: generalize has no --strategy.
    assert!(!err.contains("--strategy"), "{err}");
}

#[test]
fn bucket_takes_other_blanks_and_skips_only_what_they_break() {
    let d = tempfile::tempdir().unwrap();
    // `((2))` with a trailing newline fails in the grammar's spelling too;
    // `4*5` fails only as written (the oracle wants no blanks around `*`).
    std::fs::write(d.path().join("a"), "1 + ((2))\n").unwrap();
    std::fs::write(d.path().join("b"), "4*5\n").unwrap();
    let out = bin()
        .args([
            "bucket",
            "--cmd",
            "grep -qE [(][(][0-9][)][)]|4[*]5 {}",
            "--grammar",
            &expr(),
        ])
        .arg("-o")
        .arg(d.path().join("buckets"))
        .arg(d.path().join("a"))
        .arg(d.path().join("b"))
        .output()
        .unwrap();
    // One artifact could not be bucketed: exit 2, as `reduce`.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("1 of 2 artifact(s) could not be bucketed"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("((<digit>))"), "{stdout}");
    assert!(
        stdout.contains("not bucketed") && stdout.contains("the difference matters"),
        "{stdout}"
    );
}

#[test]
fn bucket_groups_by_pattern_and_keeps_bugs_apart() {
    let d = tempfile::tempdir().unwrap();
    // Two "bugs": double parentheses, and a division by a literal zero. The
    // oracle accepts both (one exit code), so only the patterns can keep
    // them apart.
    let files = [
        ("paren-1", "1 + ((2 * 3 / 4))"),
        ("paren-2", "(3 - ((7)) * 2)"),
        ("paren-3", "((1)) * 4"),
        ("div-1", "7 / 0 + 1"),
        ("div-2", "2 * 3 / 0"),
    ];
    for (n, t) in files {
        std::fs::write(d.path().join(n), t).unwrap();
    }
    let script = d.path().join("oracle.sh");
    std::fs::write(
        &script,
        "case \"$(cat \"$1\")\" in *'(('*'))'*) exit 0;; *'/ 0'*) exit 0;; esac; exit 1\n",
    )
    .unwrap();
    let cmd = format!("sh {} {{}}", script.display());
    let v = json_of(
        bin()
            .args([
                "bucket",
                "--cmd",
                &cmd,
                "--grammar",
                &expr(),
                "--json",
                "--precision",
                "20",
                "-o",
            ])
            .arg(d.path().join("buckets"))
            .args(files.iter().map(|(n, _)| d.path().join(n))),
    );
    let buckets = v["buckets"].as_array().unwrap();
    let mut groups: Vec<Vec<String>> = buckets.iter().map(member_names).collect();
    groups.sort();
    assert_eq!(
        groups,
        vec![
            vec!["div-1".to_string(), "div-2".into()],
            vec!["paren-1".into(), "paren-2".into(), "paren-3".into()]
        ],
        "{v:#}"
    );
    let patterns: Vec<&str> = buckets
        .iter()
        .map(|b| b["patterns"][0].as_str().unwrap())
        .collect();
    assert!(patterns.contains(&"((<expr>))"), "{patterns:?}");
    for b in buckets {
        let dir = Path::new(b["dir"].as_str().unwrap());
        assert!(dir.join("pattern-0.json").is_file());
        assert!(dir.join("reproducer.txt").is_file());
    }
    // A --cmd oracle has no crash signatures: nothing a fuzz target could skip.
    assert!(v["known_crashes"].is_null(), "{v:#}");
    assert!(!d.path().join("buckets/known-crashes.txt").exists());
}

#[test]
fn bucket_skips_tmin_leftovers_and_result_files_in_an_artifacts_dir() {
    let d = tempfile::tempdir().unwrap();
    let arts = d.path().join("artifacts");
    std::fs::create_dir(&arts).unwrap();
    for (n, t) in [
        ("crash-1", "1 + ((2))"),
        ("crash-2", "((3)) * 4"),
        ("minimized-from-1", "((2))"),
        ("crash-1.min", "((2))"),
        (".hidden", "((5))"),
    ] {
        std::fs::write(arts.join(n), t).unwrap();
    }
    let script = d.path().join("oracle.sh");
    std::fs::write(&script, "grep -q '((' \"$1\"\n").unwrap();
    let cmd = format!("sh {} {{}}", script.display());
    let out = bin()
        .args(["bucket", "--cmd", &cmd, "--grammar", &expr(), "--json"])
        .arg("--artifacts-dir")
        .arg(&arts)
        .arg("-o")
        .arg(d.path().join("buckets"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("skipping 1 `minimized-from-*` file(s)"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names: Vec<String> = v["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(member_names)
        .collect();
    names.sort();
    assert_eq!(names, ["crash-1", "crash-2"], "{v:#}");
}

/// The file names of a bucket's members (from `bucket --json`), sorted.
fn member_names(b: &serde_json::Value) -> Vec<String> {
    let mut names: Vec<String> = b["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let p = m["name"].as_str().unwrap();
            Path::new(p)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// The `instantiate` command `generalize` prints runs as printed, also for
/// a grammar whose inputs span lines (it adds `--escape`).
#[test]
fn the_printed_instantiate_command_works_on_lines() {
    let d = tempfile::tempdir().unwrap();
    let g = d.path().join("lines.json");
    std::fs::write(
        &g,
        r#"{"<start>": ["<line>\n<start>", "<line>"], "<line>": ["a", "c", "b(<line>)"]}"#,
    )
    .unwrap();
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "a\nb(a)\na").unwrap();
    let out = bin()
        .args(["generalize", "--cmd", "grep -q b {}", "--grammar"])
        .arg(&g)
        .arg(&bug)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("instances: cargo grammar-min "))
        .unwrap_or_else(|| panic!("no instantiate command in: {err}"));
    assert!(line.ends_with(" --escape"), "{line}");
    let bin = assert_cmd::cargo::cargo_bin("cargo-grammar-min");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' {line}", bin.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Ten instances, all different.
    let lines: std::collections::HashSet<&str> = text.lines().collect();
    assert_eq!((text.lines().count(), lines.len()), (10, 10), "{text}");
    assert!(text.lines().all(|l| l.contains('b')), "{text}");
}

#[test]
fn bucket_reduces_a_choice_artifact_to_the_shortest_text() {
    // `Some` alone is a name, whose choices come after `Some(0)`'s: a
    // choice artifact is reduced to the shorter text, as `reduce` does.
    let d = tempfile::tempdir().unwrap();
    let g = d.path().join("opt.json");
    std::fs::write(
        &g,
        r#"{"<start>": ["<v>"],
            "<v>": ["Some(<v>)", "0", "[<v>, <v>]", "<id>"],
            "<id>": ["<l>", "<l><id>"],
            "<l>": ["x", "S", "o", "m", "e"]}"#,
    )
    .unwrap();
    let text = d.path().join("crash.txt");
    std::fs::write(&text, "[0, Some(Some(0))]").unwrap();
    let art = d.path().join("crash-1");
    bin()
        .args(["encode", "--grammar"])
        .arg(&g)
        .arg(&text)
        .arg("-o")
        .arg(&art)
        .assert()
        .success();
    let v = json_of(
        bin()
            .args([
                "bucket",
                "--cmd",
                "grep -q Some {}",
                "--input",
                "choices",
                "--json",
            ])
            .arg("--grammar")
            .arg(&g)
            .arg("-o")
            .arg(d.path().join("buckets"))
            .arg(&art),
    );
    let dir = Path::new(v["buckets"][0]["dir"].as_str().unwrap());
    let repro = std::fs::read_to_string(dir.join("reproducer.txt")).unwrap();
    assert_eq!(repro, "Some", "{v:#}");
}

#[test]
fn reduce_takes_a_directory_and_ends_with_a_total() {
    let d = tempfile::tempdir().unwrap();
    let arts = d.path().join("arts");
    std::fs::create_dir(&arts).unwrap();
    std::fs::write(arts.join("a"), "1 + ((2 * 3))").unwrap();
    std::fs::write(arts.join("b"), "((4)) - 5").unwrap();
    // A result of an earlier run is no artifact.
    std::fs::write(arts.join("a.min"), "((2))").unwrap();
    let out = bin()
        .args([
            "reduce",
            "--cmd",
            ORACLE,
            "--grammar",
            &expr(),
            "--artifacts-dir",
        ])
        .arg(&arts)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("2 artifact(s) reduced: 22 -> 8 bytes of text in all"),
        "{err}"
    );
    // One line per artifact to reproduce it.
    assert_eq!(err.matches("  reproduce: grep").count(), 2, "{err}");
    assert!(!err.contains("Reproduce with:"), "{err}");
}

#[test]
fn generalize_reduces_a_text_as_reduce_does_within_the_grammar() {
    // A table header moves out only when the pair under it becomes a
    // top-level pair: no subtree replacement (Perses) does that; the
    // `auto` pipeline, kept inside the grammar, does.
    let d = tempfile::tempdir().unwrap();
    let grammar = tables_grammar(d.path());
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "[a]\nb = [[1]]\n").unwrap();
    let v = json_of(
        bin()
            .args(["generalize", "--cmd", "grep -qF [[ {}", "--grammar"])
            .arg(&grammar)
            .arg("--json")
            .arg(&bug),
    );
    assert_eq!(v["reduced_bytes"], 10, "{v}");
    assert!(
        v["pattern"]
            .as_str()
            .unwrap()
            .starts_with("<key> = [[<val>]]"),
        "{v}"
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("bug.txt.min")).unwrap(),
        "b = [[0]]\n"
    );
}

/// A TOML-like grammar of lines and tables, written into `dir`.
fn tables_grammar(dir: &Path) -> std::path::PathBuf {
    let grammar = dir.join("tables.json");
    std::fs::write(
        &grammar,
        r#"{"<start>": ["<kvs><tables>"], "<kvs>": ["", "<kv>\n<kvs>"],
            "<tables>": ["", "<table><tables>"], "<table>": ["[<key>]\n<kvs>"],
            "<kv>": ["<key> = <val>"], "<key>": ["a", "b"],
            "<val>": ["0", "1", "[<val>]"]}"#,
    )
    .unwrap();
    grammar
}

#[test]
fn patterns_txt_has_one_escaped_pattern_per_line() {
    // A line grammar's pattern holds line ends: escaped, one per line.
    let d = tempfile::tempdir().unwrap();
    let grammar = tables_grammar(d.path());
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "b = [[1]]\n").unwrap();
    let out = d.path().join("buckets");
    json_of(
        bin()
            .args(["bucket", "--cmd", "grep -qF [[ {}", "--grammar"])
            .arg(&grammar)
            .arg("-o")
            .arg(&out)
            .arg("--json")
            .arg(&bug),
    );
    let text = std::fs::read_to_string(out.join("bucket-0/patterns.txt")).unwrap();
    assert_eq!(text.lines().count(), 1, "{text:?}");
    assert!(text.starts_with("<key> = [[<val>]]\\n"), "{text:?}");
}

/// A pattern with nothing abstract has one instance, written once.
#[test]
fn a_concrete_pattern_is_instantiated_once() {
    let d = tempfile::tempdir().unwrap();
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "1 + 2").unwrap();
    let v = json_of(
        bin()
            .args([
                "generalize",
                "--cmd",
                "grep -qxF '1 + 2' {}",
                "--grammar",
                &expr(),
                "--json",
            ])
            .arg(&bug),
    );
    assert_eq!(v["pattern"], "1 + 2");
    bin()
        .args(["instantiate", "-n", "5", "--pattern"])
        .arg(d.path().join("bug.txt.pattern.json"))
        .assert()
        .success()
        .stdout("1 + 2\n")
        .stderr(predicates::str::contains("no abstract part"));
}

/// A pattern with two instances gives those two, not ten lines of them.
#[test]
fn instances_are_distinct_and_fewer_when_the_pattern_has_fewer() {
    let d = tempfile::tempdir().unwrap();
    let grammar = d.path().join("signs.json");
    std::fs::write(&grammar, r#"{"<start>": ["<s>x"], "<s>": ["+", "-"]}"#).unwrap();
    let bug = d.path().join("bug.txt");
    std::fs::write(&bug, "+x").unwrap();
    let v = json_of(
        bin()
            .args(["generalize", "--cmd", "grep -q x {}", "--json", "--grammar"])
            .arg(&grammar)
            .arg(&bug),
    );
    assert_eq!(v["pattern"], "<start>", "{v:#}");
    let out = bin()
        .args(["instantiate", "-n", "10", "--pattern"])
        .arg(d.path().join("bug.txt.pattern.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    lines.sort();
    assert_eq!(lines, ["+x", "-x"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 distinct instance(s)"), "{err}");
}

#[test]
fn variants_of_one_bug_share_one_canonical_pattern() {
    let d = tempfile::tempdir().unwrap();
    // A quote, a character, an escape: the "bug" needs `b` or `d` before
    // the escape, and any escape. The reductions differ in both choices.
    let grammar = d.path().join("quoted.json");
    std::fs::write(
        &grammar,
        r#"{"<start>": ["\"<c><e>\""], "<c>": ["a", "b", "c", "d", "<c><c>"],
            "<e>": ["", "\\n", "\\t"]}"#,
    )
    .unwrap();
    let files = [
        ("q-1", r#""d\t""#),
        ("q-2", r#""b\n""#),
        ("q-3", r#""d\n""#),
    ];
    for (n, t) in files {
        std::fs::write(d.path().join(n), t).unwrap();
    }
    let script = d.path().join("oracle.sh");
    std::fs::write(
        &script,
        "case \"$(cat \"$1\")\" in '\"b\\'?'\"'|'\"d\\'?'\"') exit 0;; esac; exit 1\n",
    )
    .unwrap();
    let cmd = format!("sh {} {{}}", script.display());
    let v = json_of(
        bin()
            .args(["bucket", "--cmd", &cmd, "--grammar"])
            .arg(&grammar)
            .args(["--json", "-o"])
            .arg(d.path().join("buckets"))
            .args(files.iter().map(|(n, _)| d.path().join(n))),
    );
    let buckets = v["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 1, "{v:#}");
    assert_eq!(member_names(&buckets[0]), ["q-1", "q-2", "q-3"], "{v:#}");
    assert_eq!(
        buckets[0]["patterns"],
        serde_json::json!([r#""b\n""#]),
        "{v:#}"
    );
    // The artifacts are untouched.
    assert_eq!(
        std::fs::read_to_string(d.path().join("q-1")).unwrap(),
        r#""d\t""#
    );
}

/// A text without the grammar's blanks whose smallest failing sentence of
/// the grammar is longer than it: the pattern is built on that reduced
/// sentence, not on the unreduced input respaced.
#[test]
fn a_text_without_blanks_is_reduced_in_the_grammars_spelling() {
    let d = tempfile::tempdir().unwrap();
    let bug = d.path().join("bug.txt");
    // Respaced: `((1)) * 2 * 3 + 4` (17 bytes).
    std::fs::write(&bug, "((1))*2*3+4").unwrap();
    std::fs::write(
        d.path().join("check.sh"),
        "#!/bin/sh\ngrep -q '((' \"$1\" && grep -q '[*]' \"$1\" && grep -q '+' \"$1\"\n",
    )
    .unwrap();
    let out = bin()
        .current_dir(d.path())
        .args([
            "generalize",
            "--grammar",
            &expr(),
            "--cmd",
            "sh check.sh {}",
        ])
        .arg(&bug)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("in the grammar's spelling"), "{err}");
    let min = std::fs::read_to_string(d.path().join("bug.txt.min")).unwrap();
    assert!(
        min.len() < 17 && min.contains("((") && min.contains(" * "),
        "{min:?}"
    );
}
