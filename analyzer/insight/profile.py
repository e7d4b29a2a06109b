"""The time profile of a plan: what each step of an EXPLAIN ANALYZE took, with and without the steps
under it, and its share of the whole.

`profile(tree)` reads the plan model and returns a `Profile` (one entry per timed node, most self
time first), or None when no node has a time: plain EXPLAIN, MariaDB's tabular ANALYZE (`r_rows`
and `r_filtered`, no times), MySQL's `(actual rows=… loops=…)` printed without times. Times are
milliseconds over all loops; how a node's total and self time are read depends on the server.

- MySQL (`EXPLAIN ANALYZE`, as a tree or `FORMAT=JSON`) prints a node's time to its last row as an
  average per loop, the steps under it included ("including child iterators", says the manual).
  Its total is that time multiplied by its loops; its self time is its total minus the totals of
  its children, never below zero. A child without a time of its own (`Select #2 (subquery in
  condition; dependent)`, `Hash`) passes up the totals of the children under it.
- MariaDB (`ANALYZE FORMAT=JSON`) prints totals over all loops. A table's own time is
  `r_table_time_ms + r_other_time_ms` (newer servers; the model adds a join buffer's time to the
  latter) or its `r_total_time_ms` (older ones): reading the table and checking its condition. It
  never holds what hangs under the table (a derived table's materialization is timed in that
  select's `r_total_time_ms`, a subquery in its condition in the subquery's), so its total is its
  own time plus its children's totals. A select or an operation (`filesort`, …) prints
  `r_total_time_ms`, which the MariaDB documentation says includes the nodes under it. That holds
  for what runs inside it but not for what ran before it: a filesort of a temporary table is timed
  after the join filled the table, a subquery that is a constant runs while the query is planned
  (captures in tests/fixtures/json/mariadb/). So its children count as inside it, tables first, as
  long as their totals fit in its time: its self time is its time minus those, and the children
  that do not fit are added to its total. MariaDB prints no `r_loops` for the single pass of a
  one-table UPDATE or DELETE; that counts as one loop.

The plan's total is the root's total. Where a node printed less time than its children took (MySQL
8.0.18 timed the scan of a temporary table without the aggregation that filled it), the self times,
clamped at zero, add up to more than that; the total is then their sum, so that shares stay
between 0 and 1 and add up to 1.

`hotspot_findings()` names the steps that hold most of the time.
"""

from __future__ import annotations

import math

from analyzer.model import Finding, PlanNode, Profile, ProfileNode
from analyzer.structs import dataclass

# The slowest steps are named until together they hold this share of the time, at most
# HOTSPOT_MAX of them, none holding less than HOTSPOT_MIN_SHARE.
HOTSPOT_SHARE = 0.5
HOTSPOT_MAX = 3
HOTSPOT_MIN_SHARE = 0.1
# Relative slack when sums of printed times are compared with another printed time.
_SLACK = 1e-9
LABEL_WIDTH = 100  # labels in messages are cut to this many characters


@dataclass(slots=True)
class _Timed:
    """A node's time over all its loops, with (`total`) and without (`own`) the steps under it."""

    total: float
    own: float
    loops: int
    clamped: bool = False


def profile(tree: PlanNode) -> Profile | None:
    """Where the time of the plan under `tree` went, or None when no node of it has a time."""
    totals: dict[int, float] = {}  # id(node) -> its total, for every node with a time in its subtree
    timed: list[tuple[tuple[int, ...], PlanNode, _Timed]] = []
    for path, node in reversed(list(tree.walk_paths())):  # children before their parents
        children = [(child, totals[id(child)]) for child in node.children if id(child) in totals]
        measured = _measure(node, children)
        if measured is not None:
            totals[id(node)] = measured.total
            timed.append((path, node, measured))
        elif children:
            totals[id(node)] = math.fsum(total for _, total in children)
    if not timed:
        return None
    clamped = any(measured.clamped for _, _, measured in timed)
    total = math.fsum(measured.own for _, _, measured in timed) if clamped else totals[id(tree)]
    entries = [_entry(path, node, measured, total) for path, node, measured in reversed(timed)]
    entries.sort(key=lambda entry: -entry.self_ms)  # stable: plan order among equals
    return Profile(total_ms=total, nodes=entries)


def _measure(node: PlanNode, children: list[tuple[PlanNode, float]]) -> _Timed | None:
    """The node's own figures, given its children's totals; None when it printed no time."""
    inside = math.fsum(total for _, total in children)
    if node.time_last_ms is not None and node.loops is not None:  # MySQL: per loop, children included
        total = node.time_last_ms * node.loops
        return _Timed(total, max(0.0, total - inside), node.loops, inside - total > _SLACK * max(total, 1.0))
    loops = node.r_loops if node.r_loops is not None else node.loops if node.loops is not None else 1
    own = _table_time(node)
    if own is not None:
        return _Timed(own + inside, own, loops)
    if node.r_total_time_ms is not None:
        held, outside = _fit(node.r_total_time_ms, children)
        return _Timed(node.r_total_time_ms + outside, max(0.0, node.r_total_time_ms - held), loops)
    return None


def _table_time(node: PlanNode) -> float | None:
    """A MariaDB table's own time: reading it and checking its condition, over all loops."""
    if node.table is None:
        return None
    read = node.r_table_time_ms if node.r_table_time_ms is not None else node.r_total_time_ms
    parts = [part for part in (read, node.r_other_time_ms) if part is not None]
    return math.fsum(parts) if parts else None


def _fit(time: float, children: list[tuple[PlanNode, float]]) -> tuple[float, float]:
    """The children's totals that fit in `time`, tables first, and the sum of those that do not."""
    held = outside = 0.0
    for _, total in sorted(children, key=lambda item: item[0].table is None):
        if held + total <= time + _SLACK * max(time, 1.0):
            held += total
        else:
            outside += total
    return held, outside


def _entry(path: tuple[int, ...], node: PlanNode, measured: _Timed, total: float) -> ProfileNode:
    """The profile's entry for a timed node; `total` is the plan's."""
    actual, estimated = node.rows_actual, node.rows_estimated
    return ProfileNode(
        path=path,
        label=node.label,
        table=node.table,
        loops=measured.loops,
        total_ms=measured.total,
        self_ms=measured.own,
        share=measured.own / total if total > 0 else 0.0,
        rows_estimated=estimated,
        rows_actual=actual,
        estimate_factor=actual / estimated if actual and estimated else None,
    )


def node_at(tree: PlanNode, path: list[int] | tuple[int, ...]) -> PlanNode:
    """The node `path` leads to from `tree` (child indexes, as in the profile and findings)."""
    node = tree
    for index in path:
        node = node.children[index]
    return node


def hotspot_findings(timing: Profile | None, tree: PlanNode) -> list[Finding]:
    """The steps holding most of the time: the slowest by self time, until together they hold
    HOTSPOT_SHARE of it."""
    if timing is None or timing.total_ms <= 0:
        return []
    found: list[Finding] = []
    held = 0.0
    for entry in timing.nodes[:HOTSPOT_MAX]:
        if held >= HOTSPOT_SHARE or entry.share < HOTSPOT_MIN_SHARE:
            break
        held += entry.share
        node = node_at(tree, entry.path)
        rows = [node.row] if node.row is not None else []
        message = _hotspot_message(entry, node, timing.total_ms)
        found.append(Finding("info", message, rows, "time-hotspot", list(entry.path)))
    return found


def _hotspot_message(entry: ProfileNode, node: PlanNode, total: float) -> str:
    """`69% of the time (39.976 of 58.104 ms) is in Index lookup on payment …: 19.988 ms x 2 loops.`"""
    nested = entry.self_ms < entry.total_ms
    loops = f"{entry.loops:,} loop{'' if entry.loops == 1 else 's'}"
    if node.time_last_ms is not None:  # MySQL's time per loop, as printed
        timing = f"{node.time_last_ms:,.15g} ms x {loops}"
    else:
        timing = f"{format_ms(entry.total_ms)} ms in {loops}"
    return (
        f"{entry.share * 100:.0f}% of the time ({format_ms(entry.self_ms)} of {format_ms(total)} ms) is in "
        f"{step_name(node)}{' itself' if nested else ''}: {timing}"
        f"{' with the steps under it' if nested else ''}."
    )


def step_name(node: PlanNode) -> str:
    """A step as messages name it: its label as printed, cut to LABEL_WIDTH ("Index lookup on o
    using …"), or "table `orders`" for a table whose label is only its name (MariaDB JSON)."""
    return f"table `{node.table}`" if node.table and node.label == node.table else short_label(node.label)


def short_label(label: str, width: int = LABEL_WIDTH) -> str:
    """The label, cut to `width` characters with `…` when longer."""
    return label if len(label) <= width else label[: width - 1].rstrip() + "…"


def format_ms(value: float) -> str:
    """Milliseconds for people: `58.104`, `44,468.229`, `0.09`, `0.00022`."""
    if 0 < value < 0.001:
        return f"{value:.2g}"
    return f"{value:,.3f}".rstrip("0").rstrip(".")


def format_factor(value: float | None) -> str:
    """An estimate factor (actual over estimated rows): `3.18`, `0.00101`, `1,005`; empty when unknown."""
    if value is None:
        return ""
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"
