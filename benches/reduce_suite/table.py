#!/usr/bin/env python3
"""Merges results*.json files given on the command line (later files win
for the same task+tool) and prints the Markdown table plus the goal check:
final size <= best peer; oracle calls <= half and wall time <= a quarter of
the best grammar-aware peer (picireny, one job or `-p -j 2`, whichever
is better on each count)."""
import json, sys

def size_ok(o, best):
    return best is None or (o["bytes_after"] is not None and o["bytes_after"] <= best)


rows = {}
order = []
for f in sys.argv[1:]:
    for r in json.load(open(f)):
        k = (r["task"], r["tool"])
        if k not in rows:
            order.append(k)
        rows[k] = r
tasks = []
for t, _ in order:
    if t not in tasks:
        tasks.append(t)
tools = ["grammar-min (choices)", "grammar-min (choices -j 2)", "grammar-min (target --persistent)",
         "grammar-min (target)", "grammar-min (text auto)", "grammar-min (text auto -j 2)",
         "grammar-min (ddmin)", "picireny", "picireny -j 2", "cargo fuzz tmin", "picire", "shrinkray",
         "cvise"]
print("| task | tool | bytes before → after | oracle calls | wall (s) | result / note |")
print("|---|---|---|---|---|---|")
for t in tasks:
    for tool in tools:
        r = rows.get((t, tool))
        if not r:
            continue
        after = r["bytes_after"] if r["bytes_after"] is not None else "—"
        res = "`" + r["result"].replace("|", "\\|").replace("\n", "⏎") + "`" if r["result"] is not None else ""
        note = (" " + r["note"].replace("|", "\\|")) if r["note"] else ""
        print(f"| {t} | {tool} | {r['bytes_before']} → {after} | {r['oracle_calls']} | {r['seconds']} | {res}{note} |")
print()
print("| task | ours (mode): bytes / calls / s | best peer size | picireny: fewest calls / least s | size ≤ best peer | calls ≤ ½ picireny | time ≤ ¼ picireny |")
print("|---|---|---|---|---|---|---|")
for t in tasks:
    peers = [r for (tt, tool), r in rows.items() if tt == t and not tool.startswith("grammar-min") and r["bytes_after"] is not None]
    best = min((r["bytes_after"] for r in peers), default=None)
    # The best grammar-aware peer: picireny, one job or parallel, the
    # fewest calls and the shortest wall time of either.
    gs = [r for r in (rows.get((t, "picireny")), rows.get((t, "picireny -j 2")))
          if r is not None and r["bytes_after"] is not None]
    g_ok = bool(gs)
    g_calls = min((r["oracle_calls"] for r in gs), default=None)
    g_secs = min((r["seconds"] for r in gs), default=None)
    tm = rows.get((t, "cargo fuzz tmin"))
    for mode in ["choices", "choices -j 2", "target --persistent", "text auto", "text auto -j 2"]:
        o = rows.get((t, f"grammar-min ({mode})"))
        if o is None:
            continue
        ours = f"({mode}) {o['bytes_after']} / {o['oracle_calls']} / {o['seconds']}"
        if tm is not None and not g_ok:
            # Fuzz-target task: the grammar-blind in-process peer is tmin.
            kept = "kept the bug" if tm["bytes_after"] is not None else "drifted"
            gp = f"no grammar-aware peer; tmin {tm['seconds']} s, {kept}"
            print(f"| {t} | {ours} | {best} | {gp} | {'yes' if size_ok(o, best) else 'no'} | n/a | n/a |")
            continue
        ok = size_ok(o, best)
        calls_ok = "n/a" if not g_ok else ("yes" if o["oracle_calls"] * 2 <= g_calls else "no")
        time_ok = "n/a" if not g_ok else ("yes" if o["seconds"] * 4 <= g_secs else "no")
        gp = f"{g_calls} / {g_secs}" if g_ok else "no grammar-aware peer"
        print(f"| {t} | {ours} | {best} | {gp} | {'yes' if ok else 'no'} | {calls_ok} | {time_ok} |")
