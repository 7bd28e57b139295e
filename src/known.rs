//! Known crashes: the list `bucket` writes and grammar fuzz targets skip.
//!
//! libFuzzer stops at the first crash, and a shallow bug is found again
//! within seconds of every restart: until it is fixed, it hides the bugs
//! behind it. `cargo grammar-min bucket TARGET` writes the panics it
//! bucketed to `known-crashes.txt` in its output directory; a fuzz target
//! built with `grammar_fuzz_target!` (feature `libfuzzer`) and run
//! with `GRAMMAR_MIN_SKIP` naming that file (or its directory) treats
//! those panics as if the input had passed, and keeps fuzzing:
//!
//! ```text
//! GRAMMAR_MIN_SKIP=fuzz/buckets/calc cargo +nightly fuzz run calc
//! ```
//!
//! The file has one crash per line, `panic`, the panic's `file:line:col`
//! and optionally its message with numbers masked
//! ([`normalize_message`]), separated by tabs. A line without a message
//! matches every panic at that location. `#` starts a comment. Only Rust
//! panics can be skipped: an abort, a sanitizer report or a stack
//! overflow ends the process before anything can intervene.
//!
//! ```
//! use grammar_min::known::KnownCrashes;
//! let k = KnownCrashes::parse("# bucket 0\npanic\tsrc/calc.rs:271:29\tcalc bug N\n").unwrap();
//! assert!(k.covers("src/calc.rs:271:29", "calc bug 1"));
//! assert!(!k.covers("src/calc.rs:259:21", "calc bug 2"));
//! ```

use crate::oracle::signature::{normalize_message, CrashKind, Signature};
use std::path::{Path, PathBuf};

/// Environment variable naming the known-crash file (or a directory
/// holding `known-crashes.txt`) a grammar fuzz target skips.
pub const ENV_VAR: &str = "GRAMMAR_MIN_SKIP";

/// File name `bucket` writes in its output directory.
pub const FILE_NAME: &str = "known-crashes.txt";

/// One known panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownCrash {
    /// `file:line:col` of the panic.
    pub location: String,
    /// Normalised message; `None` matches any message.
    pub message: Option<String>,
}

impl KnownCrash {
    /// What a fuzz target says the first time it skips this panic, which
    /// happened at `at`: entries of one place differ by their message.
    pub fn skipped_note(&self, at: &str) -> String {
        let what = match &self.message {
            Some(m) => format!(": {}", m.lines().next().unwrap_or("")),
            None => String::new(),
        };
        format!("grammar-min: skipped a known panic at {at}{what} ({ENV_VAR}); not reported again")
    }
}

/// A list of known panics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownCrashes {
    /// The entries, in file order.
    pub entries: Vec<KnownCrash>,
}

impl KnownCrashes {
    /// Reads the file format above.
    ///
    /// # Errors
    /// The first malformed line: its number, what is wrong and what a line
    /// should look like.
    pub fn parse(text: &str) -> Result<KnownCrashes, String> {
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let mut cols = line.split('\t');
            let kind = cols.next().unwrap_or_default().trim();
            let location = cols.next().map(str::trim).unwrap_or_default();
            let message = cols.next().map(str::trim).filter(|m| !m.is_empty());
            let bad = |what: &str| {
                format!(
                    "line {}: {what}; expected `panic<TAB>FILE:LINE:COL[<TAB>MESSAGE]`, got `{line}`",
                    i + 1
                )
            };
            if kind != "panic" {
                return Err(bad(&format!(
                    "`{kind}` cannot be skipped (only Rust panics can)"
                )));
            }
            if location.is_empty() {
                return Err(bad("no panic location"));
            }
            if cols.next().is_some() {
                return Err(bad("more than three tab-separated columns"));
            }
            entries.push(KnownCrash {
                location: location.to_string(),
                message: message.map(normalize_message),
            });
        }
        Ok(KnownCrashes { entries })
    }

    /// Reads `path`, or `path/known-crashes.txt` if `path` is a directory.
    ///
    /// # Errors
    /// The file cannot be read, or a line is malformed (the message names
    /// the file).
    pub fn load(path: &Path) -> Result<KnownCrashes, String> {
        let file: PathBuf = if path.is_dir() {
            path.join(FILE_NAME)
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read known crashes from {}: {e}", file.display()))?;
        KnownCrashes::parse(&text).map_err(|e| format!("{}: {e}", file.display()))
    }

    /// The entry a panic at `location` with `message` matches, if any.
    /// Locations in registry crates match by their crate-relative form
    /// ([`portable_location`]), so a list written on one machine works on
    /// another.
    pub fn find(&self, location: &str, message: &str) -> Option<usize> {
        let mut normalised = None;
        let location = portable_location(location);
        self.entries.iter().position(|k| {
            portable_location(&k.location) == location
                && k.message.as_ref().is_none_or(|m| {
                    m == normalised.get_or_insert_with(|| normalize_message(message))
                })
        })
    }

    /// Is a panic at `location` with `message` known?
    pub fn covers(&self, location: &str, message: &str) -> bool {
        self.find(location, message).is_some()
    }

    /// The file's text for crashes with these signatures (one per bucket,
    /// `label` naming each in a comment). Panics with a location become
    /// entries, with their message when `with_message`; other crashes are
    /// listed as comments, since nothing in the process can skip them.
    pub fn render<'a>(
        header: &str,
        sigs: impl IntoIterator<Item = (String, &'a Signature)>,
        with_message: bool,
    ) -> String {
        // Labels and signatures go into comments: one line each.
        let line = |s: &str| {
            s.replace('\\', "\\\\")
                .replace('\n', "\\n")
                .replace('\t', "\\t")
        };
        let mut out = String::new();
        for l in header.lines() {
            out.push_str(&format!("# {l}\n"));
        }
        for (label, s) in sigs {
            match (&s.kind, &s.location) {
                (CrashKind::Panic, Some(loc)) => {
                    let loc = portable_location(loc);
                    out.push_str(&format!("# {}\npanic\t{loc}", line(&label)));
                    match (&s.message, with_message) {
                        (Some(m), true) if !m.contains(['\t', '\n']) => {
                            out.push_str(&format!("\t{m}\n"))
                        }
                        _ => out.push('\n'),
                    }
                }
                _ => out.push_str(&format!(
                    "# {}: {} (cannot be skipped in-process)\n",
                    line(&label),
                    line(&s.to_string())
                )),
            }
        }
        out
    }
}

/// A panic location without the machine's path to a registry crate:
/// `/home/u/.cargo/registry/src/index.crates.io-1949…/ron-0.6.0/src/de/mod.rs:135:25`
/// → `ron-0.6.0/src/de/mod.rs:135:25`; nor the toolchain's commit or
/// directory before the standard library's: `/rustc/e50aa6…/library/core/src/…`
/// (and `…/lib/rustlib/src/rust/library/…`) → `library/core/src/…`, so a
/// list works after a toolchain update that leaves the line as it was;
/// other locations as they are.
///
/// ```
/// use grammar_min::known::portable_location;
/// assert_eq!(
///     portable_location("/r/.cargo/registry/src/index.crates.io-19/md-0.8.0/src/a.rs:1:2"),
///     "md-0.8.0/src/a.rs:1:2"
/// );
/// assert_eq!(
///     portable_location("/rustc/e50aa6fba4e6/library/core/src/iter/adapters/step_by.rs:35:9"),
///     "library/core/src/iter/adapters/step_by.rs:35:9"
/// );
/// assert_eq!(portable_location("src/calc.rs:271:29"), "src/calc.rs:271:29");
/// ```
pub fn portable_location(location: &str) -> &str {
    const MARK: &str = "/registry/src/";
    if let Some(i) = location.find(MARK) {
        let rest = &location[i + MARK.len()..];
        return rest
            .split_once('/')
            .map_or(location, |(_, crate_path)| crate_path);
    }
    if let Some(rest) = location.strip_prefix("/rustc/") {
        return rest.split_once('/').map_or(location, |(_, path)| path);
    }
    const RUSTLIB: &str = "/lib/rustlib/src/rust/";
    match location.find(RUSTLIB) {
        Some(i) => &location[i + RUSTLIB.len()..],
        None => location,
    }
}

impl KnownCrashes {
    /// The panics of `old` (an earlier list's text) that `new` does not
    /// cover, as a section to append to `new`'s text. `bucket` keeps them:
    /// an artifact moved away, or one an older grammar wrote, must not
    /// make a known bug new again (it would be found again within seconds
    /// of the next run). A line goes when the user deletes it.
    pub fn kept_section(old: &str, new: &KnownCrashes) -> String {
        let Ok(old) = KnownCrashes::parse(old) else {
            return String::new();
        };
        let mut kept: Vec<KnownCrash> = Vec::new();
        for k in old.entries {
            let covered = |n: &KnownCrash| {
                portable_location(&n.location) == portable_location(&k.location)
                    && n.message
                        .as_ref()
                        .is_none_or(|m| Some(m) == k.message.as_ref())
            };
            if !new.entries.iter().any(covered) && !kept.contains(&k) {
                kept.push(k);
            }
        }
        if kept.is_empty() {
            return String::new();
        }
        let mut out = String::from(
            "\n# Kept from the earlier list: no artifact bucketed now has these panics.\n\
             # Delete a line once its bug is fixed.\n",
        );
        for k in kept {
            let message = k.message.map(|m| format!("\t{m}")).unwrap_or_default();
            out.push_str(&format!("panic\t{}{message}\n", k.location));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_list_keeps_the_panics_no_artifact_has_now() {
        let old =
            "# x\npanic\tsrc/a.rs:1:1\nrepl\npanic\tsrc/b.rs:2:2\tbug N\npanic\tsrc/c.rs:3:3\n";
        // Not a list: nothing kept.
        assert_eq!(
            KnownCrashes::kept_section(old, &KnownCrashes::default()),
            ""
        );
        let old = old.replace("repl\n", "");
        let new = KnownCrashes::parse("panic\tsrc/a.rs:1:1\tany N\npanic\tsrc/b.rs:2:2\n").unwrap();
        let kept = KnownCrashes::kept_section(&old, &new);
        // a.rs: the new entry has a message the old one did not require,
        // so the old one stays; b.rs: covered by the new entry without
        // message; c.rs: gone from the new list.
        let merged = KnownCrashes::parse(&kept).unwrap();
        let locs: Vec<_> = merged.entries.iter().map(|k| k.location.as_str()).collect();
        assert_eq!(locs, ["src/a.rs:1:1", "src/c.rs:3:3"]);
        assert!(kept.contains("Delete a line once its bug is fixed"));
        assert_eq!(KnownCrashes::kept_section(&kept, &merged), "");
    }
    use crate::oracle::signature::{extract, Exit};

    #[test]
    fn a_std_location_matches_under_another_toolchain() {
        let k = KnownCrashes::parse(
            "panic\t/rustc/e50aa6fb/library/core/src/iter/adapters/step_by.rs:35:9\n",
        )
        .unwrap();
        assert!(k.covers(
            "/rustc/59807616/library/core/src/iter/adapters/step_by.rs:35:9",
            ""
        ));
        assert!(k.covers(
            "/home/u/.rustup/toolchains/nightly-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/iter/adapters/step_by.rs:35:9",
            ""
        ));
        assert!(!k.covers(
            "/rustc/59807616/library/core/src/iter/adapters/step_by.rs:36:9",
            ""
        ));
        let written = KnownCrashes::render(
            "",
            [(
                "b".to_string(),
                &Signature {
                    kind: CrashKind::Panic,
                    location: Some("/rustc/59807616/library/core/src/x.rs:1:2".into()),
                    message: None,
                    frames: Vec::new(),
                },
            )],
            false,
        );
        assert!(
            written.contains("panic\tlibrary/core/src/x.rs:1:2"),
            "{written}"
        );
    }

    #[test]
    fn a_registry_location_matches_on_another_machine() {
        let k = KnownCrashes::parse("panic\tmd-0.8.0/src/scanners.rs:1062:49\n").unwrap();
        let here = "/home/a/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/md-0.8.0/src/scanners.rs:1062:49";
        assert!(k.covers(here, "range start index 3 out of range"));
        assert!(!k.covers("src/scanners.rs:1062:49", "x"));
        // And a list written with the full path still matches.
        let k = KnownCrashes::parse(&format!("panic\t{here}\n")).unwrap();
        assert!(k.covers("/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/md-0.8.0/src/scanners.rs:1062:49", ""));
        let sig = Signature {
            kind: CrashKind::Panic,
            message: None,
            location: Some(here.into()),
            frames: vec![],
        };
        let text = KnownCrashes::render("h", [("b".to_string(), &sig)], false);
        assert!(
            text.contains("panic\tmd-0.8.0/src/scanners.rs:1062:49\n"),
            "{text}"
        );
    }

    #[test]
    fn a_skip_note_names_the_message_when_the_entry_has_one() {
        let at = "src/lib.rs:3:5";
        let any = KnownCrash {
            location: at.into(),
            message: None,
        };
        assert!(any
            .skipped_note(at)
            .contains("panic at src/lib.rs:3:5 (GRAMMAR_MIN_SKIP)"));
        let one = KnownCrash {
            location: at.into(),
            message: Some("wanted N\nmore".into()),
        };
        assert!(one
            .skipped_note(at)
            .contains("panic at src/lib.rs:3:5: wanted N (GRAMMAR_MIN_SKIP)"));
    }

    fn sig(stderr: &str, exit: Exit) -> Signature {
        extract(stderr, exit).unwrap()
    }

    #[test]
    fn a_rendered_list_reads_back_and_matches_its_own_panics_only() {
        let a = sig(
            "thread '<unnamed>' panicked at src/calc.rs:271:29:\ncalc bug 1: division by zero in 7 / 0\n",
            Exit::Code(77),
        );
        let b = sig(
            "thread '<unnamed>' panicked at src/calc.rs:259:21:\ncalc bug 2: nested 40 deep\n",
            Exit::Code(77),
        );
        let c = sig(
            "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n",
            Exit::Code(1),
        );
        let text = KnownCrashes::render(
            "from bucket",
            [
                ("bucket-0: let a = 0;\nprint a / a;".to_string(), &a),
                ("bucket-1".to_string(), &c),
            ],
            true,
        );
        let k = KnownCrashes::parse(&text).unwrap();
        assert_eq!(k.entries.len(), 1, "{text}");
        assert!(k.covers(
            "src/calc.rs:271:29",
            "calc bug 1: division by zero in 12 / 0"
        ));
        assert!(!k.covers("src/calc.rs:271:29", "another message"));
        assert!(!k.covers(b.location.as_deref().unwrap(), "calc bug 2: nested 40 deep"));
        assert!(
            text.contains("# bucket-0: let a = 0;\\nprint a / a;\n"),
            "{text}"
        );
        assert!(text.contains("# bucket-1: "), "{text}");
        // Without messages, any panic at the location matches.
        let loose = KnownCrashes::parse(&KnownCrashes::render(
            "",
            [("bucket-0".to_string(), &a)],
            false,
        ))
        .unwrap();
        assert!(loose.covers("src/calc.rs:271:29", "another message"));
    }

    #[test]
    fn a_malformed_line_is_reported_with_its_number_and_the_expected_form() {
        for (text, what) in [
            (
                "panic\tsrc/a.rs:1:1\n\nabort\tsrc/a.rs:2:2\n",
                "line 3: `abort` cannot be skipped",
            ),
            ("# c\npanic\n", "line 2: no panic location"),
            ("panic\ta\tb\tc\n", "line 1: more than three"),
        ] {
            let e = KnownCrashes::parse(text).unwrap_err();
            assert!(e.starts_with(what), "{e}");
            assert!(e.contains("expected `panic<TAB>FILE:LINE:COL"), "{e}");
        }
    }

    #[test]
    fn a_directory_means_its_known_crashes_file() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(FILE_NAME), "panic\tsrc/a.rs:1:2\n").unwrap();
        let k = KnownCrashes::load(d.path()).unwrap();
        assert!(k.covers("src/a.rs:1:2", "anything"));
        let e = KnownCrashes::load(&d.path().join("missing")).unwrap_err();
        assert!(e.contains("cannot read known crashes from"), "{e}");
    }
}
