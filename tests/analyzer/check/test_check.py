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


# -- the steps of a tree plan ---------------------------------------------------------------------


def _tree(*lines: tuple[int, str]) -> str:
    return "".join(f"{'    ' * depth}-> {text}\n" for depth, text in lines)


WHOLE = [
    (0, "Limit: 10 row(s)  (cost=9 rows=10) (actual time=0.1..0.2 rows=10 loops=1)"),
    (1, "Nested loop inner join  (cost=4.5 rows=10) (actual time=0.1..0.2 rows=10 loops=1)"),
    (2, "Filter: (o.status = 'open')  (cost=1.25 rows=10) (actual time=0.1..0.1 rows=10 loops=1)"),
    (3, "Table scan on o  (cost=1.25 rows=100) (actual time=0.1..0.1 rows=100 loops=1)"),
    (
        2,
        "Single-row index lookup on c using PRIMARY (id=o.cid)  (cost=0.3 rows=1) (actual time=0.01..0.01 rows=1 loops=10)",
    ),
]


def test_a_whole_tree_is_not_flagged():
    plan = parse(_tree(*WHOLE))
    assert not plan.truncated and not plan.uncertain, plan.notices


@pytest.mark.parametrize(
    ("dropped", "said"),
    [
        ([4], "'Nested loop inner join' shows 1 of the 2 inputs"),
        ([3], "'Filter: (o.status = 'open')' shows 0 of the 1 inputs"),
        ([2, 3, 4], "'Nested loop inner join' shows 0 of the 2 inputs"),
    ],
)
def test_a_step_missing_its_inputs_makes_the_plan_an_excerpt(dropped, said):
    plan = parse(_tree(*(line for k, line in enumerate(WHOLE) if k not in dropped)))
    assert plan.truncated
    assert any(said in notice and "part of a larger one" in notice for notice in plan.notices), plan.notices


def test_a_top_step_that_runs_many_times_is_an_excerpt():
    plan = parse(
        _tree((0, "Index lookup on t using idx (a=x.a)  (cost=0.3 rows=2) (actual time=0.01..0.01 rows=2 loops=500)"))
    )
    assert plan.truncated
    assert any("runs 500 times" in notice for notice in plan.notices)


def test_a_lookup_on_a_derived_key_needs_its_materialization():
    lookup = "Index lookup on ms using <auto_key0> (id=t.id)  (cost=0.3 rows=2)"
    assert parse(_tree((0, lookup))).truncated
    whole = parse(_tree((0, lookup), (1, "Materialize  (cost=2 rows=20)"), (2, "Table scan on u  (cost=2 rows=20)")))
    assert not whole.truncated, whole.notices


def test_a_materialization_printed_elsewhere_reads_nothing_here():
    plan = parse(
        _tree(
            (0, "Nested loop inner join  (cost=4 rows=2)"),
            (1, "Table scan on tx  (cost=1 rows=1)"),
            (2, "Materialize CTE tx if needed  (cost=1 rows=1)"),
            (3, "Table scan on j1  (cost=1 rows=1)"),
            (1, "Table scan on tx  (cost=1 rows=1)"),
            (2, "Materialize CTE tx if needed (query plan printed elsewhere)  (cost=1 rows=1)"),
        )
    )
    assert not plan.truncated, plan.notices


def test_a_tree_that_lost_its_indentation_is_not_judged_by_its_steps():
    flat = "".join(f"-> {text}\n" for _, text in WHOLE)
    assert not any("part of a larger one" in notice for notice in parse(flat).notices)


def test_a_step_with_more_inputs_than_it_reads_makes_the_nesting_a_guess():
    plan = parse(
        _tree(
            (0, "Nested loop inner join  (cost=9 rows=10)"),
            (1, "Nested loop inner join  (cost=4 rows=10)"),
            (2, "Table scan on a  (cost=1 rows=10)"),
            (2, "Table scan on b  (cost=1 rows=1)"),
            (2, "Table scan on c  (cost=1 rows=1)"),
        )
    )
    assert plan.uncertain and not plan.truncated
    assert any("has 3 inputs" in notice for notice in plan.notices)


def test_a_union_result_without_its_table_is_uncertain():
    plan = parse(
        _markdown(
            "| 1 | PRIMARY | a | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| 2 | UNION | b | ALL | NULL | NULL | NULL | NULL | 10 | NULL |",
            "| NULL | UNION RESULT |  | ALL | NULL | NULL | NULL | NULL | NULL | Using temporary |",
        )
    )
    assert plan.uncertain
    assert any("row 3" in notice and "<unionA,B>" in notice for notice in plan.notices)
