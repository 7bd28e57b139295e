#!/bin/sh
# Interesting (exit 0) iff llvm-mc (AArch64) reports "index must be a
# multiple of 8 in range [-512, 504]." inside a macro instantiation.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 llvm-mc -triple=aarch64-linux-gnu -filetype=obj -o "$D/out.o" "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- "error: index must be a multiple of 8 in range [-512, 504]." &&
  printf '%s' "$out" | grep -qF -- "note: while in macro instantiation"
