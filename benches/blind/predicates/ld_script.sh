#!/bin/sh
# Interesting (exit 0) iff GNU ld rejects the linker script because the
# undefined symbol _min_stack_sz is referenced in an expression.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
as /dev/null -o "$D/e.o" || { cd / && rm -rf "$D"; exit 2; }
out=$(timeout 10 ld -T "$F" -o "$D/a.out" "$D/e.o" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "undefined symbol \`_min_stack_sz' referenced in expression"
