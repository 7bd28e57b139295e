#!/bin/sh
# Interesting (exit 0) iff python3 dies with TypeError because
# Channel.__init__ was called without its 'retries' argument.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 python3 "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "TypeError: Channel.__init__() missing 1 required positional argument: 'retries'"
