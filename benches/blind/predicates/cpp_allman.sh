#!/bin/sh
# Interesting (exit 0) iff g++ rejects a call of sensor::Histogram::add with
# a double lvalue ("no matching function for call to
# 'sensor::Histogram::add(double&)'").
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
out=$(LC_ALL=C timeout 10 g++ -std=c++17 -fsyntax-only -Wall -x c++ "$F" 2>&1)
printf '%s' "$out" | grep -qF -- "error: no matching function for call to 'sensor::Histogram::add(double&)'"
