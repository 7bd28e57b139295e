#!/bin/sh
# Interesting (exit 0) iff gcc reports a division by zero.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 10 gcc -c -Werror=div-by-zero -x c "$F" -o /dev/null 2>&1)
printf '%s' "$out" | grep -q -- "division by zero"
