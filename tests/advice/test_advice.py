"""Index advice proved on a real MariaDB server.

For each scenario (tests/advice/scenarios.py) the test builds its database, takes the real
`EXPLAIN FORMAT=JSON` and the tables' definitions, and asks the analyzer for advice. Advice for a
query no index can help, or one already served well, must be `[]`. Otherwise every statement must
run on the server without an error or a warning (a warning means MariaDB shortened the key by
itself, which MySQL refuses), add the index it names and no index an existing one already
serves; with them all applied, the rows the query examines (tests/advice/measure.py) must drop
at least tenfold.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from analyzer import analyze
from tests.advice.scenarios import HOPELESS, IMPROVE, SCENARIOS, SERVED, Scenario

pytestmark = pytest.mark.mariadb

GAIN = 10  # the least factor by which advice must cut the rows examined


def _ids(scenario: Scenario) -> str:
    return scenario.name


def _lower(columns: list[str]) -> list[str]:
    return [column.lower() for column in columns]


def check_advice_item(db, item, plan_rows: int) -> dict[str, Any]:
    """Apply one piece of advice and check it on the way; returns what it did, for the report."""
    tables = {table.lower(): table for table in db.tables()}
    assert item.table.lower() in tables, f"advice names a table not in the query's database: {item.table}"
    table = tables[item.table.lower()]
    columns = _lower(list(item.columns))
    assert columns, f"advice without columns: {item.statement}"
    assert item.rows and all(0 <= row < plan_rows for row in item.rows), f"advice rows {item.rows} not plan rows"
    before = db.indexes(table)
    primary = _lower(before.get("PRIMARY", []))
    assert not primary or columns[: len(primary)] != primary, (
        f"{item.statement!r} starts with the primary key {primary}, which already finds every row by it"
    )
    for name, existing in before.items():
        assert _lower(existing)[: len(columns)] != columns, (
            f"{item.statement!r} adds an index on {columns}, which {name} {existing} already serves"
        )
    for name in item.redundant:
        assert name in before, f"advice calls {name} redundant, but {table} has no such index"
        assert _lower(before[name]) == columns[: len(before[name])], (
            f"advice calls {name} {before[name]} redundant, but it is no leading part of {columns}"
        )
    warnings = db.run_clean(item.statement)
    assert not warnings, f"{item.statement!r} left warnings: {warnings}"
    after = db.indexes(table)
    added = [_lower(cols) for name, cols in after.items() if name not in before]
    assert added == [columns], f"{item.statement!r} added {added}, the advice says {columns}"
    return {"table": table, "columns": columns, "statement": item.statement}


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.kind == IMPROVE], ids=_ids)
def test_reference_indexes_win_tenfold(database, scenario):
    """The scenario itself leaves room: the indexes it names cut the rows examined tenfold."""
    db = database(scenario, suffix="_ref")
    before, _ = db.measured(scenario.query)
    for statement in scenario.reference:
        assert not db.run_clean(statement), statement
    db.analyze_tables()
    after, doc = db.measured(scenario.query)
    assert before >= GAIN * max(after, 1), f"{before} -> {after} rows examined\n{json.dumps(doc, indent=1)}"


def _with_known_gaps(scenarios):
    return [
        pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=s.known_gap)) if s.known_gap else s
        for s in scenarios
    ]


@pytest.mark.parametrize("scenario", _with_known_gaps(SCENARIOS), ids=_ids)
def test_advice(database, report, scenario):
    db = database(scenario)
    before, before_doc = db.measured(scenario.query)
    report.update(name=scenario.name, kind=scenario.kind, query=scenario.query, before=before)
    if scenario.kind == SERVED:
        returned = db.returned(scenario.query)
        assert before <= 2 * returned + 30, f"not served well: {before} rows examined for {returned} returned"
    explain = db.explain(scenario.query)
    schema = db.schema(scenario.schema_as)
    report.update(explain=json.loads(explain), schema_as=scenario.schema_as)

    analysis = analyze(explain, query=scenario.query, schema=schema)
    advice = list(analysis.advice)
    as_dicts = analysis.to_dict()["advice"]
    report.update(advice=as_dicts)
    assert [entry["statement"] for entry in as_dicts] == [item.statement for item in advice]

    if scenario.kind in (SERVED, HOPELESS):
        assert advice == [], f"advice for a query {'served well' if scenario.kind == SERVED else 'no index helps'}"
        return
    assert advice, "no advice for a query an index would serve tenfold better"
    for item in advice:
        check_advice_item(db, item, len(analysis.plan.rows))
    db.analyze_tables()
    after, after_doc = db.measured(scenario.query)
    report.update(after=after, after_plan=after_doc)
    assert before >= GAIN * max(after, 1), (
        f"advice cut the rows examined only from {before} to {after}:\n"
        + "\n".join(item.statement for item in advice)
        + f"\nbefore: {json.dumps(before_doc)}\nafter: {json.dumps(after_doc)}"
    )
