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
