#!/bin/sh
# Access log summary: counts requests per status class and reports
# average latency and a few ratios for each class.
set -e

SLOW_MS=500
n2=0; n3=0; n4=0; n5=0
lat2=0; lat3=0; lat4=0; lat5=0
slow=0; n404=0; bad=0; retried=0

log_data() {
    cat <<'LOG'
10:00:01 GET /index.html 200 42ms
10:00:02 GET /api/users 200 120ms
10:00:02 POST /api/login 302 35ms
10:00:03 GET /missing.png 404 8ms
10:00:04 GET /api/orders 200 640ms
# maintenance window
10:00:05 GET /api/orders 503 1500ms retry
10:00:06 GET /favicon.ico 404 5ms
10:00:07 PUT /api/users/7 200 210ms
garbage line
10:00:08 GET /old-page 301 12ms
LOG
}

add() {
    # add VAR AMOUNT
    eval "$1=\$(( $1 + $2 ))"
}

record() {
    status=$1; ms=${2%ms}; flag=$3
    case $status in
        2??) add n2 1; add lat2 "$ms" ;;
        3??) add n3 1; add lat3 "$ms" ;;
        404) add n404 1; add n4 1; add lat4 "$ms" ;;
        4??) add n4 1; add lat4 "$ms" ;;
        5??) add n5 1; add lat5 "$ms"
             if [ "$flag" = "retry" ]; then add retried 1; fi ;;
        *) add bad 1; return 0 ;;
    esac
    if [ "$ms" -gt "$SLOW_MS" ]; then
        add slow 1
    fi
}

parse() {
    while read -r time method path status ms flag; do
        case $time in
            ''|'#'*) continue ;;
            [0-9][0-9]:*) ;;
            *) add bad 1; continue ;;
        esac
        record "$status" "$ms" "$flag"
    done
}

percent() {
    echo $(( $1 * 100 / $2 ))
}

class_line() {
    cls=$1; n=$2; lat=$3
    if [ "$n" -eq 0 ]; then
        printf '%s: none\n' "$cls"
        return 0
    elif [ "$n" -eq 1 ]; then
        avg=$lat
    else
        avg=$(( lat / n ))
    fi
    printf '%s: %d requests, avg %d ms\n' "$cls" "$n" "$avg"
    case $cls in
        4xx) pct=$(percent "$n404" "$n")
             printf '  not found: %s%%\n' "$pct" ;;
        5xx) first=$(( n - retried ))
             pct=$(percent "$n" "$first")
             printf '  first-try failures: %s%%\n' "$pct" ;;
        3xx) printf '  redirects\n' ;;
        *) ;;
    esac
}

report() {
    total=$(( n2 + n3 + n4 + n5 ))
    echo "total: $total requests ($bad unparsed, $slow slow)"
    class_line 2xx "$n2" "$lat2"
    class_line 3xx "$n3" "$lat3"
    class_line 4xx "$n4" "$lat4"
    class_line 5xx "$n5" "$lat5"
}

main() {
    tmp=$(log_data | { parse; echo "$n2 $n3 $n4 $n5 $lat2 $lat3 $lat4 $lat5 $slow $n404 $bad $retried"; })
    set -- $tmp
    n2=$1; n3=$2; n4=$3; n5=$4; lat2=$5; lat3=$6; lat4=$7; lat5=$8
    slow=$9; shift 9
    n404=$1; bad=$2; retried=$3
    report
}

main "$@"
