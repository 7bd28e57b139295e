# php must stop with "Uncaught Error: Call to a member function getCity() on null" (a ~2.3 KB label printer, one customer created without an address)
timeout --foreground 5 php -n -d display_errors=0 -d log_errors=1 "$1" 2>&1 >/dev/null | grep -qE '^PHP Fatal error:  Uncaught Error: Call to a member function getCity\(\) on null in '
