#!/bin/sh
# Interesting (exit 0) iff node throws "TypeError: Cannot set property total
# of #<Invoice> which has only a getter".
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 2 node "$F" </dev/null 2>&1)
printf '%s' "$out" | grep -qF -- "TypeError: Cannot set property total of #<Invoice> which has only a getter"
