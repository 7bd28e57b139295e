jq '.items[] | .name' "$1" 2>&1 >/dev/null | grep -q 'Cannot index number with string "name"'
