[ "$(jq '[.. | numbers | select(. > 1e300)] | length > 0' "$1" 2>/dev/null)" = true ]
