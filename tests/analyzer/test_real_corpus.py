"""The real-world corpus (tests/fixtures/real/): EXPLAIN output as people posted it in public.

Every case is read exactly (format, tables, access types, row count, not flagged) or, when the paste
visibly lacks part of the plan, flagged as truncated. Never a silent wrong answer. A case that fails
today carries `known_failure = "<why>"` in its .toml and runs as a strict xfail: fixing it makes the
xfail fail, and the line goes. The summary line counts them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from analyzer import ParseError, analyze

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "real"
CASES = sorted(CORPUS.rglob("*.toml"))
FORMATS = {"table", "vertical", "tsv", "csv", "json", "tree"}
REQUIRED = {"source", "category", "format", "rows", "tables", "partial"}



def _params():
    for path in CASES:
        name = str(path.relative_to(CORPUS).with_suffix(""))
        known = tomllib.loads(path.read_text(encoding="utf-8")).get("known_failure")
        marks = [pytest.mark.xfail(strict=True, reason=str(known))] if known else []
        yield pytest.param(path, id=name, marks=marks)


def _case(path: Path) -> tuple[str, dict]:
    expect = tomllib.loads(path.read_text(encoding="utf-8"))
    paste = path.with_suffix(".txt").read_bytes().decode("utf-8")
    return paste, expect


def test_every_case_is_complete_and_well_formed():
    for path in CASES:
        paste, expect = _case(path)
        assert paste.strip(), path
        assert set(expect) >= REQUIRED, f"{path.name}: missing {REQUIRED - set(expect)}"
        assert expect["format"] in FORMATS, path.name
        assert str(expect["source"]).startswith(("https://", "http://")), path.name
        if "types" in expect:
            assert len(expect["types"]) == len(expect["tables"]), path.name
    assert len({p.with_suffix("").name for p in CASES}) == len(CASES)


def _read(analysis) -> dict:
    """What the analysis says about the plan, in the terms of the case files."""
    rows = analysis.plan.rows
    tables = [row.get("table") for row in rows if row.get("table")]
    return {
        "format": analysis.plan.format,
        "rows": len(rows),
        "tables": tables,
        "types": [row.get("type") for row in rows if row.get("table")],
    }


@pytest.mark.parametrize("path", list(_params()))
def test_real_paste(path):
    paste, expect = _case(path)
    try:
        analysis = analyze(paste)
    except ParseError as exc:
        pytest.fail(f"refused: {exc.message}")
    got = _read(analysis)
    if expect["partial"]:
        assert analysis.plan.truncated, f"a partial paste read as complete: {got}"
        return
    assert not analysis.plan.truncated, analysis.plan.notices
    assert got["format"] == expect["format"]
    assert got["tables"] == expect["tables"]
    if expect["format"] not in ("json", "tree"):
        assert got["rows"] == expect["rows"]
    if "types" in expect and expect["format"] != "tree":
        assert got["types"] == expect["types"]


def _known_failures():
    for path in CASES:
        if tomllib.loads(path.read_text(encoding="utf-8")).get("known_failure"):
            yield pytest.param(path, id=str(path.relative_to(CORPUS).with_suffix("")))


@pytest.mark.parametrize("path", list(_known_failures()))
def test_known_failure_is_never_silent(path):
    """A case still read wrong is at least refused or flagged (`truncated` or `uncertain`), never
    answered as if the reading were sure."""
    paste, expect = _case(path)
    try:
        analysis = analyze(paste)
    except ParseError:
        return
    plan = analysis.plan
    assert plan.truncated or plan.uncertain, f"answered wrong without a flag: {_read(analysis)}"
    assert plan.notices, "a flag without a notice saying why"
