"""Rows without a header (`readers.shapes.headerless`): read in the column order EXPLAIN prints with as
many fields when their values fit it, flagged when the order or the cells' places are a guess, and
refused when they start like EXPLAIN rows but do not fit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.model import ParseError
from analyzer.pipeline import parse
from tests.analyzer.readers.test_columns import OLD, cells, expected_rows, plans, printed

ROW12 = ["1", "SIMPLE", "t", "NULL", "ALL", "NULL", "NULL", "NULL", "NULL", "100", "100.00", "Using where"]
ROW12_B = ["1", "SIMPLE", "u", "NULL", "eq_ref", "PRIMARY", "PRIMARY", "4", "db.t.a", "1", "100.00", ""]


@pytest.mark.parametrize(
    ("separator", "fmt"), [("\t", "tsv"), ("   ", "tsv"), (" | ", "table")], ids=["tab", "spaces", "pipes"]
)
def test_header_less_rows_are_read_in_the_standard_order(separator, fmt):
    second = ROW12_B[:-1] + ["Using index"]
    text = "Here is the plan:\n" + separator.join(ROW12) + "\n" + separator.join(second) + "\n"
    plan = parse(text)
    assert plan.format == fmt
    assert plan.columns[3] == "partitions" and plan.columns[10] == "filtered"
    assert cells(plan, "table", "type", "rows", "filtered") == [
        ("t", "ALL", "100", "100.00"),
        ("u", "eq_ref", "1", "100.00"),
    ]
    assert not plan.uncertain and not plan.truncated
    assert "Lines 2-3 have no header; read as the 12 standard EXPLAIN columns because their values fit them." in (
        plan.notices
    )


def test_a_gui_copy_with_empty_nulls_and_a_trailing_tab():
    plan = parse("\t".join(ROW12) + "\n" + "\t".join(ROW12_B).replace("NULL", "") + "\n")
    assert plan.rows[1]["extra"] == "" and plan.rows[1]["partitions"] == ""
    assert [row["table"] for row in plan.rows] == ["t", "u"]


def test_header_less_rows_in_a_box_without_header():
    row = "| " + " | ".join(ROW12) + " |"
    border = "+---+---+"
    plan = parse(f"{border}\n{row}\n{border}\n")
    assert plan.format == "table"
    assert plan.rows[0]["type"] == "ALL"
    assert not any(notice.startswith("Ignored") for notice in plan.notices)


def test_ten_and_thirteen_fields():
    ten = ["1", "SIMPLE", "t", "ALL", "NULL", "NULL", "NULL", "NULL", "10", "Using where"]
    assert "filtered" not in parse("\t".join(ten) + "\n").columns
    analyze = [
        "1",
        "SIMPLE",
        "t",
        "ALL",
        "NULL",
        "NULL",
        "NULL",
        "NULL",
        "10",
        "10.00",
        "100.00",
        "50.00",
        "Using where",
    ]
    plan = parse("\t".join(analyze) + "\n")
    assert plan.rows[0]["r_rows"] == "10.00" and plan.rows[0]["r_filtered"] == "50.00"
    assert not plan.uncertain


def test_eleven_fields_that_fit_both_orders_are_flagged():
    row = ["1", "SIMPLE", "t", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1", "Impossible WHERE"]
    plan = parse("\t".join(row) + "\n")
    assert plan.uncertain
    assert any("EXPLAIN PARTITIONS as well" in notice for notice in plan.notices)


def test_eleven_fields_that_fit_one_order_are_sure():
    row = ["1", "SIMPLE", "t", "p0,p1", "range", "idx", "idx", "4", "NULL", "12", "Using where"]
    plan = parse("\t".join(row) + "\n")
    assert plan.rows[0]["partitions"] == "p0,p1"
    assert not plan.uncertain


def test_header_less_rows_that_do_not_fit_are_refused():
    bad = ["1", "SIMPLE", "t", "NULL", "ALL", "NULL", "NULL", "NULL", "NULL", "lots", "100.00", "Using where"]
    with pytest.raises(ParseError) as error:
        parse("\t".join(ROW12) + "\n" + "\t".join(bad) + "\n")
    assert error.value.line == 2
    assert "'lots' cannot be rows" in error.value.message


@settings(max_examples=100, deadline=None)
@given(plans(), st.sampled_from(["\t", "  ", " | "]))
def test_any_header_less_plan_is_read_exactly(plan, separator):
    columns, rows = plan
    if columns == OLD or (separator != "\t" and any(c == "" for row in rows for c in row)):
        return  # no id to start a run; an empty cell between runs of spaces is lost
    read = parse("".join(separator.join(printed(c) for c in row) + "\n" for row in rows))
    assert read.columns == columns and read.rows == expected_rows(columns, rows)
    assert not read.uncertain and not read.truncated


PHPMYADMIN = (
    "Your SQL query has been executed successfully.\n\n"
    "1\tSIMPLE\tmovies\tindex\t\n    NULL\n\tPRIMARY\t4\t\n    NULL\n\t190671\t\t\n"
    "1\tSIMPLE\tpeople\tref\tPRIMARY\tPRIMARY\t4\tdb.movies.id\t2\tUsing index\t\n"
)


def test_phpmyadmin_rows_broken_at_their_null_cells_and_ending_in_a_tab():
    plan = parse(PHPMYADMIN)
    assert plan.columns == [
        "id",
        "select_type",
        "table",
        "type",
        "possible_keys",
        "key",
        "key_len",
        "ref",
        "rows",
        "extra",
    ]
    assert cells(plan, "table", "possible_keys", "key", "ref", "rows", "extra") == [
        ("movies", None, "PRIMARY", None, "190671", ""),
        ("people", "PRIMARY", "PRIMARY", "db.movies.id", "2", "Using index"),
    ]
    assert not plan.uncertain and not plan.truncated
    # The cells put back are the plan's lines too.
    assert [(span.first, span.last, span.role) for span in plan.lines] == [(1, 1, "ignored"), (3, 8, "plan")]


def test_a_row_typed_with_single_spaces_behind_a_comment_marker():
    plan = parse("EXPLAIN SELECT * FROM t;\n\n# 1 SIMPLE t index NULL PRIMARY 70 NULL 196188 Using index\n")
    assert cells(plan, "table", "type", "key", "key_len", "rows", "extra") == [
        ("t", "index", "PRIMARY", "70", "196188", "Using index")
    ]
    assert plan.uncertain
    assert "Took the comment marker '#' off line 3." in plan.notices
    assert any("single spaces" in notice for notice in plan.notices)


def test_single_spaced_rows_that_fit_no_order_are_refused():
    with pytest.raises(ParseError) as error:
        parse("1 SIMPLE t index NULL PRIMARY seventy NULL 196188 Using index\n")
    assert "no column order EXPLAIN prints fits its values" in error.value.message
    assert error.value.line == 1


ROW10 = "1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t10\tUsing where\n"


def test_a_row_with_other_fields_than_the_rest_is_refused():
    with pytest.raises(ParseError) as error:
        parse(ROW10 + "1\tSIMPLE\tu\tALL\tNULL\tNULL\t10\tUsing where\n" + ROW10)
    assert "line 2 has 8 fields where line 1 has 10" in error.value.message


@pytest.mark.parametrize(
    "last",
    ["1\tSIMPLE\tu\tALL\tNULL\tNU", "1 SIMPLE u ALL NULL NU"],
    ids=["tabs", "single-spaces"],
)
def test_a_last_row_cut_short_is_left_out_and_flagged(last):
    tabs = "\t" in last
    first = ROW10 if tabs else ROW10.replace("\t", " ")
    plan = parse(first + first + last)
    assert plan.truncated
    assert any("The last row (line 3)" in notice and "truncated" in notice for notice in plan.notices)
    if tabs:
        assert plan.rows[2] == {**dict.fromkeys(plan.columns, "…"), "id": "1", "select_type": "SIMPLE", "table": "u",
                                "type": "ALL", "possible_keys": None, "key": "NU…"}  # fmt: skip
        assert plan.affected_rows == [2]
    else:
        assert [row["table"] for row in plan.rows] == ["t", "t"]


def test_chat_right_after_the_rows_is_flagged():
    plan = parse("1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t10\tUsing where\nwhy is this slow?\n")
    assert len(plan.rows) == 1
    assert plan.uncertain
    assert any(notice.startswith("Line 2 follows the rows") for notice in plan.notices)


def test_a_filtered_over_a_hundred_is_no_filtered():
    # 196188 cannot be `filtered` of EXPLAIN EXTENDED (ref left out, rows NULL): one order fits.
    plan = parse("1 SIMPLE t index NULL PRIMARY 70 NULL 196188 Using index\n")
    assert "filtered" not in plan.columns
    assert not any("as well" in notice for notice in plan.notices)


@settings(max_examples=100, deadline=None)
@given(plans())
def test_any_single_spaced_header_less_plan_is_read_exactly_and_flagged_or_refused(plan):
    columns, rows = plan
    if columns == OLD:
        return  # no id to start a run
    try:
        read = parse("".join(" ".join(printed(c) for c in row if c != "").rstrip() + "\n" for row in rows))
    except ParseError:
        return
    assert read.uncertain
    if not any("as well" in notice for notice in read.notices):
        assert read.columns == columns and read.rows == expected_rows(columns, rows)


@pytest.mark.parametrize(
    "text",
    [
        "1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t10\tUsing whe\n",
        "table type possible_keys key key_len ref rows Extra\nt ALL NULL NULL NULL NULL 10 Using join buffer (flat, BNL\n",
    ],
    ids=["header-less", "spaced-header"],
)
def test_a_value_cut_inside_an_item_is_flagged(text):
    plan = parse(text)
    assert plan.truncated and plan.affected_rows == [0]
    assert plan.rows[0]["extra"].endswith("…")
    assert any("look truncated" in notice for notice in plan.notices)


@pytest.mark.parametrize("text", ["1|SIMPLE\n", "|1|SIMPLE|relation_tuple|ALL|ix_relation_tup\n"])
def test_a_row_start_without_spaces_or_enough_pipes_is_refused(text):
    # Fewer than nine `|` signs and no spaces: the line starts like a row but cannot be split.
    with pytest.raises(ParseError) as info:
        parse(text)
    assert info.value.__cause__ is None
