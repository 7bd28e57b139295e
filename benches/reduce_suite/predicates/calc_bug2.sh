#!/bin/sh
# The calc fuzz target ($FUZZ_BIN, built by run.py) panics with planted bug 2
# (five nested parentheses) on the choice-sequence file $1. Another crash,
# bug 1 (division by zero) included, is a different bug: not interesting.
RUST_BACKTRACE=0 "$FUZZ_BIN" "$1" 2>&1 | grep -q "calc bug 2:"
