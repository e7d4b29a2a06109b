"""Tables whose borders, alignment or header are gone (`readers.shapes.columns`, `readers.shapes.by_value`): read
exactly where the columns line up, flagged `uncertain` where a cell's place is a guess, refused
where the values do not fit, and never made out of prose, logs or other result sets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.shapes.by_value import fits, place
from tests.analyzer.repair.mangle import display_width

OLD = ["table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]
CLASSIC = ["id", "select_type", *OLD]


def cells(plan, *names):
    return [tuple(row[name] for name in names) for row in plan.rows]


# -- shapes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "cell"),
    [
        ("id", "12"),
        ("id", "NULL"),
        ("id", ""),
        ("select_type", "DEPENDENT SUBQUERY"),
        ("select_type", "LATERAL DERIVED"),
        ("table", "<derived2>"),
        ("partitions", "p0,p1"),
        ("type", "eq_ref"),
        ("type", "ref|filter"),
        ("type", "ALL"),
        ("possible_keys", "PRIMARY,idx_a"),
        ("key", "idx_a,idx_b"),
        ("key_len", "4,4"),
        ("key_len", "4|1"),
        ("ref", "db.t.col,const"),
        ("ref", "func"),
        ("rows", "4 (15%)"),
        ("filtered", "33.33"),
        ("filtered", "100"),
        ("r_rows", "1.00"),
        ("extra", "Using where; Using index"),
    ],
)
def test_values_that_fit_their_column(column, cell):
    assert fits(column, cell)


@pytest.mark.parametrize(
    ("column", "cell"),
    [
        ("id", "x"),
        ("select_type", "NULL"),
        ("select_type", "simple"),
        ("select_type", "DEPENDENT"),
        ("table", "two words"),
        ("type", "all"),
        ("type", "scan"),
        ("possible_keys", "4"),
        ("key_len", "PRIMARY"),
        ("ref", "4314"),
        ("rows", "many"),
        ("filtered", "100%"),
        ("extra", "4314 Using where"),
        ("extra", "Using  where"),
    ],
)
def test_values_that_do_not_fit_their_column(column, cell):
    assert not fits(column, cell)


def test_place_takes_two_words_for_a_two_word_select_type():
    line = "1 DEPENDENT SUBQUERY t ref idx idx 4 db.o.id 3 Using index"
    placed, ways = place(CLASSIC, line)
    assert ways == 1
    assert placed == ["1", "DEPENDENT SUBQUERY", "t", "ref", "idx", "idx", "4", "db.o.id", "3", "Using index"]


def test_place_leaves_out_a_ref_that_is_not_there():
    placed, _ = place(OLD, "i range sid,word word 50 4314 Using where; Using temporary")
    assert placed == ["i", "range", "sid,word", "word", "50", "", "4314", "Using where; Using temporary"]


def test_place_refuses_what_fits_no_way():
    assert place(OLD, "i range sid,word word fifty 4314 Using where") == (None, 0)


def test_place_refuses_a_row_missing_too_many_values():
    # Fits only with possible_keys, key_len and ref all gone: no reading, a guess.
    assert place(OLD, "t eq_ref PRIMARY 1 Using where")[0] is None


def test_place_refuses_a_row_that_fits_two_ways_as_well():
    # `Using` could be the ref (a name) or the Extra: both leave one cell empty.
    assert place(["table", "type", "ref", "extra"], "t ALL Using") == (None, 2)


# -- a header of names separated by spaces -------------------------------------------------------

HAND_ALIGNED = """\
id     select_type   table  type   possible_keys   key    key_len  ref    rows  Extra
1      SIMPLE        user   ALL    NULL            NULL   NULL     NULL   11    Using where
1      SIMPLE        dept   eq_ref PRIMARY         PRIMARY 4       db.user.dept 1
"""


def test_a_hand_aligned_header_reads_the_cells_by_position():
    plan = parse(HAND_ALIGNED.split("\n", 2)[0] + "\n" + HAND_ALIGNED.split("\n")[1] + "\n")
    assert plan.format == "tsv"
    assert plan.columns == CLASSIC
    assert plan.rows == [
        dict(zip(CLASSIC, ["1", "SIMPLE", "user", "ALL", None, None, None, None, "11", "Using where"], strict=True))
    ]
    assert not plan.truncated and not plan.uncertain
    assert any("column names separated by spaces" in notice for notice in plan.notices)


def test_a_row_that_does_not_line_up_is_placed_by_shape_and_flagged():
    plan = parse(HAND_ALIGNED)
    assert cells(plan, "table", "type", "key", "key_len", "ref", "rows", "extra")[1] == (
        "dept",
        "eq_ref",
        "PRIMARY",
        "4",
        "db.user.dept",
        "1",
        "",
    )
    assert plan.uncertain and not plan.truncated
    assert any("line 3 do not line up" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "row",
    [
        " 1  SIMPLE       t      ALL   NULL           NULL  NULL     NULL  12345  Using where",
        "1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t12345\tUsing where",
    ],
    ids=["wide-number", "tabs"],
)
def test_a_row_with_as_many_cells_as_the_header_between_tabs_or_runs_of_spaces(row):
    header = "id  select_type  table  type  possible_keys  key   key_len  ref   rows  Extra"
    plan = parse(f"{header}\n{row}\n")
    assert cells(plan, "table", "type", "rows", "extra") == [("t", "ALL", "12345", "Using where")]
    assert not plan.uncertain


def test_tabs_collapsed_to_single_spaces():
    text = (
        "id select_type table type possible_keys key key_len ref rows Extra\n"
        "1 PRIMARY o ALL NULL NULL NULL NULL 1200 Using where\n"
        "2 DEPENDENT SUBQUERY i ref idx_order idx_order 4 func 3 Using index\n"
        "NULL UNION RESULT <union1,2> ALL NULL NULL NULL NULL NULL Using temporary\n"
    )
    plan = parse(text)
    assert cells(plan, "id", "select_type", "table", "type", "ref", "rows") == [
        ("1", "PRIMARY", "o", "ALL", None, "1200"),
        ("2", "DEPENDENT SUBQUERY", "i", "ref", "func", "3"),
        (None, "UNION RESULT", "<union1,2>", "ALL", None, None),
    ]
    assert plan.uncertain and not plan.truncated
    assert any("lines 2, 3 and 4" in notice and "shapes" in notice for notice in plan.notices)


def test_the_old_header_without_id_and_select_type_is_complete():
    text = (
        "table type possible_keys key key_len ref rows Extra\n"
        "i range sid,word word 50 4314 Using where; Using temporary\n"
        "t eq_ref PRIMARY PRIMARY 50 i.word 1\n"
    )
    plan = parse(text)
    assert plan.columns == OLD
    assert cells(plan, "table", "ref", "rows", "extra") == [
        ("i", "", "4314", "Using where; Using temporary"),
        ("t", "i.word", "1", ""),
    ]
    assert not plan.truncated


MANUAL = """\
table type   possible_keys key     key_len ref         rows    Extra
tt    ALL    AssignedPC,   NULL    NULL    NULL        3872    Using
             ClientID,                                         where
             ActualPC
do    ALL    PRIMARY       NULL    NULL    NULL        2135
et    eq_ref PRIMARY       PRIMARY 15      tt.ActualPC 1
"""


def test_cells_wrapped_onto_continuation_lines_are_rejoined():
    plan = parse(MANUAL)
    assert cells(plan, "table", "possible_keys", "extra") == [
        ("tt", "AssignedPC,ClientID,ActualPC", "Using where"),
        ("do", "PRIMARY", ""),
        ("et", "PRIMARY", ""),
    ]
    assert not plan.truncated and not plan.uncertain
    assert any("Rejoined 2 continuation lines (lines 3 and 4)" in notice for notice in plan.notices)


def test_extra_wrapped_under_another_column_is_taken_as_extra_and_flagged():
    lines = MANUAL.splitlines()
    text = "\n".join([*lines[:5], "      Range checked for each record (index map: 0x1)", lines[5]]) + "\n"
    plan = parse(text)
    assert plan.rows[1]["extra"] == "Range checked for each record (index map: 0x1)"
    assert [row["table"] for row in plan.rows] == ["tt", "do", "et"]
    assert plan.uncertain
    assert any("line 6" in notice and "Extra of the row above" in notice for notice in plan.notices)


def test_a_rule_under_the_header_and_cjk_names_line_up():
    text = (
        "id  select_type  table     type    rows  Extra\n"
        "--  -----------  --------  ------  ----  -----\n"
        "1   SIMPLE       員工      ALL     12    Using where\n"
    )
    plan = parse(text)
    assert cells(plan, "table", "type", "rows", "extra") == [("員工", "ALL", "12", "Using where")]
    assert not plan.uncertain


def test_a_row_under_a_header_that_fits_nothing_is_refused():
    text = "id select_type table type possible_keys key key_len ref rows Extra\n1 SIMPLE t ALL lots of words here\n"
    with pytest.raises(ParseError) as error:
        parse(text)
    assert error.value.line == 2
    assert "Line 2, under the EXPLAIN header on line 1" in error.value.message


def test_prose_under_a_header_is_not_a_row():
    plan = parse("id select_type table type possible_keys key key_len ref rows Extra\nThose are the columns.\n")
    assert plan.rows == []
    assert plan.truncated


# -- what must not become a plan -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The EXPLAIN columns are id select_type table type possible_keys key key_len ref rows and Extra.\n"
        "The type column says ALL for a full scan; a SIMPLE select has no subquery.\n",
        "table type is ALL here, see possible_keys key key_len ref rows Extra in the manual\n",
        "id  name    email         created_at\n1   alice   a@example.org 2024-01-01\n2   bob     b@example.org 2024-01-02\n",
        "a\tb\tc\td\te\tf\tg\th\ti\tj\n1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t100\tUsing where\n",
        "2024-01-01T10:00:00.000000Z\t   12 Query\tSELECT 1\n2024-01-01T10:00:01.000000Z\t   12 Quit\t\n",
        "1\t2\t3\t4\t5\t6\t7\t8\t9\t10\n11\t12\t13\t14\t15\t16\t17\t18\t19\t20\n",
        "# Time: 2024-01-01T10:00:00  SIMPLE  UPDATE  type  1  2  3  4  5  6  7  8  9  10\n",
    ],
    ids=["prose", "prose-with-names", "select-result", "other-header", "general-log", "numbers", "log-line"],
)
def test_what_is_not_explain_output_is_refused(text):
    with pytest.raises(ParseError) as error:
        parse(text)
    assert "under the EXPLAIN header" not in error.value.message
    assert "without a header" not in error.value.message


def test_another_reader_s_explain_wins():
    box = (
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
        "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |\n"
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
        "|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL |    5 | NULL  |\n"
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
    )
    row = "1\tSIMPLE\tt\tNULL\tALL\tNULL\tNULL\tNULL\tNULL\t100\t100.00\tUsing where"
    plan = parse(box + "\n" + row + "\n")
    assert plan.format == "table" and len(plan.rows) == 1


def test_a_line_right_after_the_rows_that_fits_none_is_flagged():
    text = (
        "id  select_type  table  type  possible_keys  key   key_len  ref   rows  Extra\n"
        "1   SIMPLE       t      ALL   NULL           NULL  NULL     NULL  10    Using wh\nere\n"
    )
    plan = parse(text)
    assert len(plan.rows) == 1
    assert plan.uncertain
    assert any(notice.startswith("Line 3 follows the rows") for notice in plan.notices)


# -- any plan, in each shape ---------------------------------------------------------------------

VALUES = {
    "id": ["1", "2", "3"],
    "select_type": ["SIMPLE", "PRIMARY", "DERIVED", "DEPENDENT SUBQUERY", "UNION", "MATERIALIZED"],
    "table": ["t1", "orders", "<derived2>", "<union1,2>", "員工", "const", "ALL"],
    "partitions": [None, "p0,p1"],
    "type": ["ALL", "ref", "eq_ref", "range", "index", "const", "ref|filter", None],
    "possible_keys": [None, "PRIMARY", "idx_a,idx_b", "ref"],
    "key": [None, "PRIMARY", "idx_a"],
    "key_len": [None, "4", "4,4", "767"],
    "ref": [None, "const", "db.t.a", "func", "test.t1.a,const", ""],
    "rows": ["1", "100", "4 (15%)", "98765"],
    "filtered": ["100.00", "33.33"],
    "extra": [
        "",
        "Using where",
        "Using index; Using temporary",
        "Range checked for each record (index map: 0x1)",
        None,
    ],
}
MYSQL57 = ["id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows"]
LAYOUTS = [CLASSIC, OLD, [*MYSQL57, "filtered", "extra"]]


@st.composite
def plans(draw):
    columns = draw(st.sampled_from(LAYOUTS))
    rows = draw(st.lists(st.tuples(*(st.sampled_from(VALUES[c]) for c in columns)), min_size=1, max_size=4))
    return columns, _selects_present([_agreeing(dict(zip(columns, row, strict=True))) for row in rows], columns)


def _selects_present(rows, columns):
    """The rows as a server prints them together: a table named after a select (`<derived2>`,
    `<union1,2>`) only where rows of those selects are printed too."""
    if "id" not in columns or "table" not in columns:
        return rows
    ids = {row[columns.index("id")] for row in rows}
    at = columns.index("table")
    for row in rows:
        named = "".join(c if c.isdigit() else " " for c in row[at]).split() if row[at].startswith("<") else []
        if not ids.issuperset(named):
            row[at] = "t1"
    return _outer_select_present(rows, columns)


INNER = {"DERIVED", "DEPENDENT SUBQUERY", "UNION", "MATERIALIZED"}


def _outer_select_present(rows, columns):
    """A plan's outermost select is no subquery, derived table or union member (those are inside
    another select, printed with them), and a PRIMARY select is never printed alone."""
    if "select_type" not in columns:
        return rows
    at, kind = columns.index("id"), columns.index("select_type")
    lowest = min(row[at] for row in rows)
    outermost = [row for row in rows if row[at] == lowest]
    if all(row[kind] in INNER for row in outermost) or [row[kind] for row in rows] == ["PRIMARY"]:
        outermost[0][kind] = "SIMPLE"
    return rows


def _agreeing(row):
    """The row's cells as a server prints them together: a key with its length, no key without a type."""
    if row["type"] is None:
        row["key"] = row["ref"] = None
    if row["key"] is None:
        row["key_len"] = None
    elif row["key_len"] is None:
        row["key_len"] = "4"
    return list(row.values())


def printed(cell):
    return "NULL" if cell is None else cell


def hand_aligned(columns, rows, gap):
    names = ["Extra" if c == "extra" else c for c in columns]
    table = [names, *([printed(c) for c in row] for row in rows)]
    widths = [max(display_width(line[k]) for line in table) + gap for k in range(len(columns))]
    return "".join(
        "".join(cell + " " * (w - display_width(cell)) for cell, w in zip(line, widths, strict=True)).rstrip() + "\n"
        for line in table
    )


def expected_rows(columns, rows):
    return [dict(zip(columns, row, strict=True)) for row in rows]


@settings(max_examples=100, deadline=None)
@given(plans(), st.integers(1, 3))
def test_any_hand_aligned_plan_is_read_exactly(plan, gap):
    columns, rows = plan
    read = parse(hand_aligned(columns, rows, gap))
    assert read.columns == columns and read.rows == expected_rows(columns, rows)
    assert not read.uncertain and not read.truncated


@settings(max_examples=100, deadline=None)
@given(plans())
def test_any_collapsed_plan_is_read_exactly_and_flagged_or_refused(plan):
    columns, rows = plan
    lines = [" ".join(["Extra" if c == "extra" else c for c in columns])]
    lines += [" ".join(printed(c) for c in row if c != "").rstrip() for row in rows]
    try:
        read = parse("\n".join(lines) + "\n")
    except ParseError:
        return
    if read.truncated:
        # Rows whose empty last cells the collapsing dropped may all end at one width, as lines cut there would.
        assert any("truncated at that width" in notice for notice in read.notices), read.notices
        return
    assert read.columns == columns and read.rows == expected_rows(columns, rows)
    assert read.uncertain
