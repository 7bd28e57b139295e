#!/bin/sh
# Interesting (exit 0) iff perl dies with "Can't use an undefined value as
# an ARRAY reference".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 perl "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "Can't use an undefined value as an ARRAY reference"
