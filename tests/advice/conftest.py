"""One connection to the MariaDB server of MARIADB_URL for the whole run, and a database per test.

The tests that use them are marked `mariadb`: tests/conftest.py skips them, with the reason, when
the server is missing, and fails them instead under REQUIRE_MARIADB=1.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.advice import pastes
from tests.advice.measure import examined_rows
from tests.advice.scenarios import Scenario
from tests.advice.server import connect


class Database:
    """A scenario's database, built afresh: its tables created, filled and analyzed."""

    def __init__(self, connection: Any, name: str, scenario: Scenario) -> None:
        self.connection = connection
        self.name = name
        self.run(f"DROP DATABASE IF EXISTS `{name}`")
        self.run(f"CREATE DATABASE `{name}`")
        self.run(f"USE `{name}`")
        for statement in scenario.tables:
            self.run(statement)
        self.analyze_tables()

    def run(self, sql: str) -> list[tuple[Any, ...]]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql)
            return list(cursor.fetchall())

    def run_clean(self, sql: str) -> list[tuple[Any, ...]]:
        """Run a statement and return the warnings and notes it left (SHOW WARNINGS)."""
        self.run(sql)
        return self.run("SHOW WARNINGS")

    def result(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql)
            return [column[0] for column in cursor.description], list(cursor.fetchall())

    def tables(self) -> list[str]:
        return [row[0] for row in self.run(f"SHOW TABLES FROM `{self.name}`")]

    def analyze_tables(self) -> None:
        self.run("ANALYZE TABLE " + ", ".join(f"`{table}`" for table in self.tables()))

    def indexes(self, table: str) -> dict[str, list[str]]:
        """The table's indexes, by name, each as its columns in order."""
        found: dict[str, list[str]] = {}
        for name, column in self.run(
            "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS "
            f"WHERE TABLE_SCHEMA = '{self.name}' AND TABLE_NAME = '{table}' ORDER BY INDEX_NAME, SEQ_IN_INDEX"
        ):
            found.setdefault(name, []).append(column)
        return found

    def explain(self, query: str) -> str:
        """`EXPLAIN FORMAT=JSON` as the client prints its one cell: the JSON document."""
        return self.run(f"EXPLAIN FORMAT=JSON {query}")[0][0]

    def measured(self, query: str) -> tuple[int, dict[str, Any]]:
        """The rows the query examines (tests/advice/measure.py), and the ANALYZE document they come from."""
        doc = json.loads(self.run(f"ANALYZE FORMAT=JSON {query}")[0][0])
        return examined_rows(doc), doc

    def returned(self, query: str) -> int:
        return len(self.run(query))

    def schema(self, how: str) -> str:
        """The tables' definitions pasted as `how` says (see Scenario.schema_as)."""
        creates = [self.result(f"SHOW CREATE TABLE `{table}`") for table in self.tables()]
        indexes = [self.result(f"SHOW INDEX FROM `{table}`") for table in self.tables()]
        statements = pastes.statements([rows[0][1] for _, rows in creates])
        index_boxes = "\n".join(pastes.box(columns, rows) for columns, rows in indexes)
        return {
            "create": statements,
            "create-box": "\n".join(pastes.box(columns, rows) for columns, rows in creates),
            "create-vertical": "\n".join(pastes.vertical(columns, rows) for columns, rows in creates),
            "index-box": index_boxes,
            "create+index": statements + "\n\n" + index_boxes,
        }[how]


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    connection = connect()
    with connection.cursor() as cursor:
        # A plan gone wrong must fail the test, not hang the run.
        cursor.execute("SET SESSION max_statement_time = 60")
    yield connection
    connection.close()


@pytest.fixture
def database(server) -> Iterator[Any]:
    """`database(scenario, suffix="")` builds the scenario's database; it is dropped after the test."""
    made: list[str] = []

    def build(scenario: Scenario, suffix: str = "") -> Database:
        made.append(scenario.database + suffix)
        return Database(server, made[-1], scenario)

    yield build
    for name in made:
        with server.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS `{name}`")


@pytest.fixture
def report(request) -> Iterator[dict[str, Any]]:
    """What the test saw, written to $ADVICE_REPORT_DIR/<test id>.json when that is set."""
    seen: dict[str, Any] = {}
    yield seen
    folder = os.environ.get("ADVICE_REPORT_DIR")
    if folder and seen:
        Path(folder).mkdir(parents=True, exist_ok=True)
        name = request.node.name.replace("[", "-").rstrip("]")
        Path(folder, f"{name}.json").write_text(json.dumps(seen, indent=2, default=str) + "\n")
