#!/bin/sh
# Interesting (exit 0) iff python3 raises ValueError from int().
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 5 python3 "$F" 2>&1)
printf '%s' "$out" | grep -q -- "ValueError: invalid literal for int()"
