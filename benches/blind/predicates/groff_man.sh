#!/bin/sh
# Interesting (exit 0) iff groff (tbl, man macros, all warnings) warns that
# the number register opt-width is not defined.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(LC_ALL=C timeout 5 groff -t -man -Tutf8 -ww -z "$F" </dev/null 2>&1)
printf '%s' "$out" | grep -qF -- "warning: number register 'opt-width' not defined"
