#!/usr/bin/env bash
# Bucketing benchmark on the bundled calc example (results in BENCHMARKS.md):
#  1. a fuzzing campaign in three phases (FUZZ_SECONDS each, default 60),
#     each disarming the bugs found so far, into a fresh artifact directory;
#  2. `cargo grammar-min bucket` on all its artifacts (persistent oracle);
#  3. purity against the planted bugs, next to top-3-frame deduplication
#     (scripts/bucket_compare.py);
#  4. DDSET executions per generalisation, both variants, one artifact per bug.
# Needs cargo-fuzz; uses the release build of cargo-grammar-min.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${FUZZ_SECONDS:-60}
. scripts/fuzz-env.sh
"${FUZZ[@]}" build --fuzz-dir fuzz calc
cargo build --release --quiet
GM=target/release/cargo-grammar-min
BIN=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release/calc
WORK=$(mktemp -d)
mkdir -p "$WORK/artifacts"
for phase in "1,2,3 1" "2,3 2" "3 3"; do
    set -- $phase
    mkdir -p "$WORK/corpus-$2"
    CALC_BUGS=$1 "$BIN" "$WORK/corpus-$2" -fork=2 -ignore_crashes=1 -max_total_time="$SECS" \
        -seed="$2" -artifact_prefix="$WORK/artifacts/" >"$WORK/phase-$2.log" 2>&1 || true
done
echo "artifacts: $(ls "$WORK/artifacts" | wc -l) in $WORK/artifacts"
/usr/bin/time -f "bucket: %e s wall, %M KiB peak" \
    "$GM" bucket calc --persistent --artifacts-dir "$WORK/artifacts" -o "$WORK/buckets" --json >"$WORK/buckets.json" ||
    [ $? -eq 2 ] # some artifact not bucketed: listed in the report
"$GM" bucket calc --persistent --artifacts-dir "$WORK/artifacts" -o "$WORK/buckets" 2>/dev/null || [ $? -eq 2 ]
python3 scripts/bucket_compare.py "$BIN" "$WORK/artifacts" "$WORK/buckets.json"
echo
echo "| bug | artifact | variant | reduced bytes | executions | pattern |"
echo "|---|---|---|---:|---:|---|"
for bug in 1 2 3; do
    a=$(for f in "$WORK"/artifacts/crash-*; do
            case "$(basename "$f")" in *.*) continue;; esac
            # Capture first: `grep -q` stops reading at the first match,
            # the target then dies of SIGPIPE and pipefail fails the test.
            out=$(RUST_BACKTRACE=0 "$BIN" "$f" 2>&1 || true)
            if grep -q "calc bug $bug" <<<"$out"; then echo "$f"; break; fi
        done)
    [ -n "$a" ] || continue
    for v in paper simple; do
        "$GM" generalize calc "$a" --persistent --variant "$v" --json -o "$WORK/p.json" 2>/dev/null |
            python3 -c "import json,sys; s=json.load(sys.stdin); print(f\"| $bug | $(basename "$a") | $v | {s['reduced_bytes']} | {s['executions']} | \`{s['pattern']!r}\` |\")"
    done
done

echo
echo "== every reduced artifact keeps its own bug (replayed with the target)"
n=0; same=0
for f in "$WORK"/artifacts/crash-*; do
    case "$(basename "$f")" in *.*) continue;; esac
    [ -f "$f.min.choices" ] || continue
    n=$((n+1))
    a=$(RUST_BACKTRACE=0 "$BIN" "$f" 2>&1 | grep -o "calc bug [0-9]" || true)
    b=$(RUST_BACKTRACE=0 "$BIN" "$f.min.choices" 2>&1 | grep -o "calc bug [0-9]" || true)
    [ "$a" = "$b" ] && same=$((same+1))
done
echo "$n artifacts reduced, $same keep their bug"
