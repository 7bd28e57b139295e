//! The grammar finish: on a text outside the grammar's language, and its
//! edits in several places at once.

use super::super::*;
use super::outcome;
use crate::oracle::FnOracle;

/// A PHP-like language: `<?php ` opens the text, `class X{}`,
/// `new X;`, `echo X;` and `$X->…->getCity();` follow. The failure
/// needs a `getCity()` call; `new r` needs `class r{}`; and, only
/// while `<?php` is spelled out, `new r` (as PHP's short tag `<?`
/// changes what runs). The polish cuts `php` (out of the grammar's
/// language); then `new r;` can go, three tokens at once, which the
/// blind fixpoint's adjacent-token deletion does and no single
/// subtree edit did before (once the result kept `new r;`).
#[test]
fn the_whole_blind_fixpoint_runs_once_the_text_leaves_the_language() {
    let g = Grammar::from_json_str(
        r#"{"<start>": ["<?php <stmts>"], "<stmts>": ["<stmt>", "<stmt><stmts>"],
            "<stmt>": ["class <n>{}", "new <n>;", "$<n>->getCity();",
                       "$<n>-><n>->getCity();", "echo <n>;"],
            "<n>": ["r", "c", "s"]}"#,
        &Default::default(),
    )
    .unwrap();
    let holds = |c: &[u8]| {
        let s = String::from_utf8_lossy(c);
        let Some(body) = s
            .strip_prefix("<?php ")
            .or_else(|| s.strip_prefix("<?"))
            .map(str::trim_start)
        else {
            return Outcome::NotInteresting;
        };
        let mut stmts = Vec::new();
        let mut start = 0;
        for (i, ch) in body.char_indices() {
            if ch == ';' || ch == '}' {
                stmts.push(&body[start..=i]);
                start = i + 1;
            }
        }
        let name = |x: &str| ["r", "c", "s"].contains(&x);
        let between = |t: &str, a: &str, b: &str| {
            t.strip_prefix(a)
                .and_then(|x| x.strip_suffix(b))
                .is_some_and(name)
        };
        let valid = start == body.len()
            && stmts.iter().all(|t| {
                between(t, "class ", "{}")
                    || between(t, "new ", ";")
                    || between(t, "echo ", ";")
                    || t.strip_prefix('$')
                        .and_then(|x| x.strip_suffix("->getCity();"))
                        .is_some_and(|x| x.split("->").all(name))
            });
        let ok = valid
            && s.contains("->getCity();")
            && (!s.contains("new r") || s.contains("class r{}"))
            && (!s.contains("<?php") || s.contains("new r"));
        outcome(ok)
    };
    let mut o = FnOracle::new(holds);
    let mut t = Tester::new(&mut o);
    let input = b"<?php echo s;class r{}new r;echo c;$c->s->getCity();echo r;";
    let r = reduce_text(Some(&g), input, Strategy::Auto, &mut t).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&r.output),
        "<?class r{}$c->getCity();"
    );
    assert!(r.passes.iter().any(|p| p.0 == "delete-adjacent-tokens"));
}

/// A text that lost only the sentence's end (its final `;`) or the
/// grammar's blanks counts as inside: the subtree edits covered the
/// adjacent tokens, and the finish does not spend runs on them.
#[test]
fn a_cut_end_or_other_blanks_keep_the_short_finish() {
    // `;` ends each statement (the polish cuts the last), or parts
    // them (the polish squeezes the blanks of ` + `).
    for (stmts, input, want) in [
        (r#"["<s>;", "<s>;<stmts>"]"#, "x;boom;y;", "boom"),
        (r#"["<s>", "<s>;<stmts>"]"#, "x;y + boom;y", "y+boom"),
    ] {
        let g = Grammar::from_json_str(
            &format!(
                r#"{{"<start>": ["<stmts>"], "<stmts>": {stmts},
                    "<s>": ["x", "y", "boom", "<s> + <s>"]}}"#
            ),
            &Default::default(),
        )
        .unwrap();
        let mut o = FnOracle::new(|c: &[u8]| {
            outcome(String::from_utf8_lossy(c).replace(' ', "").contains(want))
        });
        let mut t = Tester::new(&mut o);
        let r = reduce_text(Some(&g), input.as_bytes(), Strategy::Auto, &mut t).unwrap();
        assert_eq!(String::from_utf8_lossy(&r.output), want);
        assert!(
            !r.passes.iter().any(|p| p.0 == "delete-adjacent-tokens"),
            "{input}: {:?}",
            r.passes
        );
    }
}

/// A name written the same way in two places (`_[a]` assigned and
/// matched) loses its tail in both at once, inside the language too
/// (the awk grammar of the generalisation check, where no subtree edit
/// changes both): `END{_[a]="[";0~_[a]}` → `END{_="[";0~_}`.
#[test]
fn a_repeated_tail_goes_everywhere_in_the_finish() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/generalisation/grammars/awk.json"
    );
    let g = Grammar::from_json_str(&std::fs::read_to_string(path).unwrap(), &Default::default())
        .unwrap();
    let mut o = FnOracle::new(|c: &[u8]| {
        let s: String = String::from_utf8_lossy(c)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let same = s
            .strip_prefix("END{")
            .and_then(|r| r.strip_suffix('}'))
            .and_then(|r| r.split_once("=\"[\";0~"))
            .is_some_and(|(a, b)| a == b && !a.is_empty());
        outcome(same)
    });
    let mut t = Tester::new(&mut o);
    let r = reduce_text(
        Some(&g),
        b"END{_[a]=\"[\";0~_[a]}\n",
        Strategy::Auto,
        &mut t,
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&r.output), "END{_=\"[\";0~_}");
}
