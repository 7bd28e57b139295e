#!/bin/sh
# Interesting (exit 0) iff ruby stops with ZeroDivisionError "divided by 0"
# and the backtrace passes through category_percent (Ruby 3.4 spells the
# frame 'Averager#category_percent').
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 ruby "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "divided by 0 (ZeroDivisionError)" &&
  printf '%s' "$out" | grep -qE -- "in .([A-Za-z_:]+#)?category_percent'"
