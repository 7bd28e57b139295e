#!/usr/bin/env bash
# 300,000-execution time-to-first-crash runs (BENCHMARKS.md, "Longer budget"):
# three modes x three seeds on evalexpr and on calc with only bug 3 armed.
# Needs the fuzz binaries (cargo +nightly fuzz build --fuzz-dir fuzz).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/fuzz/target/$(rustc -vV | sed -n "s/^host: //p")/release"
for t in evalexpr_plain evalexpr_grammar evalexpr_mutator calc_plain calc_grammar calc; do
  for seed in 1 2 3; do
  d=$(mktemp -d); s=$(date +%s.%N)
  if [[ $t == calc* ]]; then export CALC_BUGS=3; fi
  timeout 300 $B/$t $d -runs=300000 -seed=$seed -artifact_prefix=${OUT:-/tmp}/long-$t-$seed- > ${OUT:-/tmp}/long-$t-$seed.log 2>&1; rc=$?
  e=$(date +%s.%N)
  echo -e "$t\t$seed\trc=$rc\t$(echo "$e - $s" | bc)\t$(grep -E '^#[0-9]' ${OUT:-/tmp}/long-$t-$seed.log | tail -1 | cut -c1-60)\t$(grep -m1 -A1 'panicked at' ${OUT:-/tmp}/long-$t-$seed.log | tail -1)"
  rm -rf $d
  done
done
