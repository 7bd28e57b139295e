#!/bin/sh
# Interesting (exit 0) iff sourcing the file in vim (ex mode, no vimrc)
# reports "E716: Key not present in Dictionary: "timeout_ms"".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
cp "$F" t.vim || exit 2
out=$(timeout 5 vim -V1 -Es -u NONE -i NONE -N -n -c 'source t.vim' -c 'qa!' </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'E716: Key not present in Dictionary: "timeout_ms"'
