#!/usr/bin/env bash
# Reproduces the `## parse` section of BENCHMARKS.md:
#   * grammar-min's Earley parser on deterministic JSON and expression
#     documents of 1 KB .. 10 MB (one fresh process per case, so the peak
#     RSS column is that case's own), and a JSON array nested 100,000 deep;
#   * Lark's Earley parser (lexer='dynamic') on the 1 KB and 100 KB ones,
#     with a grammar converted from the same JSON grammar file.
# Usage: scripts/bench-parse.sh [--no-lark]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench parse --no-run
bench() { cargo bench --bench parse -q -- "$@" 2>/dev/null | grep '^|' ; }
echo "| grammar | bytes | parse wall s | parse CPU s | MB/s (CPU) | first parse CPU s | recognise-only CPU s | tree nodes | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|"
for kind in json expr; do
  for size in 1000 100000 1000000 10000000; do
    bench "$kind" "$size"
  done
done
echo
echo "| input | bytes | parse wall s | parse CPU s | tree | peak RSS MB |"
echo "|---|---|---|---|---|---|"
bench deep 100000
[[ "${1:-}" == "--no-lark" ]] && exit 0
docs=$(mktemp -d)
trap 'rm -rf "$docs"' EXIT
cargo bench --bench parse -q -- write "$docs" >/dev/null 2>&1
python3 -c 'import lark' 2>/dev/null || pip install lark >/dev/null
echo
echo "| grammar | bytes | Lark Earley s | grammar-min parse s | ratio |"
echo "|---|---|---|---|---|"
for kind in json expr; do
  for size in 1000 100000; do
    doc="$docs/$kind-$size.txt"
    ours=$(bench "$kind" "$size" | awk -F'|' '{gsub(/ /, "", $4); print $4}')
    # Lark's Earley can take very long on 100 KB: give up after LARK_TIMEOUT s.
    if lark=$(timeout "${LARK_TIMEOUT:-1200}" python3 scripts/lark_compare.py "grammars/$kind.json" "$doc" | awk '{print $3}') && [[ -n "$lark" ]]; then
      ratio=$(python3 -c "print(f'{$lark / $ours:.0f}x')")
    else
      lark="> ${LARK_TIMEOUT:-1200} (timeout)"
      ratio="> $(python3 -c "print(f'{${LARK_TIMEOUT:-1200} / $ours:.0f}x')")"
    fi
    echo "| $kind | $size | $lark | $ours | $ratio |"
  done
done
