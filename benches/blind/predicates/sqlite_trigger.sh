#!/bin/sh
# Interesting (exit 0) iff sqlite3 (-bail) stops with the trigger's
# RAISE(ABORT, 'entry does not balance').
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 sqlite3 -batch -bail -safe :memory: <"$F" 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "^Runtime error near line [0-9]+: entry does not balance \(19\)"
