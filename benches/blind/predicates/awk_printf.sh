#!/bin/sh
# Interesting (exit 0) iff mawk fails at run time with "not enough arguments passed to printf".
# (mawk, the only awk here, returns inf/nan on division by zero instead of failing.)
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 mawk -f "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "run time error: not enough arguments passed to printf"
