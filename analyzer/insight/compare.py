"""Compare two analyses (before and after a change, such as a new index). Pure Python.

Both arguments are analysis dicts as `Analysis.to_dict()` makes them (and as saved explains
store them); each is read into its plan model. Tables are paired by name, in order of appearance,
so a table read twice (a self-join, a UNION) pairs its first reading with the other plan's first
reading. What changed is shown as printed; the rows examined come from the models' figures, and
the measured times (EXPLAIN ANALYZE) from each analysis's `profile`, when it has one.
"""

from __future__ import annotations

import math
from collections import defaultdict

from analyzer.insight.rows import row_nodes
from analyzer.model import Plan, PlanNode
from analyzer.readers.plan_model import stored_model

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COMPARED_COLUMNS = ("select_type", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "extra")


def rows_examined(nodes: list[PlanNode]) -> float | None:
    """Estimated rows examined: the product of estimated rows within each select, summed over
    selects. A hash-joined table is read once, so it adds its rows instead of multiplying them.

    None when no node has an estimate.
    """
    per_select: dict[int | None, list[PlanNode]] = defaultdict(list)
    for node in nodes:
        if node.rows_estimated is not None:
            per_select[node.select_id].append(node)
    if not per_select:
        return None
    total = 0.0
    for members in per_select.values():
        joined = [n.rows_estimated or 0.0 for n in members if n.join_algorithm != "hash"]
        hashed = [n.rows_estimated or 0.0 for n in members if n.join_algorithm == "hash"]
        total += (math.prod(joined) if joined else 0.0) + sum(hashed)
    return total


def _keyed(rows: list[dict[str, Any]]) -> dict[tuple[str, int], int]:
    """Maps (table name, nth reading of it) to the row index."""
    seen: dict[str, int] = defaultdict(int)
    keys = {}
    for index, row in enumerate(rows):
        table = str(row.get("table") or f"row {index + 1}")
        keys[(table, seen[table])] = index
        seen[table] += 1
    return keys


def _nodes(analysis: dict[str, Any], rows: list[dict[str, Any]], model: PlanNode) -> list[PlanNode]:
    """The model node of each printed row of a stored analysis (`model`: its plan model)."""
    plan = Plan(format=str(analysis.get("format") or "table"), columns=list(analysis.get("columns") or []))
    plan.rows, plan.tree = rows, model
    return row_nodes(plan)


def _measured(analysis: dict[str, Any], model: PlanNode) -> tuple[float | None, dict[int, float]]:
    """The plan's measured total time and each printed row's time (its node's `total_ms` in the
    profile, found by the node's path), or (None, {}) without a profile."""
    profile = analysis.get("profile")
    if not isinstance(profile, dict) or not _is_number(profile.get("total_ms")):
        return None, {}
    by_path = {
        tuple(entry["path"]): float(entry["total_ms"])
        for entry in profile.get("nodes") or []
        if isinstance(entry, dict) and isinstance(entry.get("path"), list) and _is_number(entry.get("total_ms"))
    }
    times: dict[int, float] = {}
    stack: list[tuple[PlanNode, tuple[int, ...]]] = [(model, ())]
    while stack:
        node, path = stack.pop()
        if node.row is not None and path in by_path:
            times.setdefault(node.row, by_path[path])
        stack.extend((child, (*path, n)) for n, child in enumerate(node.children))
    return float(profile["total_ms"]), times


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _change(before: float | None, after: float | None) -> dict[str, float | None]:
    """`{"before", "after", "ratio"}`: the ratio is after / before, None unless both are known."""
    ratio = after / before if before and after is not None else None
    return {"before": before, "after": after, "ratio": ratio}


def _paired(before_rows: list[dict[str, Any]], after_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per table of either plan: removed, added, changed (with the cells that differ) or same."""
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
    return tables


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from `before` to `after`, table by table.

    Returns `{"tables": [...], "rows_examined": {"before", "after", "ratio"}, "time_ms": {"before",
    "after", "ratio"}, "changed": n}`; each table entry has `table`, `status` ("changed", "same",
    "added" or "removed"), the row indices `before_row`/`after_row`, `changes`: `{column: {"before",
    "after"}}`, and `time_ms`: `{"before", "after", "ratio"}`, the measured time of its step (with the
    steps under it). Times are None where an analysis has no profile; ratios are after / before.
    """
    before_rows = [r for r in before.get("rows") or [] if isinstance(r, dict)]
    after_rows = [r for r in after.get("rows") or [] if isinstance(r, dict)]
    before_model, after_model = stored_model(before), stored_model(after)
    tables = _paired(before_rows, after_rows)
    examined_before = rows_examined(_nodes(before, before_rows, before_model))
    examined_after = rows_examined(_nodes(after, after_rows, after_model))
    total_before, times_before = _measured(before, before_model)
    total_after, times_after = _measured(after, after_model)
    for table in tables:
        table["time_ms"] = _change(
            times_before.get(table["before_row"]) if table["before_row"] is not None else None,
            times_after.get(table["after_row"]) if table["after_row"] is not None else None,
        )
    return {
        "tables": tables,
        "rows_examined": _change(examined_before, examined_after),
        "time_ms": _change(total_before, total_after),
        "changed": sum(1 for t in tables if t["status"] != "same"),
    }
