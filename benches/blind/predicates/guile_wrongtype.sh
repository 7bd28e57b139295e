#!/bin/sh
# Interesting (exit 0) iff guile (3.0, auto-compiling into a fresh cache)
# stops with "In procedure *: Wrong type argument in position 1: "39.90""
# raised inside the procedure line-total.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(HOME="$D" XDG_CACHE_HOME="$D/cache" timeout 10 guile "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'In procedure *: Wrong type argument in position 1: "39.90"' &&
  printf '%s' "$out" | grep -qF -- 'In procedure line-total:'
