#!/bin/bash
# Backup rotation helper: decides which snapshots to keep for each host,
# following a daily/weekly/monthly retention policy.
set -eu

declare -A RETAIN=( [daily]=7 [weekly]=4 [monthly]=6 )
HOSTS=(web01 web02 db01)
DRY_RUN=1
LOG_PREFIX="rotate"

log() {
    local level=$1; shift
    if [ "$level" = "debug" ] && [ "$DRY_RUN" -eq 0 ]; then
        return 0
    fi
    echo "$LOG_PREFIX[$level]: $*" >&2
}

list_snapshots() {
    local host=$1
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        printf '%s-2024-%02d-%02d\n' "$host" $(( (i % 12) + 1 )) $(( i * 2 ))
    done
}

snapshot_kind() {
    local name=$1
    local day=${name##*-}
    if [ "$day" = "02" ]; then
        echo monthly
    elif [ $(( 10#$day % 7 )) -eq 0 ]; then
        echo weekly
    else
        echo daily
    fi
}

count_kind() {
    local kind=$1; shift
    local n=0 s
    for s in "$@"; do
        if [ "$(snapshot_kind "$s")" = "$kind" ]; then
            n=$(( n + 1 ))
        fi
    done
    echo "$n"
}

should_keep() {
    local kind=$1 index=$2
    local limit=${RETAIN[$kind]}
    # the policy override is only defined for some hosts
    if [ "$kind" = "monthly" ]; then
        limit=$(( limit + policy_extra ))
    fi
    [ "$index" -lt "$limit" ]
}

rotate_host() {
    local host=$1
    local -a snaps
    mapfile -t snaps < <(list_snapshots "$host")
    log info "host $host has ${#snaps[@]} snapshots"
    local kind
    for kind in daily weekly monthly; do
        local idx=0 s
        for s in "${snaps[@]}"; do
            [ "$(snapshot_kind "$s")" = "$kind" ] || continue
            if should_keep "$kind" "$idx"; then
                log debug "keep $s"
            else
                log info "would delete $s"
            fi
            idx=$(( idx + 1 ))
        done
        log debug "$kind: $(count_kind "$kind" "${snaps[@]}") total"
    done
}

summary() {
    local total=0 h
    for h in "${HOSTS[@]}"; do
        total=$(( total + 10 ))
    done
    echo "checked $total snapshots on ${#HOSTS[@]} hosts"
}

main() {
    local h
    for h in "${HOSTS[@]}"; do
        rotate_host "$h"
    done
    summary
}

main "$@"
