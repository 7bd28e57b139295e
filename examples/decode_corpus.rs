//! Decodes the benchmark corpus (64 random 4 KiB choice sequences, seed
//! 0x5eed, as in `benches/generate.rs`) five times: a fixed workload for
//! load-independent instruction counts.
//!
//! ```text
//! cargo build --release --example decode_corpus
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/decode_corpus expr
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/decode_corpus expr tree
//! ```

use grammar_min::generate::{decode_into, decode_tree, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};
use rand::{Rng, SeedableRng};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "expr".into());
    let tree = args.next().as_deref() == Some("tree");
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let g = match Grammar::from_path(std::path::Path::new(&path), &LoadOptions::default()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5eed);
    let seqs: Vec<Vec<u8>> = (0..64)
        .map(|_| {
            let mut v = vec![0u8; 4096];
            rng.fill_bytes(&mut v);
            v
        })
        .collect();
    // DECODE_MAX_DEPTH=10: the reference LimitFuzzer's budget.
    let mut cfg = DecodeConfig::default();
    if let Some(d) = std::env::var("DECODE_MAX_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
    {
        cfg.max_depth = d;
    }
    let mut out = Vec::new();
    let mut bytes = 0;
    // More rounds for timing: DECODE_ROUNDS=200.
    let rounds: usize = std::env::var("DECODE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    for _ in 0..rounds {
        for s in &seqs {
            out.clear();
            if tree {
                out = decode_tree(&g, s, &cfg).unparse(&g);
            } else {
                decode_into(&g, s, &cfg, &mut out);
            }
            bytes += out.len();
        }
    }
    println!("{name}: {bytes} output bytes");
}
