#!/bin/sh
# Interesting (exit 0) iff the feed checker (ElementTree + strptime on each
# non-draft item's pubDate) fails with "ValueError: day is out of range for
# month".
F=$(realpath "$1")
cd "${TMPDIR:-/tmp}" || exit 2
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
out=$(timeout 5 "$PY" -c '
import sys, xml.etree.ElementTree as ET
from datetime import datetime
NS = {"dc": "http://purl.org/dc/elements/1.1/"}
root = ET.parse(sys.argv[1]).getroot()
channel = root.find("channel")
for item in channel.findall("item"):
    if "draft" in [c.text for c in item.findall("category")]:
        continue
    when = item.findtext("pubDate") or item.findtext("dc:date", namespaces=NS)
    datetime.strptime(when.strip(), "%a, %d %b %Y %H:%M:%S %z")
' "$F" </dev/null 2>&1)
printf '%s' "$out" | grep -qF -- "ValueError: day is out of range for month"
