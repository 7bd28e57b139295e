#!/bin/sh
# python3 evaluates the expression and raises ZeroDivisionError.
exec python3 -c '
import sys
try:
    eval(open(sys.argv[1]).read())
except ZeroDivisionError:
    sys.exit(0)
except BaseException:
    sys.exit(1)
sys.exit(1)' "$1"
