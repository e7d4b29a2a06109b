"""The QA corpus: real MariaDB 10.11 client captures of the `qa_shop` schema, damaged like pastes.

Each case in tests/fixtures/qa/cases/ (built by `tests/fixtures/qa/build.py`) holds a paste and
what the analyze API must answer for it:

- the cells of the clean `mariadb -B` capture of the same statement (plus the statement typed,
  when a prompt line carries it, and the SHOW WARNINGS messages after EXPLAIN EXTENDED);
- the table names of a JSON plan;
- a truncation notice, for pastes cut short;
- a ParseError (the API's 400), for result sets that are not EXPLAIN (DESC, SHOW INDEX, a SELECT).

Cases failing today are listed in KNOWN_FAILURES with strict xfail: when the parser is fixed the
case passes, the strict mark turns that into a failure, and the entry must be removed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer import ParseError, analyze

CASES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "qa" / "cases"
CASE_FILES = sorted(CASES_DIR.glob("*.json"))
BUGS = "parser bug: see /work/briefs/parser-bugs.md"

# Case ids that fail against the parser as it is today, keyed to the bug number in the report.
KNOWN_FAILURES: dict[str, str] = {
    "not_exists.ext.transcript100_wrapped.mail76": "B8",
}


def _params():
    for path in CASE_FILES:
        case_id = path.name.removesuffix(".json")
        marks = []
        if case_id in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(strict=True, reason=f"{BUGS} ({KNOWN_FAILURES[case_id]})"))
        yield pytest.param(path, id=case_id, marks=marks)


def check_case(case: dict) -> None:
    """Assert that the analyzer answers `case["input"]` as `case["expect"]` says."""
    expect = case["expect"]
    if expect.get("error"):
        with pytest.raises(ParseError):
            analyze(case["input"])
        return
    if expect.get("unrecoverable"):
        try:
            result = analyze(case["input"]).to_dict()
        except ParseError:
            return
        assert result["truncated"], "cut-off lines not marked truncated"
        said = result["notices"] + result["warnings"]
        assert any("truncated" in text.lower() for text in said), said
        return
    result = analyze(case["input"]).to_dict()
    if expect["format"] is not None:  # None: a rendering outside the contract's formats (--html, --xml)
        assert result["format"] == expect["format"]
    if expect["format"] == "json":
        text = json.dumps([result["plan"], result["rows"]], ensure_ascii=False)
        missing = [t for t in expect["tables"] if json.dumps(t, ensure_ascii=False) not in text]
        assert not missing, f"tables missing from the plan: {missing}"
        return
    assert result["columns"] == expect["columns"]
    assert result["rows"] == expect["rows"]
    if not expect.get("may_be_truncated"):
        assert not result["truncated"]
    if "query" in expect:
        assert result["query"] == expect["query"]
    missing_notes = [note for note in expect.get("warnings", []) if note not in result["warnings"]]
    assert not missing_notes, "SHOW WARNINGS messages missing from warnings"


def test_corpus_is_present():
    assert len(CASE_FILES) >= 100


@pytest.mark.parametrize("path", list(_params()))
def test_qa_case(path: Path):
    check_case(json.loads(path.read_text(encoding="utf-8")))
