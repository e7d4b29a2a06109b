"""Annotations and findings for a parsed EXPLAIN plan.

`annotate(plan)` explains each select_type, type and Extra item through the glossary and
derives findings (full scans, row blowups, sorts, dependent subqueries, bad estimates, ...).
Pure functions, no Django. Cells come as printed ("4 (15%)", "161.00", None, "") from any
format; a number that cannot be read is left out, never guessed, and nothing here raises.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

from analyzer.insight import glossary
from analyzer.model import Annotation, Finding, Plan

# Thresholds. Row counts are the optimizer's estimates unless the name says otherwise.
SCAN_ROWS_WARNING = 100  # a full scan below this is only info: small tables are fine to scan
SCAN_ROWS_BAD = 10_000  # a full table scan from this size on is bad
JOIN_ROWS_WARNING = 100_000  # product of rows across one select's join
JOIN_ROWS_BAD = 10_000_000
FILTERED_LOW = 10.0  # percent of rows kept by the table's condition
FILTERED_MIN_ROWS = 1_000  # ignore low `filtered` on tables smaller than this
ESTIMATE_RATIO = 10.0  # actual rows vs estimate, either way
ESTIMATE_MIN_ROWS = 100  # ignore misestimates where both numbers stay below this

_SEVERITY_ORDER = {"bad": 0, "warning": 1, "info": 2, "good": 3}
_LOOKUP_TYPES = frozenset({"system", "const", "eq_ref", "ref"})
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
_NUMBER = re.compile(r"\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
_EXTRA_SEPARATOR = re.compile(r";\s*")


def annotate(plan: Plan) -> tuple[list[Annotation], list[Finding]]:
    """Annotate every row of `plan` and list its findings, most severe first.

    Annotations cover the select_type, the type (both parts of MariaDB's `ref|filter`) and each
    "; "-separated Extra item; items the glossary does not know get no annotation. Never raises
    on odd cells: rows that are not mappings are skipped.
    """
    rows = [_clean(row) for row in (plan.rows or [])]
    annotations: list[Annotation] = []
    for index, row in enumerate(rows):
        annotations.extend(_annotate_row(index, row))
    findings = _findings(rows)
    findings.sort(key=lambda f: _SEVERITY_ORDER.get(f.severity, 2))
    return annotations, findings


# --- cells -------------------------------------------------------------------------------------


_COLUMNS_USED = (
    "id",
    "select_type",
    "table",
    "type",
    "possible_keys",
    "key",
    "rows",
    "r_rows",
    "filtered",
    "r_filtered",
    "extra",
)
Cells = dict[str, "str | None"]


def _clean(row: object) -> Cells:
    """The cells this module reads, as stripped strings (None for NULL or unreadable values).

    A column the row does not have stays absent; anything that is not a mapping counts as an empty row.
    """
    if not isinstance(row, Mapping):
        return {}
    return {column: _text(row[column]) for column in _COLUMNS_USED if column in row}


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def number(value: object) -> float | None:
    """The leading number of a cell ("4 (15%)" -> 4, "1.5e+06", "100.00"), or None if there is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        result = float(value)
    elif isinstance(value, str):
        found = _NUMBER.match(value)
        if found is None:
            return None
        try:
            result = float(found.group(1))
        except (ValueError, OverflowError):
            return None
    else:
        return None
    return result if math.isfinite(result) else None


def extra_items(extra: str | None) -> list[str]:
    """The items of an Extra cell, split on ";", stripped, empty ones left out."""
    if not extra:
        return []
    return [item.strip() for item in _EXTRA_SEPARATOR.split(extra) if item.strip()]


def _type_parts(value: str | None) -> list[str]:
    """`ref|filter` -> ["ref", "filter"]; a plain type -> [type]."""
    if not value:
        return []
    return [part.strip() for part in value.split("|") if part.strip()]


def _base_type(row: Cells) -> str:
    parts = _type_parts(row.get("type"))
    return parts[0].lower() if parts else ""


def _table(row: Cells, index: int) -> str:
    name = row.get("table")
    return f"`{name}`" if name else f"row {index + 1}"


def _is_temporary_table(row: Cells) -> bool:
    """<union1,2>, <derived2>, <subquery3> and the like: work tables, not user tables."""
    name = row.get("table") or ""
    return name.startswith("<")


def _fmt(value: float) -> str:
    """A row count for messages: 60,000 / 1.2e+15 / 0.5."""
    if value >= 1e15:
        return f"{value:.2g}"
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _pct(value: float) -> str:
    return f"{value:.2f}%"


# --- annotations -------------------------------------------------------------------------------


def _annotation(index: int, column: str, printed: str, match_value: str | None = None) -> Annotation | None:
    term = glossary.match(column, match_value if match_value is not None else printed)
    if term is None:
        return None
    return Annotation(
        row=index,
        column=column,
        term=printed,
        severity=term.severity,
        title=term.title,
        explanation=term.explanation,
        url=term.url,
        slug=term.slug,
    )


def _annotate_row(index: int, row: Cells) -> Iterable[Annotation]:
    candidates: list[Annotation | None] = []
    select_type = row.get("select_type")
    if select_type:
        candidates.append(_annotation(index, "select_type", select_type))
    access = row.get("type")
    parts = _type_parts(access)
    if len(parts) > 1 and parts[-1].lower() == "filter":
        # MariaDB's rowid filter: explain the access method and the filter separately.
        candidates.append(_annotation(index, "type", parts[0]))
        candidates.append(_annotation(index, "type", parts[-1], access))
    elif access:
        scan = _annotation(index, "type", access)
        if scan is not None and _is_temporary_table(row) and scan.severity in ("bad", "warning"):
            # Reading back a UNION result or a derived table in full is how those work tables are used.
            scan.severity = "info"
        candidates.append(scan)
    for item in extra_items(row.get("extra")):
        candidates.append(_annotation(index, "extra", item))
    return [a for a in candidates if a is not None]


# --- findings ----------------------------------------------------------------------------------


def _findings(rows: list[Cells]) -> list[Finding]:
    findings: list[Finding] = []
    for index, row in enumerate(rows):
        findings.extend(_row_findings(index, row))
    findings.extend(_join_findings(rows))
    good = _all_lookups_finding(rows, findings)
    if good is not None:
        findings.append(good)
    return findings


def _row_findings(index: int, row: Cells) -> Iterable[Finding]:
    table = _table(row, index)
    access = _base_type(row)
    rows = number(row.get("rows"))
    items = extra_items(row.get("extra"))
    slugs = [term.slug if (term := glossary.match("extra", item)) else "" for item in items]
    found: list[Finding] = []

    if access == "all" and not _is_temporary_table(row):
        found.append(_full_scan(index, table, rows))
    if access == "index" and "extra-using-index" not in slugs:
        found.append(_full_index_scan(index, table, rows))
    found.extend(_sort_and_temporary(index, table, slugs))
    found.extend(_subquery(index, row, table, rows))
    found.extend(_join_buffer(index, table, rows, items, slugs))
    if "extra-range-checked-for-each-record" in slugs:
        found.append(
            Finding(
                "warning",
                f"{table}: no index was chosen while planning, so the access method is re-evaluated for every row "
                "of the previous tables (Range checked for each record).",
                [index],
                "range-checked",
            )
        )
    if "extra-full-scan-on-null-key" in slugs:
        found.append(
            Finding(
                "warning",
                f"{table}: the subquery falls back to a full scan whenever the outer value is NULL (Full scan on NULL key).",
                [index],
                "full-scan-on-null-key",
            )
        )
    found.extend(_unused_index(index, row, table, rows))
    found.extend(_low_filtered(index, row, table, rows))
    found.extend(_misestimate(index, row, table, rows))
    for item, slug in zip(items, slugs, strict=True):
        if slug in _NO_ROWS_ITEMS:
            found.append(
                Finding("info", f"{table}: {item}: the optimizer found that no rows qualify.", [index], "no-rows")
            )
    return found


def _rows_text(rows: float | None) -> str:
    return f"about {_fmt(rows)} rows" if rows is not None else "an unknown number of rows"


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


def _subquery(index: int, row: Cells, table: str, rows: float | None) -> Iterable[Finding]:
    select_type = (row.get("select_type") or "").upper()
    select_type = " ".join(select_type.split())
    select_id = row.get("id")
    label = f"select #{select_id}" if select_id else "a subquery"
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


def _unused_index(index: int, row: Cells, table: str, rows: float | None) -> Iterable[Finding]:
    possible = row.get("possible_keys")
    key = row.get("key")
    if not possible or possible.upper() == "NULL" or (key and key.upper() != "NULL"):
        return []
    return [
        Finding(
            "warning",
            f"{table}: possible_keys lists {possible} but no key was chosen ({_rows_text(rows)}); the indexes do not "
            "fit the condition well enough, or the table is small.",
            [index],
            "unused-index",
        )
    ]


def _low_filtered(index: int, row: Cells, table: str, rows: float | None) -> Iterable[Finding]:
    measured = number(row.get("r_filtered"))
    actual_rows = number(row.get("r_rows"))
    if measured is not None and actual_rows is not None:
        kept, read, source = measured, actual_rows, "measured"
    else:
        kept, read, source = number(row.get("filtered")), rows, "estimated"
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


def _misestimate(index: int, row: Cells, table: str, rows: float | None) -> Iterable[Finding]:
    actual = number(row.get("r_rows"))
    if actual is None or rows is None or max(actual, rows) < ESTIMATE_MIN_ROWS:
        return []
    ratio = max(actual, 1.0) / max(rows, 1.0)
    if 1 / ESTIMATE_RATIO < ratio < ESTIMATE_RATIO:
        return []
    direction = "more" if ratio > 1 else "fewer"
    factor = ratio if ratio > 1 else 1 / ratio
    return [
        Finding(
            "warning",
            f"{table}: the optimizer estimated {_fmt(rows)} rows but {_fmt(actual)} were read ({factor:.0f}x "
            f"{direction}). Outdated statistics (ANALYZE TABLE) or skewed data can mislead the plan.",
            [index],
            "estimate-off",
        )
    ]


def _join_findings(rows: list[Cells]) -> Iterable[Finding]:
    """The product of `rows` across each select's tables: a rough count of row combinations examined."""
    groups: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        if "id" in row and row.get("id") is None:
            continue  # UNION RESULT and similar rows carry no select id
        if _is_temporary_table(row) and row.get("select_type") in {"UNION RESULT", "UNIT RESULT"}:
            continue
        groups.setdefault(row.get("id") or "", []).append(index)
    found = []
    for select_id, members in groups.items():
        counted = [(i, n) for i in members if (n := number(rows[i].get("rows"))) is not None]
        if len(counted) < 2:
            continue
        product = math.prod(n for _, n in counted)
        if product > JOIN_ROWS_BAD:
            severity = "bad"
        elif product > JOIN_ROWS_WARNING:
            severity = "warning"
        else:
            continue
        factors = " × ".join(f"{_fmt(n)} ({_table(rows[i], i)})" for i, n in counted)
        label = f"Select #{select_id}" if select_id else "The join"
        found.append(
            Finding(
                severity,
                f"{label} examines about {_fmt(product)} row combinations: {factors}.",
                [i for i, _ in counted],
                "join-rows",
            )
        )
    return found


def _all_lookups_finding(rows: list[Cells], findings: list[Finding]) -> Finding | None:
    if any(f.severity in ("bad", "warning") for f in findings):
        return None
    tables = [i for i, row in enumerate(rows) if _base_type(row) and not _is_temporary_table(row)]
    if not tables or any(_base_type(rows[i]) not in _LOOKUP_TYPES for i in tables):
        return None
    names = ", ".join(_table(rows[i], i) for i in tables)
    return Finding(
        "good",
        f"Every table ({names}) is read through an index lookup (const, eq_ref or ref).",
        tables,
        "all-index-lookups",
    )
