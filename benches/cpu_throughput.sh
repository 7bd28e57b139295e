#!/usr/bin/env bash
# CPU-time throughput of the decoder: the benchmark corpus (64 random 4 KiB
# choice sequences, as in benches/generate.rs) decoded ROUNDS times, best
# user time of RUNS runs. User time does not count the time the process
# waits for a core, so on a shared machine it is steadier than criterion's
# wall clock.
#
#   benches/cpu_throughput.sh            # RUNS=10 by default
#   BIN=/tmp/old_decode_corpus benches/cpu_throughput.sh   # another build
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
bin=${BIN:-target/release/examples/decode_corpus}
if [ -z "${BIN:-}" ]; then
    cargo build --release --example decode_corpus -q
fi

measure() { # grammar mode rounds
    local best=999 t bytes
    bytes=$(DECODE_ROUNDS=$3 "$bin" "$1" "$2" | awk '{print $2}')
    for _ in $(seq "$RUNS"); do
        t=$({ /usr/bin/time -f "%U" env DECODE_ROUNDS="$3" "$bin" "$1" "$2" >/dev/null; } 2>&1)
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b) ? a : b }')
    done
    awk -v g="$1" -v m="$2" -v b="$bytes" -v t="$best" \
        'BEGIN { printf "%-5s %-4s %10d bytes in %5.2f s user: %6.1f MiB/s\n", g, m, b, t, b / t / 1048576 }'
}

measure expr fast 300
measure expr tree 100
# json's corpus decodes to little output (~1.2 KB a round): many rounds,
# so that the run takes long enough to time.
measure json fast 60000
measure json tree 20000
# The reference LimitFuzzer's budget, to compare with
# benches/python/limit_fuzzer.py.
echo "max_depth 10:"
DECODE_MAX_DEPTH=10 measure expr fast 10000
DECODE_MAX_DEPTH=10 measure json fast 60000
