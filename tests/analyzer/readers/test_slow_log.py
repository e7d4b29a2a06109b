"""MariaDB's slow query log with `log_slow_verbosity=explain`: the `# explain:` lines and the old
`## <explain>` block read as the plan, the logged statement as the query."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.resultset import CUT

HEADER = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "r_rows", "filtered",
          "r_filtered", "Extra"]  # fmt: skip
ROWS = [
    ["1", "PRIMARY", "o", "ALL", "NULL", "NULL", "NULL", "NULL", "100000", "100000.00", "100.00", "10.00", "Using where"],
    ["2", "DEPENDENT SUBQUERY", "i", "ref", "order_id", "order_id", "4", "shop.o.id", "3", "2.50", "100.00", "100.00",
     "Using index condition; Using where"],
]  # fmt: skip
ENTRY_HEAD = (
    "# Time: 240101 10:00:00\n"
    "# User@Host: app[app] @ localhost []\n"
    "# Thread_id: 12  Schema: shop  QC_hit: No\n"
    "# Query_time: 2.000000  Lock_time: 0.000100  Rows_sent: 10  Rows_examined: 100000\n"
    "# Rows_affected: 0  Bytes_sent: 120\n"
)
ENTRY_TAIL = (
    "#\n"
    "use shop;\n"
    "SET timestamp=1704103200;\n"
    "SELECT * FROM orders o\n"
    "WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id);\n"
)
QUERY = "SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id)"


def explain_lines(separator: str) -> str:
    return "".join(f"# explain: {separator.join(fields)}\n" for fields in [HEADER, *ROWS])


def expanded(text: str) -> str:
    """The log as a web page shows it: every tab expanded to the next stop of 8 columns."""
    return "\n".join(line.expandtabs(8) for line in text.split("\n"))


def expected_rows() -> list[dict]:
    return [
        {name.lower(): (None if value == "NULL" else value) for name, value in zip(HEADER, row, strict=True)}
        for row in ROWS
    ]


@pytest.mark.parametrize(
    ("entry", "layout"),
    [
        (ENTRY_HEAD + explain_lines("\t") + ENTRY_TAIL, None),
        (expanded(ENTRY_HEAD + explain_lines("\t") + ENTRY_TAIL), "expanded to spaces"),
        (ENTRY_HEAD + explain_lines(" ") + ENTRY_TAIL, "collapsed to single spaces"),
    ],
    ids=["tabs", "expanded", "collapsed"],
)
def test_explain_lines_of_an_entry(entry, layout):
    plan = parse(entry)
    assert plan.format == ("tsv" if layout is None else "table")
    assert plan.columns == [name.lower() for name in HEADER]
    assert plan.rows == expected_rows()
    assert plan.query == QUERY
    assert not plan.truncated and not plan.uncertain
    assert "Read 2 EXPLAIN rows from a MariaDB slow query log entry (lines 6-8)." in plan.notices
    assert "Took the query from the statement the entry logged (line 12)." in plan.notices
    assert not any("other text" in n for n in plan.notices), plan.notices
    assert any(layout in n for n in plan.notices) if layout else True


def test_the_old_explain_block():
    body = "".join(f"##   {chr(9).join(fields)}\n" for fields in [HEADER, *ROWS])
    entry = ENTRY_HEAD + "## <explain>\n" + body + "## </explain>\n" + "SET timestamp=1704103200;\nSELECT 1;\n"
    plan = parse(expanded(entry))
    assert plan.rows == expected_rows()
    assert plan.query == "SELECT 1"
    assert not plan.truncated
    plan = parse(entry.replace("## </explain>\n", ""))
    assert plan.truncated
    assert any("no closing '## </explain>'" in n for n in plan.notices)


def test_a_row_cut_short_is_flagged():
    plan = parse(ENTRY_HEAD + explain_lines("\t")[:-50])
    assert plan.truncated
    assert plan.rows[1]["r_filtered"] == CUT and plan.rows[1]["extra"] == CUT
    assert plan.affected_rows == [1]


def test_an_empty_extra_whose_tab_was_stripped():
    text = explain_lines("\t").replace("\tUsing index condition; Using where\n", "\n")
    plan = parse(text)
    assert plan.rows[1]["extra"] == ""
    assert any("trailing tab was probably stripped" in n for n in plan.notices)


def test_a_collapsed_row_that_splits_more_than_one_way_is_uncertain():
    text = explain_lines(" ").replace("shop.o.id", "shop o id")
    plan = parse(text)
    assert plan.uncertain
    assert any("could be split more than one way" in n for n in plan.notices)


def test_entries_without_explain_lines_are_no_plan():
    with pytest.raises(ParseError):
        parse(ENTRY_HEAD + ENTRY_TAIL)
    with pytest.raises(ParseError):
        parse(ENTRY_HEAD + "# explain: nothing to see here\n" + ENTRY_TAIL)


def test_two_entries_give_the_first_and_name_the_other():
    second = ENTRY_HEAD + explain_lines("\t").replace("PRIMARY", "SIMPLE") + ENTRY_TAIL
    plan = parse(ENTRY_HEAD + explain_lines("\t") + ENTRY_TAIL + second)
    assert plan.rows == expected_rows()
    assert any("2 different EXPLAIN results" in n for n in plan.notices)
