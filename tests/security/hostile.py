"""Hostile strings, pastes of every format that carry them, and the checks a page must pass."""

from __future__ import annotations

import json

from tests.ui.html import parse

# No `|` or tab in these, so they fit in a table or TSV cell without changing its shape.
PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '"><svg onload=alert(3)>',
    "javascript:alert(4)",
    "{{ 7*7 }}",
    "{% debug %}",
    "</textarea><script>alert(5)</script>",
    "'-alert(6)-'",
    "a\u2028b\u2029c",
    "\u202eevil\u202c",
    "</title><script>alert(7)</script>",
    "<!--",
    "]]><x>",
    "&lt;script&gt;",
    "W" * 3000,
]
DANGEROUS_SCHEMES = ("javascript:", "data:text/html", "vbscript:")
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data"}


def _box(columns: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([border, line(columns), border, *(line(r) for r in rows), border]) + "\n"


COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]


def _rows(payload: str) -> list[list[str]]:
    return [
        ["1", "SIMPLE", payload, "ALL", payload, "NULL", "NULL", "NULL", "10", "Using where; " + payload],
        ["1", "SIMPLE", "t2", "ref", "idx", payload, "4", payload, "1", payload],
    ]


def table_paste(payload: str) -> str:
    return _box(COLUMNS, _rows(payload))


def vertical_paste(payload: str) -> str:
    lines = []
    for number, row in enumerate(_rows(payload), start=1):
        lines.append(f"*************************** {number}. row ***************************")
        lines += [f"{name.rjust(13)}: {value}" for name, value in zip(COLUMNS, row, strict=True)]
    return "\n".join(lines) + "\n"


def tsv_paste(payload: str) -> str:
    return "\n".join("\t".join(r) for r in [COLUMNS, *_rows(payload)]) + "\n"


def json_paste(payload: str) -> str:
    plan = {
        "query_block": {
            "select_id": 1,
            "nested_loop": [
                {"table": {"table_name": payload, "access_type": "ALL", "rows_examined_per_scan": 10,
                           "possible_keys": [payload], "attached_condition": payload}},
                {"table": {"table_name": "t2", "access_type": "ref", "key": payload, "used_key_parts": [payload],
                           "ref": [payload], "rows_examined_per_scan": 1, "filtered": "100.00"}},
            ],
        }
    }  # fmt: skip
    return "EXPLAIN\n" + json.dumps(plan, indent=2) + "\n"


def tree_paste(payload: str) -> str:
    return (
        f"-> Nested loop inner join  (cost=4.50 rows=10)\n"
        f"    -> Filter: (t1.a = '{payload}')  (cost=1.25 rows=10)\n"
        f"        -> Table scan on t1  (cost=1.25 rows=10)\n"
        f"    -> Index lookup on t2 using {payload[:20].replace(' ', '_')} (b=t1.a)  (cost=0.25 rows=1)\n"
    )


def tree_analyze_paste(payload: str) -> str:
    """EXPLAIN ANALYZE: its labels go into the profile's tree, graph and SVG file."""
    return (
        f"-> Nested loop inner join  (cost=4.50 rows=10) (actual time=0.1..2.5 rows=10 loops=1)\n"
        f"    -> Filter: (t1.a = '{payload}')  (cost=1.25 rows=10) (actual time=0.1..1.5 rows=10 loops=1)\n"
        f"        -> Table scan on t1  (cost=1.25 rows=10) (actual time=0.1..1.2 rows=10 loops=1)\n"
        f"    -> Index lookup on t2 using {payload[:20].replace(' ', '_')} (b=t1.a)  (cost=0.25 rows=1) (never executed)\n"
    )


PASTES = {
    "table": table_paste,
    "vertical": vertical_paste,
    "tsv": tsv_paste,
    "json": json_paste,
    "tree": tree_paste,
    "tree_analyze": tree_analyze_paste,
}
# The page's own SVG: the time profile's graph and its bars (never built from a paste's markup).
OWN_SVG = {"icicle", "share-bar"}


def hostile_query(payload: str) -> str:
    return f"SELECT * FROM t1 JOIN t2 ON t2.b = t1.a WHERE t1.a = '{payload}' -- {payload}"


def inert_problems(markup: str | bytes) -> list[str]:
    """What would run in a browser: scripts other than our static files, event handler
    attributes, dangerous URL schemes, inline styles; empty when the page is inert."""
    problems = []
    doc = parse(markup)
    for node in doc.iter():
        if node.tag == "script":
            src = node.attrs.get("src") or ""
            if not src.startswith("/static/") or node.text.strip():
                problems.append(f"script element src={src!r} text={node.text[:60]!r}")
        if node.tag in {"svg", "iframe", "object", "embed", "base", "x"} and not (
            node.tag == "svg" and node.classes & OWN_SVG
        ):
            problems.append(f"injected <{node.tag}>")
        if node.tag == "img" and not (node.attrs.get("src") or "").startswith(("/static/", "data:image/")):
            problems.append(f"injected <img src={node.attrs.get('src')!r}>")
        for name, value in node.attrs.items():
            if name.startswith("on"):
                problems.append(f"event handler {name} on <{node.tag}>")
            if name == "style":
                problems.append(f"inline style on <{node.tag}>")
            cleaned = "".join((value or "").split()).lower()
            if name in URL_ATTRIBUTES and cleaned.startswith(DANGEROUS_SCHEMES):
                problems.append(f"{name}={value!r} on <{node.tag}>")
    return problems


def assert_inert(markup: str | bytes, where: str = "") -> None:
    problems = inert_problems(markup)
    assert not problems, f"{where}: {problems[:5]}"
