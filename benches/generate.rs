//! Decoder throughput: output MiB/s of the fast path (`decode_into`) and of
//! the tree path (`decode_tree` + `unparse`), and the time to decode one
//! 4 KiB choice sequence. Inputs are fixed random choice sequences from a
//! fixed seed, so runs are comparable.
//!
//! `cargo bench --bench generate -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grammar_min::generate::{decode_into, decode_tree, DecodeConfig};
use grammar_min::grammar::{Grammar, LoadOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const GRAMMARS: [&str; 2] = ["expr", "json"];
/// Number of choice sequences per grammar and their length.
const SEQS: usize = 64;
const SEQ_LEN: usize = 4096;

fn load(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(std::path::Path::new(&path), &LoadOptions::default())
        .expect("shipped grammar loads")
}

fn corpus(seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..SEQS)
        .map(|_| {
            let mut v = vec![0u8; SEQ_LEN];
            rng.fill_bytes(&mut v);
            v
        })
        .collect()
}

fn output_bytes(g: &Grammar, seqs: &[Vec<u8>], cfg: &DecodeConfig) -> u64 {
    let mut out = Vec::new();
    let mut total = 0;
    for s in seqs {
        out.clear();
        decode_into(g, s, cfg, &mut out);
        total += out.len() as u64;
    }
    total
}

fn throughput(c: &mut Criterion) {
    let seqs = corpus(0x5eed);
    // The default budgets, and the reference LimitFuzzer's max_depth of 10
    // (for the comparison with benches/python/limit_fuzzer.py).
    let configs = [
        ("", DecodeConfig::default()),
        (
            "/max-depth-10",
            DecodeConfig {
                max_depth: 10,
                ..Default::default()
            },
        ),
    ];
    for name in GRAMMARS {
        let g = load(name);
        for (suffix, cfg) in configs {
            let bytes = output_bytes(&g, &seqs, &cfg);
            let mut group = c.benchmark_group(format!("generate/{name}{suffix}"));
            group.throughput(Throughput::Bytes(bytes));
            group.bench_function("decode_into", |b| {
                let mut out = Vec::new();
                b.iter(|| {
                    for s in &seqs {
                        out.clear();
                        decode_into(&g, black_box(s), &cfg, &mut out);
                        black_box(&out);
                    }
                })
            });
            group.bench_function("decode_tree+unparse", |b| {
                b.iter(|| {
                    for s in &seqs {
                        let t = decode_tree(&g, black_box(s), &cfg);
                        black_box(t.unparse(&g));
                    }
                })
            });
            group.finish();
        }
    }
}

fn latency(c: &mut Criterion) {
    let cfg = DecodeConfig::default();
    let seqs = corpus(0x4b);
    for name in GRAMMARS {
        let g = load(name);
        let mut group = c.benchmark_group(format!("decode-4KiB/{name}"));
        group.bench_function("decode_into", |b| {
            let mut out = Vec::new();
            b.iter(|| {
                out.clear();
                decode_into(&g, black_box(&seqs[0]), &cfg, &mut out);
                out.len()
            })
        });
        group.bench_function("decode_tree", |b| {
            b.iter(|| decode_tree(&g, black_box(&seqs[0]), &cfg))
        });
        group.finish();
    }
}

criterion_group!(benches, throughput, latency);
criterion_main!(benches);
