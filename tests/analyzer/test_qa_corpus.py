"""The QA corpus: real MariaDB 10.11 client captures of the `qa_shop` schema, damaged like pastes.

Each case in tests/fixtures/qa/cases/ (built by `python -m tests.analyzer.qa_damage`) holds the
paste and what the analyze API must answer for it: the cells of the clean `mariadb -B` capture,
the table names of a JSON plan, or, for lines cut short, a truncation notice and no complete rows.
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
    "bnl_join.an.transcript80_wrapped.mail76": "B8",
    "bnl_join.an.tsv.tabs_expanded+wrap120": "B13",
    "bnl_join.an.vertical.lineno_dot+quote": "B10",
    "bnl_join.plain.tsv.list_item_fence": "B17",
    "bnl_join.plain.vertical.inline_lead": "B18",
    "cjk_alias.an.transcript60_vertical.clean": "B2",
    "cjk_alias.an.transcript60_vertical.double_spaced": "B2",
    "cjk_alias.plain.table.double_spaced+quote": "B12",
    "cjk_alias.plain.tsv.lineno_pipe+quote": "B10",
    "const_not_found.lower.table.no_top+mail72": "B11",
    "const_not_found.lower.table_verbose.double_spaced": "B15",
    "const_not_found.lower.tsv.fence_inline_close": "B16",
    "const_not_found.plain.table.fence_inline_close": "B16",
    "cte_recursive.an.transcript60_vertical.clean": "B2",
    "cte_recursive.json.json_batch.wrap80": "B4",
    "cte_recursive.plain.table.no_rules+wrap100": "B14",
    "cte_recursive.plain.vertical.fence_inline_close": "B16",
    "delete_scan.anjson.json_batch.quote+wrap80": "B4",
    "delete_scan.plain.table_verbose.double_spaced": "B15",
    "dependent_in.ext.table.lineno_pipe+quote": "B10",
    "dependent_in.ext.vertical.lineno_dot+quote": "B10",
    "dependent_in.plain.table.lineno_zero+double_spaced": "B12",
    "dependent_in.plain.table.wrap100+partial_top": "B9",
    "derived_agg.ext.tsv.list_item_fence": "B17",
    "derived_agg.ext.vertical.inline_lead": "B18",
    "derived_agg.plain.transcript60_wrapped.clean": "B2",
    "derived_agg.plain.transcript60_wrapped.fence": "B2",
    "distinct_join.lower.table.double_spaced+quote": "B12",
    "distinct_join.lower.transcript60_vertical.clean": "B2",
    "distinct_join.lower.transcript60_vertical.quote+crlf": "B2",
    "distinct_join.lower.tsv.lineno_pipe+quote": "B10",
    "distinct_join.lower.vertical.prompt+wrap60+quote": "B2",
    "distinct_join.plain.table.no_top+mail72": "B11",
    "distinct_join.plain.tsv.fence_inline_close": "B16",
    "exists_firstmatch.an.table.fence_inline_close": "B16",
    "group_by_index.plain.table.no_top+wrap80": "B11",
    "group_by_index.plain.table_verbose.double_spaced": "B15",
    "group_by_index.plain.vertical.double_spaced+lineno_pipe": "B12",
    "group_filesort.an.table.no_rules+wrap100": "B14",
    "group_filesort.an.vertical.fence_inline_close": "B16",
    "in_subquery.an.table.lineno_pipe+quote": "B10",
    "in_subquery.an.tsv.tabs_expanded+wrap120": "B13",
    "in_subquery.an.vertical.lineno_dot+quote": "B10",
    "in_subquery.plain.tsv.list_item_fence": "B17",
    "in_subquery.plain.vertical.cut_tail": "B19",
    "in_subquery.plain.vertical.inline_lead": "B18",
    "index_merge_intersect.ext.table_verbose.double_spaced": "B15",
    "index_merge_union.json.json_batch.wrap80": "B4",
    "index_merge_union.plain.table.double_spaced+quote": "B12",
    "index_merge_union.plain.tsv.lineno_pipe+quote": "B10",
    "index_merge_union.plain.vertical.prompt+wrap60+quote": "B2",
    "insert_select.an.table.no_top+mail72": "B11",
    "insert_select.an.tsv.fence_inline_close": "B16",
    "insert_select.plain.table.fence_inline_close": "B16",
    "insert_select.plain.transcript60_vertical.chat": "B2",
    "insert_select.plain.transcript60_vertical.clean": "B2",
    "join3.an.transcript60_vertical.clean": "B2",
    "join3.ext.table.no_top+wrap80": "B11",
    "join3.ext.tsv.double_spaced+quote": "B12",
    "join3.ext.vertical.double_spaced+lineno_pipe": "B12",
    "join3.plain.table.no_rules+wrap100": "B14",
    "join3.plain.vertical.fence_inline_close": "B16",
    "join6_bnl.plain.table.lineno_pipe+quote": "B10",
    "join6_bnl.plain.vertical.lineno_dot+quote": "B10",
    "left_not_exists.an.table.lineno_zero+double_spaced": "B12",
    "left_not_exists.plain.tsv.list_item_fence": "B17",
    "left_not_exists.plain.vertical.inline_lead": "B18",
    "loosescan.anjson.json_batch.mail72": "B4",
    "no_tables.desc.table_verbose.double_spaced": "B15",
    "no_tables.plain.table.double_spaced+quote": "B12",
    "no_tables.plain.tsv.lineno_pipe+quote": "B10",
    "not_exists.ext.table.no_top+mail72": "B11",
    "not_exists.ext.transcript60_vertical.clean": "B2",
    "not_exists.ext.tsv.fence_inline_close": "B16",
    "not_exists.plain.table.fence_inline_close": "B16",
    "optimized_away.plain.table.wrap100+partial_top": "B9",
    "partition_group.part.table.no_top+wrap80": "B11",
    "partition_group.part.vertical.double_spaced+lineno_pipe": "B12",
    "partition_group.plain.table.no_rules+wrap100": "B14",
    "partition_group.plain.transcript80_wrapped.mail76": "B8",
    "partition_group.plain.vertical.fence_inline_close": "B16",
    "partition_prune.part.transcript80_wrapped.mail72+quote": "B8",
    "partition_prune.plain.table_verbose.double_spaced": "B15",
    "partition_prune.plain.transcript60_vertical.clean": "B2",
    "partition_prune.plain.transcript60_wrapped.clean": "B2",
    "pipe_literal.ext.table.lineno_pipe+quote": "B10",
    "pipe_literal.ext.transcript60_vertical.chat": "B2",
    "pipe_literal.ext.transcript60_vertical.clean": "B2",
    "pipe_literal.ext.vertical.lineno_dot+quote": "B10",
    "pipe_literal.json.json_batch.quote+wrap80": "B4",
    "pipe_literal.plain.tsv.list_item_fence": "B17",
    "pipe_literal.plain.vertical.inline_lead": "B18",
    "range_checked.ext.transcript60_vertical.clean": "B2",
    "range_checked.plain.table.no_top+mail72": "B11",
    "range_checked.plain.tsv.fence_inline_close": "B16",
    "range_created.plain.table.fence_inline_close": "B16",
    "range_created.plain.transcript60_vertical.clean": "B2",
    "range_created.plain.transcript60_vertical.twice": "B2",
    "rowid_filter.plain.table.no_top+wrap80": "B11",
    "rowid_filter.plain.vertical.double_spaced+lineno_pipe": "B12",
    "scalar_subq.an.table.no_rules+wrap100": "B14",
    "scalar_subq.an.table.wrap100+partial_top": "B9",
    "scalar_subq.an.transcript60_vertical.chat": "B2",
    "scalar_subq.an.transcript60_vertical.clean": "B2",
    "scalar_subq.an.vertical.fence_inline_close": "B16",
    "scalar_subq.plain.tsv.inline_lead": "B18",
    "union_all.plain.table.lineno_pipe+quote": "B10",
    "union_all.plain.transcript60_vertical.clean": "B2",
    "union_all.plain.transcript60_vertical.nbsp_html": "B2",
    "union_all.plain.vertical.lineno_dot+quote": "B10",
    "union_distinct.an.table.lineno_zero+double_spaced": "B12",
    "update_range.an.transcript60_vertical.clean": "B2",
    "update_range.ext.table.double_spaced+quote": "B12",
    "update_range.ext.tsv.lineno_pipe+quote": "B10",
    "update_range.plain.table.no_top+mail72": "B11",
    "update_range.plain.table_verbose.double_spaced": "B15",
    "update_range.plain.tsv.fence_inline_close": "B16",
    "weedout.an.table.fence_inline_close": "B16",
    "weedout.an.vertical.cut_tail": "B19",
    "weedout.plain.table_verbose.double_spaced": "B15",
    "window_fn.ext.transcript60_vertical.clean": "B2",
    "window_fn.ext.transcript60_vertical.indent4": "B2",
    "window_fn.json.json_batch.quote+wrap80": "B4",
    "window_fn.plain.table.no_rules+wrap100": "B14",
    "window_fn.plain.vertical.fence_inline_close": "B16",
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
    if expect.get("unrecoverable"):
        try:
            result = analyze(case["input"]).to_dict()
        except ParseError:
            return
        assert result["truncated"], "cut-off lines not marked truncated"
        assert any("truncated" in notice.lower() for notice in result["notices"]), result["notices"]
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
