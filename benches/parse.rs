//! Parser throughput and peak memory on deterministic JSON and expression
//! documents of growing size.
//!
//! `cargo bench --bench parse` prints a Markdown table (sizes 1 KB .. 10 MB);
//! `cargo bench --bench parse -- json 1000000` runs one case in a fresh
//! process, so its peak RSS (VmHWM) is that case's alone;
//! `cargo bench --bench parse -- write DIR` writes the documents (for the
//! Python comparison in `scripts/bench-parse.sh`);
//! `cargo bench --bench parse -- deep 100000` parses a JSON array nested
//! that deep and prints its time, tree depth and peak RSS.

use grammar_min::grammar::Grammar;
use grammar_min::parse::Parser;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// A realistic JSON document of about `size` bytes: nested objects and
/// arrays, strings with escapes and non-ASCII text, numbers with fractions
/// and exponents, literals, pretty-printed whitespace.
fn json_doc(size: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = String::from("[\n");
    let mut first = true;
    while out.len() < size.saturating_sub(2) {
        if !first {
            out.push_str(",\n");
        }
        first = false;
        json_value(&mut rng, &mut out, 0);
    }
    out.push_str("\n]");
    out
}

fn json_string(rng: &mut ChaCha8Rng, out: &mut String) {
    const WORDS: &[&str] = &[
        "alpha",
        "beta",
        "gamma",
        "caf\u{e9}",
        "na\u{ef}ve",
        "\u{65e5}\u{672c}\u{8a9e}",
        "\u{43f}\u{440}\u{438}\u{432}\u{435}\u{442}",
        "\u{1F600}",
        "id",
        "name",
        "value",
        "x",
        "Lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
    ];
    out.push('"');
    let n = rng.random_range(0..6);
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(WORDS[rng.random_range(0..WORDS.len())]);
        match rng.random_range(0..12) {
            0 => out.push_str("\\n"),
            1 => out.push_str("\\\""),
            2 => out.push_str("\\u00e9"),
            3 => out.push_str("\\\\"),
            4 => out.push_str("\\t"),
            _ => {}
        }
    }
    out.push('"');
}

fn json_value(rng: &mut ChaCha8Rng, out: &mut String, depth: usize) {
    let indent = |out: &mut String, d: usize| {
        out.push('\n');
        for _ in 0..d {
            out.push_str("  ");
        }
    };
    let kind = if depth > 4 {
        rng.random_range(2..8)
    } else {
        rng.random_range(0..8)
    };
    match kind {
        0 => {
            let n = rng.random_range(0..5);
            out.push('{');
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                json_string(rng, out);
                out.push_str(": ");
                json_value(rng, out, depth + 1);
            }
            if n > 0 {
                indent(out, depth);
            }
            out.push('}');
        }
        1 => {
            let n = rng.random_range(0..6);
            out.push('[');
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                json_value(rng, out, depth + 1);
            }
            out.push(']');
        }
        2 | 3 => json_string(rng, out),
        4 => {
            let v: i64 = rng.random_range(-100_000..100_000);
            out.push_str(&v.to_string());
        }
        5 => {
            let v: f64 = rng.random_range(-1000.0..1000.0);
            out.push_str(&format!("{v:.4}"));
            if rng.random_range(0..3) == 0 {
                out.push_str(&format!("e{}", rng.random_range(-20..20)));
            }
        }
        6 => out.push_str(["true", "false", "null"][rng.random_range(0..3)]),
        _ => out.push_str(if rng.random_range(0..2) == 0 {
            "{}"
        } else {
            "[]"
        }),
    }
}

/// An arithmetic expression of about `size` bytes for grammars/expr.json.
fn expr_doc(size: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = String::new();
    let mut open = 0usize;
    loop {
        if rng.random_range(0..4) == 0 && out.len() + open < size {
            out.push('(');
            open += 1;
            continue;
        }
        out.push_str(&rng.random_range(0..10_000u32).to_string());
        if rng.random_range(0..4) == 0 {
            out.push_str(&format!(".{}", rng.random_range(0..100u32)));
        }
        while open > 0 && rng.random_range(0..3) == 0 {
            out.push(')');
            open -= 1;
        }
        if out.len() + open >= size {
            break;
        }
        out.push_str([" + ", " - ", " * ", " / "][rng.random_range(0..4)]);
    }
    for _ in 0..open {
        out.push(')');
    }
    out
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn grammar(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(path.as_ref(), &Default::default()).expect("shipped grammar")
}

fn doc(kind: &str, size: usize) -> String {
    match kind {
        "json" => json_doc(size, 42),
        _ => expr_doc(size, 42),
    }
}

/// CPU time of this process in seconds (the machine is shared, so wall
/// time alone over-states the cost when other jobs run).
fn cpu_time() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Best (wall, cpu) seconds of `rounds` runs of `f`, and the CPU seconds
/// of the first run (which pays the page faults of fresh memory that later
/// runs of the same `Parser` reuse).
fn time(rounds: usize, mut f: impl FnMut()) -> (f64, f64, f64) {
    let (mut wall, mut cpu, mut first) = (f64::INFINITY, f64::INFINITY, f64::NAN);
    for _ in 0..rounds {
        let (w0, c0) = (Instant::now(), cpu_time());
        f();
        wall = wall.min(w0.elapsed().as_secs_f64());
        let c = cpu_time() - c0;
        cpu = cpu.min(c);
        if first.is_nan() {
            first = c;
        }
    }
    (wall, cpu, first)
}

/// Parses one document; prints a table row.
fn run(kind: &str, size: usize) {
    let g = grammar(kind);
    let p = Parser::new(&g);
    let text = doc(kind, size);
    let rounds = (2_000_000 / size).clamp(3, 200);
    let mut nodes = 0;
    let (wall, cpu, first) = time(rounds, || {
        let tree = p.parse(text.as_bytes()).expect("benchmark document parses");
        nodes = tree.len();
    });
    let (_, rec_cpu, _) = time(rounds, || {
        assert!(p.recognises(g.start(), text.as_bytes()));
    });
    let mb = text.len() as f64 / 1e6;
    println!(
        "| {kind} | {} | {:.4} | {:.4} | {:.1} | {:.4} | {:.4} | {} | {:.0} |",
        text.len(),
        wall,
        cpu,
        mb / cpu,
        first,
        rec_cpu,
        nodes,
        peak_rss_mb()
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("write") => {
            let dir = std::path::PathBuf::from(args.get(1).expect("write DIR"));
            std::fs::create_dir_all(&dir).expect("create dir");
            for size in [1_000, 100_000] {
                for kind in ["json", "expr"] {
                    std::fs::write(dir.join(format!("{kind}-{size}.txt")), doc(kind, size))
                        .expect("write document");
                }
            }
        }
        Some(mode @ ("recognise" | "full")) => {
            // Profiling aid: recognition only (or full parses), 5 rounds
            // (or as many as the third argument says: the instruction count
            // of one parse is the difference between two round counts).
            let kind = args.get(1).map_or("json", String::as_str);
            let size = args
                .get(2)
                .and_then(|s| s.parse().ok())
                .unwrap_or(1_000_000);
            let g = grammar(kind);
            let p = Parser::new(&g);
            let text = doc(kind, size);
            let rounds = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
            for _ in 0..rounds {
                if mode == "full" {
                    assert!(p.parse(text.as_bytes()).is_ok());
                } else {
                    assert!(p.recognises(g.start(), text.as_bytes()));
                }
            }
        }
        Some("digest") => {
            // Regression aid: a hash of every tree (and of the errors on
            // damaged copies) for documents of the given size; compare the
            // output of two builds.
            let size = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
            for kind in ["json", "expr"] {
                let g = grammar(kind);
                let p = Parser::new(&g);
                let text = doc(kind, size);
                let mut h = std::collections::hash_map::DefaultHasher::new();
                use std::hash::{Hash, Hasher};
                let t = p.parse(text.as_bytes()).expect("parses");
                for (n, d) in t.nodes().iter().zip(t.depths()) {
                    (n.label(), n.parent, n.size, d).hash(&mut h);
                }
                for k in 0..20 {
                    let mut bad = text.clone().into_bytes();
                    let at = (k * 7919 + 13) % bad.len();
                    bad[at] = b"x]\"{,"[k % 5];
                    match p.parse(&bad) {
                        Ok(t) => t.len().hash(&mut h),
                        Err(e) => e.message.hash(&mut h),
                    }
                }
                println!("{kind} {size} {:016x}", h.finish());
            }
        }
        Some("tables") => {
            // Cost of compiling a grammar's parse tables (`Parser::new`).
            for kind in ["json", "expr", "sql", "html"] {
                let g = grammar(kind);
                let (wall, cpu, _) = time(20, || drop(Parser::new(&g)));
                println!("| {kind} | {:.3} ms | {:.3} ms |", wall * 1e3, cpu * 1e3);
            }
        }
        Some("deep") => {
            // A JSON array nested N deep (default 100,000): no stack
            // overflow, and what it costs. One fresh process per run, so
            // the peak RSS is this parse's.
            let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
            let g = grammar("json");
            let p = Parser::new(&g);
            let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
            let mut depth = 0;
            let mut nodes = 0;
            let (wall, cpu, _) = time(1, || {
                let tree = p.parse(text.as_bytes()).expect("nested arrays parse");
                depth = tree.depth();
                nodes = tree.len();
            });
            println!(
                "| json, {n} nested arrays | {} | {wall:.4} | {cpu:.4} | tree depth {depth}, {nodes} nodes | {:.0} |",
                text.len(),
                peak_rss_mb()
            );
        }
        Some(kind @ ("json" | "expr")) => {
            let size = args
                .get(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(1_000_000);
            run(kind, size);
        }
        _ => {
            println!(
                "| grammar | bytes | parse wall s | parse CPU s | MB/s (CPU) | first parse CPU s | recognise-only CPU s | tree nodes | peak RSS MB |"
            );
            println!("|---|---|---|---|---|---|---|---|---|");
            for kind in ["json", "expr"] {
                for size in [1_000, 100_000, 1_000_000, 10_000_000] {
                    run(kind, size);
                }
            }
        }
    }
}
