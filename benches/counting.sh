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
