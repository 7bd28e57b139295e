import random, subprocess
R = random.Random(7)
def integer(lz=True):
    n = str(R.randint(1, 999))
    return n
def factor(d):
    k = R.random()
    if d <= 0 or k < .4: return integer() if R.random() < .7 else f"{integer()}.{R.randint(0,99)}"
    if k < .5: return "-" + factor(d-1)
    return "(" + expr(d-1) + ")"
def term(d):
    n = R.randint(1, 3); s = factor(d)
    for _ in range(n-1): s += R.choice([" * ", " / "]) + factor(d)
    return s
def expr(d):
    n = R.randint(1, 4); s = term(d)
    for _ in range(n-1): s += R.choice([" + ", " - "]) + term(d)
    return s
def big(target, plant, seed):
    R.seed(seed)
    while True:
        parts = []
        while len(" + ".join(parts)) < target:
            e = expr(3)
            if len(e) < 300: parts.append("(" + e + ")")
        parts.insert(R.randint(1, len(parts)-1), plant)
        yield " + ".join(parts)
def bc_ok(s):
    o = subprocess.run(["bc","-l"], input=s+"\n", capture_output=True, text=True); return "error" not in (o.stdout+o.stderr).lower()
def tcl_ok(s):
    o = subprocess.run(["tclsh","tcl_eval.tcl","/dev/stdin"], input=s, capture_output=True, text=True); return o.returncode == 0
for name, plant, ok, seed in [("bc_div0", "(7 * 3 / (4 - 4))", bc_ok, 1), ("tcl_div0", "(12 / (5 - 5))", tcl_ok, 2)]:
    for s in big(1600, "MARK", seed):
        base = s.replace("MARK", "1")
        if ok(base): break
    s = s.replace("MARK", plant)
    open(f"tasks/{name}.txt","w").write(s); print(name, len(s))
