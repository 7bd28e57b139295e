//! What `bucket` keeps in its output directory across runs: bucket ids
//! that stay with their bug ([`StableIds`]: a bucket takes the id of the
//! earlier run's bucket with the same crash or, without crash
//! signatures, a pattern in common, so `bucket-3/` is the same bug after
//! new artifacts arrive), and the known-crash list
//! ([`write_known_crashes`]).

use crate::common::write_atomic;
use anyhow::{Context, Result};
use grammar_min::bucket::Buckets;
use grammar_min::known::KnownCrashes;
use grammar_min::oracle::signature::{Signature, SignatureLevel};
use std::path::Path;

/// The file in each `bucket-K/` that records its crash signature.
pub const SIGNATURE_FILE: &str = "signature.json";

/// One bucket an earlier run left in the output directory.
struct Earlier {
    id: u32,
    signature: Option<Signature>,
    /// Its `patterns.txt` lines (escaped patterns).
    patterns: Vec<Vec<u8>>,
}

/// Ids for the buckets of this run, in the order they are founded.
pub struct StableIds {
    earlier: Vec<Earlier>,
    level: SignatureLevel,
    /// The id of each bucket founded so far (index: the bucket's own id).
    ids: Vec<u32>,
}

impl StableIds {
    /// Reads the `bucket-K/` directories under `dir` (none: no earlier
    /// run). A directory whose files cannot be read keeps its id taken,
    /// so no other bug's results are written into it.
    pub fn load(dir: Option<&Path>, level: SignatureLevel) -> StableIds {
        let mut earlier = Vec::new();
        let entries = dir.and_then(|d| std::fs::read_dir(d).ok());
        for e in entries.into_iter().flatten().flatten() {
            let name = e.file_name();
            let Some(id) = name
                .to_str()
                .and_then(|n| n.strip_prefix("bucket-"))
                .and_then(|k| k.parse::<u32>().ok())
            else {
                continue;
            };
            let p = e.path();
            let signature = std::fs::read(p.join(SIGNATURE_FILE))
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok());
            let patterns = std::fs::read(p.join("patterns.txt"))
                .map(|b| {
                    b.split(|&c| c == b'\n')
                        .filter(|l| !l.is_empty())
                        .map(<[u8]>::to_vec)
                        .collect()
                })
                .unwrap_or_default();
            earlier.push(Earlier {
                id,
                signature,
                patterns,
            });
        }
        earlier.sort_by_key(|e| e.id);
        StableIds {
            earlier,
            level,
            ids: Vec::new(),
        }
    }

    /// The id of the bucket founded now, with this crash and first
    /// pattern (escaped as `patterns.txt` writes it): the earlier bucket's
    /// of the same crash (same signature at the bucketing level, both
    /// ways), or, where neither has a signature, of one that listed this
    /// pattern; else the lowest id no earlier directory and no bucket of
    /// this run has. Whether it was the earlier run's: [`StableIds::took_earlier_id`].
    pub fn found(&mut self, signature: Option<&Signature>, pattern: &[u8]) -> u32 {
        let free = |id: &u32| !self.ids.contains(id);
        let same =
            self.earlier
                .iter()
                .filter(|e| free(&e.id))
                .find(|e| match (signature, &e.signature) {
                    (Some(a), Some(b)) => a.matches(b, self.level) && b.matches(a, self.level),
                    (None, None) => e.patterns.iter().any(|p| p == pattern),
                    _ => false,
                });
        let id = match same {
            Some(e) => e.id,
            None => (0..)
                .find(|id| free(id) && self.earlier.iter().all(|e| e.id != *id))
                .expect("a free id"),
        };
        self.ids.push(id);
        id
    }

    /// The id of this run's bucket `own` (its index among the buckets).
    pub fn of(&self, own: u32) -> u32 {
        self.ids[own as usize]
    }

    /// Whether this run's bucket `own` took an earlier run's bucket's id
    /// (the same bug, bucketed before).
    pub fn took_earlier_id(&self, own: u32) -> bool {
        let id = self.of(own);
        self.earlier.iter().any(|e| e.id == id)
    }
}

/// Writes `DIR/known-crashes.txt` (see `grammar_min::known`) when the
/// buckets have crash signatures (a fuzz target's), and returns its path
/// and how many of its crashes can be skipped. Messages are listed only
/// when buckets were told apart by message.
pub fn write_known_crashes(
    dir: &std::path::Path,
    buckets: &Buckets,
    ids: &StableIds,
    target: Option<&str>,
    level: SignatureLevel,
) -> Result<(Option<String>, usize)> {
    let sigs: Vec<_> = buckets
        .all()
        .iter()
        .filter_map(|b| {
            Some((
                format!("bucket-{}: {}", ids.of(b.id.0), b.keys[0]),
                b.signature.as_ref()?,
            ))
        })
        .collect();
    if sigs.is_empty() {
        return Ok((None, 0));
    }
    let header = format!(
        "Crashes bucketed by `cargo grammar-min bucket{}`.\n\
         A grammar fuzz target run with GRAMMAR_MIN_SKIP naming this file (or its\n\
         directory) treats the panics listed below as passing inputs and keeps\n\
         fuzzing; the other crashes (aborts, stack overflows, sanitizer reports)\n\
         end the process before it can, and appear only as comments.\n\
         One per line: panic<TAB>FILE:LINE:COL[<TAB>MESSAGE, numbers masked as N].",
        target.map(|t| format!(" {t}")).unwrap_or_default()
    );
    let mut text = KnownCrashes::render(&header, sigs, level >= SignatureLevel::Message);
    let path = dir.join(grammar_min::known::FILE_NAME);
    let (old, now) = (std::fs::read_to_string(&path), KnownCrashes::parse(&text));
    text += &KnownCrashes::kept_section(&old.unwrap_or_default(), &now.unwrap_or_default());
    let skippable = KnownCrashes::parse(&text).map_or(0, |k| k.entries.len());
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_atomic(&path, text.as_bytes())?;
    Ok((Some(path.display().to_string()), skippable))
}

/// Removes what an earlier run wrote numbered into the bucket directory
/// `dir` (`pattern-N.json`, `instances/`), so a bucket with fewer
/// patterns or instances than before keeps none of the old ones beside
/// its new ones. Other files are left alone.
pub fn clear_numbered(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("pattern-") && name.ends_with(".json") {
            std::fs::remove_file(e.path())
                .with_context(|| format!("cannot remove {}", e.path().display()))?;
        }
    }
    let instances = dir.join("instances");
    if instances.is_dir() {
        std::fs::remove_dir_all(&instances)
            .with_context(|| format!("cannot remove {}", instances.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use grammar_min::oracle::signature::CrashKind;

    fn panic_at(loc: &str) -> Signature {
        Signature {
            kind: CrashKind::Panic,
            message: None,
            location: Some(loc.into()),
            frames: Vec::new(),
        }
    }

    fn earlier_run(dir: &Path, buckets: &[(u32, Option<&Signature>, &str)]) {
        for (id, sig, pattern) in buckets {
            let d = dir.join(format!("bucket-{id}"));
            std::fs::create_dir_all(&d).unwrap();
            if let Some(s) = sig {
                std::fs::write(d.join(SIGNATURE_FILE), serde_json::to_vec(s).unwrap()).unwrap();
            }
            std::fs::write(d.join("patterns.txt"), format!("{pattern}\n")).unwrap();
        }
    }

    #[test]
    fn a_bucket_keeps_the_id_of_its_crash_and_a_new_one_takes_a_fresh_id() {
        let d = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            panic_at("a.rs:1:1"),
            panic_at("b.rs:2:2"),
            panic_at("c.rs:3:3"),
        );
        earlier_run(d.path(), &[(0, Some(&a), "x"), (1, Some(&b), "y")]);
        let mut ids = StableIds::load(Some(d.path()), SignatureLevel::Location);
        // Founded in another order than before, with another pattern.
        assert_eq!(ids.found(Some(&c), b"z"), 2);
        assert_eq!(ids.found(Some(&b), b"w"), 1);
        assert_eq!(ids.found(Some(&c), b"v"), 3);
        assert_eq!((ids.of(0), ids.of(1), ids.of(2)), (2, 1, 3));
        assert_eq!(
            (
                ids.took_earlier_id(0),
                ids.took_earlier_id(1),
                ids.took_earlier_id(2)
            ),
            (false, true, false)
        );
    }

    #[test]
    fn numbered_results_of_an_earlier_run_go_and_the_rest_stays() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path().join("bucket-0");
        std::fs::create_dir_all(b.join("instances")).unwrap();
        for f in [
            "pattern-0.json",
            "pattern-1.json",
            "patterns.txt",
            "notes.md",
            "instances/3.txt",
        ] {
            std::fs::write(b.join(f), "x").unwrap();
        }
        clear_numbered(&b).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&b)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["notes.md", "patterns.txt"]);
        clear_numbered(&d.path().join("bucket-9")).unwrap();
    }

    #[test]
    fn without_signatures_a_shared_pattern_keeps_the_id() {
        let d = tempfile::tempdir().unwrap();
        earlier_run(
            d.path(),
            &[(0, None, "((<expr>))"), (4, None, "<expr> / 0")],
        );
        let mut ids = StableIds::load(Some(d.path()), SignatureLevel::Location);
        assert_eq!(ids.found(None, b"<term> % 0"), 1);
        assert_eq!(ids.found(None, b"<expr> / 0"), 4);
        assert_eq!(ids.found(None, b"((<expr>))"), 0);
        // No earlier run: ids in founding order.
        let mut ids = StableIds::load(None, SignatureLevel::Location);
        assert_eq!((ids.found(None, b"a"), ids.found(None, b"b")), (0, 1));
    }
}
