//! A fuzz target tells the reducer its grammar and decoding budgets.
//!
//! A grammar fuzz target decodes its bytes with its own grammar and
//! [`DecodeConfig`] (`config = ...` in `grammar_fuzz_target!`). Tools that
//! decode its artifacts (`reduce`, `generalize`, `bucket`) must use the
//! same grammar and budgets, or the text they show and reason about is not
//! the text the target saw. So the target answers a question: started
//! with [`ENV_VAR`] set to a file path, its init hook writes
//! `{"max_depth":D,"max_len":L,"grammar":"<the grammar's JSON text>"}`
//! there and exits ([`describe_if_requested`]); [`ask`] is the other side.

use crate::generate::DecodeConfig;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Environment variable naming the file a fuzz target writes its budgets to.
pub const ENV_VAR: &str = "GRAMMAR_MIN_DESCRIBE";

/// Called by fuzz targets from libFuzzer's init hook: returns at once
/// unless [`ENV_VAR`] is set; otherwise writes `cfg` and the grammar's
/// source (`grammar`, the JSON text the target was built with; `None`
/// leaves it out) to that file and exits the process (status 0, or 1 if
/// the file cannot be written).
pub fn describe_if_requested(cfg: &DecodeConfig, grammar: Option<&str>) {
    let Some(path) = std::env::var_os(ENV_VAR) else {
        return;
    };
    let answer = Answer {
        max_depth: cfg.max_depth,
        max_len: cfg.max_len,
        grammar: grammar.map(str::to_string),
    };
    let json = serde_json::to_string(&answer).unwrap_or_default() + "\n";
    match std::fs::write(&path, json) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!(
                "grammar-min: cannot write {}: {e}",
                Path::new(&path).display()
            );
            std::process::exit(1)
        }
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Answer {
    max_depth: u32,
    max_len: usize,
    /// Absent from targets built with grammar-min before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grammar: Option<String>,
}

/// What a grammar fuzz target reports about itself.
#[derive(Clone, Debug)]
pub struct Described {
    /// The budgets it decodes with.
    pub config: DecodeConfig,
    /// Its grammar's JSON text (`None` from targets built before
    /// grammar-min reported it).
    pub grammar: Option<String>,
}

/// Asks the fuzz target `binary` for its budgets and grammar. `None` when it does not
/// answer within `timeout` (e.g. built with an older grammar-min, or not
/// a grammar target); such a target is started on an empty corpus with
/// `-runs=0`, so it exits without fuzzing.
pub fn ask(binary: &Path, timeout: Duration) -> Option<Described> {
    let dir = tempfile::tempdir().ok()?;
    let answer = dir.path().join("budgets.json");
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).ok()?;
    let mut child = Command::new(binary)
        .env(ENV_VAR, &answer)
        .env_remove(crate::known::ENV_VAR)
        .arg("-runs=0")
        .arg(&corpus)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let a: Answer = serde_json::from_slice(&std::fs::read(&answer).ok()?).ok()?;
    Some(Described {
        config: DecodeConfig {
            max_depth: a.max_depth,
            max_len: a.max_len,
        },
        grammar: a.grammar,
    })
}
