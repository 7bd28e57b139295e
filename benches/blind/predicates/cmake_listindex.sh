#!/bin/sh
# Interesting (exit 0) iff `cmake -P` stops with "list index: 2 out of
# range (-2, 1)" and the call stack passes through archive_suffix.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 cmake -P "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'list index: 2 out of range (-2, 1)' &&
  printf '%s' "$out" | grep -qE -- '^  [^ ]+:[0-9]+ \(archive_suffix\)$'
