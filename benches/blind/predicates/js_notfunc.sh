#!/bin/sh
# Interesting (exit 0) iff node throws "TypeError: g is not a function".
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 2 node "$F" 2>&1)
printf '%s' "$out" | grep -q -- "TypeError: g is not a function"
