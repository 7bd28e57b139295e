#!/bin/sh
# Interesting (exit 0) iff tclsh fails with 'key "https" not known in
# dictionary' raised from the procedure listen_lines.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 tclsh "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'key "https" not known in dictionary' &&
  printf '%s' "$out" | grep -qF -- '(procedure "listen_lines" line'
