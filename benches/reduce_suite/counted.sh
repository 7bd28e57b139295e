#!/bin/sh
# counted.sh PREDICATE FILE: counts one oracle call in $GM_COUNTER, then runs
# the predicate. Every tool in the suite calls its oracle through this.
printf x >> "$GM_COUNTER"
exec sh "$1" "$2"
