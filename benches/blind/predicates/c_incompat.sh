#!/bin/sh
# Interesting (exit 0) iff gcc -Wall warns about an incompatible pointer type.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 10 gcc -fsyntax-only -Wall -x c "$F" 2>&1)
printf '%s' "$out" | grep -q -- "incompatible pointer type"
