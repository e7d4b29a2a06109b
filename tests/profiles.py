"""Profile dicts built by hand for the tests and the render benchmark.

The analysis's `profile` key, as its contract describes it: None when the plan has no timings,
else `{"total_ms", "nodes"}` with one entry per timed node, slowest self time first. A node's total
is its last-row time times its loops (MySQL prints per-loop averages); its self time is its total
less its children's totals (a child without timings passes its own children's totals up), never
below zero; `share` is self time over the plan's total.
"""

from __future__ import annotations

from typing import Any

from analyzer import analyze


def _total(node: dict[str, Any]) -> float | None:
    last, loops = node.get("time_last_ms"), node.get("loops")
    return last * loops if last is not None and loops is not None else None


def _factor(node: dict[str, Any]) -> float | None:
    estimate, actual = node.get("rows_estimated"), node.get("rows_actual")
    return actual / estimate if estimate and actual else None


def _visit(node: dict[str, Any], path: list[int], entries: list[dict[str, Any]]) -> float:
    """Adds the entries of `node` and those under it; returns the time it passes up."""
    below = sum(_visit(child, [*path, n], entries) for n, child in enumerate(node.get("children") or []))
    total = _total(node)
    if total is None:
        return below
    entry = {
        "path": path,
        "label": node["label"],
        "table": node.get("table"),
        "loops": node.get("loops"),
        "total_ms": total,
        "self_ms": max(0.0, total - below),
        "rows_estimated": node.get("rows_estimated"),
        "rows_actual": node.get("rows_actual"),
        "estimate_factor": _factor(node),
    }
    entries.append(entry)
    return total


def build_profile(tree: dict[str, Any]) -> dict[str, Any] | None:
    """The profile of an analysis's `tree` (the query root), or None without timings."""
    entries: list[dict[str, Any]] = []
    total = _visit(tree, [], entries)
    if not entries:
        return None
    for entry in entries:
        entry["share"] = entry["self_ms"] / total if total else 0.0
    entries.sort(key=lambda e: -e["self_ms"])
    return {"total_ms": total, "nodes": entries}


def with_profile(analysis: dict[str, Any]) -> dict[str, Any]:
    """`analysis` given the profile of its tree unless it has one (the analyzer's own)."""
    if "profile" not in analysis:
        analysis["profile"] = build_profile(analysis["tree"])
    return analysis


def profiled(text: str, **options: Any) -> dict[str, Any]:
    """`analyze(text).to_dict()` with its profile."""
    return with_profile(analyze(text, **options).to_dict())
