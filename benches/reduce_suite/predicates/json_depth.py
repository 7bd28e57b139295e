#!/usr/bin/env python3
"""json_depth.py N FILE: exit 0 iff FILE is JSON nested at least N arrays
or objects deep (a stand-in for a parser's depth limit or stack overflow,
the commonest crash of fuzzed parsers)."""
import json
import sys

n, path = int(sys.argv[1]), sys.argv[2]
try:
    value = json.loads(open(path, encoding="utf-8", errors="replace").read())
except (ValueError, RecursionError):
    sys.exit(1)
deepest, stack = 0, [(value, 1)]
while stack:
    v, d = stack.pop()
    if isinstance(v, (list, dict)):
        deepest = max(deepest, d)
        stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
sys.exit(0 if deepest >= n else 1)
