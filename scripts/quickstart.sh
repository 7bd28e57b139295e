#!/usr/bin/env bash
# The main job on the bundled example, from a fresh machine:
#  1. install cargo-grammar-min (and cargo-fuzz if missing),
#  2. build the `calc` example fuzz target (three planted bugs),
#  3. fuzz it with its grammar in three phases; after each phase `bucket`
#     lists the bugs found so far in fuzz/buckets/calc/known-crashes.txt,
#     and the next phase skips them (GRAMMAR_MIN_SKIP), because libFuzzer
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
KNOWN=fuzz/buckets/calc
phase() { # seed, seconds, keep going after a crash (0/1)
    echo "== fuzzing calc for up to ${2}s (log: $LOG/phase-$1.log)" >&2
    if [[ -f $KNOWN/known-crashes.txt ]]; then
        echo "   skipping the bugs bucketed so far: GRAMMAR_MIN_SKIP=$KNOWN" >&2
        export GRAMMAR_MIN_SKIP=$KNOWN
    fi
    "${FUZZ[@]}" run --fuzz-dir fuzz calc -- \
        -fork=2 -ignore_crashes="$3" -max_total_time="$2" -seed="$1" \
        >"$LOG/phase-$1.log" 2>&1 || true
}
known() { # bucket what was found, for the next phase to skip
    cargo grammar-min bucket calc --precision 0 --instances 0 >"$LOG/bucket-$1.txt" 2>&1 || true
    local n=0
    [[ -f $KNOWN/known-crashes.txt ]] && n=$(grep -c '^panic' "$KNOWN/known-crashes.txt" || true)
    echo "   bugs known so far: $n (listed in $KNOWN/known-crashes.txt)" >&2
}
phase 1 "$SECS" 1
known 1
phase 2 "$SECS" 1
known 2
# The semantic bug takes 30k-200k executions: the last phase runs until
# its first crash, for at most four times as long.
phase 3 $((4 * SECS)) 0
n=$(find fuzz/artifacts/calc -maxdepth 1 -name 'crash-*' ! -name '*.*' | wc -l)
echo "== $n crash artifacts in fuzz/artifacts/calc" >&2

echo "== reducing (same crash signature at every step)" >&2
cargo grammar-min reduce calc --json >"$LOG/reduce.json"
echo "   summary: $LOG/reduce.json" >&2

echo "== bucketing by input pattern" >&2
cargo grammar-min bucket calc
