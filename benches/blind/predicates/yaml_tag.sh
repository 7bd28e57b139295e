#!/bin/sh
# Interesting (exit 0) iff yaml.safe_load raises ConstructorError for the tag '!vault'.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "ConstructorError: could not determine a constructor for the tag '!vault'"
