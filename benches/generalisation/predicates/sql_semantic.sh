# sqlite3 must report a UNIQUE violation on t2.a (a table created early, a duplicate inserted late)
timeout 10 sqlite3 :memory: < "$1" 2>&1 | grep -q 'UNIQUE constraint failed: t2.a'
