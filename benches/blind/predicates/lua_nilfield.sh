#!/bin/sh
# Interesting (exit 0) iff lua5.4 stops with the runtime error "attempt to
# index a nil value (field 'retry')".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 lua5.4 "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "attempt to index a nil value (field 'retry')"
