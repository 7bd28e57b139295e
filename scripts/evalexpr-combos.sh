#!/usr/bin/env bash
# Is the evalexpr grammar at its ceiling? (issue #5, BENCHMARKS.md)
#
# Runs the grammar + mutator target for RUNS executions (seed SEED, empty
# start corpus), decodes its corpus to text, and replays it through the
# plain-bytes binary (same harness, same instrumented evalexpr, no
# decoder): that is the coverage of evalexpr reached by the grammar run.
# Then it replays the same corpus plus every typed combination the
# operators and builtins can be given (each binary operator and each
# builtin applied to every pair of 23 atoms of all six value types,
# builtins also with one and three arguments, both call forms, each unary
# operator on every atom: about 60,000 inputs, each after the grammar's
# prelude of typed variables). The difference is what the grammar run
# missed among the type paths, the part of evalexpr a grammar can steer.
#
# Usage: scripts/evalexpr-combos.sh          (RUNS=200000 SEED=1)
#        NO_BUILD=1 RUNS=50000 scripts/evalexpr-combos.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-200000}
SEED=${SEED:-1}
. "$ROOT/scripts/fuzz-env.sh"
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
BIN="$ROOT/fuzz/target/$TRIPLE/release"
if [[ -z "${NO_BUILD:-}" ]]; then
    (cd "$ROOT" && "${FUZZ[@]}" build --fuzz-dir fuzz evalexpr_mutator &&
        "${FUZZ[@]}" build --fuzz-dir fuzz evalexpr_plain &&
        cargo build --release --bin cargo-grammar-min)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/corpus" "$WORK/text" "$WORK/combos"
export GRAMMAR_MIN_BENCH_IGNORE_PANICS=1

cov() { grep -E '^#[0-9]+.*DONE' | sed -nE 's/.*cov: ([0-9]+).*/\1/p'; }

grammar_cov=$("$BIN/evalexpr_mutator" "$WORK/corpus" -runs="$RUNS" -seed="$SEED" 2>&1 | cov)
"$ROOT/target/release/cargo-grammar-min" decode -g "$ROOT/grammars/evalexpr.json" \
    --target evalexpr_mutator --fuzz-dir "$ROOT/fuzz" -o "$WORK/text" "$WORK/corpus" >/dev/null
python3 - "$WORK/combos" <<'EOF'
import itertools, os, sys
out = sys.argv[1]
pre = ('i = 3; j = 64; f = 2.5; g = -0.5; s = "a\u00e9"; t = " Z "; p = true; q = false; '
       'u = (1, "a"); v = (2.5, true, ()); e = (); ')
atoms = ['3', '0', '-1', '9223372036854775807', 'i', '2.5', '0.0', 'f', '"a"', '""', 's',
         'true', 'p', '(1, "a")', '(2.5, true, ())', 'u', '()', 'e', '(1, 2)', '(3, 4, 5)',
         '("a", "b")', '1.5e300', 'NaN']
binops = ['+', '-', '*', '/', '%', '^', '==', '!=', '<', '>', '<=', '>=', '&&', '||']
funcs = ['math::ln', 'math::log', 'math::log2', 'math::log10', 'math::exp', 'math::exp2',
         'math::pow', 'math::cos', 'math::acos', 'math::cosh', 'math::acosh', 'math::sin',
         'math::asin', 'math::sinh', 'math::asinh', 'math::tan', 'math::atan', 'math::tanh',
         'math::atanh', 'math::atan2', 'math::sqrt', 'math::cbrt', 'math::hypot', 'floor',
         'round', 'ceil', 'math::is_nan', 'math::is_finite', 'math::is_infinite',
         'math::is_normal', 'math::abs', 'typeof', 'min', 'max', 'if', 'contains',
         'contains_any', 'len', 'str::to_lowercase', 'str::to_uppercase', 'str::trim',
         'str::from', 'str::substring', 'bitand', 'bitor', 'bitxor', 'bitnot', 'shl', 'shr']
xs = [f'{a} {op} {b}' for a, op, b in itertools.product(atoms, binops, atoms)]
xs += [f'{op}{a}' for op in ['-', '!'] for a in atoms]
for fn in funcs:
    xs += [f'{fn}({a})' for a in atoms] + [f'{fn} {a}' for a in atoms]
    xs += [f'{fn}({a}, {b})' for a, b in itertools.product(atoms, atoms)]
    xs += [f'{fn}({a}, {b}, {c})' for a, b, c in itertools.product(atoms[::3], repeat=3)]
for k, x in enumerate(xs):
    with open(os.path.join(out, f'{k:06d}'), 'w') as f:
        f.write(pre + x)
print(len(xs), 'typed combinations', file=sys.stderr)
EOF
alone=$("$BIN/evalexpr_plain" -runs=0 "$WORK/text" 2>&1 | cov)
both=$("$BIN/evalexpr_plain" -runs=0 "$WORK/text" "$WORK/combos" 2>&1 | cov)
echo "grammar + mutator run ($RUNS executions, seed $SEED): cov $grammar_cov"
echo "its corpus as text through the plain binary: cov $alone"
echo "the same plus every typed combination: cov $both (+$((both - alone)))"
