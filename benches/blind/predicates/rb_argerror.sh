#!/bin/sh
# Interesting (exit 0) iff ruby stops with ArgumentError "wrong number of
# arguments (given 2, expected 1)" raised in format_amount.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 ruby "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "in .format_amount': wrong number of arguments \(given 2, expected 1\) \(ArgumentError\)"
