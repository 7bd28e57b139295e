#!/bin/sh
# python3's sqlite3 runs the script on tables t1..t3(a, b, c) and fails with
# "misuse of aggregate".
exec python3 -c '
import sqlite3, sys
db = sqlite3.connect(":memory:")
for t in ("t1", "t2", "t3"):
    db.execute("CREATE TABLE %s (a, b, c)" % t)
    db.execute("INSERT INTO %s VALUES (1, 2, 3), (4, NULL, 6)" % t)
try:
    db.executescript(open(sys.argv[1]).read())
except sqlite3.Error as e:
    sys.exit(0 if "misuse of aggregate" in str(e) else 1)
sys.exit(1)' "$1"
