#!/bin/bash
# A large input around a small cause: 3,000 generated C functions (460 KB)
# with one line `q / 0` that a grep-based predicate looks for, reduced
# grammar-blind as given (3,001 lines) and joined onto one line; the
# same with picire if installed. Prints bytes and predicate runs.
#
#   benches/blind/large.sh        (GM_BIN overrides the binary)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GM=${GM_BIN:-$ROOT/target/release/cargo-grammar-min}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 - "$W/lines.c" <<'PY'
import random, sys
random.seed(5)
out = []
for i in range(3000):
    args = ", ".join(f"int a{j}" for j in range(random.randint(1, 4)))
    body = "; ".join(f"v{random.randint(0, 99)} = a0 * {random.randint(1, 99)} + f{random.randint(0, 2999)}(a0)"
                     for _ in range(random.randint(1, 4)))
    out.append(f"static int f{i}({args}) {{ {body}; if (a0 > {i}) {{ return a0 - {i}; }} return 0; }}")
out.insert(1700, "int boom(int q) { return q / 0; }")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
tr '\n' ' ' <"$W/lines.c" >"$W/oneline.c"
printf '#!/bin/sh\necho x >> %s/count\ngrep -q "q / 0" "$1"\n' "$W" >"$W/pred.sh"
chmod +x "$W/pred.sh"
for f in lines oneline; do
    : >"$W/count"
    "$GM" reduce --cmd "$W/pred.sh {}" "$W/$f.c" -o "$W/$f.min" 2>/dev/null
    echo "$f blind bytes=$(wc -c <"$W/$f.min") calls=$(wc -l <"$W/count")"
    if command -v picire >/dev/null; then
        : >"$W/count"
        picire -i "$W/$f.c" --test "$W/pred.sh" -a both -o "$W/pic-$f" -l ERROR >/dev/null 2>&1
        echo "$f picire bytes=$(wc -c <"$W/pic-$f/$f.c") calls=$(wc -l <"$W/count")"
    fi
done
