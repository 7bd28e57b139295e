//! CLI tests of what `reduce --cmd` tells a user whose program cannot be
//! started.

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
