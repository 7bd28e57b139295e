#!/bin/sh
# Interesting (exit 0) iff dash reports "arithmetic expression: division by zero".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 dash "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "arithmetic expression: division by zero"
