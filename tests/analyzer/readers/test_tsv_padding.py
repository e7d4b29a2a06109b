"""Tab-separated grid copies whose columns were lined up by hand, and lines cut at one width.

GUI clients (MySQL Workbench, Navicat, DBeaver) copy a result grid as tab-separated text with
NULL shown as nothing; people then add tabs to line the columns up, trim or rename the header.
Such rows are read by placing each cell in the column its value fits, and flagged `uncertain`.
Lines cut at one width (a pager, a terminal without wrapping) are flagged `truncated` when a
value visibly stops there, never when lines of equal length end in whole values.
"""

from __future__ import annotations

from analyzer.pipeline import parse
from analyzer.readers.resultset import CUT
from analyzer.readers.shapes.cell_shapes import align_cells, stops_inside

HEADER = "id\tselect_type\ttable\tpartitions\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tfiltered\tExtra"
COLUMNS = [name.lower() for name in HEADER.split("\t")]


def _cells(plan, index):
    return {name: cell for name, cell in plan.rows[index].items() if cell}


def test_rows_wider_than_the_header_are_placed_by_their_values():
    text = "\n".join(
        [
            HEADER,
            "1\t\tSIMPLE\t\tc\t\t\tALL\t\tPRIMARY\t\t\t\t\t104\t\t100.00\t\tUsing where",
            "1\t\tSIMPLE\t\ta\t\t\teq_ref\tPRIMARY\t\t\tPRIMARY\t12\t\tdb.c.code\t1\t\t100.00\t",
        ]
    )
    plan = parse(text)
    assert not plan.truncated
    assert plan.uncertain
    assert plan.columns == COLUMNS
    assert _cells(plan, 0) == {
        "id": "1", "select_type": "SIMPLE", "table": "c", "type": "ALL", "possible_keys": "PRIMARY",
        "rows": "104", "filtered": "100.00", "extra": "Using where",
    }  # fmt: skip
    assert _cells(plan, 1) == {
        "id": "1", "select_type": "SIMPLE", "table": "a", "type": "eq_ref", "possible_keys": "PRIMARY",
        "key": "PRIMARY", "key_len": "12", "ref": "db.c.code", "rows": "1", "filtered": "100.00",
    }  # fmt: skip
    assert plan.rows[1]["extra"] == ""  # NULL as the grid shows it: nothing
    assert (
        "Lines 2 and 3 have more tab-separated fields than the header (hand-added tabs?); "
        "cells were placed in columns by their values." in plan.notices
    )


def test_a_header_with_runs_of_tabs_and_a_trimmed_header():
    text = "\n".join(
        [
            "# id\tselect\ttable\t\ttype\tkey\t\tkey_len\tref\t\trows\tfiltered\tExtra",
            "\t1\tSIMPLE\t\to\t\t\tALL\t\t\t\t\t\t1100\t100\t",
            "\t1\tSIMPLE\t\tc\t\t\teq_ref PRIMARY\t\t4\t\tdb.o.a\t1\t\t100\t",
        ]
    )
    plan = parse(text)
    assert not plan.truncated and plan.uncertain
    assert plan.columns == ["id", "select_type", "table", "type", "key", "key_len", "ref", "rows", "filtered", "extra"]
    assert [row["type"] for row in plan.rows] == ["ALL", "eq_ref"]
    assert _cells(plan, 1) == {
        "id": "1", "select_type": "SIMPLE", "table": "c", "type": "eq_ref", "key": "PRIMARY", "key_len": "4",
        "ref": "db.o.a", "rows": "1", "filtered": "100",
    }  # fmt: skip
    assert "Read the header's 'select' as select_type (line 1)." in plan.notices
    assert any(n.startswith("The header holds runs of tabs and lines 2 and 3 do not line up") for n in plan.notices)


def test_runs_of_tabs_that_fill_every_column_are_single_separators():
    text = "id\tselect_type\ttable\ttype\t\trows\tExtra\n1\t\tSIMPLE\tt\tALL\t\t\t10\tUsing where"
    plan = parse(text)
    assert not plan.truncated and not plan.uncertain
    assert plan.rows == [
        {"id": "1", "select_type": "SIMPLE", "table": "t", "type": "ALL", "rows": "10", "extra": "Using where"}
    ]
    assert "Read the runs of tabs on line 2 as single separators (columns lined up by hand)." in plan.notices


def test_a_row_whose_cells_fit_no_column_is_flagged():
    text = f"{HEADER}\n1\tSIMPLE\tt\t\tALL\t\t\t\t\t10\t100.00\tUsing where\tsurplus\tcells\tmore"
    plan = parse(text)
    assert plan.truncated
    assert not plan.uncertain


def test_a_batch_row_of_the_header_width_is_read_as_printed():
    text = f"{HEADER}\n1\tSIMPLE\tt\tNULL\tALL\tNULL\tNULL\tNULL\tNULL\t10\t100.00\t"
    plan = parse(text)
    assert not plan.uncertain and not plan.truncated
    assert plan.rows[0]["extra"] == ""


def test_align_cells_reads_the_access_type():
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]
    # ALL reads no index: the key name is a possible key; ref reads one: it is the key.
    assert align_cells(["1", "SIMPLE", "t", "ALL", "idx", "10"], columns) == [0, 1, 2, 3, 4, 8]
    assert align_cells(["1", "SIMPLE", "t", "ref", "idx", "4", "const", "10"], columns) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert align_cells(["SIMPLE", "1"], ["id", "select_type"]) is None


def test_stops_inside():
    assert stops_inside("extra", "Using where; Using join buff")
    assert stops_inside("extra", "Using union(idx_a,idx_")
    assert stops_inside("extra", "Using where; Using in")
    assert stops_inside("possible_keys", "idx_a,")
    assert not stops_inside("extra", "Using where; Using index")
    assert not stops_inside("extra", "Using join buffer (flat, BNL join)")
    assert not stops_inside("extra", "Range checked for each record (index map: 0x1C)")
    assert not stops_inside("extra", "a note nobody knows")
    assert not stops_inside("key", "idx_a")


ROWS = [
    "1\tSIMPLE\tcustomers\tref\tidx_country\tidx_country\t8\tconst\t667\tUsing index condition; Using where",
    "1\tSIMPLE\torders\tref\tidx_customer\tidx_customer\t4\tdb.customers.id\t3\tUsing where; Using join buffer (flat, BKA join)",
]
CLASSIC = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra"


def test_batch_lines_cut_inside_an_extra_item_are_flagged():
    text = "\n".join([CLASSIC, *(row[:100] for row in ROWS)])
    plan = parse(text)
    assert plan.truncated
    assert plan.rows[1]["extra"] == "Using where; Using join buffer (fl" + CUT
    assert plan.affected_rows == [1]
    assert any("truncated at 100 characters" in notice for notice in plan.notices)


def test_batch_lines_cut_as_a_terminal_shows_them_are_flagged():
    shown = [line.expandtabs(8)[:80] for line in [CLASSIC, *ROWS]]
    plan = parse("\n".join(shown))
    assert plan.truncated
    assert any("truncated at 80 columns" in notice for notice in plan.notices)


def test_rows_short_of_fields_at_a_shared_width_are_flagged():
    rows = [
        "1\tSIMPLE\tcustomers_of_the_shop_in_the_town\tALL\tNULL\tNULL\tNULL\tNULL\t1000\tUsing where",
        "1\tSIMPLE\tinvoices_of_the_shop_in_the_town\tALL\tNULL\tNULL\tNULL\tNULL\t20000\tUsing where",
    ]
    # Both cut in the rows column: Extra is gone, which alone would pass for a stripped trailing tab.
    width = rows[0].rindex("\t") - 2
    assert width > len(CLASSIC)
    plan = parse("\n".join([CLASSIC, *(row[:width] for row in rows)]))
    assert plan.truncated
    assert [row["rows"] for row in plan.rows] == ["10" + CUT, "200" + CUT]
    assert [row["extra"] for row in plan.rows] == [CUT, CUT]


def test_equal_longest_lines_ending_in_whole_values_are_no_cut():
    rows = [
        "1\tSIMPLE\tab\tALL\tNULL\tNULL\tNULL\tNULL\t1000\tUsing where; Using filesort",
        "1\tSIMPLE\tcd\tALL\tNULL\tNULL\tNULL\tNULL\t2000\tUsing where; Using filesort",
    ]
    assert len(rows[0]) == len(rows[1])
    plan = parse("\n".join([CLASSIC, *rows]))
    assert not plan.truncated
    assert plan.rows[1]["extra"] == "Using where; Using filesort"


VERTICAL = """*************************** 1. row ***************************
           id: 1
  select_type: SIMPLE
        table: orders
         type: index_merge
possible_keys: idx_customer_reference,idx_order_reference
          key: idx_customer_reference,idx_order_reference
      key_len: 4,4
          ref: NULL
         rows: 18
        Extra: Using union(idx_customer_reference,idx_order_reference); Using where"""


def test_vertical_values_cut_inside_are_flagged():
    plan = parse("\n".join(line[:66] for line in VERTICAL.split("\n")))
    assert plan.truncated
    assert plan.rows[0]["extra"] == "Using union(idx_customer_reference,idx_order_refere" + CUT
    assert plan.rows[0]["key"] == "idx_customer_reference,idx_order_reference"  # its line is shorter
    assert any("a value stops there inside" in notice for notice in plan.notices)


def test_vertical_lines_of_equal_length_with_whole_values_are_no_cut():
    text = VERTICAL.replace("Using union(idx_customer_reference,idx_order_reference); Using where", "Using where")
    plan = parse(text)
    assert not plan.truncated
    assert plan.rows[0]["key"] == "idx_customer_reference,idx_order_reference"
