[ "$(jq '([.. | objects | select(.debug == true)] | length > 0) and ([.. | objects | select(.mode == "legacy")] | length > 0)' "$1" 2>/dev/null)" = true ]
