#!/bin/sh
# Interesting (exit 0) iff lua5.4 stops with "attempt to call a nil value
# (method 'render_body')" raised inside the method render (the traceback
# says "in method 'render'").
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 lua5.4 "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "attempt to call a nil value (method 'render_body')" &&
  printf '%s' "$out" | grep -qF -- "in method 'render'"
