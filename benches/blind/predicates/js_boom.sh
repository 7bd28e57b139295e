#!/bin/sh
# Interesting (exit 0) iff node throws Error("BOOM") from g called by f.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 2 node "$F" 2>&1)
printf '%s' "$out" | grep -q "^Error: BOOM" && printf '%s' "$out" | grep -q "at g (" && printf '%s' "$out" | grep -q "at f ("
