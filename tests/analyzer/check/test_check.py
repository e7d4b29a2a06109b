"""The check stage: every reading held against what MySQL and MariaDB can print, each disagreement
repaired with a notice, flagged or refused, never answered silently."""

from __future__ import annotations

import pytest

from analyzer import ParseError, parse

HEADER = "| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |"
RULE = "|----|----|----|----|----|----|----|----|----|----|"


def _markdown(*rows: str) -> str:
    return "\n".join([HEADER, RULE, *rows]) + "\n"


def _cells(plan, column):
    return [row.get(column) for row in plan.rows]


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("'ALL'", "ALL"),
        ("\u2018range\u2019", "range"),
        ("\u201cref\u201d", "ref"),
        ("**ALL**", "ALL"),
        ("*eq_ref*", "eq_ref"),
        ("__index__", "index"),
        ("`const`", "const"),
    ],
)
def test_a_term_in_quotes_or_emphasis_is_that_term(printed, expected):
    plan = parse(_markdown(f"| 1 | SIMPLE | t | {printed} | NULL | NULL | NULL | NULL | 10 | Using where |"))
    assert _cells(plan, "type") == [expected]
    assert not plan.uncertain and not plan.truncated
    assert any("Removed quotes or Markdown emphasis" in notice and "row 1: type" in notice for notice in plan.notices)


def test_a_row_a_program_quoted_is_unquoted_whole():
    rows = [
        "| 1 | 'PRIMARY' | 'users' | 'const' | 'PRIMARY' | 'PRIMARY' | '4' | 'const' | 1 | null |",
        "| 2 | 'DERIVED' | 'orders' | 'ALL' | null | null | null | null | 300 | 'Using where' |",
    ]
    plan = parse(_markdown(*rows))
    assert _cells(plan, "table") == ["users", "orders"]
    assert _cells(plan, "key_len") == ["4", None]
    assert _cells(plan, "extra") == [None, "Using where"]
    assert not plan.uncertain


def test_a_quoted_name_in_a_row_whose_terms_are_bare_is_left_as_printed():
    plan = parse(_markdown("| 1 | SIMPLE | 'odd' | ALL | NULL | NULL | NULL | NULL | 10 | NULL |"))
    assert _cells(plan, "table") == ["'odd'"]


def test_markdown_escapes_and_html_entities_are_undone():
    plan = parse(
        _markdown(
            "| 1 | PRIMARY | &lt;derived2&gt; | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| 2 | DERIVED | c1\\_0 | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
        )
    )
    assert _cells(plan, "table") == ["<derived2>", "c1_0"]
    assert not plan.truncated and not plan.uncertain
    assert any("HTML entities" in notice for notice in plan.notices)
    assert any("Markdown escapes" in notice for notice in plan.notices)


@pytest.mark.parametrize("comment", ["-- acc\u00e8s index\u00e9", "# by equality", "// lookup", "<-- here", "/* eq */"])
def test_a_comment_after_a_value_is_removed(comment):
    plan = parse(_markdown(f"| 1 | SIMPLE | t | ref   {comment} | idx | idx | 5 | const | 10 | NULL |"))
    assert _cells(plan, "type") == ["ref"]
    assert any("comment" in notice and "row 1: type" in notice for notice in plan.notices)
    assert not plan.uncertain


@pytest.mark.parametrize(
    ("column", "cell"),
    [("type", "fullscan"), ("select_type", "SIMPEL"), ("rows", "many"), ("id", "one"), ("key_len", "four")],
)
def test_a_cell_outside_its_domain_makes_the_reading_uncertain(column, cell):
    row = {"id": "1", "select_type": "SIMPLE", "type": "ALL", "key_len": "NULL", "rows": "10"}
    row[column] = cell
    line = f"| {row['id']} | {row['select_type']} | t | {row['type']} | NULL | NULL | {row['key_len']} | NULL | {row['rows']} | NULL |"
    plan = parse(_markdown(line))
    assert plan.uncertain
    assert any(f"'{cell}'" in notice and "row 1" in notice for notice in plan.notices)


@pytest.mark.parametrize("cell", ["7 (12%)", "1,234", "100", "0.90 (11%)"])
def test_what_servers_print_in_rows_is_in_its_domain(cell):
    plan = parse(_markdown(f"| 1 | SIMPLE | t | ref|filter | a,b | a | 5 | const | {cell} | Using where |"))
    assert not plan.uncertain, plan.notices


def test_an_extra_item_with_words_joined_to_it_is_flagged():
    text = _markdown(
        "| 1 | SIMPLE | t | ALL | NULL | NULL | NULL | NULL | 10 | Using where my note on the plan |",
        "| 1 | SIMPLE | u | ALL | NULL | NULL | NULL | NULL | 10 | Using where |",
    )
    plan = parse(text)
    assert plan.uncertain
    assert any("row 1: extra" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "extra",
    [
        "Using where with pushed condition (`t`.`a` = 1)",
        "Using index for group-by (scanning)",
        "Range checked for each record (index map: 0x3)",
        "Using where; Using join buffer (flat, BNL join)",
        "Some item a newer server prints",
    ],
)
def test_extra_items_a_server_prints_stand(extra):
    plan = parse(_markdown(f"| 1 | SIMPLE | t | ALL | NULL | NULL | NULL | NULL | 10 | {extra} |"))
    assert not plan.uncertain, plan.notices


def test_a_select_named_but_not_printed_means_rows_are_missing():
    plan = parse(
        _markdown(
            "| 1 | PRIMARY | <derived2> | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| 1 | PRIMARY | <subquery3> | eq_ref | <auto_key> | <auto_key> | 4 | t.a | 1 | NULL |",
            "| 3 | MATERIALIZED | u | ALL | NULL | NULL | NULL | NULL | 5 | NULL |",
        )
    )
    assert plan.truncated
    assert any("select #2 (named by row 1)" in notice for notice in plan.notices)


def test_selects_named_and_printed_pass():
    plan = parse(
        _markdown(
            "| 1 | PRIMARY | <derived2> | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| 2 | DERIVED | a | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| 3 | UNION | b | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| NULL | UNION RESULT | <union2,3> | ALL | NULL | NULL | NULL | NULL | NULL | Using temporary |",
        )
    )
    assert not plan.truncated and not plan.uncertain, plan.notices


TREE = (
    "-> Nested loop inner join  (cost=4.5 rows=10)\n"
    "    -> Table scan on o  (cost=1.25 rows=10)\n"
    "    -> Single-row index lookup on c using PRIMARY (id=o.cid)  (cost=0.26 rows=1)\n"
)


@pytest.mark.parametrize("elision", ["...", "\u2026", "// ... much more text", "[...]", "// \uc911\ub7b5", "(omitted)"])
def test_an_elision_after_a_tree_makes_it_truncated(elision):
    plan = parse(TREE + f"        {elision}\n")
    assert plan.truncated
    assert any("line 4" in notice for notice in plan.notices)


def test_prose_after_a_tree_is_no_elision():
    plan = parse(TREE + "\nThe scan on o is the slow part.\n")
    assert not plan.truncated


def test_dots_after_a_closed_table_are_no_elision():
    text = (
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
        "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |\n"
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
        "|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL |   10 | NULL  |\n"
        "+----+-------------+-------+------+---------------+------+---------+------+------+-------+\n"
        "...\n"
    )
    assert not parse(text).truncated


def test_an_empty_paste_is_said_to_be_empty_and_nothing_else_is():
    with pytest.raises(ParseError, match="The paste is empty"):
        parse(" \n\t\n")
    with pytest.raises(ParseError) as refused:
        parse("mysql> EXPLAIN SELECT 1;\n1 row in set (0.00 sec)\n")
    assert "empty" not in refused.value.message
    assert "client prompts" in refused.value.message and "lines 1 and 2" in refused.value.message
