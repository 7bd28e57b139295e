#!/bin/sh
# Interesting (exit 0) iff GNU sed -E rejects the script with
# "invalid reference \3 on `s' command's RHS".
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(LC_ALL=C timeout 5 sed -E -f "$F" /dev/null 2>&1 </dev/null)
printf '%s' "$out" | grep -qF -- "invalid reference \\3 on \`s' command's RHS"
