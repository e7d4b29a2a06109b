"""Rows pasted as a GUI, a web page or a book left them: header-less rows separated by commas, terms
whose case a page's styling changed, double-spaced `\\G` output, and noise lines a scraped page put
between the lines of the output."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse

# --- header-less rows separated by commas (a GUI's copy of rows as CSV)

CSV12 = "1,SIMPLE,orderitems,,ALL,,,,,1,100,Using filesort"


@pytest.mark.parametrize(
    ("text", "tables", "columns"),
    [
        (CSV12, ["orderitems"], 12),
        ("1, SIMPLE, t, ALL, , , , , 30, Using where", ["t"], 10),
        ('"1","SIMPLE","t","ref","a,b","a","4","const","3","Using where"', ["t"], 10),
        (
            "'1','PRIMARY','o','ALL','','','','','9','100.00',''\n'2','DERIVED','i','ALL','','','','','4','100.00',''",
            ["o", "i"],
            11,
        ),
        (
            "Here it is:\n\n1,SIMPLE,a,,index,,PRIMARY,4,,7,100.00,Using index\n1,SIMPLE,b,,eq_ref,PRIMARY,PRIMARY,4,db.a.id,1,100.00,\n",
            ["a", "b"],
            12,
        ),
    ],
    ids=["gui-row", "spaced", "quoted-list", "single-quotes-two-rows", "after-prose"],
)
def test_header_less_comma_rows_are_read_by_their_values(text, tables, columns):
    plan = parse(text)
    assert plan.format == "csv"
    assert [row["table"] for row in plan.rows] == tables
    assert len(plan.columns) == columns
    assert plan.uncertain and not plan.truncated
    assert any("separated by commas" in notice for notice in plan.notices)


def test_empty_comma_fields_are_null_and_quoted_lists_kept_whole():
    plan = parse('"1","SIMPLE","t","ref","a,b","a","4","const","3",""')
    row = plan.rows[0]
    assert row["possible_keys"] == "a,b" and row["extra"] is None
    row = parse(CSV12).rows[0]
    assert row["partitions"] is None and row["key"] is None and row["rows"] == "1" and row["filtered"] == "100"


@pytest.mark.parametrize(
    "text",
    [
        "1,SIMPLE,t,,ref,a,b,a,4,const,10,100,",  # an unquoted list: the fields fit no column order
        "1, SIMPLE, and 2 were the answers I got back, both wrong",
        "1,SIMPLE,t,ALL",
    ],
)
def test_comma_lines_that_fit_no_column_order_are_refused(text):
    with pytest.raises(ParseError):
        parse(text)
