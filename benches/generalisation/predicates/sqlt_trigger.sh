# the sqlite3 shell must stop on the trigger's RAISE ("Runtime error near line N: stock went negative")
timeout 5 sqlite3 :memory: < "$1" 2>&1 >/dev/null | grep -qE '^Runtime error near line [0-9]+: stock went negative'
