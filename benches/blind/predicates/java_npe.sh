#!/bin/sh
# Interesting (exit 0) iff java (single-file source launcher) dies with a
# NullPointerException from calling Product.cents() on null.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 20 java --source 17 -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- 'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "Product.cents()"'
