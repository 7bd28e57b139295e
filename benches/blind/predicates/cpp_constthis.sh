#!/bin/sh
# Interesting (exit 0) iff g++ rejects a call of a non-const member on a
# const inv::Ledger ("passing 'const inv::Ledger' as 'this' argument
# discards qualifiers").
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(LC_ALL=C timeout 10 g++ -std=c++17 -fsyntax-only -Wall -x c++ "$F" 2>&1)
printf '%s' "$out" | grep -qF -- "passing 'const inv::Ledger' as 'this' argument discards qualifiers"
