#!/bin/sh
# Interesting (exit 0) iff php stops with the fatal error "Call to undefined
# method NoDiscount::label()".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 php -n "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "Call to undefined method NoDiscount::label()"
