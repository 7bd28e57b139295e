#!/usr/bin/env python3
"""Large text inputs for `cargo grammar-min reduce` (JSON, grammars/json.json):
how oracle runs and time grow with the input. Each input is generated from
a fixed seed; the predicate wants valid JSON that holds one or two marker
strings placed deep inside (predicates/json_has.py), or that is nested deep
enough (predicates/json_depth.py).

    python3 large_inputs.py [--bin PATH]   # default: target/release/cargo-grammar-min

LARGE_TIMEOUT (seconds, default 1800) stops a reduction that takes longer;
LARGE_ONLY=TEXT runs only the inputs whose name contains TEXT.

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


def deep(levels, rng):
    """Arrays and objects nested `levels` deep, with noise at every level."""
    v = "s0"
    for _ in range(levels):
        noise = [rng.randint(0, 99) for _ in range(rng.randint(0, 2))]
        v = [*noise, v] if rng.random() < 0.7 else {"k%d" % rng.randint(0, 9): v, "n": noise}
    return v


# (name, generator, predicate script, its arguments)
INPUTS = [
    ("flat list, 5,000 numbers, needs 2", lambda: flat(5, 5000, [(3123, "zz"), (4000, "yy")]),
     "json_has.py", ["zz", "yy"]),
    ("flat list, 50,000 numbers, needs 1", lambda: flat(5, 50000, [(31234, "zz")]), "json_has.py", ["zz"]),
    ("nested, 100 values, needs 2",
     lambda: nested(8, 100, 5, 6, [(25, {"a": [1, 2, {"b": "zz"}]}), (80, [[["yy"]]])]), "json_has.py", ["zz", "yy"]),
    ("nested, 400 values, needs 1", lambda: nested(7, 400, 6, 8, [(250, {"a": [1, 2, {"b": "zz"}]})]),
     "json_has.py", ["zz"]),
    ("100 values, one 300 deep, needs depth 256",
     lambda: nested(9, 100, 3, 4, [(60, deep(300, random.Random(9)))]), "json_depth.py", ["256"]),
]


def main():
    args = sys.argv[1:]
    binary = os.path.join(ROOT, "target", "release", "cargo-grammar-min")
    if args[:1] == ["--bin"]:
        binary = args[1]
    print("| input | bytes | oracle runs | seconds | result |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as work:
        for name, make, script, words in INPUTS:
            if os.environ.get("LARGE_ONLY", "") not in name:
                continue
            pred = os.path.join(HERE, "predicates", script)
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
