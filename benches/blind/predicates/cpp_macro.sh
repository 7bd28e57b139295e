#!/bin/sh
# Interesting (exit 0) iff the C preprocessor reports an unterminated
# argument list invoking the macro RB_TRACE.
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(timeout 10 cpp -x c -P "$F" -o /dev/null </dev/null 2>&1)
printf '%s' "$out" | grep -q -- 'unterminated argument list invoking macro "RB_TRACE"'
