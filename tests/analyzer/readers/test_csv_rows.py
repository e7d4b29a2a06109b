"""Comma-separated rows: GUI row copies with names and CSV exports."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.resultset import CUT

WORKBENCH = (
    "# id, select_type, table, partitions, type, possible_keys, key, key_len, ref, rows, filtered, Extra\n"
    "'1', 'SIMPLE', 'o', NULL, 'ALL', 'idx_c,idx_d', NULL, NULL, NULL, '5000', '10.00', 'Using where'\n"
    "'1', 'SIMPLE', 'c', NULL, 'eq_ref', 'PRIMARY', 'PRIMARY', '4', 'shop.o.customer_id', '1', '100.00', NULL\n"
)


def test_a_workbench_row_copy_with_names_is_read():
    plan = parse(WORKBENCH)
    assert plan.format == "csv" and not plan.truncated
    assert [(r["table"], r["type"], r["possible_keys"], r["extra"]) for r in plan.rows] == [
        ("o", "ALL", "idx_c,idx_d", "Using where"),
        ("c", "eq_ref", "PRIMARY", None),
    ]
    assert plan.rows[0]["partitions"] is None


@pytest.mark.parametrize("wrap", [("/*", "*/"), ("-- ", ""), ("// ", "")])
def test_comment_marks_around_the_copy_are_not_cells(wrap):
    before, after = wrap
    lines = WORKBENCH.splitlines()
    text = "\n".join(before + line for line in lines) + after + "\n"
    plan = parse(text)
    assert [r["table"] for r in plan.rows] == ["o", "c"] and plan.rows[1]["extra"] is None


def test_a_csv_export_with_double_quotes_and_bare_values():
    export = (
        '"id","select_type","table","type","possible_keys","key","key_len","ref","rows","Extra"\n'
        '1,"SIMPLE","t","range","a,b","a","5",NULL,120,"Using index condition"\n'
    )
    plan = parse(export)
    assert plan.format == "csv"
    assert plan.rows[0] == {
        "id": "1", "select_type": "SIMPLE", "table": "t", "type": "range", "possible_keys": "a,b",
        "key": "a", "key_len": "5", "ref": None, "rows": "120", "extra": "Using index condition",
    }


def test_a_row_cut_short_is_flagged():
    cut = WORKBENCH.splitlines()[0] + "\n" + WORKBENCH.splitlines()[1][:70] + "\n"
    plan = parse(cut)
    assert plan.truncated and plan.affected_rows == [0]
    assert plan.rows[0]["extra"] == CUT


def test_comma_separated_text_that_is_no_explain_is_not_read():
    with pytest.raises(ParseError):
        parse("name, email, city, country, phone\n'Ann', 'a@x', 'Oslo', 'NO', '1'\n")


def test_a_row_whose_values_do_not_fit_ends_the_rows():
    text = WORKBENCH + "'x', 'SIMPLE', 'z', NULL, 'sometimes', NULL, NULL, NULL, NULL, '1', '1', NULL\n"
    assert len(parse(text).rows) == 2
