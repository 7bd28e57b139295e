#!/usr/bin/env python3
"""Times Lark's Earley parser (lexer='dynamic') on the benchmark documents.

Usage: lark_compare.py GRAMMAR.json DOC [DOC...]

The grammar (fuzzingbook or token-list JSON, as grammar-min reads it) is
converted to an equivalent Lark grammar: nonterminal <a-b> becomes rule a_b,
every terminal becomes a literal. Lark parses str, not bytes, so documents
and terminals are mapped byte-for-char through latin-1 (which keeps byte
terminals such as the UTF-8 lead bytes of grammars/json.json exact).
Prints one line per document: name, bytes, best seconds of the runs.
"""
import json
import re
import sys
import time

from lark import Lark

NT = re.compile(r"(<[^<> ]*>)")


def rule_name(nt):
    return "n_" + re.sub(r"[^a-z0-9_]", "_", nt[1:-1].lower())


def literal(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 32 <= o < 127:
            out.append(ch)
        else:
            out.append("\\x%02x" % o)
    return '"' + "".join(out) + '"'


def tokens(alt):
    """Token list of one alternative: ('nt', name) / ('t', latin-1 str)."""
    if isinstance(alt, str):
        parts = [p for p in NT.split(alt) if p]
        return [("nt", p) if NT.fullmatch(p) else ("t", p.encode("utf-8").decode("latin-1")) for p in parts]
    out = []
    for tok in alt:
        if isinstance(tok, int):
            out.append(("t", chr(tok)))
        elif NT.fullmatch(tok):
            out.append(("nt", tok))
        elif tok:
            out.append(("t", tok.encode("utf-8").decode("latin-1")))
    return out


def convert(grammar):
    lines = []
    for nt, alts in grammar.items():
        exps = []
        for alt in alts:
            toks = tokens(alt)
            exps.append(" ".join(rule_name(v) if k == "nt" else literal(v) for k, v in toks))
        lines.append("%s: %s" % (rule_name(nt), "\n    | ".join(exps)))
    return "\n".join(lines) + "\n"


def main():
    grammar = json.load(open(sys.argv[1], encoding="utf-8"))
    lark_src = convert(grammar)
    parser = Lark(lark_src, start=rule_name("<start>"), parser="earley", lexer="dynamic")
    for doc in sys.argv[2:]:
        text = open(doc, "rb").read().decode("latin-1")
        rounds = 3 if len(text) < 10_000 else 1
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            parser.parse(text)
            best = min(best, time.perf_counter() - t0)
        print("%s %d %.4f" % (doc, len(text), best), flush=True)


if __name__ == "__main__":
    main()
