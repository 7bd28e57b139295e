//! Which files are crash artifacts: a directory's listing without our
//! own results, and the check that named artifacts exist.

use crate::common::files_in;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// Is this one of our own result files (not an artifact)?
pub fn is_result_file(p: &Path) -> bool {
    is_reduce_result(p) || p.to_string_lossy().ends_with(".choices")
}

/// A result `reduce` or `generalize` writes next to an artifact: `.min`,
/// `.min.choices`, `.pattern.json` (not every `.choices`: `generate -o`
/// names its sequences so).
pub fn is_reduce_result(p: &Path) -> bool {
    let s = p.to_string_lossy();
    s.ends_with(".min") || s.ends_with(".min.choices") || s.ends_with(".pattern.json")
}

/// The crash artifacts in a directory, in name order: every file but our
/// own results and hidden files. `cargo fuzz tmin` leaves its results
/// (`minimized-from-HASH`) next to the crashes they came from; they are
/// skipped with a note, since counting them would count those crashes
/// twice (pass them by name to include them). A directory with none of
/// them is an error.
pub fn artifacts_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v = files_in(dir)?;
    let all = v.len();
    v.retain(|p| !is_result_file(p));
    let before = v.len();
    v.retain(|p| {
        !p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("minimized-from-"))
    });
    if v.len() < before {
        eprintln!(
            "note: skipping {} `minimized-from-*` file(s) in {} (results of `cargo fuzz tmin`, \
             copies of crashes already there); pass them by name to include them",
            before - v.len(),
            dir.display()
        );
    }
    if v.is_empty() {
        bail!(
            "no artifacts in {}{}",
            dir.display(),
            match all {
                0 => String::new(),
                n => format!(
                    " (its {n} file(s) are results: `.min`, `.min.choices`, `.pattern.json`, \
                     `minimized-from-*`; pass one by name to reduce it)"
                ),
            }
        );
    }
    Ok(v)
}

/// Stops on the first artifact path that does not exist: a mistyped name
/// must end the run before any work (with several artifacts it would
/// only be reported at the end, and `-o` would take the others as a
/// directory). `cmd`: the oracle is `--cmd`, under which every positional
/// argument is an artifact.
pub fn check_artifacts_exist(artifacts: &[PathBuf], cmd: bool) -> Result<()> {
    match artifacts.iter().find(|a| !a.exists()) {
        Some(a) => anyhow::bail!(
            "no such artifact: {}{}",
            a.display(),
            if cmd {
                " (with --cmd every positional argument is an artifact)"
            } else {
                ""
            }
        ),
        None => Ok(()),
    }
}
