"""Compare two analyses (before and after a change, such as a new index). Pure Python.

Both arguments are analysis dicts as `Analysis.to_dict()` makes them (and as saved explains
store them). Tables are paired by name, in order of appearance, so a table read twice
(a self-join, a UNION) pairs its first reading with the other plan's first reading.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from analyzer.readers.cells import number

COMPARED_COLUMNS = ("select_type", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "extra")


def rows_examined(rows: list[dict[str, Any]]) -> float | None:
    """Estimated rows examined: the product of `rows` within each select id, summed over selects.

    None when no row has a readable `rows` figure.
    """
    per_select: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        value = number(row.get("rows"))
        if value is not None:
            per_select[str(row.get("id") or "")].append(value)
    if not per_select:
        return None
    return sum(math.prod(values) for values in per_select.values())


def _keyed(rows: list[dict[str, Any]]) -> dict[tuple[str, int], int]:
    """Maps (table name, nth reading of it) to the row index."""
    seen: dict[str, int] = defaultdict(int)
    keys = {}
    for index, row in enumerate(rows):
        table = str(row.get("table") or f"row {index + 1}")
        keys[(table, seen[table])] = index
        seen[table] += 1
    return keys


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from `before` to `after`, table by table.

    Returns `{"tables": [...], "rows_examined": {"before", "after", "ratio"}, "changed": n}`;
    each table entry has `table`, `status` ("changed", "same", "added" or "removed"), the row
    indices `before_row`/`after_row`, and `changes`: `{column: {"before", "after"}}`.
    """
    before_rows, after_rows = before.get("rows") or [], after.get("rows") or []
    before_keys, after_keys = _keyed(before_rows), _keyed(after_rows)
    tables = []
    for key, b_index in before_keys.items():
        a_index = after_keys.get(key)
        if a_index is None:
            tables.append(
                {"table": key[0], "status": "removed", "before_row": b_index, "after_row": None, "changes": {}}
            )
            continue
        b_row, a_row = before_rows[b_index], after_rows[a_index]
        changes = {
            column: {"before": b_row.get(column), "after": a_row.get(column)}
            for column in COMPARED_COLUMNS
            if (column in b_row or column in a_row) and b_row.get(column) != a_row.get(column)
        }
        status = "changed" if changes else "same"
        tables.append(
            {"table": key[0], "status": status, "before_row": b_index, "after_row": a_index, "changes": changes}
        )
    for key, a_index in after_keys.items():
        if key not in before_keys:
            tables.append({"table": key[0], "status": "added", "before_row": None, "after_row": a_index, "changes": {}})

    examined_before, examined_after = rows_examined(before_rows), rows_examined(after_rows)
    ratio = examined_after / examined_before if examined_before and examined_after is not None else None
    return {
        "tables": tables,
        "rows_examined": {"before": examined_before, "after": examined_after, "ratio": ratio},
        "changed": sum(1 for t in tables if t["status"] != "same"),
    }
