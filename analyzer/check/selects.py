"""The rows of a tabular plan held against each other. Every `<derivedN>`, `<subqueryN>` and
`<unionA,B>` table names a select the server printed rows of; a PRIMARY select is the outer select
of others (subqueries, derived tables, union members), printed with it, or of subqueries flattened
into it (a semi-join, which reads at least one table more: a lone PRIMARY row is never the whole
plan); a subquery, derived table, materialized or union select has an outer or first select with a
smaller id. A select named or
implied that has no row in the paste means rows of the plan are missing."""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.model import Plan

# The tables a server names after selects (MySQL ends a long union's list with `...`).
_REFERENCE = lazy_regex(r"<(?:derived|subquery|union|intersect|except|unit)(?P<ids>\d+(?:,\d+)*)(?:,?\.\.\.)?>")


# Select types whose select is inside another one, printed with a smaller id.
_INNER = frozenset(
    {
        "SUBQUERY", "DEPENDENT SUBQUERY", "UNCACHEABLE SUBQUERY", "DERIVED", "DEPENDENT DERIVED",
        "LATERAL DERIVED", "MATERIALIZED", "UNION", "DEPENDENT UNION", "UNCACHEABLE UNION",
        "INTERSECT", "EXCEPT",
    }
)  # fmt: skip


def check_selects(plan: Plan) -> None:
    """Flag the reading truncated when a row names or implies a select that no row of the paste belongs to."""
    ids = [row.get("id") for row in plan.rows]
    if "id" not in plan.columns or not any(ids) or any(i is not None and not i.isdigit() for i in ids):
        return
    present = {int(i) for i in ids if i is not None}
    _unnamed_results(plan)
    _named_selects(plan, present)
    if not plan.truncated:
        _implied_selects(plan, present)


def _implied_selects(plan: Plan, present: set[int]) -> None:
    """A lone PRIMARY row, or an inner select without an outer one."""
    kinds = [(row.get("select_type") or "").upper() for row in plan.rows]
    lowest = str(min(present))
    outermost = [kind for kind, row in zip(kinds, plan.rows, strict=True) if row.get("id") == lowest]
    if kinds == ["PRIMARY"]:
        missing = "the selects its PRIMARY select is the outer select of"
    elif outermost and all(kind in _INNER for kind in outermost):
        missing = f"the select outside its outermost select (a {outermost[0]} select, #{lowest})"
    else:
        return
    plan.truncated = True
    plan.notices.append(f"The paste has no row of {missing}, which the server prints: rows of the plan are missing.")


def _unnamed_results(plan: Plan) -> None:
    """A union's result row whose table is empty, where the server prints `<unionA,B>` (a web page
    took it for an HTML tag and dropped it): which selects it unites is not known."""
    rows = [index + 1 for index, row in enumerate(plan.rows) if _is_result(row) and not row.get("table")]
    if rows:
        plan.uncertain = True
        plan.notices.append(
            f"The table of the union's result on {'row' if len(rows) == 1 else 'rows'} {', '.join(map(str, rows))} "
            "is empty where the server prints <unionA,B>: a web page may have dropped it as an HTML tag."
        )


def _is_result(row: dict[str, str | None]) -> bool:
    return (row.get("select_type") or "").upper().endswith(" RESULT")


def _named_selects(plan: Plan, present: set[int]) -> None:
    missing: dict[int, list[int]] = {}
    for index, row in enumerate(plan.rows):
        table = row.get("table") or ""
        match = _REFERENCE.fullmatch(table)
        if match is None:
            continue
        for number in (int(n) for n in match["ids"].split(",")):
            if number not in present:
                missing.setdefault(number, []).append(index + 1)
    if not missing:
        return
    plan.truncated = True
    named = ", ".join(f"#{n} (named by row {', '.join(map(str, rows))})" for n, rows in sorted(missing.items()))
    selects = "select" if len(missing) == 1 else "selects"
    plan.notices.append(
        f"The paste has no row of {selects} {named}, which the server prints with the rows that "
        "name it: rows of the plan are missing."
    )
