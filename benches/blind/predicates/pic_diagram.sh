#!/bin/sh
# Interesting (exit 0) iff GNU pic rejects the picture because the place
# Merge is used before it is defined: "there is no place 'Merge'".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(LC_ALL=C timeout 5 pic "$F" </dev/null 2>&1 >/dev/null)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "there is no place 'Merge'"
