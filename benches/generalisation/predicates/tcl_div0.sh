tclsh "$(dirname "$0")/tcl_eval.tcl" "$1" 2>&1 | grep -q '^divide by zero'
