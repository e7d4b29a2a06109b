"""The scenario list itself, without a server: as many and as varied as the issue asks."""

from __future__ import annotations

from collections import Counter

from tests.advice.scenarios import HOPELESS, IMPROVE, SCENARIOS, SERVED


def test_enough_scenarios_of_each_kind():
    kinds = Counter(scenario.kind for scenario in SCENARIOS)
    assert len(SCENARIOS) >= 20 and kinds[SERVED] >= 5 and kinds[HOPELESS] >= 3 and kinds[IMPROVE] >= 12


def test_names_are_unique_database_names():
    names = [scenario.database for scenario in SCENARIOS]
    assert len(set(names)) == len(names)
    assert all(name.isidentifier() and len(name) <= 64 for name in names)


def test_every_table_is_created_then_filled():
    for scenario in SCENARIOS:
        creates, inserts = scenario.tables[0::2], scenario.tables[1::2]
        assert creates and all(sql.startswith("CREATE TABLE ") for sql in creates), scenario.name
        assert all(sql.startswith("INSERT INTO ") and "FROM seq_1_to_" in sql for sql in inserts), scenario.name


def test_the_shapes_the_issue_names_are_there():
    queries = " ".join(scenario.query for scenario in SCENARIOS if scenario.kind == IMPROVE)
    for shape in (" JOIN ", "BETWEEN", "ORDER BY", "LIMIT", "GROUP BY", " IN (SELECT", "EXISTS", " IN (1", "LIKE '"):
        assert shape in queries, shape
    schema_forms = {scenario.schema_as for scenario in SCENARIOS}
    assert schema_forms == {"create", "create-box", "create-vertical", "index-box", "create+index"}
