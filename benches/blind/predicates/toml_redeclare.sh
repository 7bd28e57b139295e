#!/bin/sh
# Interesting (exit 0) iff tomllib raises "Cannot declare ('services', 'cache') twice".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 python3 -c 'import sys, tomllib
with open(sys.argv[1], "rb") as f:
    stack = tomllib.load(f)
for name in sorted(stack.get("services", {})):
    print(name)' "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "TOMLDecodeError: Cannot declare ('services', 'cache') twice"
