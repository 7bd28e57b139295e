#!/bin/sh
# Interesting (exit 0) iff node dies because Promise.all was given a
# non-iterable object, with an async function of the file itself on the
# stack (an "at async" frame in the file, not in node's own loader).
F=$(realpath "$1")
B=$(basename "$F")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 node "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))" &&
printf '%s\n' "$out" | grep -E -- "^    at async " | grep -qF -- "$B:"
