import json
import math
from collections import defaultdict


class Record:
    def __init__(self, name, fields):
        self.name = name
        self.fields = dict(fields)

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def __repr__(self):
        return "Record(%r, %r)" % (self.name, self.fields)


class Table:
    def __init__(self, columns):
        self.columns = list(columns)
        self.rows = []
        self.index = defaultdict(list)

    def add(self, record):
        self.rows.append(record)
        for col in self.columns:
            self.index[(col, record.get(col))].append(record)

    def lookup(self, col, value):
        return self.index.get((col, value), [])

    def column(self, col):
        return [r.get(col) for r in self.rows]


def parse_line(line, columns):
    parts = [p.strip() for p in line.split(";")]
    if len(parts) != len(columns):
        raise SyntaxError("bad line: %r" % line)
    return dict(zip(columns, parts))


def convert_field(name, raw):
    if name == "age":
        return int(raw)
    if name == "score":
        return float(raw)
    return raw


def convert_record(fields):
    out = {}
    for key, raw in fields.items():
        out[key] = convert_field(key, raw)
    return out


def load(text, columns):
    table = Table(columns)
    for i, line in enumerate(text.strip().splitlines()):
        if not line or line.startswith("#"):
            continue
        fields = parse_line(line, columns)
        table.add(Record("row%d" % i, convert_record(fields)))
    return table


def mean(values):
    values = [v for v in values if v is not None]
    if not values:
        return math.nan
    return sum(values) / len(values)


def stddev(values):
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / max(len(values) - 1, 1))


def summarize(table):
    ages = table.column("age")
    scores = table.column("score")
    return {
        "count": len(table.rows),
        "mean_age": mean(ages),
        "mean_score": mean(scores),
        "sd_score": stddev(scores),
    }


def report(summary, out):
    for key in sorted(summary):
        value = summary[key]
        if isinstance(value, float):
            out.append("%-12s %8.3f" % (key, value))
        else:
            out.append("%-12s %8s" % (key, value))
    return out


DATA = """
# name; age; score
alice; 31; 88.5
bob; 27; 92.0
carol; 45; 71.25
dave; forty; 60.0
erin; 38; 99.5
"""


def main():
    columns = ["name", "age", "score"]
    table = load(DATA, columns)
    summary = summarize(table)
    lines = report(summary, [])
    print("\n".join(lines))
    print(json.dumps(summary, sort_keys=True))
    for name in ("alice", "bob"):
        for rec in table.lookup("name", name):
            print(rec)


if __name__ == "__main__":
    main()
