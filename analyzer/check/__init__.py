"""The check stage: hold a reading against what MySQL and MariaDB can print, before any insight.

The pipeline runs it between reading and building the plan model (repair → read → **check** →
model → insight). `check(plan, text)` turns every disagreement into one of three things, each said in
`Plan.notices`:

- a repair: markup that is not part of a value (quotes a program added, Markdown emphasis and
  escapes, HTML entities, a comment typed after a value) is removed from the cells (`cells.py`);
- a flag: a cell outside its column's domain, a `<derivedN>` naming a select that is not in the
  paste (`selects.py`), a tree step missing the inputs it reads (`steps.py`), or a line inside the
  plan region that no reader used, such as an elision (`region.py`), makes the reading
  `uncertain` or `truncated`;
- nothing, when the reading is what a server prints.

It never drops a row or a cell: what it cannot put right it flags.
"""

from __future__ import annotations

from analyzer.check.cells import clean_cells, judge_cells
from analyzer.check.region import check_region
from analyzer.check.selects import check_selects
from analyzer.check.steps import check_steps
from analyzer.model import Plan

TABULAR = frozenset({"table", "vertical", "tsv", "csv"})


def check(plan: Plan, text: str) -> None:
    """Check a reading of `text` in place: repair its cells, flag what a server cannot print."""
    if plan.rows and plan.format in TABULAR or _rows_from_rows(plan):
        clean_cells(plan)
        judge_cells(plan)
        check_selects(plan)
        plan.tables = list(dict.fromkeys(name for row in plan.rows if (name := row.get("table"))))
    check_steps(plan)
    check_region(plan, text)


def _rows_from_rows(plan: Plan) -> bool:
    """A JSON document holding tabular EXPLAIN rows (its `plan` is None): its rows are printed rows."""
    return plan.format == "json" and plan.plan is None and bool(plan.rows)
