#!/bin/sh
# Interesting (exit 0) iff node throws a ReferenceError for a before its initialisation.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 2 node "$F" 2>&1)
printf '%s' "$out" | grep -q -- "ReferenceError: Cannot access .a. before initialization"
