#!/usr/bin/env bash
# Drift and oracle speed on the calc example (results in BENCHMARKS.md).
# An input that crashes with bug 2 (five nested parentheses) but also holds
# bug 1 (a division by zero inside them) is minimised by `cargo fuzz tmin`
# and by `cargo grammar-min reduce`, with one process per candidate and in
# persistent mode.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz-env.sh
"${FUZZ[@]}" build --fuzz-dir fuzz calc
cargo build --release --quiet
GM=target/release/cargo-grammar-min
BIN=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release/calc
W=$(mktemp -d)
printf 'let x = 7;\nprint x + (((((x * 2 / 0)))));\nprint 3;' >"$W/overlap.txt"
# calc's target decodes with max_depth 64, max_len 4096
"$GM" encode --grammar grammars/calc.json --max-depth 64 --max-len 4096 "$W/overlap.txt" -o "$W/crash-overlap"
bug() { RUST_BACKTRACE=0 "$BIN" "$1" 2>&1 | grep -o "calc bug [0-9].*" | head -1; }
echo "original: $(bug "$W/crash-overlap")"
for mode in --no-persistent --persistent; do
    "$GM" reduce calc "$W/crash-overlap" $mode --json -o "$W/out$mode.min" 2>/dev/null |
        python3 -c "import json,sys; s=json.load(sys.stdin)[0]; print(f\"grammar-min reduce $mode: {s['bytes_before']} -> {s['bytes_after']} bytes, {s['tests']} tests, {s['seconds']:.3f} s, {1000*s['seconds']/s['tests']:.3f} ms/test\")"
    echo "  result: $(tr '\n' ' ' <"$W/out$mode.min")-> $(bug "$W/out$mode.min.choices")"
done
mkdir -p "$W/tmin"
cp "$W/crash-overlap" "$W/tmin/"
start=$(date +%s.%N)
"${FUZZ[@]}" tmin --fuzz-dir fuzz calc "$W/tmin/crash-overlap" >"$W/tmin.log" 2>&1 || true
end=$(date +%s.%N)
last=$(ls -t fuzz/artifacts/calc/minimized-from-* | head -1)
echo "cargo fuzz tmin: $(python3 -c "print(f'{$end-$start:.1f}')") s; result: $("$GM" decode --grammar grammars/calc.json --max-depth 64 --max-len 4096 "$last" | tr '\n' ' ')-> $(bug "$last")"
