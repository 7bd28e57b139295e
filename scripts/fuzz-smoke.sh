#!/usr/bin/env bash
# Smoke test of the libFuzzer integration: installs cargo-fuzz if missing,
# builds the calc example and two self-fuzzing targets, runs each for a
# bounded number of executions (no crash allowed with calc's planted bugs
# disarmed), then checks that the armed example finds a planted bug, that
# libFuzzer's crash minimisation (cargo fuzz tmin) ends cleanly, that
# reduce and bucket handle its crash, and that GRAMMAR_MIN_SKIP with
# bucket's known-crashes.txt fuzzes past it to the other bug.
# Exits non-zero on any build failure or unexpected result. ~2-4 minutes.
#
# Usage: scripts/fuzz-smoke.sh   (RUNS=2000 by default)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-2000}
cd "$ROOT"

. scripts/fuzz-env.sh

TARGETS=(calc decode grammar_loader)
for t in "${TARGETS[@]}"; do
    echo "fuzz-smoke: building $t" >&2
    "${FUZZ[@]}" build --fuzz-dir fuzz "$t"
done

TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
BIN="$ROOT/fuzz/target/$TRIPLE/release"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for t in "${TARGETS[@]}"; do
    mkdir -p "$WORK/$t"
    echo "fuzz-smoke: running $t for $RUNS executions" >&2
    # CALC_BUGS=0 disarms the planted bugs: any crash here is a real one.
    if ! CALC_BUGS=0 "$BIN/$t" "$WORK/$t" -runs="$RUNS" -seed=1 \
        -artifact_prefix="$WORK/$t-" >"$WORK/$t.log" 2>&1; then
        tail -30 "$WORK/$t.log" >&2
        echo "fuzz-smoke: $t crashed or failed (log above)" >&2
        exit 1
    fi
    grep -E '^#[0-9]+' "$WORK/$t.log" | tail -1 >&2
done

# The armed example must find bug 1 or 2 quickly (seed 1 finds one within
# a few thousand executions; the budget leaves a wide margin).
echo "fuzz-smoke: calc with planted bugs armed (expect a crash)" >&2
mkdir -p "$WORK/calc-armed"
set +e
CALC_BUGS=1,2 "$BIN/calc" "$WORK/calc-armed" -runs=200000 -seed=1 \
    -artifact_prefix="$WORK/armed-" >"$WORK/armed.log" 2>&1
rc=$?
set -e
if [[ $rc -eq 0 ]] || ! grep -q 'calc bug [12]' "$WORK/armed.log"; then
    tail -30 "$WORK/armed.log" >&2
    echo "fuzz-smoke: the calc example did not find a planted bug (exit $rc)" >&2
    exit 1
fi
grep -m1 'calc bug' "$WORK/armed.log" >&2

# libFuzzer's own crash minimisation (what `cargo fuzz tmin` runs) must
# end cleanly: LeakSanitizer once reported the macro's argv at its exit.
ART0=$(ls "$WORK"/armed-crash-* | head -1)
set +e
CALC_BUGS=1,2 "$BIN/calc" -minimize_crash=1 -runs=20 \
    -exact_artifact_path="$WORK/tmin-out" "$ART0" >"$WORK/tmin.log" 2>&1
rc=$?
set -e
if [[ $rc -ne 0 ]] || grep -q LeakSanitizer "$WORK/tmin.log"; then
    tail -30 "$WORK/tmin.log" >&2
    echo "fuzz-smoke: libFuzzer's -minimize_crash=1 failed (exit $rc)" >&2
    exit 1
fi

# The reducer on the real target. `calc_grammar` has no grammars/ file of
# its name: the grammar and budgets come from the target itself, and its
# candidates run in persistent mode (the default for such targets).
"${FUZZ[@]}" build --fuzz-dir fuzz calc_grammar
GM=(cargo run --quiet --locked --bin cargo-grammar-min -- grammar-min)
ART=$(ls "$WORK"/armed-crash-* | head -1)
echo "fuzz-smoke: reduce $(basename "$ART") with calc_grammar's own grammar" >&2
CALC_BUGS=1,2 "${GM[@]}" reduce calc_grammar "$ART" -o "$WORK/min" 2>"$WORK/reduce.log" || {
    cat "$WORK/reduce.log" >&2; echo "fuzz-smoke: reduce failed" >&2; exit 1; }
grep -q 'persistent mode' "$WORK/reduce.log" || {
    cat "$WORK/reduce.log" >&2; echo "fuzz-smoke: reduce did not run in persistent mode" >&2; exit 1; }
[ -s "$WORK/min" ] && [ -s "$WORK/min.choices" ] || {
    echo "fuzz-smoke: reduce wrote no result" >&2; exit 1; }
echo "fuzz-smoke: reduced to: $(cat "$WORK/min")" >&2
# A crash written as text, for the target that reads choices.
printf 'let a = 3;\nprint (a + 12) / 0;\n' >"$WORK/by-hand.txt"
CALC_BUGS=1 "${GM[@]}" reduce calc_grammar "$WORK/by-hand.txt" --input text \
    -o "$WORK/by-hand.min" 2>"$WORK/text.log" || {
    cat "$WORK/text.log" >&2; echo "fuzz-smoke: reduce --input text failed" >&2; exit 1; }
grep -q '/' "$WORK/by-hand.min" || {
    echo "fuzz-smoke: the text crash lost its division: $(cat "$WORK/by-hand.min")" >&2; exit 1; }
echo "fuzz-smoke: text crash reduced to: $(tr '\n' ' ' <"$WORK/by-hand.min")" >&2
# bucket on the same crash: its reproducer, as choices, crashes the target.
CALC_BUGS=1,2 "${GM[@]}" bucket calc_grammar "$ART" -o "$WORK/buckets" --precision 5 \
    >"$WORK/bucket.out" 2>"$WORK/bucket.log" || {
    cat "$WORK/bucket.log" >&2; echo "fuzz-smoke: bucket failed" >&2; exit 1; }
set +e
CALC_BUGS=1,2 "$BIN/calc_grammar" "$WORK/buckets/bucket-0/reproducer.choices" >"$WORK/repro.log" 2>&1
rc=$?
set -e
if [[ $rc -eq 0 ]] || ! grep -q 'calc bug [12]' "$WORK/repro.log"; then
    tail -20 "$WORK/repro.log" >&2
    echo "fuzz-smoke: bucket's reproducer.choices does not crash calc_grammar (exit $rc)" >&2
    exit 1
fi
echo "fuzz-smoke: bucket's reproducer: $(tr '\n' ' ' <"$WORK/buckets/bucket-0/reproducer.txt")" >&2
# Fuzzing past the bucketed crash: bucket listed it in known-crashes.txt;
# with GRAMMAR_MIN_SKIP the reproducer passes, and a fuzzing run (seed 1
# reaches both bugs within a few thousand executions) stops at the other bug.
grep -qP '^panic\tsrc/calc.rs:' "$WORK/buckets/known-crashes.txt" || {
    cat "$WORK/buckets/known-crashes.txt" >&2; echo "fuzz-smoke: bucket listed no known crash" >&2; exit 1; }
grep -qF 'fuzz past its 1 panic(s): GRAMMAR_MIN_SKIP=' "$WORK/bucket.out" &&
    grep -qF 'cargo +nightly fuzz run calc_grammar' "$WORK/bucket.out" || {
    cat "$WORK/bucket.out" >&2; echo "fuzz-smoke: bucket gave no command to fuzz past the known crash" >&2; exit 1; }
KNOWN=$(grep -o 'calc bug [12]' "$WORK/repro.log" | head -1)
GRAMMAR_MIN_SKIP="$WORK/buckets" CALC_BUGS=1,2 "$BIN/calc_grammar" \
    "$WORK/buckets/bucket-0/reproducer.choices" >"$WORK/skip1.log" 2>&1 || {
    tail -20 "$WORK/skip1.log" >&2; echo "fuzz-smoke: GRAMMAR_MIN_SKIP did not skip the known crash" >&2; exit 1; }
mkdir -p "$WORK/calc-skip"
set +e
GRAMMAR_MIN_SKIP="$WORK/buckets" CALC_BUGS=1,2 "$BIN/calc" "$WORK/calc-skip" -runs=200000 -seed=1 \
    -artifact_prefix="$WORK/skip-" >"$WORK/skip.log" 2>&1
rc=$?
set -e
if [[ $rc -eq 0 ]] || ! grep -q 'calc bug [12]' "$WORK/skip.log" || grep -q "$KNOWN:" "$WORK/skip.log"; then
    grep -E 'grammar-min|calc bug' "$WORK/skip.log" | tail -20 >&2
    echo "fuzz-smoke: fuzzing past the known crash ($KNOWN) did not stop at the other bug (exit $rc)" >&2
    exit 1
fi
echo "fuzz-smoke: past the known $KNOWN: $(grep -m1 'calc bug' "$WORK/skip.log")" >&2
echo "fuzz-smoke: ok" >&2
