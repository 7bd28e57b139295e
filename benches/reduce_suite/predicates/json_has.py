#!/usr/bin/env python3
"""json_has.py WORD... FILE: exit 0 iff FILE is JSON and holds every WORD
as a JSON string ("WORD" with the quotes)."""
import json
import sys

*words, path = sys.argv[1:]
text = open(path, encoding="utf-8", errors="replace").read()
try:
    json.loads(text)
except ValueError:
    sys.exit(1)
sys.exit(0 if all(f'"{w}"' in text for w in words) else 1)
