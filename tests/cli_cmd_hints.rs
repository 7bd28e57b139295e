//! CLI tests of `reduce --cmd` with a difficult program: one that cannot
//! be started (what the user is told), and a flaky one (`--confirm`).

use assert_cmd::Command;
use predicates::str::contains;

/// `reduce --cmd CMD in.txt` in `dir`: fails, and says `says`.
fn fails_saying(dir: &std::path::Path, cmd: &str, says: &str) {
    Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(dir)
        .args(["reduce", "--cmd", cmd, "in.txt"])
        .assert()
        .code(2)
        .stderr(contains(says));
}

#[test]
fn a_program_that_cannot_start_gets_what_to_do() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("in.txt"), "1").unwrap();
    // A script without its execute bit.
    std::fs::write(d.path().join("check.sh"), "#!/bin/sh\nexit 0\n").unwrap();
    fails_saying(
        d.path(),
        "./check.sh {}",
        "`./check.sh` is not executable: make it so (chmod +x ./check.sh) or name its \
         interpreter, e.g. --cmd 'sh ./check.sh {}'",
    );
    fails_saying(
        d.path(),
        "no-such-program-here {}",
        "no program `no-such-program-here` on PATH; give its path",
    );
    fails_saying(d.path(), "./nope.sh {}", "no file `./nope.sh`");
    fails_saying(
        d.path(),
        "LOC=x ./check.sh {}",
        "`LOC=x` sets a variable, which takes a shell; or use env: --cmd 'env LOC=x ./check.sh {}'",
    );
    fails_saying(d.path(), ". {}", "`.` is a directory, not a program");
}

/// A directory with `in.txt` (an `x` among `a`s) and `check.sh`: `body`
/// after a line that counts the runs in `$n`.
fn counting_check(body: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("in.txt"), "aaaaaaaaxaaaaaaaa").unwrap();
    let script = format!(
        "#!/bin/sh\nn=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > count\n{body}"
    );
    std::fs::write(d.path().join("check.sh"), script).unwrap();
    d
}

/// A check that fails only three runs in four on short inputs (a crash at
/// its threshold): with `--confirm 2` a candidate that failed twice by
/// luck still gets in, and the final check gives it up for an earlier
/// result that fails every time.
#[test]
fn confirm_keeps_a_flaky_failure_out_of_the_result() {
    let d = counting_check(
        "grep -q x \"$1\" || exit 1\n\
         [ \"$(wc -c < \"$1\")\" -ge 5 ] && exit 0\n\
         [ $((n % 4)) -ne 0 ] && exit 0\n\
         exit 1\n",
    );
    let reduce = |confirm: &str| {
        Command::cargo_bin("cargo-grammar-min")
            .unwrap()
            .current_dir(d.path())
            .args([
                "reduce",
                "--cmd",
                "sh ./check.sh {}",
                "--json",
                "--confirm",
                confirm,
            ])
            .arg("in.txt")
            .output()
            .unwrap()
    };
    let out = reduce("2");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v[0];
    let result = std::fs::read_to_string(d.path().join("in.txt.min")).unwrap();
    assert!(
        result.len() >= 5 && result.contains('x'),
        "{result:?} {s:#}"
    );
    assert_eq!(s["confirm"], 2, "{s:#}");
    assert!(s["refuted"].as_u64().unwrap() >= 1, "{s:#}");
    assert!(s["confirming_runs"].as_u64().unwrap() >= s["refuted"].as_u64().unwrap());
    assert_eq!(s["settled"]["fell_back"], true, "{s:#}");
    assert!(s["settled"]["failed"].as_u64().unwrap() < 4, "{s:#}");
    // `--confirm 0` is refused.
    assert_eq!(reduce("0").status.code(), Some(2));
}

/// Ctrl-C during a confirmed reduction: the best result so far is kept,
/// and the user is told it did not get the final check.
#[test]
fn an_interrupted_confirmed_reduction_says_its_result_is_unchecked() {
    // Fails on every input with an x; its sixth run interrupts the reducer
    // as Ctrl-C would.
    let d = counting_check("[ $n -eq 6 ] && kill -INT $PPID\ngrep -q x \"$1\"\n");
    let out = Command::cargo_bin("cargo-grammar-min")
        .unwrap()
        .current_dir(d.path())
        .args(["reduce", "--cmd", "sh ./check.sh {}", "--confirm", "2"])
        .arg("in.txt")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("[interrupted]"), "{err}");
    assert!(
        err.contains("interrupted, so the result had no final check"),
        "{err}"
    );
    let kept = std::fs::read_to_string(d.path().join("in.txt.min")).unwrap();
    assert!(kept.contains('x') && kept.len() < 17, "{kept:?}");
}
