#!/bin/bash
# Preprocessed inputs, C-Reduce's home ground: a C and a C++ source
# (preprocessed/) expanded by `gcc -E -P` and `g++ -E -P` with their
# system headers (about 85 KB and 770 KB with GCC 12; the sizes follow the
# compiler version), each with one type error the compiler reports.
# Reduced grammar-blind, and with C-Vise and picire if installed.
#
#   benches/blind/preprocessed.sh [TOOL...]
#
# TOOL: blind (default), cvise (CVISE_LIMIT seconds, default 900),
# picire. GM_BIN overrides the binary. Prints one line per input and
# tool: bytes, oracle calls (every predicate run), seconds, and whether
# the result still fails the same way. Needs gcc and g++.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GM=${GM_BIN:-$ROOT/target/release/cargo-grammar-min}
. "$ROOT/benches/counting.sh"
TOOLS=("$@")
[ ${#TOOLS[@]} -eq 0 ] && TOOLS=(blind)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
gcc -E -P "$HERE/preprocessed/report.c" >"$WORK/report.c"
g++ -E -P "$HERE/preprocessed/inventory.cpp" >"$WORK/inventory.cpp"
# predicate NAME COMPILER MESSAGE: a predicate script WORK/NAME.sh that
# compiles its argument in a scratch directory and looks for MESSAGE.
predicate() {
  cat >"$WORK/$1.sh" <<PRED
#!/bin/sh
F=\$(realpath "\$1")
D=\$(mktemp -d) || exit 2
cd "\$D" || exit 2
cp "\$F" t.$3
out=\$(LC_ALL=C timeout 10 $2 t.$3 </dev/null 2>&1)
cd / && rm -rf "\$D"
printf '%s' "\$out" | grep -qF -- "$4"
PRED
}
predicate report "gcc -c -Wall -o /dev/null" c \
  "format '%d' expects argument of type 'int', but argument 4 has type 'const char *'"
predicate inventory "g++ -fsyntax-only" cpp \
  "error: cannot convert 'int' to 'const std::string&'"
for T in report inventory; do
  IN=$(ls "$WORK/$T".c*)
  EXT=${IN##*.}
  sh "$WORK/$T.sh" "$IN" || { echo "$T: the preprocessed input does not fail as expected (compiler version?)" >&2; continue; }
  echo "$T: $(wc -c <"$IN" | tr -d ' ') bytes preprocessed"
  for TOOL in "${TOOLS[@]}"; do
    C=$WORK/$T.count
    counter "$WORK" "$C" "$WORK/$T.sh"
    OUT=$WORK/out.$T.$TOOL.$EXT
    S=$(date +%s.%N)
    case $TOOL in
      blind) "$GM" reduce --cmd "$WORK/test.sh {}" "$IN" -o "$OUT" >/dev/null 2>&1 || true ;;
      cvise) run_cvise "$IN" "$OUT" "$WORK" ;;
      picire)
        picire -i "$IN" --test "$WORK/test.sh" -a both -o "$WORK/picire" -l ERROR >/dev/null 2>&1 || true
        cp "$WORK/picire/$T.$EXT" "$OUT" 2>/dev/null || true ;;
      *) echo "unknown tool: $TOOL (blind, cvise or picire)" >&2; exit 2 ;;
    esac
    E=$(date +%s.%N)
    report "$T" "$TOOL" "$OUT" "$C" "$WORK/$T.sh" "$S" "$E"
    [ -n "${SHOW:-}" ] && [ -f "$OUT" ] && { cat "$OUT"; echo; }
  done
done
