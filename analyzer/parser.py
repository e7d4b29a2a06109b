"""Placeholder parser: clean ASCII tables only. Being replaced by the full parser."""

from __future__ import annotations

from analyzer.plan import ParseError, Plan


def parse(text: str, max_bytes: int = 1024 * 1024) -> Plan:
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ParseError(f"The paste is larger than {max_bytes} bytes.", too_large=True)
    lines = [line.strip() for line in text.splitlines()]
    cells = [line for line in lines if line.startswith("|")]
    if len(cells) < 2:
        raise ParseError("No EXPLAIN output found: expected the table, vertical, tab-separated, JSON or tree output of EXPLAIN.")
    columns = [c.strip().lower() for c in cells[0].strip("|").split("|")]
    rows = []
    for line in cells[1:]:
        values = [c.strip() for c in line.strip("|").split("|")]
        rows.append({name: (None if v == "NULL" else v) for name, v in zip(columns, values, strict=False)})
    return Plan(format="table", columns=columns, rows=rows)
