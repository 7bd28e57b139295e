#!/bin/sh
# gcc compiles `int f(void){return EXPR;}` and warns about a division by zero.
{ printf 'int f(void){return '; cat "$1"; printf ';}\n'; } | gcc -x c -fsyntax-only -Wdiv-by-zero - 2>&1 | grep -q 'division by zero'
