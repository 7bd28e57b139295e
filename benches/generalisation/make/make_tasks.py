import json, random, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen
from gen import R, doc
def containers(o, acc):
    if isinstance(o, (dict, list)):
        acc.append(o)
        for v in (o.values() if isinstance(o, dict) else o): containers(v, acc)
    return acc
def plant(d, key, val, depth_min=2):
    cs = [c for c in containers(d, []) if c is not d]
    c = R.choice(cs)
    if isinstance(c, dict): c[key] = val
    else: c.insert(R.randint(0, len(c)), val)
MARK = "__PLANT__"
def dump(d, indent=None):
    return json.dumps(d, indent=indent, ensure_ascii=False)
os.makedirs('tasks', exist_ok=True)
def w(name, s):
    open(f'tasks/{name}.txt', 'w').write(s); print(name, len(s.encode()))
# jq1: big number
d = doc(1800); plant(d, "limit", 0.0); s = dump(d, 1).replace('"limit": 0.0', '"limit": 3.5e305'); w('jq_bignum', s)
# jq2: deep nesting (depth 260) planted
d = doc(1400); plant(d, "nest", MARK); s = dump(d).replace(json.dumps(MARK), "["*260 + "1" + "]"*260); w('jq_depth', s)
# jq3: items with a number among objects
items = [{"name": " ".join(gen.word() for _ in range(2)), "id": i, "tags": gen.value(2)} for i in range(14)]
items.insert(9, 42)
d = {"meta": gen.value(3), "items": items, "extra": gen.value(3)}; s = dump(d, 2); w('jq_index', s)
# py deep recursion: depth 1100
d = doc(700); plant(d, "deep", MARK); s = dump(d).replace(json.dumps(MARK), "["*1100 + "]"*1100); w('py_deep', s)
# two fragments far apart
d = doc(1900); ks = list(d.keys())
first = d[ks[0]] if isinstance(d[ks[0]], dict) else None
d2 = {"head": {"debug": True}}; d2.update(d); d2["tail"] = {"x": [1, {"mode": "legacy"}]}
w('two_frag', dump(d2, 1))
# large: python big int (4400 digits) in ~30KB
d = doc(26000); plant(d, "serial", MARK); big = "7" + "".join(str(R.randint(0,9)) for _ in range(4399))
s = dump(d, 1).replace(json.dumps(MARK), big); w('py_bigint_large', s)
# large jq_index variant ~30KB
items = [{"name": gen.word(), "id": i, "tags": gen.value(3), "attrs": gen.value(3)} for i in range(230)]
items.insert(170, 7)
d = {"meta": gen.value(3), "items": items}; w('jq_index_large', dump(d))
