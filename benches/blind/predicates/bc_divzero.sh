#!/bin/sh
# Interesting (exit 0) iff bc stops with a divide-by-zero runtime error
# inside function variance ("Runtime error (func=variance, adr=N): Divide
# by zero").
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(LC_ALL=C timeout 5 bc -q "$F" </dev/null 2>&1)
printf '%s' "$out" | grep -qE -- "Runtime error \(func=variance, adr=[0-9]+\): Divide by zero"
