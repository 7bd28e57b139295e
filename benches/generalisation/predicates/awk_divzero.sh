# mawk must report 'negative field index $-inf' (written by a new user: an awk script of ~1.9 KB)
timeout --foreground 5 mawk -f "$1" </dev/null 2>&1 >/dev/null | grep -qF 'negative field index $-inf'
