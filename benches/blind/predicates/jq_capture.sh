#!/bin/sh
# Interesting (exit 0) iff jq's capture fails on the number 768 ("number (768) cannot be matched").
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 jq '.defaults as $d
| [ .services[]
    | select(.enabled != false)
    | $d * .
    | { name,
        replicas,
        mem_mib: (.resources.limits.memory
                  | capture("^(?<n>[0-9]+)(?<u>Mi|Gi)$")
                  | (.n | tonumber) * (if .u == "Gi" then 1024 else 1 end)) } ]
| { services: length, total_mib: (map(.mem_mib * .replicas) | add) }' "$F" </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "number (768) cannot be matched, as it is not a string"
