"""The real MariaDB pastes in tests/fixtures/samples/ parse exactly as their `expect` says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.pipeline import parse

SAMPLES = sorted((Path(__file__).parent.parent / "fixtures" / "samples").glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _mentions_tables(plan, tables: list[str]) -> bool:
    text = json.dumps([plan.plan, plan.rows], default=str)
    return all(json.dumps(name) in text for name in tables)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_parses_as_expected(path):
    sample = _load(path)
    expect = sample["expect"]
    plan = parse(sample["input"])
    if expect.get("unrecoverable"):
        assert plan.truncated
        assert any("truncated" in notice for notice in plan.notices)
        return
    assert plan.format == expect["format"]
    if expect["format"] == "json":
        assert _mentions_tables(plan, expect["tables"])
        return
    assert plan.columns == expect["columns"]
    assert plan.rows == expect["rows"]
    assert not plan.truncated


@pytest.mark.parametrize(
    "path",
    [p for p in SAMPLES if "transcript" in p.stem or "prompt" in p.stem],
    ids=lambda p: p.stem,
)
def test_transcript_query_is_the_statement(path):
    sample = _load(path)
    assert parse(sample["input"]).query == sample["meta"]["sql"]


def test_show_warnings_messages_are_kept():
    sample = _load(next(p for p in SAMPLES if "show_warnings" in p.stem))
    warnings = parse(sample["input"]).warnings
    assert len(warnings) == 2
    assert warnings[1].startswith("/* select#1 */ select `hr`.`e`.`emp_no`")


def test_truncated_sample_marks_the_cut_cell():
    sample = _load(next(p for p in SAMPLES if "truncated100" in p.stem))
    plan = parse(sample["input"])
    assert plan.affected_rows == [0]
    assert plan.rows[0]["extra"] == "\u2026"
    assert plan.rows[0]["table"] == "employees"
