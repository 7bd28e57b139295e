#!/bin/sh
# Interesting (exit 0) iff GNU m4 finishes (no timeout) and reports
# "bad expression in eval: BASE_OCTET" (the macro was never defined for the
# default environment). Memory is capped: a broken recursive macro can
# grow without bound until the timeout.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
err=$(ulimit -v 1048576; timeout 5 m4 "$F" </dev/null 2>&1 >/dev/null)
rc=$?
cd / && rm -rf "$D"
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || exit 1
printf '%s' "$err" | grep -qF -- "bad expression in eval: BASE_OCTET"
