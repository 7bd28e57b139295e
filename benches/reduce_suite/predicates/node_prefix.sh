#!/bin/sh
# node's parser rejects the expression with "Invalid left-hand side
# expression in prefix operation" (e.g. `++6`).
exec node -e 'try { eval(require("fs").readFileSync(process.argv[1], "utf8")); } catch (e) { process.exit(/Invalid left-hand side expression in prefix operation/.test(String(e)) ? 0 : 1); } process.exit(1);' "$1"
