"""Golden pastes: tests/fixtures/explain/<case>.txt parses to exactly <case>.json.

Each .json holds the expected format, columns, rows, query, warnings, truncated flag,
affected rows and notices, or `{"error": …}` for a paste with no EXPLAIN in it.
The .txt files are read as bytes-exact text (CRLF and BOM kept).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse

CASES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "explain").glob("*.txt"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_case(path):
    text = path.read_bytes().decode("utf-8")
    expect = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    if "error" in expect:
        with pytest.raises(ParseError) as info:
            parse(text)
        assert info.value.message == expect["error"]
        return
    plan = parse(text)
    got = {
        "format": plan.format,
        "columns": plan.columns,
        "rows": plan.rows,
        "query": plan.query,
        "warnings": plan.warnings,
        "truncated": plan.truncated,
        "affected_rows": plan.affected_rows,
        "notices": plan.notices,
    }
    assert got == expect


def test_every_case_has_its_expectation():
    assert len(CASES) >= 10
    assert all(p.with_suffix(".json").exists() for p in CASES)
