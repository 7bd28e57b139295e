//! End-to-end test of the persistent oracle with `examples/persistent_child.rs`.

use grammar_min::oracle::persistent::PersistentOracle;
use grammar_min::oracle::signature::{CrashKind, SignatureLevel};
use grammar_min::oracle::{Oracle, Outcome};
use std::path::PathBuf;
use std::time::Duration;

fn child() -> PathBuf {
    // target/<profile>/deps/persistent-xxxx -> target/<profile>/examples/persistent_child
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let p = dir.join("examples").join("persistent_child");
    // `cargo test --test persistent` does not build examples, and one
    // left from an earlier build may be stale: build it (once per run,
    // in this test's profile; quick when up to date).
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        let mut cmd = std::process::Command::new(env!("CARGO"));
        cmd.args(["build", "--example", "persistent_child"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if dir.ends_with("release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().unwrap().success());
    });
    assert!(
        p.is_file(),
        "build the example first: cargo build --example persistent_child"
    );
    p
}

/// A child whose reference crash is the panic of `xx panic xx`.
fn panicking() -> PersistentOracle {
    PersistentOracle::new(
        child(),
        vec![],
        SignatureLevel::Location,
        Duration::from_secs(2),
        b"xx panic xx",
    )
    .unwrap()
}

#[test]
fn persistent_mode_compares_frames_when_asked() {
    // With `frames` the child sends each panic's backtrace: the frames
    // are the user's, without the panic machinery.
    let mut o = PersistentOracle::new(
        child(),
        vec![],
        SignatureLevel::Frames,
        Duration::from_secs(5),
        b"xx panic xx",
    )
    .unwrap();
    let frames = &o.reference().frames;
    assert!(
        frames.first().is_some_and(|f| f.ends_with("check")),
        "{frames:?}"
    );
    assert!(
        !frames.iter().any(|f| f.contains("panicking")),
        "{frames:?}"
    );
    assert_eq!(o.test(b"panic"), Outcome::Interesting);
    assert_eq!(o.test(b"calm"), Outcome::NotInteresting);
    assert_eq!(o.spawned, 1);
    // Without `frames`, no backtrace is taken.
    assert!(panicking().reference().frames.is_empty());
}

#[test]
fn persistent_oracle_serves_many_candidates_and_survives_crashes() {
    let mut o = panicking();
    assert_eq!(o.reference().kind, CrashKind::Panic);
    assert!(o
        .reference()
        .location
        .as_deref()
        .unwrap()
        .contains("persistent_child.rs"));
    assert_eq!(o.test(b"panic"), Outcome::Interesting);
    assert_eq!(o.test(b"calm"), Outcome::NotInteresting);
    assert_eq!(o.test(b"a panic"), Outcome::Interesting);
    assert_eq!(o.spawned, 1, "panics are caught in the child: no restart");
    // A hard crash: the child dies, the parent reads stderr and restarts.
    assert_eq!(o.test(b"abort"), Outcome::Invalid);
    assert_eq!(o.test(b"panic again"), Outcome::Interesting);
    assert_eq!(o.spawned, 2);
    // A hang: killed after the timeout, then a fresh child.
    assert_eq!(o.test(b"hang"), Outcome::Timeout);
    assert_eq!(o.test(b"panic"), Outcome::Interesting);
    assert_eq!(o.spawned, 3);
}

#[test]
fn persistent_oracle_rejects_a_non_failing_original() {
    assert!(PersistentOracle::new(
        child(),
        vec![],
        SignatureLevel::Location,
        Duration::from_secs(2),
        b"fine"
    )
    .is_err());
}

#[test]
fn a_target_reports_its_decoding_budgets_and_grammar() {
    use grammar_min::oracle::describe::ask;
    let d = ask(&child(), Duration::from_secs(20)).expect("the example answers");
    assert_eq!((d.config.max_depth, d.config.max_len), (33, 77));
    assert_eq!(
        d.grammar.as_deref(),
        Some(r#"{"<start>": ["panic", "calm"]}"#)
    );
    // A program that does not answer gives None, not an error or a hang.
    assert!(ask(std::path::Path::new("true"), Duration::from_secs(20)).is_none());
}

#[test]
fn a_pool_of_children_runs_a_batch_in_order() {
    use grammar_min::oracle::persistent::PersistentPool;
    let first = panicking();
    let mut pool = PersistentPool::new(first, 3, b"xx panic xx").unwrap();
    assert_eq!(pool.parallelism(), 3);
    assert!(pool.signature().is_some());
    let batch: [&[u8]; 7] = [
        b"calm",
        b"panic",
        b"abort",
        b"still calm",
        b"a panic",
        b"calm again",
        b"panic!",
    ];
    use Outcome::*;
    assert_eq!(
        pool.test_batch(&batch),
        [
            NotInteresting,
            Interesting,
            Invalid,
            NotInteresting,
            Interesting,
            NotInteresting,
            Interesting
        ]
    );
    // The child that aborted was restarted.
    assert_eq!(
        pool.test_batch(&[b"panic", b"x", b"abort panic"])[0],
        Interesting
    );
}
