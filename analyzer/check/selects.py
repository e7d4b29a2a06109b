"""The rows of a tabular plan held against each other: every `<derivedN>`, `<subqueryN>` and
`<unionA,B>` table names a select the server printed rows of, so a select it names that has no row
in the paste means rows are missing."""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.model import Plan

# The tables a server names after selects (MySQL ends a long union's list with `...`).
_REFERENCE = lazy_regex(r"<(?:derived|subquery|union|intersect|except|unit)(?P<ids>\d+(?:,\d+)*)(?:,?\.\.\.)?>")


def check_selects(plan: Plan) -> None:
    """Flag the reading truncated when a row names a select that no row of the paste belongs to."""
    ids = [row.get("id") for row in plan.rows]
    if "id" not in plan.columns or not any(ids) or any(i is not None and not i.isdigit() for i in ids):
        return
    present = {int(i) for i in ids if i is not None}
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
