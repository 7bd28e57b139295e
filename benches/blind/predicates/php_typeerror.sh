#!/bin/sh
# Interesting (exit 0) iff php stops with the TypeError "Money::format():
# Argument #1 ($cents) must be of type int, string given" (strict_types
# keeps PHP from coercing the numeric string).
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 php -n "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'TypeError: Money::format(): Argument #1 ($cents) must be of type int, string given'
