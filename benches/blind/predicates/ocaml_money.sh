#!/bin/sh
# Interesting (exit 0) iff ocamlc rejects the file with "This expression has
# type money but an expression was expected of type float".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
cp "$F" t.ml || exit 2
out=$(timeout 5 ocamlc -stop-after typing -c t.ml </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | tr -s ' \n' '  ' | grep -qF -- "Error: This expression has type money but an expression was expected of type float"
