jq . "$1" 2>&1 >/dev/null | grep -q 'Exceeds depth limit for parsing'
