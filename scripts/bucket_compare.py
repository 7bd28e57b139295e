#!/usr/bin/env python3
"""Compare grammar-min's buckets with stack-based deduplication.

Usage: bucket_compare.py BINARY ARTIFACT_DIR BUCKETS_JSON

Ground truth: each artifact is replayed with the fuzz target BINARY and
labelled by its planted bug ("calc bug N" in the panic message). Stack
deduplication as ClusterFuzz does it: the crash state is the top 3 frames
of the symbolised stack that belong to the program (runtime, std, libc and
libFuzzer frames skipped); "functions" keys by function names (ClusterFuzz),
"lines" by file:line. Prints buckets, purity and inverse purity per method
(purity 1.0: no bucket mixes bugs; inverse purity 1.0: no bug is split).
"""
import collections, json, os, re, subprocess, sys

binary, art_dir, buckets_json = sys.argv[1:4]
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (.+?) (\S+:\d+)(?::\d+)?$")
RUNTIME = ("/rustc/", "/.cargo/registry/", "compiler-rt", "stdlib/", "nptl/", "signal/", "csu/")

def replay(path):
    env = dict(os.environ, RUST_BACKTRACE="0")
    p = subprocess.run([binary, path], capture_output=True, env=env, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    m = re.search(r"calc bug (\d)", err)
    frames = []
    for line in err.splitlines():
        f = FRAME.search(line.strip())
        if f and not any(r in f.group(2) for r in RUNTIME):
            frames.append((re.sub(r"<[^>]*>", "", f.group(1)), f.group(2)))
    return (m.group(1) if m else "none"), frames[:3]

def purity(assign):
    by_b, by_l = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    for b, l in assign:
        by_b[b][l] += 1
        by_l[l][b] += 1
    n = len(assign)
    return (sum(max(c.values()) for c in by_b.values()) / n,
            sum(max(c.values()) for c in by_l.values()) / n, len(by_b))

report = json.load(open(buckets_json))
ours = {}
for b in report["buckets"]:
    for m in b["members"]:
        ours[os.path.basename(m["name"])] = b["id"]
rows = {"grammar-min (crash + patterns)": [], "top-3 frames, functions (ClusterFuzz)": [],
        "top-3 frames, file:line": []}
labels = collections.Counter()
for name in sorted(os.listdir(art_dir)):
    path = os.path.join(art_dir, name)
    if not os.path.isfile(path) or "." in name:
        continue
    label, frames = replay(path)
    labels[label] += 1
    if name in ours:
        rows["grammar-min (crash + patterns)"].append((ours[name], label))
    rows["top-3 frames, functions (ClusterFuzz)"].append((tuple(f for f, _ in frames), label))
    rows["top-3 frames, file:line"].append((tuple(l for _, l in frames), label))
print(f"{sum(labels.values())} artifacts; planted bugs: " +
      ", ".join(f"bug {k}: {v}" for k, v in sorted(labels.items())))
print("| method | buckets | purity | inverse purity |")
print("|---|---:|---:|---:|")
for method, assign in rows.items():
    p, ip, n = purity(assign)
    print(f"| {method} | {n} | {p:.3f} | {ip:.3f} |")
