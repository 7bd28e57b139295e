# sqlite3 must report an ambiguous column (e.g. an unqualified column of a join of two tables that share it)
timeout 10 sqlite3 :memory: < "$1" 2>&1 | grep -q 'ambiguous column name: a'
