#!/bin/sh
# Interesting (exit 0) iff bash stops on "policy_extra: unbound variable" (set -u).
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 bash "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "policy_extra: unbound variable"
