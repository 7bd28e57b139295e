#!/usr/bin/env python3
"""A port of the reference's LimitFuzzer (choice-sequence-reduction.txt),
reading grammar-min's grammar JSON, to compare generation throughput.

    python3 benches/python/limit_fuzzer.py grammars/expr.json --seconds 3

Generates inputs for about --seconds and prints the output rate in MiB/s,
per wall-clock second and per CPU second (steadier on a shared machine).
The generator is the reference's: below --max-depth every alternative is
equally likely (random.choice); deeper, only the alternatives of minimal
cost. Terminals are bytes, so byte tokens of token-list grammars (numbers
0-255, as grammars/json.json uses for UTF-8) work too.
"""

import argparse
import json
import random
import re
import sys
import time

NAME = re.compile(r"(<[^<> ]+>)")


def load(path):
    """Grammar JSON (fuzzingbook strings or token lists) to
    {nonterminal: [[token, ...], ...]} with terminals as bytes."""
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    grammar = {}
    for key, alts in raw.items():
        rules = []
        for alt in alts:
            if isinstance(alt, list) and len(alt) == 2 and isinstance(alt[1], dict):
                alt = alt[0]  # fuzzingbook ["text", {options}]
            if isinstance(alt, str):
                tokens = [t for t in NAME.split(alt) if t]
                rule = [t if t in raw else t.encode() for t in tokens]
            else:
                rule = [
                    bytes([t]) if isinstance(t, int) else (t if t in raw else t.encode())
                    for t in alt
                ]
            rules.append([t for t in rule if t != b""])
        grammar[key] = rules
    return grammar


class LimitFuzzer:
    """The reference's LimitFuzzer, unchanged but for bytes terminals and
    empty expansions."""

    def __init__(self, grammar):
        self.grammar = grammar
        self.key_cost = {}
        self.cost = self.compute_cost(grammar)

    def symbol_cost(self, grammar, symbol, seen):
        if symbol in self.key_cost:
            return self.key_cost[symbol]
        if symbol in seen:
            self.key_cost[symbol] = float("inf")
            return float("inf")
        v = min(
            (self.expansion_cost(grammar, rule, seen | {symbol}) for rule in grammar.get(symbol, [])),
            default=0,
        )
        self.key_cost[symbol] = v
        return v

    def expansion_cost(self, grammar, tokens, seen):
        return max((self.symbol_cost(grammar, t, seen) for t in tokens if t in grammar), default=0) + 1

    def compute_cost(self, grammar):
        cost = {}
        for k in grammar:
            cost[k] = {}
            for rule in grammar[k]:
                cost[k][str(rule)] = self.expansion_cost(grammar, rule, set())
        return cost

    def tree_to_str(self, tree):
        name, children = tree
        if not children:
            # A nonterminal with an empty expansion derives b"" (the
            # reference returned its name: its grammars had no empty rules).
            return name if isinstance(name, bytes) else b""
        return b"".join(self.tree_to_str(c) for c in children)

    def gen_key(self, key, depth, max_depth):
        if key not in self.grammar:
            return (key, [])
        if depth > max_depth:
            clst = sorted([(self.cost[key][str(rule)], rule) for rule in self.grammar[key]], key=lambda x: x[0])
            rules = [r for c, r in clst if c == clst[0][0]]
        else:
            rules = self.grammar[key]
        return (key, self.gen_rule(random.choice(rules), depth + 1, max_depth))

    def gen_rule(self, rule, depth, max_depth):
        return [self.gen_key(token, depth, max_depth) for token in rule]

    def fuzz(self, key="<start>", max_depth=10):
        return self.tree_to_str(self.gen_key(key=key, depth=0, max_depth=max_depth))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("grammar")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--max-depth", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    sys.setrecursionlimit(100000)
    random.seed(args.seed)
    f = LimitFuzzer(load(args.grammar))
    n = total = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while True:
        total += len(f.fuzz("<start>", args.max_depth))
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= args.seconds:
            break
    cpu = time.process_time() - cpu_start
    print(
        f"{args.grammar}: {n} inputs, {total} bytes in {elapsed:.2f} s wall, {cpu:.2f} s cpu: "
        f"{total / elapsed / 2**20:.3f} MiB/s wall, {total / cpu / 2**20:.3f} MiB/s cpu "
        f"(max_depth {args.max_depth}, python {sys.version.split()[0]})"
    )


if __name__ == "__main__":
    main()
