#!/bin/sh
# Interesting (exit 0) iff make -n (in a source tree where src/netio.c was renamed
# src/net_io.c) stops on "No rule to make target 'src/netio.c', needed by 'build/netio.o'".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
mkdir -p src include tests doc
for f in main config journal money listener net_io proto store_sqlite wal; do
  echo "int $f;" > "src/$f.c"
done
out=$(timeout 5 make -n -f "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "No rule to make target 'src/netio.c', needed by 'build/netio.o'"
