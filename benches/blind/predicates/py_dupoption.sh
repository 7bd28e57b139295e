#!/bin/sh
# Interesting (exit 0) iff python3 dies with configparser's
# DuplicateOptionError for option 'timeout' in section 'metrics' while
# reading the source named 'site.ini'.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 10 python3 "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "DuplicateOptionError: While reading from 'site\.ini' \[line +[0-9]+\]: option 'timeout' in section 'metrics' already exists"
