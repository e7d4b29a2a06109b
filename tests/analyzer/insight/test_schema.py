"""Table definitions: what is too long to read within the time budget is reported, not read."""

from __future__ import annotations

from analyzer.insight.schema import MAX_STATEMENT_CHARS, read_schema


def test_a_statement_too_long_to_read_in_time_is_a_problem_not_a_table():
    columns = ",\n".join(f"  c{n} int" for n in range(MAX_STATEMENT_CHARS // 10))
    schema = read_schema(f"CREATE TABLE wide (\n{columns}\n);\nCREATE TABLE t1 (a int, KEY k (a));")
    assert list(schema.tables) == ["t1"]
    assert any("too long to read in time" in problem for problem in schema.problems)
