# python3 must die with "TypeError: ... missing 1 required positional argument ..."
timeout 5 python3 "$1" 2>&1 >/dev/null | tail -1 | grep -qE "^TypeError: .*missing 1 required positional argument"
