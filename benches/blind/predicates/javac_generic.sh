#!/bin/sh
# Interesting (exit 0) iff javac rejects the file with "incompatible types:
# List<Integer> cannot be converted to List<Number>".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
mkdir "$D/classes" && cp "$F" "$D/t.java" || { rm -rf "$D"; exit 2; }
cd "$D" || exit 2
out=$(timeout 20 javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -proc:none -d "$D/classes" t.java </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "error: incompatible types: List<Integer> cannot be converted to List<Number>"
