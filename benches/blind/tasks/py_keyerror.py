#!/usr/bin/env python3
"""Nightly billing export.

Reads invoice rows, groups them by customer and writes one export per
requested format.  Output formats are plugins registered with @exporter;
users may also ask for a format by one of its short aliases.
"""

import io
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, ROUND_HALF_UP

EXPORTERS = {}

# Short names accepted on the command line.
FORMAT_ALIASES = {
    "md": "markdown",
    "htm": "html",
    "tsv": "tab",
    "text": "plain",
}


def exporter(name):
    """Class decorator: register an exporter under its canonical name."""
    def wrap(cls):
        cls.format_name = name
        EXPORTERS[name] = cls
        return cls
    return wrap


@dataclass
class Invoice:
    number: str
    customer: str
    amount: Decimal
    currency: str = "EUR"
    tags: list = field(default_factory=list)

    @property
    def rounded(self):
        return self.amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


class Exporter:
    """Base class; subclasses override header(), row() and footer()."""

    format_name = None
    extension = "txt"
    columns = ("number", "customer", "amount", "currency")

    def __init__(self, stream=None, **options):
        self.stream = stream or io.StringIO()
        self.options = options
        self.count = 0

    def header(self, columns):
        pass

    def row(self, values):
        raise NotImplementedError(type(self).__name__ + ".row")

    def footer(self):
        pass

    def write(self, invoices):
        self.header(self.columns)
        for inv in invoices:
            self.row([inv.number, inv.customer, str(inv.rounded), inv.currency])
            self.count += 1
        self.footer()
        return self.stream.getvalue()


@exporter("plain")
class PlainExporter(Exporter):
    def row(self, values):
        self.stream.write(" ".join(values) + "\n")


@exporter("csv")
class CsvExporter(Exporter):
    extension = "csv"
    separator = ","

    def quote(self, value):
        if self.separator in value or '"' in value:
            return '"' + value.replace('"', '""') + '"'
        return value

    def header(self, columns):
        self.row(columns)

    def row(self, values):
        line = self.separator.join(self.quote(v) for v in values)
        self.stream.write(line + "\n")


@exporter("tsv")
class TabExporter(CsvExporter):
    extension = "tsv"
    separator = "\t"


@exporter("markdown")
class MarkdownExporter(Exporter):
    extension = "md"

    def header(self, columns):
        self.row(columns)
        self.row(["---"] * len(columns))

    def row(self, values):
        self.stream.write("| " + " | ".join(values) + " |\n")


@exporter("html")
class HtmlExporter(MarkdownExporter):
    extension = "html"

    def header(self, columns):
        self.stream.write("<table>\n")
        cells = "".join(f"<th>{c}</th>" for c in columns)
        self.stream.write(f"  <tr>{cells}</tr>\n")

    def row(self, values):
        cells = "".join(f"<td>{v}</td>" for v in values)
        self.stream.write(f"  <tr>{cells}</tr>\n")

    def footer(self):
        self.stream.write("</table>\n")


@exporter("json")
class JsonExporter(Exporter):
    extension = "json"

    def __init__(self, stream=None, **options):
        super().__init__(stream, **options)
        self.rows = []

    def row(self, values):
        self.rows.append(dict(zip(self.columns, values)))

    def footer(self):
        json.dump(self.rows, self.stream, indent=self.options.get("indent"))


def resolve_format(name):
    name = name.lower().strip()
    return FORMAT_ALIASES.get(name, name)


def make_exporter_factory(defaults):
    def factory(fmt, **overrides):
        options = dict(defaults)
        options.update(overrides)
        cls = EXPORTERS[resolve_format(fmt)]
        return cls(**options)
    return factory


def group_by_customer(invoices):
    groups = defaultdict(list)
    for inv in invoices:
        groups[inv.customer].append(inv)
    return dict(sorted(groups.items()))


def load_invoices():
    raw = [
        ("INV-1001", "acme", "120.50"),
        ("INV-1002", "globex", "99.999"),
        ("INV-1003", "acme", "15.00"),
        ("INV-1004", "initech", "1200.10"),
        ("INV-1005", "globex", "0.005"),
    ]
    return [Invoice(n, c, Decimal(a)) for n, c, a in raw]


def run(formats):
    factory = make_exporter_factory({"indent": 2})
    outputs = {}
    for customer, items in group_by_customer(load_invoices()).items():
        for fmt in formats:
            exp = factory(fmt)
            outputs[(customer, exp.extension)] = exp.write(items)
    return outputs


if __name__ == "__main__":
    results = run(["csv", "md", "json", "tsv", "html"])
    for (customer, ext), text in sorted(results.items()):
        print(f"== {customer}.{ext} ({len(text)} bytes)")
