# Sourced by the reduction benchmark runners (benches/generalisation/run.sh,
# benches/blind/run.sh): every tool calls the same counting wrapper, so
# oracle calls are counted alike, and every result is checked again.

# counter WORK COUNT PREDICATE: writes WORK/test.sh, which appends one byte
# to COUNT per call and runs PREDICATE on its argument.
counter() {
  : > "$2"
  printf '#!/bin/sh\nprintf x >> "%s"\nexec sh "%s" "$1"\n' "$2" "$3" > "$1/test.sh"
  chmod +x "$1/test.sh"
}

# report TASK TOOL OUT COUNT PREDICATE START END: one result line (bytes,
# calls, seconds, whether OUT still satisfies PREDICATE).
report() {
  local ok=NO
  if [ -f "$3" ] && sh "$5" "$3"; then ok=yes; fi
  printf '%s %s bytes=%s calls=%s sec=%.1f still_interesting=%s\n' "$1" "$2" \
    "$( [ -f "$3" ] && wc -c < "$3" | tr -d ' ' || echo -)" "$(wc -c < "$4" | tr -d ' ')" \
    "$(echo "$7 - $6" | bc)" "$ok"
}

# run_cvise IN OUT WORK [CVISE OPTION...]: C-Vise (`cvise`, apt) on a copy
# of IN, the result copied to OUT. C-Vise runs its test without arguments
# in a scratch directory holding a copy of the file under its own name,
# so the test is a one-line wrapper around WORK/test.sh. It runs as many
# tests at once as the machine has cores (its default), and is stopped
# after CVISE_LIMIT seconds (default 900), keeping the file it reached.
run_cvise() {
  local in=$1 out=$2 work=$3 name
  shift 3
  name=$(basename "$in")
  mkdir -p "$work/cvise"
  cp "$in" "$work/cvise/$name"
  printf '#!/bin/sh\nexec "%s" "%s"\n' "$work/test.sh" "$name" > "$work/cvise/check.sh"
  chmod +x "$work/cvise/check.sh"
  (cd "$work/cvise" && timeout "${CVISE_LIMIT:-900}" cvise --tidy --timeout 10 "$@" "$work/cvise/check.sh" "$name") > /dev/null 2>&1 || true
  cp "$work/cvise/$name" "$out" 2>/dev/null || true
}
