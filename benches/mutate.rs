//! Throughput of the grammar-aware mutator and crossover (outside
//! libFuzzer, uninstrumented): one call = decode the input's tree, pick and
//! apply an operator. Inputs are fixed pseudo-random choice sequences.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grammar_min::generate::DecodeConfig;
use grammar_min::grammar::{Grammar, LoadOptions};
use grammar_min::mutate::Mutator;
use std::hint::black_box;

fn load(name: &str) -> Grammar {
    let path = format!("{}/grammars/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Grammar::from_path(std::path::Path::new(&path), &LoadOptions::default()).unwrap()
}

fn input(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(167).wrapping_add(salt))
        .collect()
}

fn keep(_: &mut [u8], size: usize, _: usize) -> usize {
    size
}

fn bench(c: &mut Criterion) {
    let cfg = DecodeConfig {
        max_depth: 64,
        max_len: 4096,
    };
    let mut group = c.benchmark_group("mutate");
    for name in ["calc", "sql", "json"] {
        let g = load(name);
        for len in [16usize, 256] {
            let a = input(len, 3);
            let b = input(len, 101);
            let mut m = Mutator::new(&g, cfg);
            m.remember(&b);
            let mut seed = 0u64;
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/mutate"), len),
                &a,
                |bench, a| {
                    bench.iter(|| {
                        seed += 1;
                        black_box(m.mutate(a, 4096, seed, &mut keep))
                    })
                },
            );
            let m = Mutator::new(&g, cfg);
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/crossover"), len),
                &a,
                |bench, a| {
                    bench.iter(|| {
                        seed += 1;
                        black_box(m.crossover(a, &b, 4096, seed))
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
