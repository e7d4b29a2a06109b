"""Findings: what is wrong (or right) with a plan, read from its model.

`findings(plan)` looks at each node that stands for a printed row (full scans, sorts, temporary
tables, dependent subqueries, join buffers, unused indexes, low `filtered`, estimates that ANALYZE
proved wrong), at each select's join as a whole, and at the steps of the plan tree that ANALYZE
measured (estimates off on steps without a printed row, steps never executed, and the steps that
hold most of the time, from the plan's `Profile`), and returns the findings most severe first. A
finding about one node carries its `path` in the plan tree. Every figure comes from the model's
typed fields; a figure the paste does not give is left out, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from analyzer.deadline import check_deadline
from analyzer.insight import glossary
from analyzer.insight.profile import hotspot_findings, step_name
from analyzer.insight.rows import row_nodes
from analyzer.model import Finding, Plan, PlanNode, Profile
from analyzer.readers.resultset import CUT
from analyzer.wording import plural

# Thresholds. Row counts are the optimizer's estimates unless the name says otherwise.
SCAN_ROWS_WARNING = 100  # a full scan below this is only info: small tables are fine to scan
SCAN_ROWS_BAD = 10_000  # a full table scan from this size on is bad
JOIN_ROWS_WARNING = 100_000  # product of rows across one select's join
JOIN_ROWS_BAD = 10_000_000
FILTERED_LOW = 10.0  # percent of rows kept by the table's condition
FILTERED_MIN_ROWS = 1_000  # ignore low `filtered` on tables smaller than this
ESTIMATE_RATIO = 10.0  # actual rows vs estimate, either way
ESTIMATE_MIN_ROWS = 100  # ignore misestimates where both numbers stay below this

SEVERITY_ORDER = {"bad": 0, "warning": 1, "info": 2, "good": 3}
_Order = list[tuple[tuple[int, ...], PlanNode]]  # the plan tree's nodes with their paths, in plan order
_LOOKUP_TYPES = frozenset({"system", "const", "eq_ref", "ref"})
_RESULT_TYPES = frozenset({"UNION RESULT", "UNIT RESULT"})
_NO_ROWS_ITEMS = frozenset(
    {
        "extra-impossible-where",
        "extra-impossible-where-const",
        "extra-impossible-having",
        "extra-no-matching-row-in-const-table",
        "extra-const-row-not-found",
        "extra-unique-row-not-found",
        "extra-no-matching-min-max-row",
        "extra-no-matching-rows-after-partition-pruning",
        "extra-zero-limit",
    }
)
_NO_INDEX_JOIN_BUFFERS = {
    "extra-using-join-buffer": "warning",
    "extra-join-buffer-block-nested-loop": "warning",
    "extra-join-buffer-bnl": "warning",
    "extra-join-buffer-hash-join": "info",
    "extra-join-buffer-bnlh": "info",
}


def findings(plan: Plan, nodes: list[PlanNode] | None = None, timing: Profile | None = None) -> list[Finding]:
    """The plan's findings, most severe first. `nodes` are `row_nodes(plan)` when the caller has them;
    `timing` is the plan's profile (`insight.profile.profile(plan.tree)`), if it has one."""
    nodes = row_nodes(plan) if nodes is None else nodes
    # A column the paste does not have (lost with a cut line) says nothing, NULL least of all.
    key_seen = not plan.columns or "key" in plan.columns
    found: list[Finding] = []
    for index, node in enumerate(nodes):
        check_deadline()
        found.extend(_row_findings(index, node, key_seen))
    found.extend(_join_findings(nodes, "id" in plan.columns or not plan.columns))
    order = list(plan.tree.walk_paths()) if plan.tree is not None else []
    found.extend(_step_findings(order))
    found.extend(_never_executed(order))
    if plan.tree is not None:
        found.extend(hotspot_findings(timing, plan.tree))
    good = _all_lookups_finding(nodes, found)
    if good is not None:
        found.append(good)
    _link_paths(found, order)
    found.sort(key=lambda f: SEVERITY_ORDER.get(f.severity, 2))
    return found


def base_type(node: PlanNode) -> str:
    """The access type without MariaDB's rowid filter part (`ref|filter` -> `ref`), lower-cased."""
    parts = [part.strip() for part in (node.access_type or "").split("|") if part.strip()]
    return parts[0].lower() if parts else ""


def is_work_table(node: PlanNode) -> bool:
    """<union1,2>, <derived2>, <subquery3> and the like: work tables, not user tables."""
    return (node.table or "").startswith("<")


def _table(node: PlanNode, index: int) -> str:
    return f"`{node.table}`" if node.table else f"row {index + 1}"


def _fmt(value: float) -> str:
    """A row count for messages: 60,000 / 1.2e+15 / 0.5."""
    if value >= 1e15:
        return f"{value:.2g}"
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _rows(value: float) -> str:
    """`1 row`, `60,000 rows`, `0.5 rows`."""
    return f"{_fmt(value)} row" if value == 1 else f"{_fmt(value)} rows"


def _pct(value: float) -> str:
    return f"{value:.2f}%"


def _row_findings(index: int, node: PlanNode, key_seen: bool) -> Iterable[Finding]:
    table = _table(node, index)
    access = base_type(node)
    rows = node.rows_estimated
    slugs = [term.slug if (term := glossary.match("extra", item)) else "" for item in node.extra]
    found: list[Finding] = []
    if access == "all" and not is_work_table(node):
        found.append(_full_scan(index, table, rows))
    if access == "index" and "extra-using-index" not in slugs:
        found.append(_full_index_scan(index, table, rows))
    found.extend(_sort_and_temporary(index, table, slugs))
    found.extend(_subquery(index, node, table, rows))
    found.extend(_join_buffer(index, table, rows, node.extra, slugs))
    found.extend(_recheck_findings(index, table, slugs))
    if key_seen:
        found.extend(_unused_index(index, node, table, rows))
    found.extend(_low_filtered(index, node, table, rows))
    found.extend(_misestimate(index, node, table, rows))
    for item, slug in zip(node.extra, slugs, strict=True):
        if slug in _NO_ROWS_ITEMS:
            found.append(
                Finding("info", f"{table}: {item}: the optimizer found that no rows qualify.", [index], "no-rows")
            )
    return found


def _recheck_findings(index: int, table: str, slugs: list[str]) -> Iterable[Finding]:
    """Accesses re-planned for every row, and subqueries falling back to a scan on NULL."""
    if "extra-range-checked-for-each-record" in slugs:
        yield Finding(
            "warning",
            f"{table}: no index was chosen while planning, so the access method is re-evaluated for every row "
            "of the previous tables (Range checked for each record).",
            [index],
            "range-checked",
        )
    if "extra-full-scan-on-null-key" in slugs:
        yield Finding(
            "warning",
            f"{table}: the subquery falls back to a full scan whenever the outer value is NULL (Full scan on NULL key).",
            [index],
            "full-scan-on-null-key",
        )


def _rows_text(rows: float | None) -> str:
    return f"about {_rows(rows)}" if rows is not None else "an unknown number of rows"


def _full_scan(index: int, table: str, rows: float | None) -> Finding:
    if rows is not None and rows >= SCAN_ROWS_BAD:
        severity = "bad"
    elif rows is None or rows >= SCAN_ROWS_WARNING:
        severity = "warning"
    else:
        severity = "info"
    message = f"Full table scan on {table} (type ALL): {_rows_text(rows)} read."
    if severity != "info":
        message += " An index on the columns of its WHERE or join condition would let the server look rows up."
    return Finding(severity, message, [index], "full-table-scan")


def _full_index_scan(index: int, table: str, rows: float | None) -> Finding:
    severity = "info" if rows is not None and rows < SCAN_ROWS_WARNING else "warning"
    return Finding(
        severity,
        f"Full index scan on {table} (type index without Using index): {_rows_text(rows)}, each entry also "
        "fetching its table row.",
        [index],
        "full-index-scan",
    )


def _sort_and_temporary(index: int, table: str, slugs: list[str]) -> Iterable[Finding]:
    temporary = "extra-using-temporary" in slugs
    filesort = "extra-using-filesort" in slugs
    if temporary and filesort:
        return [
            Finding(
                "warning",
                f"{table}: rows go through a temporary table and are then sorted (Using temporary; Using filesort), "
                "typical of GROUP BY and ORDER BY on different columns.",
                [index],
                "temporary-filesort",
            )
        ]
    if temporary:
        return [
            Finding(
                "warning", f"{table}: an internal temporary table is built (Using temporary).", [index], "temporary"
            )
        ]
    if filesort:
        return [
            Finding(
                "warning",
                f"{table}: rows are sorted in an extra pass because no index gives the wanted order (Using filesort).",
                [index],
                "filesort",
            )
        ]
    return []


def _subquery(index: int, node: PlanNode, table: str, rows: float | None) -> Iterable[Finding]:
    select_type = " ".join((node.select_type or "").upper().split())
    label = f"select #{node.select_id}" if node.select_id is not None else "a subquery"
    per_run = f", {_rows_text(rows)} per run" if rows is not None else ""
    if select_type.startswith("UNCACHEABLE"):
        return [
            Finding(
                "bad",
                f"{select_type.capitalize()} ({label}, {table}{per_run}): its result cannot be reused, so it is "
                "run again for every row of the outer query.",
                [index],
                "uncacheable-subquery",
            )
        ]
    if select_type.startswith("DEPENDENT"):
        return [
            Finding(
                "warning",
                f"{select_type.capitalize()} ({label}, {table}{per_run}): it refers to the outer query and is "
                "evaluated again for outer rows.",
                [index],
                "dependent-subquery",
            )
        ]
    return []


def _join_buffer(index: int, table: str, rows: float | None, items: list[str], slugs: list[str]) -> Iterable[Finding]:
    for item, slug in zip(items, slugs, strict=True):
        severity = _NO_INDEX_JOIN_BUFFERS.get(slug)
        if severity is None:
            continue
        per_scan = f"; {_rows_text(rows)} per scan" if rows is not None else ""
        return [
            Finding(
                severity,
                f"{table} is joined through a join buffer ({item}): no index serves the join condition{per_scan}. "
                "An index on its join columns would turn the join into lookups.",
                [index],
                "join-buffer",
            )
        ]
    return []


def _unused_index(index: int, node: PlanNode, table: str, rows: float | None) -> Iterable[Finding]:
    possible = ",".join(node.possible_keys)
    if not possible or CUT in possible or (node.key and node.key.upper() != "NULL"):
        return []  # no list, a list cut short, or a key chosen
    return [
        Finding(
            "warning",
            f"{table}: possible_keys lists {possible} but no key was chosen ({_rows_text(rows)}); the indexes do not "
            "fit the condition well enough, or the table is small.",
            [index],
            "unused-index",
        )
    ]


def _low_filtered(index: int, node: PlanNode, table: str, rows: float | None) -> Iterable[Finding]:
    kept: float | None = node.filtered
    read, source = rows, "estimated"
    if node.r_filtered is not None and node.rows_actual is not None:
        kept, read, source = node.r_filtered, node.rows_actual, "measured"
    if kept is None or read is None or kept >= FILTERED_LOW or read < FILTERED_MIN_ROWS:
        return []
    return [
        Finding(
            "warning",
            f"{table}: only {_pct(kept)} ({source}) of about {_fmt(read)} rows read are kept by the condition. "
            "An index on the filtered columns would avoid reading the rest.",
            [index],
            "low-filtered",
        )
    ]


def _misestimate(index: int, node: PlanNode, table: str, rows: float | None) -> Iterable[Finding]:
    message = _estimate_off(table, rows, node.rows_actual, "read")
    return [Finding("warning", message, [index], "estimate-off")] if message else []


def _estimate_off(who: str, rows: float | None, actual: float | None, verb: str) -> str | None:
    """The message for an estimate ESTIMATE_RATIO times off or more, either way; None otherwise."""
    if actual is None or rows is None or max(actual, rows) < ESTIMATE_MIN_ROWS:
        return None
    ratio = max(actual, 1.0) / max(rows, 1.0)
    if 1 / ESTIMATE_RATIO < ratio < ESTIMATE_RATIO:
        return None
    direction = "more" if ratio > 1 else "fewer"
    factor = ratio if ratio > 1 else 1 / ratio
    return (
        f"{who}: the optimizer estimated {_rows(rows)} but {_fmt(actual)} {'was' if actual == 1 else 'were'} {verb} "
        f"({factor:.0f}x "
        f"{direction}). Outdated statistics (ANALYZE TABLE) or skewed data can mislead the plan."
    )


def _step_findings(order: _Order) -> Iterable[Finding]:
    """Estimates that ANALYZE proved wrong on the steps no printed row stands for (joins, filters,
    sorts, aggregates of tree and JSON output); the rows' own are `_misestimate`'s."""
    for path, node in order:
        if node.row is None and path and node.rows_actual is not None:
            message = _estimate_off(step_name(node), node.rows_estimated, node.rows_actual, "returned")
            if message:
                yield Finding("warning", message, [], "estimate-off", list(path))


def _never_executed(order: _Order) -> list[Finding]:
    """Steps ANALYZE shows never ran (`(never executed)`, loops or r_loops 0), each with the steps
    under it, which did not run either (they follow it in `order`). MariaDB reads const tables while
    planning and prints `r_loops: 0` for them: they did run."""
    found: list[Finding] = []
    index = 1  # after the root
    while index < len(order):
        path, node = order[index]
        if not _never_ran(node):
            index += 1
            continue
        steps = list(node.walk())
        name = step_name(node)
        under = f" (nor the {plural(len(steps) - 1, 'step')} under it)" if len(steps) > 1 else ""
        found.append(
            Finding(
                "info",
                f"{name[:1].upper()}{name[1:]} was never executed{under}: no row reached it, so ANALYZE measured "
                "nothing there and its estimates went untested.",
                sorted(n.row for n in steps if n.row is not None),
                "never-executed",
                list(path),
            )
        )
        index += len(steps)
    return found


def _never_ran(node: PlanNode) -> bool:
    """Loops 0 on a node that is no const table, and no step under it ran either."""
    if _loops(node) != 0 or base_type(node) in ("const", "system"):
        return False
    return not any(_loops(step) for step in node.walk())


def _loops(node: PlanNode) -> int | None:
    """How often the node ran: MySQL's loops, MariaDB's r_loops."""
    return node.loops if node.loops is not None else node.r_loops


def _link_paths(found: list[Finding], order: _Order) -> None:
    """Give each finding about one printed row the path of that row's node in the plan tree."""
    if not order or not any(f.path is None and len(f.rows) == 1 for f in found):
        return
    paths = {node.row: path for path, node in order if node.row is not None}
    for finding in found:
        if finding.path is None and len(finding.rows) == 1:
            path = paths.get(finding.rows[0])
            finding.path = list(path) if path is not None else None


def _join_findings(nodes: list[PlanNode], by_id: bool) -> Iterable[Finding]:
    """The product of estimated rows across each select's tables: a rough count of the row
    combinations a nested-loop join examines. A table joined by a hash join is read once, not
    once per row before it, so it is left out of the product."""
    groups: dict[int | None, list[int]] = {}
    for index, node in enumerate(nodes):
        if by_id and node.select_id is None:
            continue  # UNION RESULT and similar rows carry no select id
        if is_work_table(node) and node.select_type in _RESULT_TYPES:
            continue
        groups.setdefault(node.select_id if by_id else None, []).append(index)
    found = []
    for select_id, members in groups.items():
        counted = [
            (i, n) for i in members if (n := nodes[i].rows_estimated) is not None and nodes[i].join_algorithm != "hash"
        ]
        if len(counted) < 2:
            continue
        product = math.prod(n for _, n in counted)
        if product > JOIN_ROWS_BAD:
            severity = "bad"
        elif product > JOIN_ROWS_WARNING:
            severity = "warning"
        else:
            continue
        factors = " × ".join(f"{_fmt(n)} ({_table(nodes[i], i)})" for i, n in counted)
        label = f"Select #{select_id}" if select_id is not None else "The join"
        found.append(
            Finding(
                severity,
                f"{label} examines about {_fmt(product)} row combinations: {factors}.",
                [i for i, _ in counted],
                "join-rows",
            )
        )
    return found


def _all_lookups_finding(nodes: list[PlanNode], findings: list[Finding]) -> Finding | None:
    if any(f.severity in ("bad", "warning") for f in findings):
        return None
    tables = [i for i, node in enumerate(nodes) if base_type(node) and not is_work_table(node)]
    if not tables or any(base_type(nodes[i]) not in _LOOKUP_TYPES for i in tables):
        return None
    names = ", ".join(_table(nodes[i], i) for i in tables)
    return Finding(
        "good",
        f"Every table ({names}) is read through an index lookup (const, eq_ref or ref).",
        tables,
        "all-index-lookups",
    )
