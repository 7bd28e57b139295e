#!/usr/bin/env python3
"""Makes the suite's artifacts: random choice sequences (seeded) decoded
with a grammar until the task's predicate holds and the text is big enough.
Writes artifacts/<task>.choices and artifacts/<task>.txt."""
import json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DECODE = os.path.join(ROOT, "target", "release", "examples", "decode_choices")


def decode(grammar, choices):
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(choices)
    try:
        return subprocess.run([DECODE, grammar, f.name], capture_output=True, check=True).stdout
    finally:
        os.unlink(f.name)


def holds(pred, text):
    with tempfile.NamedTemporaryFile(delete=False, suffix=".txt") as f:
        f.write(text)
    try:
        return subprocess.run(["sh", pred, f.name], capture_output=True, timeout=20).returncode == 0
    finally:
        os.unlink(f.name)


def main():
    tasks = json.load(open(os.path.join(HERE, "tasks.json")))
    only = sys.argv[1:]
    os.makedirs(os.path.join(HERE, "artifacts"), exist_ok=True)
    for t in tasks:
        if only and t["name"] not in only:
            continue
        grammar = os.path.join(ROOT, t["grammar"])
        pred = os.path.join(HERE, t["predicate"])
        rng = random.Random(t["seed"])
        for attempt in range(5000):
            n = rng.randrange(t["choices"][0], t["choices"][1])
            c = bytes(rng.randrange(256) for _ in range(n))
            text = decode(grammar, c)
            if not (t["min_text"] <= len(text) <= t["max_text"]):
                continue
            if holds(pred, text):
                break
        else:
            sys.exit("no artifact found for " + t["name"])
        open(os.path.join(HERE, "artifacts", t["name"] + ".choices"), "wb").write(c)
        open(os.path.join(HERE, "artifacts", t["name"] + ".txt"), "wb").write(text)
        print(f"{t['name']}: {len(c)} choices, {len(text)} bytes, attempt {attempt}")


if __name__ == "__main__":
    main()
