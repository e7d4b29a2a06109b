"""The QA corpus: real MariaDB 10.11 client captures of the `qa_shop` schema, damaged like pastes.

Each case in tests/fixtures/qa/cases/ (built by `python -m tests.analyzer.qa_damage`) holds the
paste and what the analyze API must answer for it: the cells of the clean `mariadb -B` capture
(and the statement typed, when a prompt line carries it), the table names of a JSON plan, a
truncation notice for pastes cut short, or a ParseError (the API's 400) for result sets that are
not EXPLAIN at all (DESC, SHOW INDEX, a SELECT).
Cases failing today are listed in KNOWN_FAILURES with strict xfail: when the parser is fixed
the case passes, the strict mark turns that into a failure, and the entry must be removed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer import ParseError, analyze

CASES_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "qa" / "cases"
CASE_FILES = sorted(CASES_DIR.glob("*.json"))
BUGS = "parser bug: see /work/briefs/parser-bugs.md"

# Case ids that fail against the parser as it is today, keyed to the bug number in the report.
KNOWN_FAILURES: dict[str, str] = {
    "bnl_join.an.table.lineno_pipe+quote": "B10",
    "bnl_join.an.table.wrap100+partial_top": "B9",
    "bnl_join.an.tsv.tabs_expanded+wrap120": "B13",
    "bnl_join.an.vertical.lineno_dot+quote": "B10",
    "bnl_join.plain.transcript100_session.clean": "B20",
    "bnl_join.plain.transcript100_session.double_spaced": "B15",
    "cjk_alias.an.transcript60_vertical.clean": "B2",
    "cjk_alias.an.transcript60_vertical.double_spaced": "B2",
    "cjk_alias.plain.table.fence_inline_close": "B16",
    "cjk_alias.plain.transcript100_session.chat": "B20",
    "cjk_alias.plain.transcript100_session.clean": "B20",
    "const_not_found.lower.table.no_rules+wrap100": "B14",
    "const_not_found.lower.vertical.fence_inline_close": "B16",
    "const_not_found.plain.tsv.list_item_fence": "B17",
    "const_not_found.plain.vertical.inline_lead": "B18",
    "cte_recursive.an.transcript60_vertical.clean": "B2",
    "cte_recursive.an.transcript60_vertical.indent4": "B2",
    "cte_recursive.json.json_batch.quote+wrap80": "B4",
    "cte_recursive.plain.tsv.inline_lead": "B18",
    "delete_scan.part.table.lineno_pipe+quote": "B10",
    "delete_scan.part.vertical.lineno_dot+quote": "B10",
    "delete_scan.plain.table.no_rules+wrap100": "B14",
    "delete_scan.plain.vertical.fence_inline_close": "B16",
    "dependent_in.ext.table.lineno_zero+double_spaced": "B12",
    "dependent_in.plain.table.no_top+mail72": "B11",
    "dependent_in.plain.tsv.fence_inline_close": "B16",
    "derived_agg.ext.table.lineno_pipe+quote": "B10",
    "derived_agg.ext.vertical.lineno_dot+quote": "B10",
    "derived_agg.plain.table.lineno_zero+double_spaced": "B12",
    "derived_agg.plain.transcript100_session.clean": "B20",
    "derived_agg.plain.transcript60_wrapped.clean": "B2",
    "derived_agg.plain.vertical.cut_tail": "B19",
    "distinct_join.lower.transcript60_vertical.clean": "B2",
    "distinct_join.lower.transcript60_vertical.double_spaced": "B2",
    "distinct_join.lower.tsv.list_item_fence": "B17",
    "distinct_join.lower.vertical.inline_lead": "B18",
    "distinct_join.plain.table.no_rules+wrap100": "B14",
    "distinct_join.plain.transcript100_session.clean": "B20",
    "distinct_join.plain.transcript100_session.nbsp_html": "B20",
    "distinct_join.plain.vertical.fence_inline_close": "B16",
    "exists_firstmatch.an.table.fence_inline_close": "B16",
    "group_by_index.desc.table.no_rules+wrap100": "B14",
    "group_by_index.desc.vertical.fence_inline_close": "B16",
    "group_by_index.plain.table.no_top+mail72": "B11",
    "group_by_index.plain.table.wrap100+partial_top": "B9",
    "group_by_index.plain.table_verbose.double_spaced": "B15",
    "group_by_index.plain.tsv.fence_inline_close": "B16",
    "group_filesort.an.table.double_spaced+quote": "B12",
    "group_filesort.an.tsv.lineno_pipe+quote": "B10",
    "group_filesort.an.vertical.prompt+wrap60+quote": "B2",
    "impossible.plain.table.lineno_zero+double_spaced": "B12",
    "impossible.plain.tsv.tabs_expanded+double_spaced": "B6",
    "in_subquery.json.json_batch.wrap80": "B4",
    "in_subquery.plain.transcript100_session.clean": "B20",
    "index_merge_intersect.ext.table.no_rules+wrap100": "B14",
    "index_merge_intersect.ext.vertical.fence_inline_close": "B16",
    "index_merge_intersect.plain.table.no_rules+wrap100": "B14",
    "index_merge_intersect.plain.vertical.fence_inline_close": "B16",
    "insert_select.plain.table.no_rules+wrap100": "B14",
    "insert_select.plain.transcript60_vertical.clean": "B2",
    "insert_select.plain.transcript60_vertical.nbsp_html": "B2",
    "insert_select.plain.vertical.fence_inline_close": "B16",
    "join3.an.transcript60_vertical.clean": "B2",
    "join3.an.transcript60_vertical.quote+crlf": "B2",
    "join3.plain.transcript100_session.clean": "B20",
    "join3.plain.transcript100_session.double_spaced": "B15",
    "join5.part.tsv.inline_lead": "B18",
    "join5.plain.table.wrap100+partial_top": "B9",
    "join5.plain.transcript100_session.clean": "B20",
    "join5.plain.transcript100_session.quote+crlf": "B20",
    "join6_bnl.plain.tsv.list_item_fence": "B17",
    "join6_bnl.plain.vertical.cut_tail": "B19",
    "join6_bnl.plain.vertical.inline_lead": "B18",
    "left_not_exists.an.transcript80_wrapped.mail72+quote": "B8",
    "left_not_exists.plain.table.no_top+wrap80": "B11",
    "left_not_exists.plain.transcript100_session.clean": "B20",
    "left_not_exists.plain.transcript100_session.double_spaced": "B15",
    "left_not_exists.plain.tsv.double_spaced+quote": "B12",
    "left_not_exists.plain.vertical.double_spaced+lineno_pipe": "B12",
    "no_tables.desc.table_verbose.double_spaced": "B15",
    "no_tables.desc.tsv.inline_lead": "B18",
    "no_tables.plain.table.double_spaced+quote": "B12",
    "no_tables.plain.transcript100_session.clean": "B20",
    "no_tables.plain.transcript100_session.indent4": "B20",
    "no_tables.plain.tsv.lineno_pipe+quote": "B10",
    "not_exists.ext.transcript60_vertical.chat": "B2",
    "not_exists.ext.transcript60_vertical.clean": "B2",
    "not_exists.plain.table.double_spaced+quote": "B12",
    "not_exists.plain.tsv.lineno_pipe+quote": "B10",
    "optimized_away.plain.table.no_top+wrap80": "B11",
    "optimized_away.plain.vertical.double_spaced+lineno_pipe": "B12",
    "partition_group.an.table_verbose.double_spaced": "B15",
    "partition_group.an.tsv.inline_lead": "B18",
    "partition_group.part.table.lineno_pipe+quote": "B10",
    "partition_group.part.vertical.lineno_dot+quote": "B10",
    "partition_prune.part.table.no_top+wrap80": "B11",
    "partition_prune.part.vertical.double_spaced+lineno_pipe": "B12",
    "partition_prune.plain.transcript60_vertical.clean": "B2",
    "partition_prune.plain.transcript60_vertical.quote+crlf": "B2",
    "partition_prune.plain.transcript60_wrapped.clean": "B2",
    "partition_prune.plain.transcript60_wrapped.lineno_pipe": "B2",
    "pipe_literal.ext.table.no_top+mail72": "B11",
    "pipe_literal.ext.transcript60_vertical.clean": "B2",
    "pipe_literal.ext.tsv.fence_inline_close": "B16",
    "pipe_literal.json.json_batch.mail72": "B4",
    "pipe_literal.plain.table_verbose.double_spaced": "B15",
    "pipe_literal.plain.tsv.inline_lead": "B18",
    "pk_lookup.desc.table.fence_inline_close": "B16",
    "pk_lookup.plain.table.no_rules+wrap100": "B14",
    "pk_lookup.plain.table.wrap100+partial_top": "B9",
    "pk_lookup.plain.vertical.fence_inline_close": "B16",
    "range_checked.ext.transcript60_vertical.clean": "B2",
    "range_created.plain.transcript60_vertical.clean": "B2",
    "range_created.plain.transcript60_vertical.double_spaced": "B2",
    "rowid_filter.an.table.wrap100+partial_top": "B9",
    "rowid_filter.an.tsv.inline_lead": "B18",
    "rowid_filter.plain.table.lineno_zero+double_spaced": "B12",
    "rowid_filter.plain.tsv.tabs_expanded+double_spaced": "B6",
    "scalar_subq.an.transcript60_vertical.clean": "B2",
    "scalar_subq.an.transcript60_vertical.nbsp_html": "B2",
    "scalar_subq.plain.table.no_top+mail72": "B11",
    "scalar_subq.plain.tsv.fence_inline_close": "B16",
    "show_explain.show.table.fence_inline_close": "B16",
    "union_all.part.table.no_rules+wrap100": "B14",
    "union_all.part.vertical.fence_inline_close": "B16",
    "union_all.plain.table.fence_inline_close": "B16",
    "union_all.plain.transcript60_vertical.clean": "B2",
    "union_all.plain.transcript60_vertical.nbsp_html": "B2",
    "union_distinct.an.table.lineno_pipe+quote": "B10",
    "union_distinct.an.tsv.tabs_expanded+wrap120": "B13",
    "union_distinct.an.vertical.lineno_dot+quote": "B10",
    "union_distinct.plain.table.lineno_pipe+quote": "B10",
    "union_distinct.plain.vertical.lineno_dot+quote": "B10",
    "unique_email.plain.table_verbose.double_spaced": "B15",
    "update_range.an.transcript60_vertical.clean": "B2",
    "update_range.an.transcript60_vertical.nbsp_html": "B2",
    "weedout.an.table.lineno_zero+double_spaced": "B12",
    "weedout.plain.vertical.cut_tail": "B19",
    "window_fn.ext.table.fence_inline_close": "B16",
    "window_fn.ext.transcript60_vertical.clean": "B2",
    "window_fn.ext.transcript60_vertical.nbsp_html": "B2",
    "window_fn.json.json_batch.quote+wrap80": "B4",
    "window_fn.plain.table_verbose.double_spaced": "B15",
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


def test_corpus_is_present():
    assert len(CASE_FILES) >= 100


@pytest.mark.parametrize("path", list(_params()))
def test_qa_case(path: Path):
    check_case(json.loads(path.read_text(encoding="utf-8")))
