#!/bin/sh
# Interesting (exit 0) iff dot warns that an edge uses a port the record
# node payments does not define: "Warning: node payments, port refund
# unrecognized".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 dot -Tsvg -o /dev/null "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "Warning: node payments, port refund unrecognized"
