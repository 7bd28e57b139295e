//! The table `bucket` prints on stdout: one row per pattern, the crash
//! and smallest reproducer of each bucket, and what to do next.

use crate::bucket::Report;
use crate::common::shell_quote;
use grammar_min::bucket::JoinedBy;
use grammar_min::known::portable_location;

/// `s` escaped onto one line (`\n`, `\r`, `\x07`, as `--escape` writes
/// them), cut at `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let e = String::from_utf8_lossy(&crate::common::escape(s.as_bytes())).into_owned();
    if e.chars().count() > max {
        format!("{}…", e.chars().take(max).collect::<String>())
    } else {
        e
    }
}

/// `sig` with each path shortened as `known-crashes.txt` writes it
/// ([`portable_location`]): a registry crate's from its directory
/// (`/home/u/.cargo/registry/src/index.crates.io-1949…/chrono-0.4.19/src/x.rs`
/// → `chrono-0.4.19/src/x.rs`), the standard library's without the
/// toolchain's (`/rustc/e50aa6…/library/core/…` → `library/core/…`), so
/// the table shows the file and line.
fn short_paths(sig: &str) -> String {
    sig.split(' ')
        .map(portable_location)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The table `bucket` prints (without --json).
pub fn print_table(r: &Report) {
    println!(
        "{} artifact(s) -> {} bucket(s) in {:.1}s ({} oracle runs)\n",
        r.artifacts,
        r.buckets.len(),
        r.seconds,
        r.oracle_runs
    );
    println!(
        "{:>3}  {:>5}  {:>9}  {:<40}  smallest reproducer",
        "id", "count", "precision", "pattern(s)"
    );
    for b in &r.buckets {
        for (i, p) in b.patterns.iter().enumerate() {
            let prec = b
                .precision
                .get(i)
                .copied()
                .flatten()
                .map_or("-".to_string(), |p| format!("{p:.2}"));
            if i == 0 {
                println!(
                    "{:>3}  {:>5}  {:>9}  {:<40}  {}",
                    b.id,
                    b.count,
                    prec,
                    one_line(p, 40),
                    one_line(&b.smallest, 40)
                );
            } else {
                println!("{:>3}  {:>5}  {:>9}  {:<40}", "", "", prec, one_line(p, 40));
            }
        }
        if let Some(sig) = b.smallest_signature.as_ref().or(b.signature.as_ref()) {
            println!(
                "{:>3}  {:>5}  {:>9}  crash: {}",
                "",
                "",
                "",
                one_line(&short_paths(sig), 100)
            );
        }
    }
    if r.buckets
        .iter()
        .any(|b| b.precision.iter().flatten().any(|&p| p < 1.0))
    {
        println!(
            "\nnote: a precision below 1.00 means some instances of that pattern did not fail \
             the same way: it is more general than the bug. More DDSET tries per node \
             (--tries, default 10) test each abstraction harder"
        );
    }
    let shared: Vec<String> = r
        .buckets
        .iter()
        .filter(|b| b.signature.is_some() && b.patterns.len() > 1)
        .map(|b| b.id.to_string())
        .collect();
    if !shared.is_empty() {
        println!(
            "\nnote: bucket(s) {} hold several patterns under one crash signature: one bug \
             reached through inputs of different shapes, or, where one line checks many \
             inputs (an assert of a round-trip or differential harness), several bugs. \
             Compare the patterns, or split by panic message with --signature message",
            shared.join(", ")
        );
    }
    for b in &r.buckets {
        let matched = b
            .members
            .iter()
            .filter(|m| {
                matches!(
                    m.joined_by,
                    JoinedBy::MatchedUnreduced | JoinedBy::MatchedReduced
                )
            })
            .count();
        if matched > 0 {
            println!(
                "\nbucket {}: {matched} artifact(s) joined by matching the pattern, without generalisation",
                b.id
            );
        }
        if let Some(d) = &b.dir {
            println!("bucket {}: {}", b.id, shell_quote(d));
        }
    }
    if let Some(k) = &r.known_crashes {
        println!("\nknown crashes: {}", shell_quote(k));
        let dir = std::path::Path::new(k)
            .parent()
            .map(|d| d.display().to_string());
        match (&r.target, dir) {
            (Some(t), Some(d)) if r.skippable > 0 => println!(
                "  fuzz past its {} panic(s): GRAMMAR_MIN_SKIP={} cargo +nightly fuzz run {t}",
                r.skippable,
                shell_quote(&d)
            ),
            (Some(t), Some(_)) => println!(
                "  none of them is a Rust panic, which is all a fuzz target can skip: fix them,\n  \
                 or keep fuzzing past them with `cargo +nightly fuzz run {t} -- -fork=2 -ignore_crashes=1`"
            ),
            _ => {}
        }
    }
    for (a, why) in &r.not_reproduced {
        let mut lines = why.lines();
        println!("\nnot bucketed: {a}: {}", lines.next().unwrap_or(""));
        for l in lines {
            println!("  {l}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{one_line, short_paths};

    #[test]
    fn table_cells_escape_line_ends() {
        // A `?` is a character of many grammars; `\r` is not shown as one.
        assert_eq!(one_line("><N\r\n?", 40), "><N\\r\\n?");
        assert_eq!(one_line("abcdef", 3), "abc…");
        // A pattern is shown as it is, or all escaped where a `\r` would
        // stand beside a raw `\`.
        let visible = crate::common::visible;
        assert_eq!(visible(b"a\\b\n\tc"), ("a\\b\n\tc".into(), false));
        assert_eq!(
            visible(b"a\\\r\n\tc\x07"),
            ("a\\\\\\r\\n\\tc\\x07".into(), true)
        );
    }

    #[test]
    fn registry_paths_are_shortened() {
        let sig = "panic at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/chrono-0.4.19/src/datetime.rs:1257:38: overflow";
        assert_eq!(
            short_paths(sig),
            "panic at chrono-0.4.19/src/datetime.rs:1257:38: overflow"
        );
        assert_eq!(
            short_paths("panic at src/calc.rs:1:2: x"),
            "panic at src/calc.rs:1:2: x"
        );
        assert_eq!(
            short_paths(
                "panic at /rustc/e50aa6fba4e6/library/core/src/iter/adapters/step_by.rs:35:9: x"
            ),
            "panic at library/core/src/iter/adapters/step_by.rs:35:9: x"
        );
    }
}
