#!/bin/sh
# Interesting (exit 0) iff tclsh fails with "expected integer but got".
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 5 tclsh "$F" 2>&1)
printf '%s' "$out" | grep -q -- "expected integer but got"
