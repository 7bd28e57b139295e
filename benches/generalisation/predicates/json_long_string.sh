# some string value (not a key) of a valid JSON document must contain "q7z"
[ "$(jq '[.. | strings | select(test("q7z"))] | length > 0' "$1" 2>/dev/null)" = true ]
