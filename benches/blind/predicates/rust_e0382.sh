#!/bin/sh
# Interesting (exit 0) iff rustc reports E0382 "borrow of moved value: `order`".
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 rustc --edition 2021 --crate-name t --crate-type lib --emit=metadata --out-dir "$D" "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "error[E0382]: borrow of moved value: \`order\`"
