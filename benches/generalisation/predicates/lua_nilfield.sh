# lua5.4 must stop with "attempt to perform arithmetic on a nil value (field 'price')" (a ~2.2 KB inventory report whose one catalog entry spells its price "cost")
timeout --foreground 5 lua5.4 "$1" 2>&1 >/dev/null | head -1 | grep -qE "^lua5?\.?4?: .*:[0-9]+: attempt to perform arithmetic on a nil value \(field 'price'\)$"
