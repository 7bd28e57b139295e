#!/bin/sh
# Interesting (exit 0) iff the escript stops with badarith ("an error
# occurred when evaluating an arithmetic expression") raised in mean/1.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(HOME="$D" timeout 10 escript "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'escript: exception error: an error occurred when evaluating an arithmetic expression' &&
  printf '%s' "$out" | grep -qE -- '^  in function  [^ ]+:mean/1 '
