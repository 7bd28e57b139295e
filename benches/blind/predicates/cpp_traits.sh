#!/bin/sh
# Interesting (exit 0) iff g++ instantiates a template with metrics::Gauge
# and finds no nested 'value_type' in it.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(LC_ALL=C timeout 10 g++ -std=c++17 -fsyntax-only -Wall -x c++ "$F" 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "error: no type named 'value_type' in 'struct metrics::Gauge'"
