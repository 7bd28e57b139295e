# Access-log summariser: parses a small embedded log, aggregates requests
# per endpoint and status class, and prints an aligned report.

function trim(s) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    return s
}

function status_class(code,    c) {
    c = int(code / 100)
    if (c == 2) return "ok"
    if (c == 3) return "redirect"
    if (c == 4) return "client"
    return "server"
}

function parse_line(line, rec,    n, parts) {
    n = split(line, parts, "|")
    if (n < 4) return 0
    rec["method"] = trim(parts[1])
    rec["path"]   = trim(parts[2])
    rec["status"] = trim(parts[3]) + 0
    rec["bytes"]  = trim(parts[4]) + 0
    return 1
}

function header(cols, ncols,    i, fmt) {
    fmt = ""
    for (i = 1; i <= ncols; i++) fmt = fmt "%-10s "
    printf fmt "\n", cols[1], cols[2], cols[3], cols[4]
}

function row(ep,    fmt, i) {
    # one column per status class plus the endpoint and its byte total
    fmt = "%-10s"
    for (i = 1; i <= nclass; i++) fmt = fmt " %-10d"
    fmt = fmt " %-10d\n"
    printf fmt, ep, hits[ep, "ok"], hits[ep, "client"], bytes[ep]
}

function load_log(    i) {
    raw[++nraw] = "GET  | /index  | 200 | 512"
    raw[++nraw] = "GET  | /index  | 304 | 0"
    raw[++nraw] = "POST | /login  | 401 | 64"
    raw[++nraw] = "POST | /login  | 200 | 128"
    raw[++nraw] = "GET  | /api/v1 | 500 | 32"
    raw[++nraw] = "GET  | /api/v1 | 200 | 2048"
    raw[++nraw] = "bad line without separators"
    raw[++nraw] = "GET  | /static | 404 | 16"
    for (i = 1; i <= nraw; i++) lines_total++
}

function aggregate(    i, rec, ep, cls) {
    for (i = 1; i <= nraw; i++) {
        delete rec
        if (!parse_line(raw[i], rec)) {
            skipped++
            continue
        }
        ep = rec["path"]
        cls = status_class(rec["status"])
        if (!(ep in seen)) {
            seen[ep] = 1
            order[++nep] = ep
        }
        hits[ep, cls]++
        bytes[ep] += rec["bytes"]
    }
}

BEGIN {
    nclass = split("ok redirect client server", classes, " ")
    load_log()
    aggregate()
    cols[1] = "endpoint"; cols[2] = "ok"; cols[3] = "client"; cols[4] = "bytes"
    header(cols, 4)
    for (k = 1; k <= nep; k++) row(order[k])
    printf "%d lines, %d skipped\n", lines_total, skipped
}
