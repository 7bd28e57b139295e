#!/bin/sh
# Interesting (exit 0) iff go build rejects the file because a value does not
# satisfy interface Store: "... does not implement Store (X method has
# pointer receiver)". A fresh build cache per run leaves nothing behind.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
cp "$F" t.go || exit 2
out=$(GOCACHE="$D/cache" GOPROXY=off GOFLAGS= timeout 5 go build -o /dev/null t.go </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qE -- "does not implement Store \([A-Za-z_0-9]+ method has pointer receiver\)"
