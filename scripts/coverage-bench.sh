#!/usr/bin/env bash
# Coverage and time-to-first-crash of the three fuzzing modes
# (plain bytes-as-text, grammar decoding + libFuzzer mutations, grammar
# decoding + grammar-min's mutator/crossover) on the calc example and the
# sqlparser / evalexpr targets. Results: $OUT/coverage.tsv, $OUT/crashes.tsv
# and a Markdown summary on stdout.
#
# Usage: scripts/coverage-bench.sh            (RUNS=200000 REPS=3)
#        RUNS=20000 REPS=1 scripts/coverage-bench.sh   (quick look)
#        NO_BUILD=1 PARTS=coverage scripts/coverage-bench.sh
#        TARGETS=evalexpr PARTS="coverage split" scripts/coverage-bench.sh
#
# TARGETS: any of calc sql evalexpr (default all three); the crash part runs
# the calc bugs only when calc is among them.
# CRASH_ON=TEXT: in the crash part, the real targets (sql, evalexpr) crash
# only on a panic whose message contains TEXT and ignore the others, e.g.
# CRASH_ON="shift left" for evalexpr's `shl` overflow.
# PARTS: coverage, crashes, split, regions. `split` runs each (target, mode)
# once with -print_coverage=1 and sums the covered edges by origin: the
# crate under test (and std code instantiated for its types), grammar-min
# and its dependencies (decoder, mutator, grammar loading), std and
# libFuzzer glue. `regions` runs each (target, mode) once (seed 1), keeps
# the corpus, replays it through a source-coverage build (`cargo fuzz
# coverage`) and counts the covered source regions and lines of the crate
# under test alone, as llvm-cov reports them (needs the rustup component
# llvm-tools: `rustup component add llvm-tools --toolchain nightly`).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-200000}
REPS=${REPS:-3}
MAX_TIME=${MAX_TIME:-600}
OUT=${OUT:-$ROOT/fuzz/bench}
PARTS=${PARTS:-coverage crashes}
TARGETS=${TARGETS:-calc sql evalexpr}
mkdir -p "$OUT/logs"

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    FUZZ=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    FUZZ=(cargo fuzz)
fi
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
BIN="$ROOT/fuzz/target/$TRIPLE/release"
if [[ -z "${NO_BUILD:-}" ]]; then
    (cd "$ROOT" && "${FUZZ[@]}" build --fuzz-dir fuzz)
fi

# binary name for (target, mode)
bin_for() {
    case "$1/$2" in
        calc/mutator) echo calc ;;
        *) echo "$1_$2" ;;
    esac
}

# run_one NAME SEED LOGNAME [ENV=VAL...]: prints "rc secs execs cov ft";
# $EXTRA_FLAGS (if set) are passed on to libFuzzer
run_one() {
    local name=$1 seed=$2 tag=$3 log="$OUT/logs/$3.log"
    shift 3
    local corpus
    corpus=${KEEP_CORPUS:-$(mktemp -d)}
    mkdir -p "$corpus"
    local start end rc=0
    start=$(date +%s.%N)
    env "$@" timeout "$MAX_TIME" "$BIN/$name" "$corpus" -runs="$RUNS" -seed="$seed" \
        -artifact_prefix="$OUT/logs/$tag-" ${EXTRA_FLAGS:-} >"$log" 2>&1 || rc=$?
    end=$(date +%s.%N)
    [[ -n "${KEEP_CORPUS:-}" ]] || rm -rf "$corpus"
    local last
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    local execs cov ft
    execs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
    printf '%s %.1f %s %s %s\n' "$rc" "$(echo "$end - $start" | bc)" "${execs:-0}" "${cov:-0}" "${ft:-0}"
}

# crash_of LOGNAME: the first panic location + message, or the libFuzzer
# error kind
crash_of() {
    local log="$OUT/logs/$1.log"
    local p
    # "panicked at <file:line:col>:" then the message on the next line;
    # registry paths shortened to crate-version/path.
    p=$(grep -m1 -A1 'panicked at' "$log" | tr '\n' ' ' |
        sed -E -e 's/.*panicked at ([^ ]+) (.*)/\1 \2/' -e 's|[^ ]*/registry/src/[^/]*/||' | cut -c1-90 || true)
    if [[ -n "$p" ]]; then echo "$p"; return; fi
    grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer): [a-z -]+' "$log" || echo "-"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else print a[int((NR+1)/2)]}'; }

if [[ " $PARTS " == *" coverage "* ]]; then
    echo -e "target\tmode\tseed\trc\tsecs\texecs\tcov\tft" >"$OUT/coverage.tsv"
    for t in $TARGETS; do
        for mode in plain grammar mutator; do
            for seed in $(seq 1 "$REPS"); do
                read -r rc secs execs cov ft < <(run_one "$(bin_for $t $mode)" "$seed" "cov-$t-$mode-$seed" GRAMMAR_MIN_BENCH_IGNORE_PANICS=1)
                echo -e "$t\t$mode\t$seed\t$rc\t$secs\t$execs\t$cov\t$ft" | tee -a "$OUT/coverage.tsv" >&2
            done
        done
    done
    read -r _ _ _ dcov dft < <(run_one decoder_only 1 cov-decoder_only-1)
    echo -e "decoder_only\tgrammar\t1\t0\t-\t$RUNS\t$dcov\t$dft" >>"$OUT/coverage.tsv"
    echo "## coverage after $RUNS executions (median of $REPS; empty start corpus)"
    echo
    echo "| target | mode | cov (median) | ft (median) | runs cut short |"
    echo "| --- | --- | ---: | ---: | ---: |"
    for t in $TARGETS; do
        for mode in plain grammar mutator; do
            rows=$(awk -F'\t' -v t=$t -v m=$mode '$1==t && $2==m' "$OUT/coverage.tsv")
            c=$(cut -f7 <<<"$rows" | median)
            f=$(cut -f8 <<<"$rows" | median)
            short=$(awk -F'\t' -v r="$RUNS" '$6 < r' <<<"$rows" | wc -l)
            echo "| $t | $mode | $c | $f | $short |"
        done
    done
    echo
    echo "decoder_only (empty harness, sql grammar): cov $dcov, ft $dft"
fi

if [[ " $PARTS " == *" crashes "* ]]; then
    echo -e "target\tbug\tmode\tseed\tfound\tsecs\texecs\tcrash" >"$OUT/crashes.tsv"
    for mode in plain grammar mutator; do
        [[ " $TARGETS " == *" calc "* ]] || break
        for bug in 1 2 3; do
            for seed in $(seq 1 "$REPS"); do
                name="crash-calc-bug$bug-$mode-$seed"
                read -r rc secs execs _ _ < <(run_one "$(bin_for calc $mode)" "$seed" "$name" CALC_BUGS=$bug)
                found=no
                [[ $rc -ne 0 ]] && found=yes
                echo -e "calc\t$bug\t$mode\t$seed\t$found\t$secs\t$execs\t$(crash_of "$name")" | tee -a "$OUT/crashes.tsv" >&2
            done
        done
    done
    for t in $TARGETS; do
        [[ $t == calc ]] && continue
        for mode in plain grammar mutator; do
            for seed in $(seq 1 "$REPS"); do
                name="crash-$t-$mode-$seed"
                read -r rc secs execs _ _ < <(run_one "$(bin_for $t $mode)" "$seed" "$name" \
                    ${CRASH_ON:+"GRAMMAR_MIN_BENCH_CRASH_ON=$CRASH_ON"})
                found=no
                [[ $rc -ne 0 ]] && found=yes
                echo -e "$t\t${CRASH_ON:-first}\t$mode\t$seed\t$found\t$secs\t$execs\t$(crash_of "$name")" | tee -a "$OUT/crashes.tsv" >&2
            done
        done
    done
    echo
    echo "## time to first crash (budget $RUNS executions; $REPS seeds)"
    echo
    echo "| target | bug | mode | found | median secs (found runs) | crashes |"
    echo "| --- | --- | --- | ---: | ---: | --- |"
    awk -F'\t' 'NR>1 {k=$1"|"$2"|"$3; n[k]++; if ($5=="yes") {f[k]++; s[k]=s[k]" "$6; c[k]=c[k]"; "$8}} END {for (k in n) print k"|"f[k]+0"/"n[k]"|"s[k]"|"c[k]}' "$OUT/crashes.tsv" |
        sort | while IFS='|' read -r t b m found secs crashes; do
            med=$(tr ' ' '\n' <<<"$secs" | { grep . || true; } | median)
            echo "| $t | $b | $m | $found | $med | ${crashes#; } |"
        done
fi

if [[ " $PARTS " == *" split "* ]]; then
    # crate under test = its source files plus std functions instantiated
    # for its types (drop glue, Vec<Token>, ...); grammar-min = this crate's
    # src/ and the crates it pulls in (serde_json for the grammar, ...).
    echo
    echo "## where the covered edges are (seed 1, $RUNS executions, -print_coverage=1)"
    echo
    echo "| target | mode | cov | crate under test | grammar-min + deps | std (other) | libFuzzer glue + harness |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    for t in $TARGETS; do
        crate=$t
        [[ $t == sql ]] && crate=sqlparser
        for mode in plain grammar mutator; do
            tag="split-$t-$mode"
            read -r _ _ _ cov _ < <(EXTRA_FLAGS=-print_coverage=1 run_one "$(bin_for $t $mode)" 1 "$tag" GRAMMAR_MIN_BENCH_IGNORE_PANICS=1)
            awk -v crate="$crate" -v t="$t" -v m="$mode" -v cov="$cov" '
                /^(COVERED_FUNC|UNCOVERED_FUNC)/ {
                    split($5, e, "/"); path = $NF
                    if (path ~ ("/" crate "-[0-9]") || (path ~ /\/rustc\// && $0 ~ (crate "::"))) k = "crate"
                    else if (path ~ /\/rustc\// && $0 !~ /grammar_min::/) k = "std"
                    else if (path ~ /libfuzzer-sys|\/fuzz\/src\/|\/fuzz_targets\//) k = "glue"
                    else k = "gm"
                    c[k] += e[1]
                }
                END { printf "| %s | %s | %s | %d | %d | %d | %d |\n", t, m, cov, c["crate"], c["gm"], c["std"], c["glue"] }
            ' "$OUT/logs/$tag.log"
        done
    done
fi

if [[ " $PARTS " == *" regions "* ]]; then
    if [[ ${FUZZ[1]} == +* ]]; then
        toolchain=${FUZZ[1]#+}
        sysroot=$(rustc "${FUZZ[1]}" --print sysroot)
    else
        toolchain=$(rustup show active-toolchain 2>/dev/null | cut -d' ' -f1)
        sysroot=$(rustc --print sysroot)
    fi
    LLVM_BIN="$sysroot/lib/rustlib/$TRIPLE/bin"
    if [[ ! -x "$LLVM_BIN/llvm-cov" ]]; then
        echo "regions: $LLVM_BIN/llvm-cov not found; run: rustup component add llvm-tools --toolchain $toolchain" >&2
        exit 1
    fi
    COV_BIN="$ROOT/target/$TRIPLE/coverage/$TRIPLE/release"
    work=$(mktemp -d)
    echo
    echo "## source regions and lines of the crate under test (seed 1, $RUNS executions, llvm-cov)"
    echo
    echo "| target | mode | cov | regions covered | lines covered | regions vs plain |"
    echo "| --- | --- | ---: | ---: | ---: | ---: |"
    for t in $TARGETS; do
        case $t in
            calc) src='/fuzz/src/calc' ;;
            sql) src='/sqlparser-[0-9]' ;;
            *) src="/$t-[0-9]" ;;
        esac
        plain_regions=
        for mode in plain grammar mutator; do
            name=$(bin_for "$t" "$mode")
            read -r _ _ _ cov _ < <(KEEP_CORPUS="$work/$name" run_one "$name" 1 "regions-$t-$mode" GRAMMAR_MIN_BENCH_IGNORE_PANICS=1)
            if [[ ! -x "$COV_BIN/$name" || -z "${NO_BUILD:-}" ]]; then
                mkdir -p "$work/empty"
                (cd "$ROOT" && "${FUZZ[@]}" coverage --fuzz-dir fuzz "$name" "$work/empty" >"$OUT/logs/regions-build-$name.log" 2>&1) || true
            fi
            GRAMMAR_MIN_BENCH_IGNORE_PANICS=1 LLVM_PROFILE_FILE="$work/$name.profraw" \
                "$COV_BIN/$name" -runs=0 "$work/$name" >"$OUT/logs/regions-replay-$name.log" 2>&1 || true
            "$LLVM_BIN/llvm-profdata" merge -sparse "$work/$name.profraw" -o "$work/$name.profdata"
            # llvm-cov report columns: file, regions, missed regions, cover,
            # functions, missed, executed, lines, missed lines, ...
            read -r regions lines < <("$LLVM_BIN/llvm-cov" report "$COV_BIN/$name" \
                -instr-profile="$work/$name.profdata" 2>/dev/null |
                awk -v src="$src" '$1 ~ src {r += $2 - $3; l += $8 - $9} END {print r + 0, l + 0}')
            [[ $mode == plain ]] && plain_regions=$regions
            ratio=$(awk -v a="$regions" -v b="$plain_regions" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
            echo "| $t | $mode | $cov | $regions | $lines | ${ratio}× |"
        done
    done
    rm -rf "$work"
fi
