#!/bin/sh
# Interesting (exit 0) iff gcc -O2 -Wall warns about a subscript above array bounds.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 10 gcc -O2 -Wall -c -x c "$F" -o /dev/null 2>&1)
printf '%s' "$out" | grep -q -- "above array bounds"
