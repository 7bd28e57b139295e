#!/bin/sh
# Interesting (exit 0) iff xsltproc, applying the stylesheet to a fixed
# orders.xml, reports a potential infinite template recursion whose
# innermost template is the named template pad-left.
F=$(realpath "$1")
D=$(mktemp -d) || exit 2
cd "$D" || exit 2
cat > orders.xml <<'XML'
<?xml version="1.0"?>
<orders date="2024-03-18">
  <order id="1041" customer="Ada Byron" status="shipped">
    <item sku="BK-102" qty="1" price="54.00">Structure and Interpretation</item>
    <item sku="BK-311" qty="2" price="29.95">Land of Lisp</item>
  </order>
  <order id="1042" customer="Alan Kay" status="open">
    <item sku="BK-207" qty="1" price="47.00">The C Programming Language</item>
  </order>
</orders>
XML
out=$(timeout 10 xsltproc "$F" orders.xml </dev/null 2>&1)
cd / && rm -rf "$D"
printf '%s' "$out" | grep -qF -- 'A potential infinite template recursion was detected' &&
  printf '%s' "$out" | grep -qE -- '^#0 name pad-left *$'
