#!/bin/bash
# Generalisation check: reduction tasks on inputs and programs the reducer
# was not tuned on (bc, tclsh, jq, python3's json), against picire.
#
#   benches/generalisation/run.sh [TOOL] [TASK...]
#
# TOOL: auto (default; `cargo grammar-min reduce`, text, strategy auto),
# ddmin (`--strategy ddmin`), blind (strategy auto without the grammar:
# the grammar-blind pipeline), picire (`picire -a both`, if installed) or
# cvise (C-Vise `--not-c`, if installed).
# TASK: names in tasks/ (default: all). GM_BIN overrides the binary
# (default target/release/cargo-grammar-min; `cargo build --release` first).
# KEEP=DIR copies each result to DIR/TASK.out.
#
# Prints one line per task: result bytes, oracle calls (every run of the
# predicate, counted alike for every tool), seconds, and whether the
# result still satisfies the predicate. Needs bc, tclsh, jq, python3,
# sqlite3.
#
# tasks/*.txt were generated once by make/make_tasks.py (JSON),
# make/make_expr.py (bc, tcl) and make/make_gen2.py (sql_*, json_two_deep,
# json_long_string); the committed files are what is measured.
# sqlt_trigger (a warehouse script whose trigger chain raises; written by
# hand as a new user would) has its own grammar, grammars/sqltrig.json,
# with CREATE TRIGGER. pyi_missing_arg (a 3 KB inventory script calling a
# constructor without an argument) has grammars/pyindent.json, a Python
# subset with one statement rule per indentation depth, as the same new
# user wrote it. awk_divzero, awk_typeerr and awk_badre (mawk runtime
# errors in ~1.9 KB scripts) and grammars/awk.json are another new user's,
# whose grammar writes awk's line ends (needs mawk). lua_nilfield,
# rb_nilmethod and php_nullcall (runtime errors of ~2 KB programs) and
# grammars/lua.json, ruby.json and php.json are a fourth new user's
# (needs lua5.4, ruby, php).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GM=${GM_BIN:-$ROOT/target/release/cargo-grammar-min}
. "$ROOT/benches/counting.sh"
TOOL=${1:-auto}
shift || true
TASKS=("$@")
if [ ${#TASKS[@]} -eq 0 ]; then
  for f in "$HERE"/tasks/*.txt; do TASKS+=("$(basename "$f" .txt)"); done
fi
WORK=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && cp "$WORK"/*.out "$KEEP"/ ; rm -rf "$WORK"' EXIT
for T in "${TASKS[@]}"; do
  case $T in
    bc_*) G=$HERE/grammars/bc.json ;;
    tcl_*) G=$HERE/grammars/tclexpr.json ;;
    sql_*) G=$ROOT/grammars/sql.json ;;
    sqlt_*) G=$HERE/grammars/sqltrig.json ;;
    pyi_*) G=$HERE/grammars/pyindent.json ;;
    awk_*) G=$HERE/grammars/awk.json ;;
    lua_*) G=$HERE/grammars/lua.json ;;
    rb_*) G=$HERE/grammars/ruby.json ;;
    php_*) G=$HERE/grammars/php.json ;;
    *) G=$ROOT/grammars/json.json ;;
  esac
  IN=$HERE/tasks/$T.txt
  P=$HERE/predicates/$T.sh
  C=$WORK/$T.count
  counter "$WORK" "$C" "$P"
  OUT=$WORK/$T.out
  S=$(date +%s.%N)
  case $TOOL in
    picire)
      picire -i "$IN" --test "$WORK/test.sh" -a both -o "$WORK/picire" -l ERROR > /dev/null 2>&1 || true
      cp "$WORK/picire/$T.txt" "$OUT" 2>/dev/null || true ;;
    cvise) run_cvise "$IN" "$OUT" "$WORK" --not-c ;;
    auto | ddmin)
      "$GM" reduce --cmd "$WORK/test.sh {}" --grammar "$G" --strategy "$TOOL" "$IN" -o "$OUT" > /dev/null 2>&1 || true ;;
    blind)
      "$GM" reduce --cmd "$WORK/test.sh {}" "$IN" -o "$OUT" > /dev/null 2>&1 || true ;;
    *) echo "unknown tool: $TOOL (auto, ddmin, blind, picire or cvise)" >&2; exit 2 ;;
  esac
  E=$(date +%s.%N)
  report "$T" "$TOOL" "$OUT" "$C" "$P" "$S" "$E"
done
