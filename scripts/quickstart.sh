#!/usr/bin/env bash
# The main job on the bundled example, from a fresh machine:
#  1. install cargo-grammar-min (and cargo-fuzz if missing),
#  2. build the `calc` example fuzz target (three planted bugs),
#  3. fuzz it with its grammar in three phases; each phase disarms the bugs
#     found so far (CALC_BUGS), as if they had been fixed, because libFuzzer
#     would otherwise spend the whole budget re-finding the shallow one,
#  4. reduce every crash artifact and bucket them by DDSET pattern.
#
# Usage: scripts/quickstart.sh          (FUZZ_SECONDS=N per phase, default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${FUZZ_SECONDS:-60}

echo "== installing cargo-grammar-min" >&2
cargo install --path . --locked --quiet
. scripts/fuzz-env.sh

echo "== building the calc fuzz target" >&2
"${FUZZ[@]}" build --fuzz-dir fuzz calc

LOG=$(mktemp -d)
phase() { # bugs armed, seed, seconds, keep going after a crash (0/1)
    echo "== fuzzing calc for up to ${3}s with bugs $1 armed (log: $LOG/phase-$2.log)" >&2
    CALC_BUGS=$1 "${FUZZ[@]}" run --fuzz-dir fuzz calc -- \
        -fork=2 -ignore_crashes="$4" -max_total_time="$3" -seed="$2" \
        >"$LOG/phase-$2.log" 2>&1 || true
}
phase 1,2,3 1 "$SECS" 1
phase 2,3 2 "$SECS" 1
# The semantic bug takes 30k-200k executions: the last phase runs until
# its first crash, for at most four times as long.
phase 3 3 $((4 * SECS)) 0
n=$(find fuzz/artifacts/calc -maxdepth 1 -name 'crash-*' ! -name '*.*' | wc -l)
echo "== $n crash artifacts in fuzz/artifacts/calc" >&2

echo "== reducing (same crash signature at every step)" >&2
cargo grammar-min reduce calc --json >"$LOG/reduce.json"
echo "   summary: $LOG/reduce.json" >&2

echo "== bucketing by input pattern" >&2
cargo grammar-min bucket calc
