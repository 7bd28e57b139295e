#!/usr/bin/env python3
"""Generate the second set of generalisation tasks (seeded, reproducible).

  cd benches/generalisation && python3 make/make_gen2.py

Writes tasks/sql_ambiguous.txt, tasks/sql_semantic.txt,
tasks/json_two_deep.txt, tasks/json_long_string.txt and checks that each
one satisfies its predicate (predicates/<name>.sh) and, for SQL, that
the text parses with grammars/sql.json (GM_BIN, default
target/release/cargo-grammar-min).
"""
import json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.environ.get("GM_ROOT", os.path.dirname(os.path.dirname(HERE)))
GM = os.environ.get("GM_BIN", os.path.join(ROOT, "target/release/cargo-grammar-min"))
R = random.Random(2024)

# ---------------------------------------------------------------- SQL
# Only what grammars/sql.json can express: tables t1..t3, columns a b c,
# views v1 v2, indexes i1 i2, aliases x y z, strings over [abcxyz019 _%].
SCHARS = "abcxyz019 _%"

def sstr(n=None):
    n = R.randint(0, 6) if n is None else n
    return "'" + "".join(R.choice(SCHARS) for _ in range(n)).replace("'", "''") + "'"

def num():
    k = R.random()
    if k < .6: return str(R.randint(0, 999))
    return f"{R.randint(1, 99)}.{R.randint(0, 99)}"

def sqlite_run(script):
    o = subprocess.run(["sqlite3", ":memory:"], input=script, capture_output=True, text=True)
    return o.stdout + o.stderr

def gm_parses(path):
    o = subprocess.run([GM, "parse", "--grammar", os.path.join(ROOT, "grammars/sql.json"), path],
                       capture_output=True, text=True)
    return o.returncode == 0, o.stdout[-400:] + o.stderr[-400:]

# Schemas: t1 and t2 share columns a and b; t3 has c and b.
def noise_ambiguous():
    k = R.random()
    cols = {"t1": "abc", "t2": "ab", "t3": "cb"}
    t = R.choice(["t1", "t2", "t3"])
    cs = cols[t]
    if k < .35:
        rows = ", ".join("(" + ", ".join(num() if c in "a" or (t == "t3" and c == "b") or (t == "t1" and c == "c")
                                          else sstr() for c in cs) + ")" for _ in range(R.randint(1, 4)))
        return f"INSERT INTO {t} VALUES {rows}"
    if k < .6:
        c = R.choice(cs)
        w = R.choice(["", f" WHERE {R.choice(cs)} > {num()}", f" WHERE {R.choice(cs)} IS NOT NULL",
                      f" WHERE {R.choice(cs)} LIKE {sstr(2)}"])
        o = R.choice(["", f" ORDER BY {c} DESC", f" ORDER BY {c}"])
        l = R.choice(["", f" LIMIT {R.randint(1, 9)}"])
        sel = R.choice([c, f"{c}, {R.choice(cs)}", f"count(*)", f"max({c})", f"length({c}) AS x", "*",
                        f"CASE WHEN {c} IS NULL THEN 0 ELSE 1 END"])
        return f"SELECT {sel} FROM {t}{w}{o}{l}"
    if k < .72:
        # qualified join: fine
        return (f"SELECT t1.a, t2.b FROM t1 JOIN t2 ON t1.a = t2.a WHERE t1.c > {num()}"
                if R.random() < .5 else
                f"SELECT t3.c, t1.b FROM t1 LEFT JOIN t3 ON t1.b = t3.c ORDER BY t1.a")
    if k < .82:
        c = R.choice(cs)
        v = num() if (c == "a" or (t == "t3" and c == "b") or (t == "t1" and c == "c")) else sstr()
        return f"UPDATE {t} SET {c} = {v} WHERE {R.choice(cs)} < {num()}"
    if k < .9:
        return f"DELETE FROM {t} WHERE {R.choice(cs)} = {num()}"
    return f"SELECT {num()} + {num()}, upper({sstr(3)}), typeof({num()})"

def make_sql_ambiguous():
    head = ["CREATE TABLE t1 (a INTEGER, b TEXT, c REAL)",
            "CREATE TABLE t2 (a INTEGER, b TEXT NOT NULL)",
            "CREATE TABLE t3 (c TEXT, b INTEGER DEFAULT 0)"]
    while True:
        body = [noise_ambiguous() for _ in range(36)]
        plant = "SELECT t1.c, a FROM t1 JOIN t2 ON t1.b = t2.b WHERE t1.a > 3"
        body.insert(24, plant)
        stmts = head[:1] + body[:5] + head[1:2] + body[5:12] + head[2:] + body[12:]
        s = ";\n".join(stmts) + ";"
        out = sqlite_run(s)
        # the only error must be the planted one
        if out.count("near line") == 1 and "ambiguous column name: a" in out and 1000 <= len(s) <= 3000:
            return s

def make_sql_semantic():
    head = "CREATE TABLE t2 (a INTEGER UNIQUE, b TEXT NOT NULL)"
    used = set([19])
    def t2rows(n, extra=None):
        rows = []
        for _ in range(n):
            a = R.randint(20, 999)
            while a in used: a = R.randint(20, 999)
            used.add(a); rows.append(f"({a}, {sstr(R.randint(1, 5))})")
        if extra: rows.insert(R.randint(0, len(rows)), extra)
        return ", ".join(rows)
    def noise():
        k = R.random()
        if k < .25: return f"INSERT INTO t2 VALUES {t2rows(R.randint(1, 3))}"
        if k < .4: return f"SELECT b, count(*) FROM t2 GROUP BY b HAVING count(*) > {R.randint(0, 2)}"
        if k < .55:
            return f"INSERT INTO t1 VALUES " + ", ".join(
                f"({num()}, {sstr()}, {num()})" for _ in range(R.randint(1, 4)))
        if k < .65: return f"UPDATE t1 SET b = {sstr()} WHERE c > {num()}"
        if k < .75: return f"SELECT t1.b, t2.b FROM t1 JOIN t2 ON t1.a = t2.a ORDER BY t2.a DESC LIMIT {R.randint(1, 9)}"
        if k < .85: return f"INSERT INTO t3 (c) VALUES ({sstr(3)})"
        if k < .92: return f"DELETE FROM t1 WHERE a = {num()}"
        return f"SELECT DISTINCT lower(b) FROM t2 WHERE a BETWEEN {R.randint(0, 99)} AND {R.randint(100, 999)}"
    while True:
        used = set([19])
        stmts = ["CREATE TABLE t1 (a INTEGER, b TEXT, c REAL)", head,
                 "CREATE TABLE t3 (c TEXT, b INTEGER DEFAULT 7)",
                 f"INSERT INTO t2 VALUES {t2rows(2, '(19, ' + sstr(3) + ')')}"]
        stmts += [noise() for _ in range(40)]
        stmts += [f"INSERT INTO t2 VALUES {t2rows(3, '(19, ' + sstr(4) + ')')}"]
        stmts += [noise() for _ in range(4)]
        s = ";\n".join(stmts) + ";"
        out = sqlite_run(s)
        if (out.count("near line") == 1 and "UNIQUE constraint failed: t2.a" in out
                and 2000 <= len(s) <= 4000):
            return s

# ---------------------------------------------------------------- JSON
# The JSON noise of the first task set (make/gen.py: word, scalar, value),
# drawing from this script's seed.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen
gen.R = R
from gen import word, value

def make_json_two_deep():
    # Two paths share 6 levels, then split; each ends 24 / 22 levels deep.
    # Every container on the paths also holds noise siblings.
    def level(path_rest, leaf, d):
        if not path_rest: return leaf
        step = path_rest[0]
        child = level(path_rest[1:], leaf, d + 1)
        if isinstance(step, int):
            arr = [value(2) for _ in range(step)] + [child] + [value(2) for _ in range(R.randint(0, 3))]
            return arr
        obj = {}
        keys = [word() + str(R.randint(0, 99)) for _ in range(R.randint(1, 3))]
        pos = R.randint(0, len(keys))
        keys.insert(pos, step)
        for k in keys:
            obj[k] = child if k == step else value(2)
        return obj
    def path(n, prefix):
        p = []
        for i in range(n):
            p.append(R.randint(1, 2) if i > 0 and R.random() < .2 else f"{prefix}{i}_{word()}")
        return p
    common = path(6, "c")
    p1 = common + path(18, "p")
    p2 = common + path(16, "q")
    leaf1, leaf2 = "needle-7Q", 4242
    # build the shared prefix by hand: the split container holds both branches
    def branch(p, leaf): return level(p, leaf, 0)
    split_obj = {}
    ks = [word() + str(R.randint(0, 99)) for _ in range(3)]
    for k in ks: split_obj[k] = value(2)
    # p1/p2 tails must start with a key (not an index) so both fit in one object
    assert isinstance(p1[6], str) and isinstance(p2[6], str), (p1[6], p2[6])
    split_obj[p1[6]] = branch(p1[7:], leaf1)
    split_obj[p2[6]] = branch(p2[7:], leaf2)
    for k in [word() + str(R.randint(0, 99)) for _ in range(2)]: split_obj[k] = value(3)
    # wrap with the common prefix
    def wrap(prefix, inner):
        if not prefix: return inner
        step = prefix[0]
        child = wrap(prefix[1:], inner)
        if isinstance(step, int):
            return [value(3) for _ in range(step)] + [child] + [value(3) for _ in range(R.randint(1, 3))]
        obj = {word() + str(R.randint(0, 99)): value(3) for _ in range(R.randint(2, 4))}
        obj[step] = child
        for k in [word() + str(R.randint(0, 99)) for _ in range(R.randint(1, 3))]: obj[k] = value(3)
        return obj
    doc = wrap(common, split_obj)
    # top-level noise to reach the size target
    top = {}
    i = 0
    while len(json.dumps(top)) < 20000:
        top[word() + "_" + str(i)] = value(4); i += 1
    top[common[0]] = doc[common[0]] if isinstance(common[0], str) else doc
    # make sure the first path step is an object key
    assert isinstance(common[0], str)
    for k in list(doc.keys()):
        if k != common[0]: top[k] = doc[k]
    for j in range(30):
        top[word() + "_t" + str(j)] = value(4)
    return json.dumps(top, indent=1, ensure_ascii=False), p1, p2, leaf1, leaf2

def make_json_long_string():
    alpha = "abcdefghijklmnopqrstuvwxyz0123456789 ,.-_:QZ7"
    while True:
        chars = []
        for _ in range(5000):
            k = R.random()
            if k < .02: chars.append("\n")
            elif k < .03: chars.append("\"")
            elif k < .04: chars.append("\u00e9")
            else: chars.append(R.choice(alpha))
        s = "".join(chars)
        if "q7z" in s: continue
        pos = 3111
        s = s[:pos] + "q7z" + s[pos + 3:]
        if s.count("q7z") == 1: break
    doc = {}
    i = 0
    while len(json.dumps(doc)) < 11000:
        doc[word() + "_" + str(i)] = value(4); i += 1
    holder = {"id": 77, "kind": "payload", "meta": value(3), "body": s, "tail": value(3)}
    keys = list(doc.keys())
    doc[keys[len(keys) // 2]] = {"inner": [value(2), holder, value(2)], "x": value(2)}
    out = json.dumps(doc, indent=1, ensure_ascii=False)
    assert out.count("q7z") == 1
    return out

def check(name, text):
    p = os.path.join(HERE, "tasks", name + ".txt")
    with open(p, "w") as f: f.write(text)
    pred = os.path.join(HERE, "predicates", name + ".sh")
    ok = subprocess.run(["sh", pred, p]).returncode == 0
    line = f"{name} {len(text.encode())} bytes interesting={ok}"
    if name.startswith("sql_"):
        pk, msg = gm_parses(p)
        line += f" parses={pk}" + ("" if pk else " " + msg)
    print(line)

if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "tasks"), exist_ok=True)
    check("sql_ambiguous", make_sql_ambiguous())
    check("sql_semantic", make_sql_semantic())
    s, p1, p2, l1, l2 = make_json_two_deep()
    # the predicate names the two exact paths, so it is written here too
    with open(os.path.join(HERE, "predicates", "json_two_deep.sh"), "w") as f:
        f.write("# generated by make/make_gen2.py: two values at two exact paths 24 and 22 levels deep\n")
        f.write("[ \"$(jq -c '[getpath(%s), getpath(%s)]' \"$1\" 2>/dev/null)\" = '%s' ]\n"
                % (json.dumps(p1), json.dumps(p2), json.dumps([l1, l2], separators=(",", ":"))))
    check("json_two_deep", s)
    check("json_long_string", make_json_long_string())
