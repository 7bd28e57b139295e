#!/bin/sh
# Interesting (exit 0) iff GNU as (x86-64) reports
# "Error: symbol `.Lzero_loop' is already defined".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(LC_ALL=C timeout 5 as --64 -o "$D/out.o" "$F" 2>&1 </dev/null)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "Error: symbol \`.Lzero_loop' is already defined"
