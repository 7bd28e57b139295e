//! Finding a cargo-fuzz project's pieces the way cargo-fuzz does.
//!
//! * project root: the nearest directory, walking up from the current one,
//!   that holds a `Cargo.toml`;
//! * fuzz dir: `--fuzz-dir`, else `<root>/fuzz` (or the root itself when it
//!   is the fuzz crate, i.e. its `Cargo.toml` has `[package.metadata]`
//!   `cargo-fuzz = true`);
//! * target dir: `--target-dir`, else `$CARGO_TARGET_DIR`, else
//!   `<fuzz dir>/target` (the fuzz crate is its own workspace);
//! * binary: `<target dir>/<host triple>/release/<target>`;
//! * artifacts: `<fuzz dir>/artifacts/<target>/`;
//! * grammar: `<root>/grammars/<target>.json`, else
//!   `<fuzz dir>/grammars/<target>.json`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What could not be found, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// No `Cargo.toml` above the start directory.
    #[error("no Cargo.toml found in {0} or any parent directory; run inside a cargo project or pass --fuzz-dir")]
    NoProject(PathBuf),
    /// The fuzz directory does not exist.
    #[error("fuzz directory {0} does not exist; run `cargo fuzz init` or pass --fuzz-dir")]
    NoFuzzDir(PathBuf),
    /// No target of that name in the fuzz project.
    #[error(
        "no fuzz target `{0}` in {1} (its targets: {2}); check the name, or run `cargo fuzz list`"
    )]
    UnknownTarget(String, PathBuf, String),
    /// The target binary has not been built.
    #[error("fuzz target binary {0} not found; build it with `cargo fuzz build {1}` (or pass --target-dir)")]
    NoBinary(PathBuf, String),
    /// `rustc -vV` did not say the host triple.
    #[error("cannot determine the host triple from `rustc -vV`: {0}")]
    NoTriple(String),
}

/// Paths of one fuzz project.
#[derive(Clone, Debug)]
pub struct FuzzProject {
    /// Directory with the project's `Cargo.toml`.
    pub root: PathBuf,
    /// The cargo-fuzz directory (usually `<root>/fuzz`).
    pub fuzz_dir: PathBuf,
    /// Where cargo builds the fuzz targets.
    pub target_dir: PathBuf,
}

/// Walks up from `start` to the first directory holding `Cargo.toml`.
pub fn project_root(start: &Path) -> Option<PathBuf> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        if d.join("Cargo.toml").is_file() {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

fn is_fuzz_crate(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .map(|s| s.contains("cargo-fuzz = true"))
        .unwrap_or(false)
}

impl FuzzProject {
    /// Discovers the project from `cwd` with optional overrides.
    ///
    /// # Errors
    /// [`DiscoverError`] naming what is missing.
    pub fn discover(
        cwd: &Path,
        fuzz_dir: Option<&Path>,
        target_dir: Option<&Path>,
    ) -> Result<FuzzProject, DiscoverError> {
        let (root, fuzz_dir) = match fuzz_dir {
            Some(f) => {
                let f = cwd.join(f);
                let root = f
                    .parent()
                    .and_then(project_root)
                    .unwrap_or_else(|| f.clone());
                (root, f)
            }
            None => {
                let mut root =
                    project_root(cwd).ok_or_else(|| DiscoverError::NoProject(cwd.to_path_buf()))?;
                if is_fuzz_crate(&root) {
                    let fuzz = root.clone();
                    root = fuzz.parent().and_then(project_root).unwrap_or(fuzz.clone());
                    (root, fuzz)
                } else {
                    let fuzz = root.join("fuzz");
                    (root, fuzz)
                }
            }
        };
        if !fuzz_dir.is_dir() {
            return Err(DiscoverError::NoFuzzDir(fuzz_dir));
        }
        let target_dir = match target_dir {
            Some(t) => cwd.join(t),
            None => match std::env::var_os("CARGO_TARGET_DIR") {
                Some(t) => cwd.join(t),
                None => fuzz_dir.join("target"),
            },
        };
        Ok(FuzzProject {
            root,
            fuzz_dir,
            target_dir,
        })
    }

    /// `<target dir>/<triple>/release/<target>`, checked to exist.
    ///
    /// # Errors
    /// Unknown triple, a target the project does not have, or a binary not
    /// built yet.
    pub fn binary(&self, target: &str) -> Result<PathBuf, DiscoverError> {
        let p = self
            .target_dir
            .join(host_triple()?)
            .join("release")
            .join(target);
        if p.is_file() {
            Ok(p)
        } else {
            self.check_target(target)?;
            Err(DiscoverError::NoBinary(p, target.to_string()))
        }
    }

    /// The project's fuzz targets, as cargo-fuzz lays them out
    /// (`<fuzz dir>/fuzz_targets/<name>.rs`), sorted.
    pub fn targets(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.fuzz_dir.join("fuzz_targets"))
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let p = e.ok()?.path();
                (p.extension()? == "rs").then(|| p.file_stem()?.to_str().map(str::to_string))?
            })
            .collect();
        v.sort();
        v
    }

    /// `Ok` if `target` is one of [`FuzzProject::targets`] (or the project
    /// lists none there, so nothing can be said).
    ///
    /// # Errors
    /// [`DiscoverError::UnknownTarget`] listing the targets there are.
    pub fn check_target(&self, target: &str) -> Result<(), DiscoverError> {
        let all = self.targets();
        if all.is_empty() || all.iter().any(|t| t == target) {
            Ok(())
        } else {
            Err(DiscoverError::UnknownTarget(
                target.to_string(),
                self.fuzz_dir.join("fuzz_targets"),
                all.join(", "),
            ))
        }
    }

    /// `<fuzz dir>/artifacts/<target>`.
    pub fn artifacts_dir(&self, target: &str) -> PathBuf {
        self.fuzz_dir.join("artifacts").join(target)
    }

    /// The default grammar of a target: `<root>/grammars/<target>.json`,
    /// else `<fuzz dir>/grammars/<target>.json` (returned even if missing,
    /// so the error can name it).
    pub fn grammar(&self, target: &str) -> PathBuf {
        let a = self.root.join("grammars").join(format!("{target}.json"));
        if a.is_file() {
            return a;
        }
        let b = self
            .fuzz_dir
            .join("grammars")
            .join(format!("{target}.json"));
        if b.is_file() {
            b
        } else {
            a
        }
    }
}

/// The host triple, from `rustc -vV` (as cargo-fuzz does).
///
/// # Errors
/// `rustc` missing or its output unrecognised.
pub fn host_triple() -> Result<String, DiscoverError> {
    let out = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|e| DiscoverError::NoTriple(e.to_string()))?;
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_string())
        .ok_or_else(|| DiscoverError::NoTriple(s.into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovers_layout_from_a_subdirectory() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::write(root.join("Cargo.toml"), "[package]\nname='x'\n").unwrap();
        std::fs::create_dir_all(root.join("fuzz/artifacts/t")).unwrap();
        std::fs::write(
            root.join("fuzz/Cargo.toml"),
            "[package.metadata]\ncargo-fuzz = true\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        let p = FuzzProject::discover(&root.join("src/deep"), None, Some(Path::new("/tmp/tgt")))
            .unwrap();
        assert_eq!(p.root, root);
        assert_eq!(p.fuzz_dir, root.join("fuzz"));
        assert_eq!(p.target_dir, Path::new("/tmp/tgt"));
        assert_eq!(p.artifacts_dir("t"), root.join("fuzz/artifacts/t"));
        // From inside the fuzz crate itself.
        let q = FuzzProject::discover(&root.join("fuzz"), None, None).unwrap();
        assert_eq!(q.fuzz_dir, root.join("fuzz"));
        assert_eq!(q.root, root);
        assert!(matches!(
            p.binary("t"),
            Err(DiscoverError::NoBinary(..)) | Err(DiscoverError::NoTriple(_))
        ));
        // With targets listed, a misspelt one is named with the real ones.
        std::fs::create_dir_all(root.join("fuzz/fuzz_targets")).unwrap();
        for t in ["t", "calc"] {
            std::fs::write(root.join(format!("fuzz/fuzz_targets/{t}.rs")), "").unwrap();
        }
        assert_eq!(p.targets(), ["calc", "t"]);
        assert!(p.check_target("t").is_ok());
        let e = p.check_target("cal").unwrap_err().to_string();
        assert!(
            e.contains("no fuzz target `cal`") && e.contains("calc, t"),
            "{e}"
        );
        if let Err(e) = p.binary("cal") {
            assert!(!matches!(e, DiscoverError::NoBinary(..)), "{e}");
        }
    }
}
