#!/bin/sh
# Interesting (exit 0) iff gcc -Werror=format rejects a %lu given a counter_t.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(LC_ALL=C timeout 10 gcc -std=c11 -fsyntax-only -Wall -Werror=format -x c "$F" 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "error: format '%lu' expects argument of type 'long unsigned int', but argument [0-9]+ has type 'counter_t' \{aka 'long long unsigned int'\}"
