//! A fake cargo-fuzz project for the CLI tests: its "target binary" is a
//! shell script, so no fuzz build is needed.

use std::path::Path;

/// The host's target triple (`rustc -vV`), where cargo-fuzz puts binaries.
pub fn host_triple() -> String {
    let out = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap()
}

/// A fake cargo-fuzz project whose "target binary" is a shell script that
/// prints a Rust panic for inputs with `((`, and a different panic for `!`.
pub fn fake_project(root: &Path) {
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"demo\"\n").unwrap();
    std::fs::create_dir_all(root.join("fuzz/artifacts/t")).unwrap();
    std::fs::create_dir_all(root.join("grammars")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars/expr.json"),
        root.join("grammars/t.json"),
    )
    .unwrap();
    let script = "#!/bin/sh\n\
        if grep -q '!' \"$1\"; then echo \"thread '<unnamed>' panicked at src/other.rs:1:1:\" >&2; echo other >&2; exit 77; fi\n\
        if grep -q '((' \"$1\"; then echo \"thread '<unnamed>' panicked at src/lib.rs:3:5:\" >&2; echo \"nested $(wc -c < \"$1\")\" >&2; echo '==1== ERROR: libFuzzer: deadly signal' >&2; exit 77; fi\n\
        exit 0\n";
    script_target(root, "t", script);
    std::fs::write(root.join("fuzz/artifacts/t/crash-1"), "1 + ((2)) ! 3").unwrap();
    std::fs::write(root.join("fuzz/artifacts/t/crash-2"), "7 * ((8 + 9)) - 1").unwrap();
}

/// Writes `script` as the built fuzz target NAME of the project at `root`
/// (`fuzz/target/<triple>/release/NAME`, executable) and returns its path.
pub fn script_target(root: &Path, name: &str, script: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin_dir = root.join("fuzz/target").join(host_triple()).join("release");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let p = bin_dir.join(name);
    std::fs::write(&p, script).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// Makes the fake target NAME of the project at `root` answer as a
/// `grammar_fuzz_target!` does when asked its budgets (without its
/// grammar, as one built before targets reported it): its artifacts are
/// then choice sequences.
pub fn answer_as_grammar_target(root: &Path, name: &str) {
    let p = root
        .join("fuzz/target")
        .join(host_triple())
        .join("release")
        .join(name);
    let script = std::fs::read_to_string(&p).unwrap();
    let answer = "if [ -n \"$GRAMMAR_MIN_DESCRIBE\" ]; then \
        echo '{\"max_depth\":2048,\"max_len\":1048576}' > \"$GRAMMAR_MIN_DESCRIBE\"; exit 0; fi\n";
    let script = script.replacen("#!/bin/sh\n", &format!("#!/bin/sh\n{answer}"), 1);
    std::fs::write(&p, script).unwrap();
}
