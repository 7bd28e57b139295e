set f [open [lindex $argv 0]]; set e [read $f]; close $f
puts [expr $e]
