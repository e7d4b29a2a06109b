"""Repairs that drop or rewrite part of the paste say so in `notices` (bug L1), on every path."""

from __future__ import annotations

import pytest

from analyzer import parse
from analyzer.model import ParseError

TABLE = """\
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL |    5 | NULL  |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
"""
TREE = "-> Table scan on t  (cost=1 rows=5)\n"
JSON = """\
{
  "query_block": {
    "select_id": 1,
    "table": {
      "table_name": "t",
      "access_type": "ALL",
      "rows_examined_per_scan": 5
    }
  }
}
"""
MARKER = "*************************** 1. row ***************************"
PASSWORD = "mysql: [Warning] Using a password on the command line interface can be insecure."


def ignored(plan, where: str) -> bool:
    return any(n.startswith("Ignored") and n.endswith(f"({where}).") for n in plan.notices)


@pytest.mark.parametrize(("output", "fmt"), [(TABLE, "table"), (TREE, "tree"), (JSON, "json")])
def test_chat_line_before_the_output_is_reported(output, fmt):
    plan = parse("Here is the plan:\n" + output)
    assert plan.format == fmt
    assert "Ignored 1 line of other text (line 1)." in plan.notices


@pytest.mark.parametrize(("output", "fmt"), [(TABLE, "table"), (TREE, "tree"), (JSON, "json")])
def test_password_warning_line_is_reported(output, fmt):
    plan = parse(PASSWORD + "\n" + output)
    assert plan.format == fmt
    assert ignored(plan, "line 1")


def test_chat_after_a_tree_plan_is_reported():
    plan = parse(TREE + "\nThanks for any help!\n")
    assert plan.format == "tree"
    assert ignored(plan, "line 3")


def test_chat_around_a_json_plan_is_reported_with_its_lines():
    plan = parse("Hi all, why is this slow?\n" + JSON + "\nPS: t has 5 rows.\n")
    assert plan.format == "json"
    assert "Ignored 2 lines of other text (lines 1 and 13)." in plan.notices


def test_the_client_header_of_a_batch_plan_is_no_chat():
    plan = parse("EXPLAIN\n" + TREE)
    assert plan.format == "tree"
    assert not any(n.startswith("Ignored") for n in plan.notices)


def test_a_second_copy_of_a_tree_plan_is_no_chat():
    plan = parse(TREE + "\n" + TREE)
    assert plan.format == "tree"
    assert not any(n.startswith("Ignored") for n in plan.notices)


@pytest.mark.parametrize(
    "plan_text",
    [
        "EXPLAIN: " + TREE,
        'EXPLAIN: {\n  "query_block": {\n    "select_id": 1,\n    "table": {\n'
        '      "table_name": "t",\n      "access_type": "ALL"\n    }\n  }\n}\n',
    ],
)
def test_wrapped_row_marker_around_a_plan_is_reported(plan_text):
    plan = parse(MARKER[:40] + "\n" + MARKER[40:] + "\n" + plan_text)
    assert plan.format in ("tree", "json")
    assert plan.rows[0]["table"] == "t"
    assert any("wrapped row marker line" in n for n in plan.notices)
    assert not any(n.startswith("Ignored") for n in plan.notices)


def test_wrapped_row_marker_of_vertical_output_is_reported():
    record = "           id: 1\n  select_type: SIMPLE\n        table: t\n         type: ALL\n"
    record += "possible_keys: NULL\n          key: NULL\n      key_len: NULL\n          ref: NULL\n"
    record += "         rows: 5\n        Extra: NULL\n"
    plan = parse(MARKER[:50] + "\n" + MARKER[50:] + "\n" + record)
    assert plan.format == "vertical"
    assert any("wrapped row marker line" in n for n in plan.notices)


def test_a_second_statement_typed_without_prompt_is_reported():
    plan = parse("EXPLAIN SELECT * FROM t;\n" + TABLE + "EXPLAIN SELECT * FROM u;\n" + TABLE)
    assert plan.query == "SELECT * FROM t"
    assert "Took the query from the EXPLAIN statement on line 1." in plan.notices
    assert "Removed 1 line of EXPLAIN statements typed without a prompt (line 7)." in plan.notices


def test_a_statement_the_server_refused_is_reported():
    plan = parse("EXPLAIN SELECT * FROM nope;\nERROR 1146 (42S02): Table 'db.nope' doesn't exist\n" + TABLE)
    assert plan.format == "table"
    assert "Removed 1 line of EXPLAIN statements typed without a prompt (line 1)." in plan.notices
    assert ignored(plan, "line 2")


def test_statement_typed_without_prompt_before_a_tree_is_not_chat():
    plan = parse("EXPLAIN ANALYZE SELECT * FROM t;\n" + TREE)
    assert plan.query == "SELECT * FROM t"
    assert not any(n.startswith("Ignored") for n in plan.notices)


def test_chat_right_after_the_closing_brace_of_a_json_plan_is_reported():
    plan = parse(JSON + "thanks!\n")
    assert plan.format == "json"
    assert "Ignored 1 line of other text (line 11)." in plan.notices


COUNT = "+----------+\n| count(*) |\n+----------+\n|    12000 |\n+----------+\n"


@pytest.mark.parametrize(
    ("output", "fmt", "where"), [(TABLE, "table", "7-11"), (TREE, "tree", "3-7"), (JSON, "json", "12-16")]
)
def test_a_result_set_that_is_not_explain_is_reported(output, fmt, where):
    plan = parse(output + "\n" + COUNT)
    assert plan.format == fmt
    assert f"Ignored 1 other result set, not EXPLAIN output (lines {where})." in plan.notices


def test_the_box_around_a_tree_plan_is_no_other_result_set():
    boxed = "+----------+\n| EXPLAIN  |\n+----------+\n| " + TREE.strip() + " |\n+----------+\n"
    plan = parse(boxed)
    assert plan.format == "tree"
    assert not any("not EXPLAIN output" in n or n.startswith("Ignored") for n in plan.notices)


def test_a_refusal_names_the_line_that_speaks_of_explain_output():
    text = "here is my plan, sorry for the mess:\nselect_type is SIMPLE, possible_keys is NULL, key_len is NULL\n"
    with pytest.raises(ParseError) as info:
        parse(text)
    assert info.value.message.startswith("Line 2 holds words of EXPLAIN output (select_type, possible_keys, key_len)")
    assert info.value.line == 2


def test_a_refusal_of_prose_says_no_explain_was_found():
    with pytest.raises(ParseError) as info:
        parse("the query is slow\nplease help\n")
    assert info.value.message.startswith("No EXPLAIN output found")
