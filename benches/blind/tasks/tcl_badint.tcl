# inventory management in Tcl
namespace eval inv {
    variable items
    array set items {}
    variable log {}
}

proc inv::add {name qty price} {
    variable items
    if {[info exists items($name)]} {
        lassign $items($name) oldq oldp
        set items($name) [list [expr {$oldq + $qty}] $price]
    } else {
        set items($name) [list $qty $price]
    }
    inv::note "added $qty of $name"
}

proc inv::note {msg} {
    variable log
    lappend log $msg
}

proc inv::remove {name qty} {
    variable items
    if {![info exists items($name)]} {
        error "no such item: $name"
    }
    lassign $items($name) q p
    if {$qty > $q} {
        error "not enough $name"
    }
    set items($name) [list [expr {$q - $qty}] $p]
    inv::note "removed $qty of $name"
}

proc inv::value {} {
    variable items
    set total 0.0
    foreach name [lsort [array names items]] {
        lassign $items($name) q p
        set total [expr {$total + $q * $p}]
    }
    return $total
}

proc inv::restock {spec} {
    foreach line [split $spec \n] {
        set line [string trim $line]
        if {$line eq "" || [string index $line 0] eq "#"} {
            continue
        }
        lassign [split $line ,] name qty price
        set qty [string trim $qty]
        incr qty 0
        inv::add [string trim $name] $qty [string trim $price]
    }
}

proc inv::report {} {
    variable items
    set out {}
    foreach name [lsort [array names items]] {
        lassign $items($name) q p
        lappend out [format "%-10s %5d %8.2f" $name $q $p]
    }
    return [join $out \n]
}

set spec {
    # name, qty, price
    apple, 10, 0.50
    pear, 4, 0.75
    plum, six, 0.30
    kiwi, 12, 0.20
}

inv::add banana 6 0.25
inv::remove banana 2
inv::restock $spec
puts [inv::report]
puts "total value: [inv::value]"
puts "log entries: [llength $inv::log]"
