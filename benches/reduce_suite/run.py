#!/usr/bin/env python3
"""Reduction benchmark suite: every task with grammar-min and the peers
that install here (picire, picireny, shrinkray, cvise, cargo fuzz tmin).
Oracle calls are counted by counted.sh for every tool alike; final size is
the reduced file's size, re-checked with the predicate.

Tasks with a "fuzz_target" reduce a crash artifact (a choice sequence) of
that cargo-fuzz target: grammar-min uses the target as its oracle (one
process per candidate, and --persistent), `cargo fuzz tmin` minimises it
in-process, and the grammar-blind peers reduce the artifact's bytes with
the task's predicate. Sizes there are of the decoded text; "oracle calls"
of grammar-min count the 2 reproduction runs, those of tmin are child
processes, each running up to 255 inputs in-process.

usage: run.py [--budget SECONDS] [--tools a,b] [TASK...]
(GM_BIN=PATH: another cargo-grammar-min binary; GM_RESULTS=NAME: results file)
Prints a Markdown table; writes results.json next to this file."""
import json, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
GM = os.environ.get("GM_BIN") or os.path.join(ROOT, "target", "release", "cargo-grammar-min")
COUNTED = os.path.join(HERE, "counted.sh")


def check(pred, path, task=None):
    env = dict(os.environ)
    if task and task.get("fuzz_target"):
        env["FUZZ_BIN"] = fuzz_bin(task)
    return subprocess.run(["sh", pred, path], capture_output=True, env=env).returncode == 0


def fuzz_bin(task):
    host = subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout
    triple = [l.split(": ")[1] for l in host.splitlines() if l.startswith("host: ")][0]
    return os.path.join(ROOT, "fuzz", "target", triple, "release", task["fuzz_target"])


def build_fuzz(task):
    cmd = f'. scripts/fuzz-env.sh && "${{FUZZ[@]}}" build --fuzz-dir fuzz {task["fuzz_target"]}'
    subprocess.run(["bash", "-c", cmd], cwd=ROOT, check=True, capture_output=True)


def text_of(task, path):
    """The text a file stands for: decoded for fuzz tasks."""
    if not task.get("fuzz_target"):
        return open(path, "rb").read()
    return subprocess.run([GM, "decode", "--grammar", os.path.join(ROOT, task["grammar"]),
                           "--max-depth", str(task["max_depth"]), "--max-len", str(task["max_len"]), path],
                          capture_output=True, check=True).stdout


def run_fuzz_tool(tool, task, work, budget, env):
    """grammar-min on the target, or cargo fuzz tmin; returns like run_tool
    (calls None = count from the tool's own report)."""
    art = os.path.join(work, "crash-input")
    shutil.copy(os.path.join(HERE, "artifacts", task["name"] + ".choices"), art)
    if tool.startswith("grammar-min"):
        out = os.path.join(work, "out.txt")
        argv = [GM, "reduce", task["fuzz_target"], art, "-o", out, "--json"]
        # Persistent mode is the default for grammar targets; "(target)"
        # measures one process per candidate.
        argv.append("--persistent" if "persistent" in tool else "--no-persistent")
        p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=budget)
        if p.returncode != 0:
            return None, "failed: " + p.stderr.decode(errors="replace")[-120:], 0
        s = json.loads(p.stdout)[0]
        return out + ".choices", "", s["tests"] + 2
    cmd = f'. scripts/fuzz-env.sh && "${{FUZZ[@]}}" tmin --fuzz-dir fuzz {task["fuzz_target"]} {art}'
    p = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, timeout=budget)
    log = (p.stdout + p.stderr).decode(errors="replace")
    calls = log.count("CRASH_MIN: executing")
    paths = [w.split("=", 1)[1] for w in log.split() if w.startswith("-exact_artifact_path=")]
    found = [os.path.join(ROOT, q) for q in paths if os.path.exists(os.path.join(ROOT, q))]
    if not found:
        return None, "no output", calls
    out = os.path.join(work, "tmin-out")
    shutil.copy(found[-1], out)
    for q in set(found):
        os.unlink(q)
    return out, f"{calls} child processes x up to 255 in-process runs", calls


def run_tool(tool, task, work, budget):
    """Returns (output path or None, note, calls, seconds)."""
    pred = os.path.join(HERE, task["predicate"])
    grammar = os.path.join(ROOT, task["grammar"])
    art = os.path.join(HERE, "artifacts", task["name"])
    txt = os.path.join(work, "input.txt")
    # Fuzz tasks: the grammar-blind peers reduce the artifact's bytes.
    shutil.copy(art + (".choices" if task.get("fuzz_target") else ".txt"), txt)
    cmd_str = f"sh {COUNTED} {pred} {{}}"
    if task.get("fuzz_target") and (tool.startswith("grammar-min") or tool == "cargo fuzz tmin"):
        if "target" not in tool and tool != "cargo fuzz tmin":
            return None, "n/a for fuzz-target tasks", 0, 0.0
        env = dict(os.environ, RUST_BACKTRACE="0")
        t0 = time.time()
        try:
            out, note, calls = run_fuzz_tool(tool, task, work, budget, env)
        except subprocess.TimeoutExpired:
            out, note, calls = None, f"stopped at {budget}s", 0
        return out, note, calls, time.time() - t0
    if tool == "cargo fuzz tmin" or "target" in tool:
        return None, "n/a: not a fuzz-target task", 0, 0.0
    # "picireny -j 2", "grammar-min (MODE -j 2)": the same tool with two
    # candidates run at once (our -j, picireny's parallel mode).
    jobs = 2 if " -j 2" in tool else 1
    tool = tool.replace(" -j 2", "")
    if jobs > 1 and tool not in ("grammar-min (choices)", "grammar-min (text auto)", "picireny"):
        raise ValueError(tool + " -j 2")
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
    if jobs > 1 and tool.startswith("grammar-min"):
        argv += ["-j", str(jobs)]
    if tool == "picire":
        test = os.path.join(work, "test.sh")
        open(test, "w").write(f"#!/bin/sh\nexec sh {COUNTED} {pred} \"$1\"\n")
        os.chmod(test, 0o755)
        outdir = os.path.join(work, "picire-out")
        argv = ["picire", "-i", txt, "--test", test, "-a", "both", "-o", outdir, "-l", "ERROR"]
        out = os.path.join(outdir, "input.txt")
    elif tool == "picireny":
        if not task.get("antlr"):
            return None, "no ANTLR grammar for this task", 0, 0.0
        if task.get("fuzz_target"):
            return None, "n/a: the artifact is a choice sequence", 0, 0.0
        test = os.path.join(work, "test.sh")
        open(test, "w").write(f"#!/bin/sh\nexec sh {COUNTED} {pred} \"$1\"\n")
        os.chmod(test, 0o755)
        outdir = os.path.join(work, "picireny-out")
        argv = ["picireny", "-i", txt, "--test", test, "-g", os.path.join(HERE, task["antlr"]),
                "-s", task["antlr_start"], "--antlr", os.environ.get("ANTLR_JAR", "/usr/share/java/antlr4.jar"),
                "-o", outdir, "-l", "ERROR"]
        out = os.path.join(outdir, "input.txt")
        if jobs > 1:
            argv += ["-p", "-j", str(jobs)]
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
    elif not tool.startswith("grammar-min"):
        raise ValueError(tool)
    env = dict(os.environ, GM_COUNTER=os.path.join(work, "counter"))
    if task.get("fuzz_target"):
        env["FUZZ_BIN"] = fuzz_bin(task)
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


TOOLS = ["grammar-min (choices)", "grammar-min (text auto)", "grammar-min (ddmin)",
         "grammar-min (target)", "grammar-min (target --persistent)", "cargo fuzz tmin",
         "picire", "picireny", "shrinkray", "cvise"]


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
        if task.get("fuzz_target"):
            build_fuzz(task)
        for tool in tools:
            work = tempfile.mkdtemp(prefix="gm-suite-")
            try:
                out, note, calls, wall = run_tool(tool, task, work, budget)
                final = None
                text = None
                if note.startswith("n/a"):
                    continue
                if out:
                    pred = os.path.join(HERE, task["predicate"])
                    if check(pred, out, task):
                        image = text_of(task, out)
                        final = len(image)
                        text = image[:60].decode(errors="replace")
                    else:
                        note = (note + "; " if note else "") + "output NOT interesting"
                        if task.get("fuzz_target"):
                            p = subprocess.run([fuzz_bin(task), out], capture_output=True,
                                               env=dict(os.environ, RUST_BACKTRACE="0"))
                            crash = [l for l in p.stderr.decode(errors="replace").splitlines() if "panicked" in l or "bug" in l]
                            text = text_of(task, out)[:60].decode(errors="replace")
                            note += " (drifted: " + (crash[-1].strip()[:80] if crash else "no crash") + ")"
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
