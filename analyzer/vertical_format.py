"""Vertical output (`\\G`, `mysql -E`): a `*** N. row ***` line, then right-aligned `name: value` lines.

Names are right-aligned, so every field of a row has its colon in the same column; a line
without a colon there continues the previous value (a wrapped long value). A value may be
empty, and `Extra:` may have lost its trailing space.
"""

from __future__ import annotations

import re

from analyzer.resultset import CUT, ResultSet, describe_lines, value
from analyzer.textwidth import width

ROW_RE = re.compile(r"^\s*\*{5,} *(\d+)\. row *\*{5,}\s*$")
_FIELD_RE = re.compile(r"^( *)([A-Za-z_][\w$#]{0,63}):(?: (.*)|$)")


def starts_vertical(line: str) -> bool:
    return line.lstrip().startswith("*****") and ROW_RE.match(line) is not None


def parse_vertical(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    """Read consecutive `\\G` records from `lines[start]`; a `1. row` after the first starts a new result set."""
    n = len(lines)
    records: list[list[list[str]]] = []  # per record: [name, value] pairs
    record_lines: list[int] = []
    colon = None
    joined = 0
    widest = 0  # the longest line so far: a value wrapped by a terminal fills it
    j = start
    while j < n:
        line = lines[j]
        marker = ROW_RE.match(line) if line.lstrip().startswith("*") else None
        if marker:
            if records and marker.group(1) == "1":
                break
            records.append([])
            record_lines.append(numbers[j])
            colon = None
            j += 1
            continue
        if not line.strip():
            # A blank line ends the records unless another record follows it.
            k = j + 1
            while k < n and not lines[k].strip():
                k += 1
            if k < n and starts_vertical(lines[k]) and ROW_RE.match(lines[k]).group(1) != "1":
                j = k
                continue
            break
        widest = max(widest, width(line))
        field = _FIELD_RE.match(line)
        if field and (colon is None or len(field.group(1)) + len(field.group(2)) == colon):
            colon = len(field.group(1)) + len(field.group(2))
            records[-1].append([field.group(2), field.group(3) or ""])
        elif records[-1]:
            if width(lines[j - 1]) >= widest:
                records[-1][-1][1] += line  # cut at the terminal's width: nothing was lost
            else:
                records[-1][-1][1] += " " + line.strip(" ")  # wrapped at a space, which was dropped
            joined += 1
        else:
            break
        j += 1

    if not records or not any(records):
        return None, max(j, start + 1)
    columns: list[str] = []
    for record in records:
        for name, _ in record:
            if name.lower() not in columns:
                columns.append(name.lower())
    rows = []
    damaged = []
    for index, record in enumerate(records):
        row = {name.lower(): value(text.rstrip(" ")) for name, text in record}
        if len(row) < len(columns):
            damaged.append(index)
            row = {c: row.get(c, CUT) for c in columns}
        else:
            row = {c: row[c] for c in columns}
        rows.append(row)
    result = ResultSet("vertical", columns, rows, numbers[start])
    if joined:
        result.notices.append(f"Rejoined {joined} wrapped lines of long values in the vertical output.")
    if damaged:
        result.truncated = True
        result.affected_rows = damaged
        result.notices.append(
            f"The vertical output looks truncated: the record{'s' if len(damaged) > 1 else ''} starting on "
            f"{describe_lines([record_lines[i] for i in damaged])} lack fields the others have; "
            f"missing values are shown as '{CUT}'."
        )
    return result, j
