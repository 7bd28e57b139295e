//! CLI tests of `cargo grammar-min reduce` on real temporary directories.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;

mod fake_target;
use fake_target::{answer_as_grammar_target, fake_project};

fn bin() -> Command {
    Command::cargo_bin("cargo-grammar-min").unwrap()
}

const MYSTERY_PY: &str = "import sys\ns=open(sys.argv[1]).read()\na=s.find('('); b=s.find(')')\nsys.exit(0 if 0<=a<b else 1)\n";

fn setup(dir: &Path) {
    std::fs::write(dir.join("check.py"), MYSTERY_PY).unwrap();
    std::fs::write(dir.join("bug.txt"), "x = 1 + (2 * 3) - 4;").unwrap();
}

#[test]
fn cmd_oracle_reduces_and_keeps_the_artifact() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    bin()
        .current_dir(d.path())
        .args([
            "grammar-min",
            "reduce",
            "--cmd",
            "python3 check.py {}",
            "bug.txt",
        ])
        .assert()
        .success()
        .stderr(contains("no grammar"))
        .stderr(contains("reducing grammar-blind"))
        .stderr(contains("Reproduce with:"))
        .stderr(contains("python3 check.py bug.txt.min"));
    assert_eq!(std::fs::read(d.path().join("bug.txt.min")).unwrap(), b"()");
    assert_eq!(
        std::fs::read_to_string(d.path().join("bug.txt")).unwrap(),
        "x = 1 + (2 * 3) - 4;"
    );
    // No temporary files left behind next to the artifact.
    let mut names: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bug.txt", "bug.txt.min", "check.py"]);
}

#[test]
fn parallel_jobs_give_the_same_result_and_json() {
    let d = tempfile::tempdir().unwrap();
    let text = "aa ( bb cc ) dd ( ee ) ff ( gg hh ii ) jj";
    std::fs::write(d.path().join("a.txt"), text).unwrap();
    let cmd = "sh -c 'grep -q \"(.*(.*)\" \"$1\"' sh {}";
    let mut outs = Vec::new();
    for j in ["1", "2"] {
        let out = bin()
            .current_dir(d.path())
            .args([
                "reduce",
                "--cmd",
                cmd,
                "a.txt",
                "-j",
                j,
                "--json",
                "-o",
                &format!("out{j}.txt"),
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v[0]["bytes_before"], text.len());
        outs.push(std::fs::read(d.path().join(format!("out{j}.txt"))).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
    assert_eq!(outs[0], b"(()");
}

#[test]
fn original_that_does_not_fail_is_a_clear_error() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    std::fs::write(d.path().join("ok.txt"), "no parens").unwrap();
    bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", "python3 check.py {}", "ok.txt"])
        .assert()
        .failure()
        .stderr(contains("is not interesting"))
        .stderr(contains(
            "run 1 of 2 ended with exit code 1 (not interesting)",
        ))
        .stderr(contains("without a shell").not())
        .stderr(contains("(the command wrote nothing to stderr)"));
    assert!(!d.path().join("ok.txt.min").exists());
}

#[test]
fn errors_are_json_with_json() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    std::fs::write(d.path().join("ok.txt"), "no parens").unwrap();
    let out = bin()
        .current_dir(d.path())
        .args(["reduce", "--json", "--cmd", "python3 check.py {}", "ok.txt"])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("ok.txt is not interesting"), "{msg}");
}

#[test]
fn runs_time_out_by_the_originals_speed() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("bug.txt"), "a (b) c").unwrap();
    // A candidate without `(` never ends: killed after the default limit,
    // 20 × the original's slowest run and at least 0.5 s (0.5 s on an
    // idle machine, where the original takes milliseconds), and counted.
    let cmd = "sh -c 'grep -q \"(\" \"$1\" || exec sleep 60; grep -q \")\" \"$1\"' sh {}";
    let out = bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", cmd, "bug.txt"])
        .assert()
        .success()
        .stderr(contains(" 0 timeouts").not())
        .stderr(contains(" timeouts)"))
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    let head = "note: runs time out after ";
    let note = err
        .lines()
        .find(|l| l.starts_with(head))
        .unwrap_or_else(|| panic!("{err}"));
    let number = |s: &str| s.split(' ').next().unwrap().parse::<f64>().unwrap();
    let limit = number(&note[head.len()..]);
    let ms = number(note.split("slowest run, ").nth(1).unwrap());
    let want = (20.0 * ms / 1000.0).max(0.5);
    // The note rounds to 0.1 s and truncates the milliseconds.
    assert!((limit - want).abs() < 0.08 && limit < 5.0, "{note}");
    assert_eq!(std::fs::read(d.path().join("bug.txt.min")).unwrap(), b"()");
    // --timeout replaces the measured limit.
    bin()
        .current_dir(d.path())
        .args([
            "reduce",
            "--cmd",
            cmd,
            "--timeout",
            "0.5",
            "bug.txt",
            "-o",
            "b.min",
        ])
        .assert()
        .success()
        .stderr(contains("runs time out").not());
}

#[test]
fn shell_syntax_in_cmd_gets_advice() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    // Without a shell, `|` and `grep` reach cat as file names: cat fails.
    bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", "cat {} | grep -q (", "bug.txt"])
        .assert()
        .failure()
        .stderr(contains("is not interesting"))
        .stderr(contains(
            "without a shell, so `|` reached it as an argument",
        ))
        .stderr(contains("sh -c"));
    // `echo` exits 0 on anything: the original "reproduces", and so does
    // the empty input. Both get a warning.
    bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", "echo {} >> log.txt", "bug.txt"])
        .assert()
        .success()
        .stderr(contains(
            "warning: --cmd runs the program without a shell, so `>>`",
        ))
        .stderr(contains("warning: the empty input is interesting"));
}

#[test]
fn fuzz_target_mode_finds_binary_artifacts_and_avoids_drift() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    std::fs::create_dir_all(d.path().join("src")).unwrap();
    let out = bin()
        .current_dir(d.path().join("src"))
        .env_remove("CARGO_TARGET_DIR")
        .args([
            "reduce",
            "t",
            "--input",
            "text",
            "--strategy",
            "ddmin",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    let arts = d.path().join("fuzz/artifacts/t");
    // crash-1 crashes at src/other.rs (the `!` check comes first); the
    // reduction keeps *that* crash and never drifts to src/lib.rs.
    assert_eq!(std::fs::read(arts.join("crash-1.min")).unwrap(), b"!");
    assert_eq!(std::fs::read(arts.join("crash-2.min")).unwrap(), b"((");
    assert!(v[1]["reproduce"]
        .as_str()
        .unwrap()
        .starts_with("cargo +nightly fuzz run t "));
}

#[test]
fn a_text_read_as_choices_that_does_not_fail_gets_a_hint() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    answer_as_grammar_target(d.path(), "t");
    let arts = d.path().join("fuzz/artifacts/t");
    std::fs::write(arts.join("text"), "1 + 3").unwrap();
    std::fs::write(arts.join("bytes"), [0u8, 255, 7]).unwrap();
    let run = |name: &str| {
        // The script has no persistent mode.
        let out = bin()
            .current_dir(d.path())
            .env_remove("CARGO_TARGET_DIR")
            .args(["reduce", "t", "--no-persistent"])
            .arg(arts.join(name))
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run("text");
    assert!(err.contains("does not fail"), "{err}");
    assert!(err.contains("if it is a text, pass --input text"), "{err}");
    let err = run("bytes");
    assert!(err.contains("does not fail"), "{err}");
    assert!(!err.contains("--input text"), "{err}");
}

/// A grammar target that does not answer in persistent mode (its process
/// ends without a report) is no crash: an error that says what to do, not
/// a reduction to nothing.
#[test]
fn a_target_silent_in_persistent_mode_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    answer_as_grammar_target(d.path(), "t");
    let out = bin()
        .current_dir(d.path())
        .env_remove("CARGO_TARGET_DIR")
        .args(["reduce", "t", "fuzz/artifacts/t/crash-2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ended without answering"), "{err}");
    assert!(err.contains("--no-persistent"), "{err}");
    assert!(!d.path().join("fuzz/artifacts/t/crash-2.min").exists());
}

#[test]
fn unparseable_text_suggests_ddmin() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    std::fs::write(
        d.path().join("fuzz/artifacts/t/crash-3"),
        "(( not an expression",
    )
    .unwrap();
    let out = bin()
        .current_dir(d.path())
        .env_remove("CARGO_TARGET_DIR")
        .args(["reduce", "t", "fuzz/artifacts/t/crash-3", "--input", "text"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not parse"), "{err}");
    assert!(err.contains("--strategy blind"), "{err}");
    // The position is said once, and the advice is a line, not a list of
    // every blind pass.
    assert_eq!(err.matches("line 1, column 3").count(), 1, "{err}");
    let advice = err.lines().find(|l| l.contains("--strategy blind"));
    assert!(advice.is_some_and(|l| l.len() < 200), "{err}");
}

#[test]
fn text_with_other_blanks_reduces_with_the_grammar() {
    // Tight operators and a trailing newline, where grammars/expr.json
    // writes ` + ` and ends without one.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("bug.txt"), "1+(2*3)/(4-4)-5\n").unwrap();
    let grammar = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars/expr.json");
    let reduce = |cmd: &str| {
        bin()
            .current_dir(d.path())
            .args(["reduce", "--cmd", cmd, "--json", "bug.txt", "--grammar"])
            .arg(&grammar)
            .output()
            .unwrap()
    };
    // An oracle that ignores blanks: reduced in the grammar's spelling.
    let blind = "sh -c 'tr -d \" \\n\" < \"$1\" | grep -qF \"/(4-4)\"' sh {}";
    let out = reduce(blind);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["passes"][0]["pass"], "respace-blanks", "{v}");
    let min = std::fs::read_to_string(d.path().join("bug.txt.min")).unwrap();
    assert_eq!(min.replace(' ', ""), "/(4-4)", "{min:?}");
    // The human summary says so.
    bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", blind, "bug.txt", "--grammar"])
        .arg(&grammar)
        .assert()
        .success()
        .stderr(contains(
            "parses only with its blanks or letter case changed",
        ));
    // One that does not: every respacing loses the failure, and the error
    // says so.
    let out = reduce("grep -qF /(4-4) {}");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not parse") && err.contains("the difference matters"),
        "{err}"
    );
    assert!(err.contains("--strategy blind"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.path().join("bug.txt")).unwrap(),
        "1+(2*3)/(4-4)-5\n"
    );
}

#[test]
fn target_without_grammar_falls_back_to_ddmin() {
    let d = tempfile::tempdir().unwrap();
    fake_project(d.path());
    std::fs::remove_dir_all(d.path().join("grammars")).unwrap();
    bin()
        .current_dir(d.path())
        .env_remove("CARGO_TARGET_DIR")
        .args(["reduce", "t", "fuzz/artifacts/t/crash-2"])
        .assert()
        .success()
        .stderr(contains("no grammar"))
        .stderr(contains("cargo +nightly fuzz run t"));
    assert_eq!(
        std::fs::read(d.path().join("fuzz/artifacts/t/crash-2.min")).unwrap(),
        b"(("
    );
}

#[test]
fn target_names_are_checked_against_the_project() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    std::fs::create_dir_all(root.join("fuzz/fuzz_targets")).unwrap();
    std::fs::write(root.join("fuzz/fuzz_targets/parser.rs"), "").unwrap();
    // A misspelt target: the real ones are named.
    bin()
        .current_dir(root)
        .args(["grammar-min", "reduce", "parsr"])
        .assert()
        .failure()
        .stderr(contains("no fuzz target `parsr`").and(contains("parser")));
    // A real target that has not crashed yet.
    bin()
        .current_dir(root)
        .args(["grammar-min", "reduce", "parser"])
        .assert()
        .failure()
        .stderr(contains("no artifacts yet").and(contains("cargo +nightly fuzz run parser")));
}

#[test]
fn output_onto_the_artifact_is_refused_and_the_artifact_kept() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    for out in ["bug.txt", "./bug.txt"] {
        bin()
            .current_dir(d.path())
            .args([
                "reduce",
                "--cmd",
                "python3 check.py {}",
                "-o",
                out,
                "bug.txt",
            ])
            .assert()
            .failure()
            .stderr(contains("would overwrite the artifact"))
            .stderr(contains("pass another -o path"));
        assert_eq!(
            std::fs::read_to_string(d.path().join("bug.txt")).unwrap(),
            "x = 1 + (2 * 3) - 4;"
        );
    }
}

#[test]
fn one_artifact_that_does_not_fail_does_not_stop_the_others() {
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    std::fs::write(d.path().join("fine.txt"), "x = 1;").unwrap();
    std::fs::write(d.path().join("zbug.txt"), "y = (1) + 2;").unwrap();
    bin()
        .current_dir(d.path())
        .args(["reduce", "--cmd", "python3 check.py {}"])
        .args(["bug.txt", "fine.txt", "zbug.txt"])
        .assert()
        .code(2)
        .stderr(contains("fine.txt: the original"))
        .stderr(contains("going on with the other artifacts"))
        .stderr(contains("1 of 3 artifact(s) could not be reduced"));
    assert_eq!(std::fs::read(d.path().join("bug.txt.min")).unwrap(), b"()");
    assert_eq!(std::fs::read(d.path().join("zbug.txt.min")).unwrap(), b"()");
    assert!(!d.path().join("fine.txt.min").exists());
}

#[test]
fn a_mistyped_artifact_stops_the_run_before_any_work() {
    // `oops` is a stray word: with --cmd it is an artifact, and two
    // artifacts would make `-o out.txt` a directory.
    let d = tempfile::tempdir().unwrap();
    setup(d.path());
    bin()
        .current_dir(d.path())
        .args([
            "reduce",
            "--cmd",
            "python3 check.py {}",
            "oops",
            "bug.txt",
            "-o",
            "out.txt",
        ])
        .assert()
        .code(2)
        .stderr(contains("no such artifact: oops"))
        .stderr(contains(
            "with --cmd every positional argument is an artifact",
        ));
    assert!(!d.path().join("out.txt").exists());
    assert!(!d.path().join("bug.txt.min").exists());
}

#[test]
fn grammatical_keeps_the_result_a_sentence_and_runs_no_unparsed_candidate() {
    // Interesting iff the text holds a `/`: without --grammatical the
    // polish leaves the grammar (`/` alone); with it, every candidate the
    // program sees parses with the grammar, and so does the result.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("e.txt"), "1 + 2 * (3 / 0) - 4 * (5 + 6)").unwrap();
    let grammar = concat!(env!("CARGO_MANIFEST_DIR"), "/grammars/expr.json");
    // The program logs every text it runs on.
    let cmd = "sh -c 'cat \"$1\" >> seen; echo >> seen; grep -q / \"$1\"' sh {}";
    let run = |extra: &[&str]| {
        let out = bin()
            .current_dir(d.path())
            .args([
                "grammar-min",
                "reduce",
                "--json",
                "--grammar",
                grammar,
                "--cmd",
                cmd,
            ])
            .args(extra)
            .arg("e.txt")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let seen = std::fs::read_to_string(d.path().join("seen")).unwrap();
        std::fs::remove_file(d.path().join("seen")).unwrap();
        (
            std::fs::read_to_string(d.path().join("e.txt.min")).unwrap(),
            v[0].clone(),
            seen,
        )
    };
    let (free, _, _) = run(&[]);
    assert_eq!(free, "/");
    let (kept, json, seen) = run(&["--grammatical"]);
    assert_eq!(kept, "0 / 0");
    assert!(json["not_parsed"].as_u64().unwrap() > 0, "{json}");
    // Every text the program saw parses (the log has one per line).
    let g =
        grammar_min::grammar::Grammar::from_path(grammar.as_ref(), &Default::default()).unwrap();
    for line in seen.lines() {
        assert!(
            grammar_min::parse::parse(&g, line.as_bytes()).is_ok(),
            "ran on {line:?}"
        );
    }
    // `tests` counts runs of the program: the reproduction runs are not
    // in it, the logged candidates are.
    assert_eq!(
        json["tests"].as_u64().unwrap() + 2,
        seen.lines().count() as u64,
        "{json}"
    );

    // Without --cmd or a grammar it says what it needs.
    bin()
        .current_dir(d.path())
        .args([
            "grammar-min",
            "reduce",
            "--grammatical",
            "--cmd",
            cmd,
            "e.txt",
        ])
        .assert()
        .failure()
        .stderr(contains(
            "--grammatical keeps --cmd candidates inside a grammar",
        ));
}
