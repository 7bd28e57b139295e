#!/bin/bash
# Grammar-blind reduction: crash inputs in languages grammar-min has no
# grammar for (C for gcc, Python, Tcl, JavaScript for node, shell, SQL,
# TOML, jq's JSON, Makefiles, ...), reduced without a grammar, against
# picire.
#
#   benches/blind/run.sh [TOOL] [TASK...]
#
# TOOL: blind (default; `cargo grammar-min reduce --cmd ...` without a
# grammar, i.e. text `auto` grammar-blind), ddmin (`--strategy ddmin`,
# Zeller's ddmin on lines, tokens and bytes), picire (`picire -a both`,
# lines then characters, if installed), cvise (C-Vise with its C passes
# on .c/.cpp and `--not-c` elsewhere, if installed) or grammar (text `auto` with
# grammars/js.json; js_* tasks only). TASK: names in tasks/ without the
# extension (default: all). GM_BIN overrides the binary (default
# target/release/cargo-grammar-min; `cargo build --release` first).
# KEEP=DIR copies each result to DIR.
#
# Prints one line per task: result bytes, oracle calls (every run of the
# predicate, counted alike for every tool), seconds, and whether the
# result still satisfies the predicate. Needs gcc, python3 (3.11 or later,
# with PyYAML), tclsh, node, perl, bash, dash, mawk, rustc, sqlite3, jq,
# make, g++, GNU as, GNU sed, bc, cpp, GNU ld, groff, a JDK (javac, java),
# vim, llvm-mc (with the AArch64 target), OpenSSL 3, lua5.4, ocamlc,
# GNU m4, go (1.19 or later), php (8), ruby, Graphviz's dot, GNU pic,
# guile (3.0), cmake, xsltproc and escript (Erlang).
# java_npe alone takes more than 20 minutes (a JVM start per run).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GM=${GM_BIN:-$ROOT/target/release/cargo-grammar-min}
. "$ROOT/benches/counting.sh"
TOOL=${1:-blind}
shift || true
TASKS=("$@")
if [ ${#TASKS[@]} -eq 0 ]; then
  for f in "$HERE"/tasks/*; do n=$(basename "$f"); TASKS+=("${n%.*}"); done
fi
WORK=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && cp "$WORK"/out.* "$KEEP"/ ; rm -rf "$WORK"' EXIT
for T in "${TASKS[@]}"; do
  IN=$(ls "$HERE"/tasks/"$T".*)
  EXT=${IN##*.}
  P=$HERE/predicates/$T.sh
  C=$WORK/$T.count
  counter "$WORK" "$C" "$P"
  OUT=$WORK/out.$T.$EXT
  S=$(date +%s.%N)
  case $TOOL in
    picire)
      picire -i "$IN" --test "$WORK/test.sh" -a both -o "$WORK/picire" -l ERROR > /dev/null 2>&1 || true
      cp "$WORK/picire/$T.$EXT" "$OUT" 2>/dev/null || true ;;
    cvise)
      case $EXT in
        c | cpp) run_cvise "$IN" "$OUT" "$WORK" ;;
        *) run_cvise "$IN" "$OUT" "$WORK" --not-c ;;
      esac ;;
    blind)
      "$GM" reduce --cmd "$WORK/test.sh {}" "$IN" -o "$OUT" > /dev/null 2>&1 || true ;;
    ddmin)
      "$GM" reduce --cmd "$WORK/test.sh {}" --strategy ddmin "$IN" -o "$OUT" > /dev/null 2>&1 || true ;;
    grammar)
      "$GM" reduce --cmd "$WORK/test.sh {}" --grammar "$HERE/grammars/js.json" "$IN" -o "$OUT" > /dev/null 2>&1 || true ;;
    *) echo "unknown tool: $TOOL (blind, ddmin, picire, cvise or grammar)" >&2; exit 2 ;;
  esac
  E=$(date +%s.%N)
  report "$T" "$TOOL" "$OUT" "$C" "$P" "$S" "$E"
done
