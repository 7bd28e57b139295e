import json, random, sys
R = random.Random(int(sys.argv[2]) if len(sys.argv)>2 else 1)
WORDS = "alpha beta gamma delta omega user item price tag color size note city name id status".split()
def word(): return R.choice(WORDS)
def scalar():
    k = R.random()
    if k < .3: return R.randint(-1000, 100000)
    if k < .45: return round(R.uniform(-100, 100), R.randint(1,4))
    if k < .75: return " ".join(word() for _ in range(R.randint(1,3)))
    if k < .85: return R.choice([True, False])
    if k < .9: return None
    return R.choice(["caf\u00e9", "tab\there", "quote\"d", "path/to\\x", "\u2603 snow"])
def value(d):
    if d <= 0 or R.random() < .45: return scalar()
    if R.random() < .5: return [value(d-1) for _ in range(R.randint(0,4))]
    return {word()+str(R.randint(0,99)): value(d-1) for _ in range(R.randint(0,4))}
def doc(target):
    out = {}
    i = 0
    while len(json.dumps(out)) < target:
        out[word()+"_"+str(i)] = value(4); i += 1
    return out
