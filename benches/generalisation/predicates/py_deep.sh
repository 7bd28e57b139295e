python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>&1 | grep -q '^RecursionError: maximum recursion depth exceeded while decoding a JSON'
