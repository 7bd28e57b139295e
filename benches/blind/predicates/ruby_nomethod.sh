#!/bin/sh
# Interesting (exit 0) iff ruby stops with NoMethodError "undefined method
# `threshold_for' for nil" (Ruby 3.1 adds ":NilClass"; 3.4 quotes 'like this').
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 ruby "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "undefined method .threshold_for' for nil"
