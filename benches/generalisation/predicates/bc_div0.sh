{ cat "$1"; echo; } | bc -l 2>&1 | grep -q 'Divide by zero'
