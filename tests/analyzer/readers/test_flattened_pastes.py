"""Pastes whose line breaks were lost (a blog mirror, a slide, a chat): the output glued to the
statement typed before it, and `\\G` fields laid out side by side on one line."""

from __future__ import annotations

import pytest

from analyzer import ParseError
from analyzer.pipeline import parse
from analyzer.repair.cleanup import clean

BANNER = "*************************** 1. row ***************************"
JSON_PLAN = (
    '{   "query_block": {     "select_id": 1,     "table": {       "table_name": "t1",'
    '       "access_type": "ALL",       "rows": 10     }   } }'
)
BORDER = "+----+-------------+-------+------+---------------+------+---------+------+------+-------+"
HEADER = "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |"
ROW = "|  1 | SIMPLE      | t1    | ALL  | NULL          | NULL | NULL    | NULL |   10 |       |"


@pytest.mark.parametrize("prompt", ["mysql> ", "MariaDB [test]> ", "root@localhost> "])
@pytest.mark.parametrize("terminator", ["", "\\G", "\\G "])
@pytest.mark.parametrize("status", ["", " 1 row in set, 1 warning (0.00 sec)", "  1 row in set (0.01 sec)"])
def test_a_json_session_on_one_line(prompt, terminator, status):
    paste = (
        f"{prompt}explain format=json select * from t1 where a = 'x'{terminator} {BANNER} EXPLAIN: {JSON_PLAN}{status}"
    )
    plan = parse(paste)
    assert plan.format == "json"
    assert [row["table"] for row in plan.rows] == ["t1"]
    assert plan.query == "select * from t1 where a = 'x'"
    assert not plan.truncated and not plan.uncertain
    assert any("glued to 1 typed statement" in notice for notice in plan.notices)


def test_the_status_line_after_a_json_plan_is_a_status_line():
    cleaned = clean(f"mysql> explain format=json select 1 {BANNER} EXPLAIN: {JSON_PLAN} 1 row in set (0.00 sec)")
    assert [line for line in cleaned.lines if line] == [BANNER, f"EXPLAIN: {JSON_PLAN}"]
    assert cleaned.row_counts and cleaned.row_counts[0][1] == 1
    assert cleaned.query == "select 1"


@pytest.mark.parametrize("terminator", [";", ""])
@pytest.mark.parametrize("rows", [1, 3])
def test_a_table_border_glued_to_the_statement(terminator, rows):
    body = "\n".join([HEADER, BORDER, *[ROW] * rows, BORDER])
    plan = parse(f"mysql> explain select * from t1{terminator} {BORDER}\n{body}\n")
    assert plan.format == "table"
    assert len(plan.rows) == rows
    assert plan.query == "select * from t1"


def test_a_statement_without_glued_output_is_left_as_it_is():
    paste = f"mysql> explain format=json select 1\\G\n{BANNER}\nEXPLAIN: {JSON_PLAN}\n1 row in set (0.00 sec)\n"
    plan = parse(paste)
    assert plan.format == "json"
    assert not any("glued" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "statement",
    [
        f"mysql> select '{BANNER}' from dual;",
        f'mysql> select "EXPLAIN: {{" as a, "{BORDER}" as b;',
        "mysql> select 'id select_type' from t;",
    ],
)
def test_output_inside_a_quoted_string_is_part_of_the_statement(statement):
    cleaned = clean(statement)
    assert not any("glued" in notice for notice in cleaned.notices)


def test_prose_with_a_banner_is_not_a_statement():
    text = f"The client prints {BANNER} before each row, then the fields."
    assert not any("glued" in notice for notice in clean(text).notices)


def test_a_prompt_with_only_output_after_it_is_not_split():
    cleaned = clean(f"mysql> {BORDER}")
    assert not any("glued" in notice for notice in cleaned.notices)


def test_a_statement_glued_to_a_banner_without_a_plan_is_refused():
    with pytest.raises(ParseError):
        parse(f"mysql> explain select 1 {BANNER} 1 row in set (0.00 sec)")


def test_a_whole_table_left_on_the_statement_line_is_not_split():
    damaged = BORDER.replace("+----+", "+-- - -+", 1)
    cleaned = clean(" ".join(["mysql> explain select * from t1;", damaged, HEADER, damaged, ROW, damaged]))
    assert not any("glued" in notice for notice in cleaned.notices)


@pytest.mark.parametrize("header", [HEADER, "id select_type table type possible_keys key key_len ref rows Extra"])
def test_a_header_glued_to_the_statement_starts_the_output(header):
    cleaned = clean(f"mysql> explain select * from t1; {header}")
    assert cleaned.query == "select * from t1"
    assert header in cleaned.lines


# `\G` fields laid out side by side.

FIELDS = [
    ("id", "1"),
    ("select_type", "SIMPLE"),
    ("table", "film"),
    ("type", "const"),
    ("possible_keys", "PRIMARY"),
    ("key", "PRIMARY"),
    ("key_len", "2"),
    ("ref", "const"),
    ("rows", "1"),
    ("Extra", "Using index"),
]


def _side_by_side(per_line: int, gap: str, blank: bool, indent: str = "") -> str:
    """One `\\G` record with `per_line` fields on each line, apart by `gap`."""
    lines = []
    for k in range(0, len(FIELDS), per_line):
        lines.append(indent + gap.join(f"{name}: {value}" for name, value in FIELDS[k : k + per_line]))
        if blank:
            lines.append("")
    return "\n".join([BANNER, *lines])


@pytest.mark.parametrize("per_line", [2, 3, 5])
@pytest.mark.parametrize("gap", [" ", "   ", "\t"])
@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("indent", ["", "  "])
def test_fields_side_by_side_are_read_one_each(per_line, gap, blank, indent):
    plan = parse(_side_by_side(per_line, gap, blank, indent))
    assert plan.format == "vertical"
    assert plan.rows[0]["table"] == "film"
    assert plan.rows[0]["type"] == "const"
    assert plan.rows[0]["extra"] == "Using index"
    assert not plan.truncated and not plan.uncertain
    assert any("fields side by side" in notice for notice in plan.notices)


def test_the_slide_layout_after_a_glued_prompt():
    paste = "mysql> explain select title from film where film_id=5\\G " + _side_by_side(2, " ", True)
    plan = parse(paste)
    assert [row["table"] for row in plan.rows] == ["film"]
    assert plan.query == "select title from film where film_id=5"


def test_two_records_side_by_side():
    one = _side_by_side(2, "  ", False)
    two = one.replace("1. row", "2. row").replace("table: film", "table: actor")
    plan = parse(one + "\n" + two)
    assert [row["table"] for row in plan.rows] == ["film", "actor"]


@pytest.mark.parametrize(
    "text",
    [
        # One line apart by one space: could be prose.
        "type: ALL means a full scan key: none",
        # Labels out of the client's order.
        "key: PRIMARY   type: const\nrows: 1   table: film",
        # A piece that is no label starts the line.
        "Note: id: 1   select_type: SIMPLE",
    ],
)
def test_other_text_is_not_split(text):
    cleaned = clean(text)
    assert not any("side by side" in notice for notice in cleaned.notices)


def test_a_field_after_an_empty_line_out_of_order_ends_the_record():
    paste = "\n".join([BANNER, "id: 1", "select_type: SIMPLE", "table: film", "type: ALL", "", "id: see above"])
    plan = parse(paste)
    assert [row["table"] for row in plan.rows] == ["film"]


@pytest.mark.parametrize("block", [2, 3, 4])
@pytest.mark.parametrize("empty", [1, 2])
def test_a_record_in_blocks_apart_by_empty_lines(block, empty):
    lines = [f"{name}: {value}" for name, value in FIELDS]
    blocks = ["\n".join(lines[k : k + block]) for k in range(0, len(lines), block)]
    plan = parse(BANNER + "\n" + ("\n" * (empty + 1)).join(blocks))
    assert len(plan.rows) == 1
    assert plan.rows[0]["extra"] == "Using index"
    assert not plan.truncated and not plan.uncertain


def test_a_field_out_of_order_after_an_empty_line_is_not_part_of_the_record():
    lines = [f"{name}: {value}" for name, value in FIELDS]
    plan = parse("\n".join([BANNER, *lines, "", "rows: the estimate, not a count"]))
    assert plan.rows[0]["rows"] == "1"


# Each line framed as the cell of a one-column table (a code block a page rendered as a table).

STATEMENT = "mysql> EXPLAIN SELECT * FROM t1;"


def _frame(lines: list[str], pad: bool) -> str:
    width = max(len(line) for line in lines) if pad else 0
    return "\n".join(f"| {line.ljust(width)} |" for line in lines)


@pytest.mark.parametrize("pad", [False, True])
@pytest.mark.parametrize("rows", [1, 3])
def test_framed_lines_of_a_table_on_its_lines(pad, rows):
    plan = parse(_frame([STATEMENT, BORDER, HEADER, BORDER, *[ROW] * rows, BORDER], pad))
    assert plan.format == "table"
    assert len(plan.rows) == rows
    assert plan.query == "SELECT * FROM t1"
    assert any("table of one column" in notice for notice in plan.notices)


@pytest.mark.parametrize("rows", [1, 2])
def test_framed_lines_of_a_flattened_table(rows):
    flat = " ".join([BORDER, HEADER, BORDER, *[ROW] * rows, BORDER, f"{rows} rows in set (0.00 sec)"])
    plan = parse(_frame([STATEMENT, flat], False))
    assert [row["table"] for row in plan.rows] == ["t1"] * rows
    assert not plan.truncated and not plan.uncertain


@pytest.mark.parametrize(
    "text",
    [
        # A table without borders: its rows are no frames.
        "\n".join([HEADER, ROW, ROW]),
        # One line has no frame.
        "\n".join([f"| {STATEMENT} |", BORDER, HEADER, BORDER, ROW, BORDER]),
    ],
)
def test_lines_that_are_not_all_framed_keep_their_bars(text):
    assert not any("table of one column" in notice for notice in clean(text).notices)


def test_many_borders_inside_an_open_quote_are_looked_at_once():
    cleaned = clean("mysql> select '" + " +---+ x" * 20000)
    assert not any("glued" in notice for notice in cleaned.notices)


_DOCUMENT = [
    "{",
    '  "query_block": {',
    '    "select_id": 1,',
    '    "table": {"table_name": "t1", "access_type": "ALL", "rows_examined_per_scan": 10}',
    "  }",
    "}",
]
_STEPS = [
    "-> Nested loop inner join  (cost=4.5 rows=10)",
    "    -> Table scan on o  (cost=1.25 rows=10)",
    "    -> Table scan on c  (cost=1.25 rows=10)",
]


@pytest.mark.parametrize("empty_cells", [0, 1, 2])
@pytest.mark.parametrize(("lines", "tables"), [(_DOCUMENT, ["t1"]), (_STEPS, ["o", "c"])], ids=["json", "tree"])
def test_framed_documents_and_trees_lose_their_frames(empty_cells, lines, tables):
    text = "\n".join(f"| {line} |" + " |" * empty_cells for line in lines) + "\n"
    plan = parse(text)
    assert [row["table"] for row in plan.rows] == tables
    assert any("table of one column" in notice for notice in plan.notices)


def test_a_one_column_table_of_words_keeps_its_frames():
    assert not any("table of one column" in n for n in clean("| apples |\n| pears |\n| plums |\n").notices)
