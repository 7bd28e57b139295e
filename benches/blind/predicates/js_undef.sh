#!/bin/sh
# Interesting (exit 0) iff node reads .length of undefined.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 2 node "$F" 2>&1)
printf '%s' "$out" | grep -q -- "TypeError: Cannot read properties of undefined (reading .length.)"
