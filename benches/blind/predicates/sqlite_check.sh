#!/bin/sh
# Interesting (exit 0) iff sqlite3 (-bail) stops on "CHECK constraint failed: stock_nonneg".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 sqlite3 -batch -bail -safe :memory: <"$F" 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "CHECK constraint failed: stock_nonneg (19)"
