#!/usr/bin/env python3
"""The suite's text artifacts with their blanks changed as editors and people
change them, reduced with `text auto`: does the grammar still get used, and
what does it cost?

    python3 other_blanks.py [--bin PATH] [TASK...]

Variants of each artifact (grammars/expr.json and grammars/sql.json spell
one space around operators and keywords and no trailing newline):
  as is      the artifact;
  newline    with a trailing newline (what an editor saves);
  tight      without the blanks next to punctuation (`1+(2*3)`, `f(a,b)`);
  doubled    every blank doubled;
  lower case, newline   every letter in lower case (SQL keywords), and a
             trailing newline.
Before `parse::respace`, every variant but "as is" stopped with "does not
parse". Prints one Markdown row per task and variant: result bytes, oracle
calls (every predicate run), seconds, passes that ran first.

    python3 other_blanks.py [--bin PATH] --ambiguous

The worst case instead: a grammar of blank-separated words (without
blanks, words run together and the grammar becomes highly ambiguous) and
inputs of 26 KB and 4 KB that no respacing can save (they end in `!`):
seconds until `reduce` gives up.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

VARIANTS = {
    "as is": lambda t: t,
    "newline": lambda t: t + "\n",
    "tight": lambda t: re.sub(r"\s*([^\w\s'\"])\s*", r"\1", t),
    "doubled": lambda t: re.sub(r"(\s)", r"\1\1", t),
    "lower case, newline": lambda t: t.lower() + "\n",
}


def ambiguous(binary):
    grammar = {"<start>": ["<ws>"], "<ws>": ["<w>", "<w> <ws>"], "<w>": ["<l>", "<l><w>"],
               "<l>": ["a", "b", "c", "d", "e"]}
    rng = random.Random(2)
    words = " ".join("".join(rng.choice("abcde") for _ in range(rng.randint(1, 8)))
                     for _ in range(4000))
    print("| input | bytes | seconds to give up |")
    print("|---|---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        g = os.path.join(work, "words.json")
        with open(g, "w") as f:
            json.dump(grammar, f)
        for name, text in [("22 KB", words[:words.rindex(" ", 0, 22140)] + " !"),
                           ("4 KB", words[:words.rindex(" ", 0, 4090)] + " !")]:
            path = os.path.join(work, "input.txt")
            with open(path, "w") as f:
                f.write(text)
            t0 = time.time()
            r = subprocess.run([binary, "reduce", "--cmd", "grep -q abc {}", "--grammar", g, path],
                               capture_output=True, text=True)
            wall = time.time() - t0
            assert r.returncode != 0 and "does not parse" in r.stderr, r.stderr
            print(f"| words, {name} | {len(text)} | {wall:.2f} |", flush=True)


def main():
    args = sys.argv[1:]
    binary = os.path.join(ROOT, "target", "release", "cargo-grammar-min")
    if args[:1] == ["--bin"]:
        binary, args = args[1], args[2:]
    if args == ["--ambiguous"]:
        ambiguous(binary)
        return
    tasks = [t for t in json.load(open(os.path.join(HERE, "tasks.json")))
             if not t.get("fuzz_target") and (not args or t["name"] in args)]
    print("| task | variant | input bytes | result bytes | oracle calls | seconds | first pass |")
    print("|---|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as work:
        counter = os.path.join(work, "count")
        for task in tasks:
            original = open(os.path.join(HERE, "artifacts", task["name"] + ".txt")).read()
            pred = os.path.join(HERE, task["predicate"])
            for variant, change in VARIANTS.items():
                path = os.path.join(work, "input.txt")
                with open(path, "w") as f:
                    f.write(change(original))
                open(counter, "w").close()
                cmd = f"sh {os.path.join(HERE, 'counted.sh')} {pred} {{}}"
                out = os.path.join(work, "out.min")
                t0 = time.time()
                r = subprocess.run([binary, "reduce", "--cmd", cmd, "--grammar",
                                    os.path.join(ROOT, task["grammar"]), path, "-o", out, "--json"],
                                   capture_output=True, text=True,
                                   env=dict(os.environ, GM_COUNTER=counter, RUST_BACKTRACE="0"))
                wall = time.time() - t0
                calls = os.path.getsize(counter)
                size = os.path.getsize(path)
                if r.returncode != 0:
                    why = r.stderr.strip().splitlines()[0][:90] if r.stderr.strip() else "failed"
                    print(f"| {task['name']} | {variant} | {size} | — | {calls} | {wall:.2f} | {why} |")
                    continue
                s = json.loads(r.stdout)[0]
                first = s["passes"][0]["pass"] if s["passes"] else "-"
                print(f"| {task['name']} | {variant} | {size} | {s['bytes_after']} | {calls} | "
                      f"{wall:.2f} | {first} |", flush=True)
                shutil.copy(out, os.path.join(work, "last.min"))


if __name__ == "__main__":
    main()
