//! CLI tests of `cargo grammar-min reduce` on choice artifacts read by a
//! `--cmd` program (decoded to text for it).

use assert_cmd::Command;
use std::path::Path;

fn bin() -> Command {
    Command::cargo_bin("cargo-grammar-min").unwrap()
}

#[test]
fn choice_artifact_with_grammar() {
    let d = tempfile::tempdir().unwrap();
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars/assign.json");
    // A choice sequence whose program contains `((` and `))`.
    let cfg = grammar_min::generate::DecodeConfig::default();
    let gr = grammar_min::grammar::Grammar::from_path(&g, &Default::default()).unwrap();
    let mut seq = Vec::new();
    let mut x: u32 = 12345;
    loop {
        seq.clear();
        for _ in 0..40 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345);
            seq.push((x >> 16) as u8);
        }
        let t = String::from_utf8(grammar_min::generate::decode(&gr, &seq, &cfg)).unwrap();
        if t.contains("((") && t.contains("))") {
            break;
        }
    }
    std::fs::write(d.path().join("crash-1"), &seq).unwrap();
    // `reduce --cmd … --input choices crash-1 --json` with more flags.
    let reduce = |more: &[&str]| -> serde_json::Value {
        let out = bin()
            .current_dir(d.path())
            .args([
                "reduce",
                "--cmd",
                "sh -c 'grep -q \"((\" \"$1\" && grep -q \"))\" \"$1\"' sh",
            ])
            .args([
                "--grammar",
                g.to_str().unwrap(),
                "--input",
                "choices",
                "crash-1",
                "--json",
            ])
            .args(more)
            .assert()
            .success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    // --json labels each pass and the unit of its size: a choice artifact
    // is reduced as text (its candidates encoded back), so bytes of text.
    let v = reduce(&[]);
    let passes = v[0]["passes"].as_array().unwrap();
    assert!(passes.iter().all(|p| p["unit"] == "bytes"), "{v}");
    assert_eq!(passes.last().unwrap()["size"], v[0]["bytes_after"], "{v}");
    assert!(passes
        .iter()
        .all(|p| p["pass"].is_string() && p["tests"].is_u64()));
    // `.min` is the decoded text polished by token/byte ddmin (the --cmd
    // program reads text); `.min.choices` the smallest choice sequence.
    assert_eq!(
        std::fs::read_to_string(d.path().join("crash-1.min")).unwrap(),
        "(())"
    );
    // (The text passes delete and replace subtrees; no run spends itself
    // on lowering the first name, a one-byte token, to `a`.)
    let c = std::fs::read(d.path().join("crash-1.min.choices")).unwrap();
    let t = grammar_min::generate::decode(&gr, &c, &cfg);
    assert!(t.ends_with(b" = ((a));\n") && t.len() == 11, "{t:?}");
    // The choice passes alone (`--strategy choices`) report sizes in
    // choices and lower the name too.
    let v = reduce(&["--strategy", "choices"]);
    let passes = v[0]["passes"].as_array().unwrap();
    assert_eq!(passes[0]["unit"], "choices", "{v}");
    let c = std::fs::read(d.path().join("crash-1.min.choices")).unwrap();
    assert_eq!(
        grammar_min::generate::decode(&gr, &c, &cfg),
        b"a = ((a));\n"
    );
}
