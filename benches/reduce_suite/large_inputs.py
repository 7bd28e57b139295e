#!/usr/bin/env python3
"""Large text inputs for `cargo grammar-min reduce` (JSON, grammars/json.json):
how oracle runs and time grow with the input. Each input is generated from
a fixed seed; the predicate (predicates/json_has.py) wants valid JSON that
holds one or two marker strings placed deep inside.

    python3 large_inputs.py [--bin PATH]   # default: target/release/cargo-grammar-min

LARGE_TIMEOUT (seconds, default 1800) stops a reduction that takes longer.

Prints one Markdown row per input: bytes, oracle runs, seconds, result.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def nested(seed, top, depth, width, marks):
    rng = random.Random(seed)

    def gen(d):
        r = rng.random()
        if d > depth or r < 0.3:
            return rng.choice([rng.randint(0, 1000), "s%d" % rng.randint(0, 99), True, None, 1.5])
        if r < 0.65:
            return [gen(d + 1) for _ in range(rng.randint(0, width))]
        return {"k%d" % i: gen(d + 1) for i in range(rng.randint(0, width))}

    xs = [gen(0) for _ in range(top)]
    for at, value in marks:
        xs[at] = value
    return json.dumps(xs)


def flat(seed, n, marks):
    rng = random.Random(seed)
    xs = [rng.randint(0, 99999) for _ in range(n)]
    for at, value in marks:
        xs[at] = value
    return json.dumps(xs)


INPUTS = [
    ("flat list, 5,000 numbers, needs 2", lambda: flat(5, 5000, [(3123, "zz"), (4000, "yy")]), ["zz", "yy"]),
    ("flat list, 50,000 numbers, needs 1", lambda: flat(5, 50000, [(31234, "zz")]), ["zz"]),
    ("nested, 100 values, needs 2", lambda: nested(8, 100, 5, 6, [(25, {"a": [1, 2, {"b": "zz"}]}), (80, [[["yy"]]])]), ["zz", "yy"]),
    ("nested, 400 values, needs 1", lambda: nested(7, 400, 6, 8, [(250, {"a": [1, 2, {"b": "zz"}]})]), ["zz"]),
]


def main():
    args = sys.argv[1:]
    binary = os.path.join(ROOT, "target", "release", "cargo-grammar-min")
    if args[:1] == ["--bin"]:
        binary = args[1]
    pred = os.path.join(HERE, "predicates", "json_has.py")
    print("| input | bytes | oracle runs | seconds | result |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as work:
        for name, make, words in INPUTS:
            path = os.path.join(work, "input.json")
            with open(path, "w") as f:
                f.write(make())
            out = os.path.join(work, "out.min")
            cmd = "python3 " + pred + " " + " ".join(words) + " {}"
            limit = float(os.environ.get("LARGE_TIMEOUT", "1800"))
            t0 = time.time()
            try:
                r = subprocess.run([binary, "grammar-min", "reduce", "--cmd", cmd, "--grammar",
                                    os.path.join(ROOT, "grammars", "json.json"), path, "-o", out,
                                    "--json"], capture_output=True, text=True, timeout=limit)
            except subprocess.TimeoutExpired:
                print(f"| {name} | {os.path.getsize(path)} | — | > {limit:.0f} | not finished |", flush=True)
                continue
            wall = time.time() - t0
            if r.returncode != 0:
                print(f"| {name} | {os.path.getsize(path)} | — | {wall:.1f} | failed: {r.stderr.strip()[-200:]} |")
                continue
            s = json.loads(r.stdout)[0]
            result = open(out).read()
            print(f"| {name} | {s['bytes_before']} | {s['tests'] + 2} | {wall:.1f} | `{result}` |", flush=True)


if __name__ == "__main__":
    main()
