#!/bin/bash
# Choice artifacts through `reduce`: the crash artifacts of three grammar
# fuzz targets of fuzz/ (calc: 288, evalexpr_mutator: 64, sql_mutator: 93;
# each a libFuzzer run with -fork=1 -ignore_crashes=1 from an empty corpus,
# 150-360 s), every set reduced with
#   cargo grammar-min reduce TARGET --artifacts-dir COPY --json
# (persistent mode, the default for these targets; every result keeps its
# artifact's crash signature, which reduce checks at each step).
#
#   benches/choice_artifacts/run.sh [TARGET...]
#
# Prints one line per target: artifacts, text bytes before and after
# (summed), runs (summed; the reproduction runs of the originals not
# counted) and seconds. GM_BIN overrides the binary (default
# target/release/cargo-grammar-min; `cargo build --release` first). Builds
# the fuzz targets if needed. KEEP=DIR keeps each target's results there.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GM=${GM_BIN:-$ROOT/target/release/cargo-grammar-min}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(calc evalexpr_mutator sql_mutator)
cd "$ROOT"
. scripts/fuzz-env.sh
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for T in "${TARGETS[@]}"; do
  "${FUZZ[@]}" build --fuzz-dir fuzz "$T" >/dev/null 2>&1
  D=$WORK/$T
  mkdir -p "$D"
  cp "$HERE/$T"/crash-* "$D/"
  START=$(date +%s.%N)
  "$GM" reduce "$T" --artifacts-dir "$D" --json >"$WORK/$T.json" 2>"$WORK/$T.err" || {
    tail -5 "$WORK/$T.err" >&2
    exit 1
  }
  END=$(date +%s.%N)
  python3 - "$WORK/$T.json" "$T" "$START" "$END" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%s artifacts=%d bytes_before=%d bytes_after=%d runs=%d sec=%.1f" % (
    sys.argv[2], len(r), sum(x["bytes_before"] for x in r),
    sum(x["bytes_after"] for x in r), sum(x["tests"] for x in r),
    float(sys.argv[4]) - float(sys.argv[3])))
PY
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP/$T" && cp "$D"/*.min "$WORK/$T.json" "$KEEP/$T/"; fi
done
