python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>&1 | grep -q '^ValueError: Exceeds the limit (4300 digits) for integer string conversion'
