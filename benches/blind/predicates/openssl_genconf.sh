#!/bin/sh
# Interesting (exit 0) iff `openssl asn1parse -genconf` rejects the ASN.1
# generation config with "illegal time value" for string=261331235959Z.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
out=$(timeout 5 openssl asn1parse -genconf "$F" -noout </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -q -- "asn1_str2type:illegal time value:.*:string=261331235959Z\$"
