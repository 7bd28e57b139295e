#!/usr/bin/env python3
"""Reduction benchmark suite: every task with grammar-min and the peers
that install here (picire, shrinkray, cvise). Oracle calls are counted by
counted.sh for every tool alike; final size is the reduced file's size,
re-checked with the predicate.

usage: run.py [--budget SECONDS] [--tools a,b] [TASK...]
Prints a Markdown table; writes results.json next to this file."""
import json, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
GM = os.path.join(ROOT, "target", "release", "cargo-grammar-min")
COUNTED = os.path.join(HERE, "counted.sh")


def check(pred, path):
    return subprocess.run(["sh", pred, path], capture_output=True).returncode == 0


def run_tool(tool, task, work, budget):
    """Returns (output path or None, note)."""
    pred = os.path.join(HERE, task["predicate"])
    grammar = os.path.join(ROOT, task["grammar"])
    art = os.path.join(HERE, "artifacts", task["name"])
    txt = os.path.join(work, "input.txt")
    shutil.copy(art + ".txt", txt)
    cmd_str = f"sh {COUNTED} {pred} {{}}"
    if tool == "grammar-min (choices)":
        ch = os.path.join(work, "input.choices")
        shutil.copy(art + ".choices", ch)
        out = os.path.join(work, "out.txt")
        argv = [GM, "reduce", "--cmd", cmd_str, "--grammar", grammar, "--input", "choices", ch, "-o", out, "--json"]
    elif tool == "grammar-min (text auto)":
        out = os.path.join(work, "out.txt")
        argv = [GM, "reduce", "--cmd", cmd_str, "--grammar", grammar, txt, "-o", out, "--json"]
    elif tool == "grammar-min (ddmin)":
        out = os.path.join(work, "out.txt")
        argv = [GM, "reduce", "--cmd", cmd_str, "--strategy", "ddmin", txt, "-o", out, "--json"]
    elif tool == "picire":
        test = os.path.join(work, "test.sh")
        open(test, "w").write(f"#!/bin/sh\nexec sh {COUNTED} {pred} \"$1\"\n")
        os.chmod(test, 0o755)
        outdir = os.path.join(work, "picire-out")
        argv = ["picire", "-i", txt, "--test", test, "-a", "both", "-o", outdir, "-l", "ERROR"]
        out = os.path.join(outdir, "input.txt")
    elif tool == "picireny":
        if not task.get("antlr"):
            return None, "no ANTLR grammar for this task", 0, 0.0
        test = os.path.join(work, "test.sh")
        open(test, "w").write(f"#!/bin/sh\nexec sh {COUNTED} {pred} \"$1\"\n")
        os.chmod(test, 0o755)
        outdir = os.path.join(work, "picireny-out")
        argv = ["picireny", "-i", txt, "--test", test, "-g", os.path.join(HERE, task["antlr"]),
                "-s", task["antlr_start"], "--antlr", os.environ.get("ANTLR_JAR", "/usr/share/java/antlr4.jar"),
                "-o", outdir, "-l", "ERROR"]
        out = os.path.join(outdir, "input.txt")
    elif tool == "shrinkray":
        test = os.path.join(work, "test.sh")
        open(test, "w").write(
            "#!/bin/sh\nf=$(mktemp)\ncat > \"$f\"\n"
            f"sh {COUNTED} {pred} \"$f\"\nr=$?\nrm -f \"$f\"\nexit $r\n"
        )
        os.chmod(test, 0o755)
        out = os.path.join(work, "shrinkray-out.txt")
        argv = ["shrinkray", "--parallelism", "1", "--timeout", "10", "--target", out, test, txt]
    elif tool == "cvise":
        test = os.path.join(work, "test.sh")
        open(test, "w").write(f"#!/bin/sh\nexec sh {COUNTED} {pred} input.txt\n")
        os.chmod(test, 0o755)
        argv = ["cvise", "--n", "1", "--not-c", "--timeout", "10", "--tidy", test, "input.txt"]
        out = txt
    else:
        raise ValueError(tool)
    env = dict(os.environ, GM_COUNTER=os.path.join(work, "counter"))
    open(env["GM_COUNTER"], "w").close()
    t0 = time.time()
    note = ""
    try:
        p = subprocess.Popen(argv, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            so, se = p.communicate(timeout=budget)
            if p.returncode != 0:
                note = "failed: " + se.decode(errors="replace").strip().splitlines()[-1][:120] if se else "failed"
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            note = f"stopped at {budget}s"
    except FileNotFoundError:
        return None, "not installed", 0, 0.0
    wall = time.time() - t0
    calls = os.path.getsize(env["GM_COUNTER"])
    if not os.path.exists(out) or note.startswith("failed"):
        return None, note or "no output", calls, wall
    return out, note, calls, wall


TOOLS = ["grammar-min (choices)", "grammar-min (text auto)", "grammar-min (ddmin)", "picire", "picireny", "shrinkray", "cvise"]


def main():
    args = sys.argv[1:]
    budget = 300
    tools = TOOLS
    if "--budget" in args:
        i = args.index("--budget")
        budget = float(args[i + 1])
        del args[i:i + 2]
    if "--tools" in args:
        i = args.index("--tools")
        tools = args[i + 1].split(",")
        del args[i:i + 2]
    tasks = [t for t in json.load(open(os.path.join(HERE, "tasks.json"))) if not args or t["name"] in args]
    results = []
    for task in tasks:
        size0 = os.path.getsize(os.path.join(HERE, "artifacts", task["name"] + ".txt"))
        for tool in tools:
            work = tempfile.mkdtemp(prefix="gm-suite-")
            try:
                out, note, calls, wall = run_tool(tool, task, work, budget)
                final = None
                text = None
                if out:
                    pred = os.path.join(HERE, task["predicate"])
                    if check(pred, out):
                        final = os.path.getsize(out)
                        text = open(out, "rb").read()[:60].decode(errors="replace")
                    else:
                        note = (note + "; " if note else "") + "output NOT interesting"
                r = dict(task=task["name"], tool=tool, bytes_before=size0, bytes_after=final,
                         oracle_calls=calls, seconds=round(wall, 2), note=note, result=text)
                results.append(r)
                print(json.dumps(r), file=sys.stderr, flush=True)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    name = os.environ.get("GM_RESULTS", "results.json")
    json.dump(results, open(os.path.join(HERE, name), "w"), indent=1)
    print("| task | tool | bytes before → after | oracle calls | wall time (s) | result / note |")
    print("|---|---|---|---|---|---|")
    for r in results:
        after = r["bytes_after"] if r["bytes_after"] is not None else "—"
        res = f"`{r['result']}`" if r["result"] is not None else ""
        note = (" " + r["note"]) if r["note"] else ""
        print(f"| {r['task']} | {r['tool']} | {r['bytes_before']} → {after} | {r['oracle_calls']} | {r['seconds']} | {res}{note} |")


if __name__ == "__main__":
    main()
