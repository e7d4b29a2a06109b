"""MySQL FORMAT=TREE / EXPLAIN ANALYZE reader: lines, nesting, presentations, flattening."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.pipeline import parse
from analyzer.readers.documents.tree_plan import ANALYZE_COLUMNS, TREE_COLUMNS, describe, parse_tree

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "tree"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def summary(plan) -> list[tuple[str | None, ...]]:
    return [
        (row["id"], row["select_type"], row["table"], row["type"], row["key"], row["rows"], row["extra"])
        for row in plan.rows
    ]


def test_it_reads_an_explain_analyze_tree() -> None:
    plan = parse_tree(read("join_analyze.txt"))

    assert plan.format == "tree"
    assert plan.columns == ANALYZE_COLUMNS
    assert plan.tables == ["i", "s"]
    root = plan.plan[0]
    assert (root["kind"], root["cost"], root["rows"], root["loops"]) == ("Nested loop inner join", 4.7, 6.0, 1)
    assert (root["actual_time_first"], root["actual_time_last"], root["actual_rows"]) == (0.065, 0.112, 6.0)
    assert [child["kind"] for child in root["children"]] == ["Filter", "Single-row index lookup"]
    lookup = root["children"][1]
    assert (lookup["table"], lookup["index"], lookup["condition"]) == ("s", "PRIMARY", "id=i.shop_id")
    assert plan.rows[1] == {
        "id": "1",
        "select_type": "SIMPLE",
        "table": "s",
        "type": "eq_ref",
        "key": "PRIMARY",
        "rows": "1",
        "r_rows": "1",
        "loops": "6",
        "actual_time": "0.008..0.01",
        "extra": None,
    }
    assert plan.rows[0]["extra"] == "Using where"


def test_it_maps_sort_and_temporary_to_the_first_table() -> None:
    plan = parse_tree(read("group_sort.txt"))

    assert plan.columns == TREE_COLUMNS
    assert summary(plan) == [
        ("1", "SIMPLE", "s", "ALL", None, "5", "Using where; Using temporary; Using filesort"),
        ("1", "SIMPLE", "i", "ref", "idx_shop", "80", "Using index"),
    ]
    assert plan.plan[0]["children"][0]["kind"] == "Sort"


def test_it_numbers_subqueries_and_reads_never_executed() -> None:
    plan = parse_tree(read("dependent_subquery_analyze.txt"))

    assert summary(plan) == [
        ("1", "PRIMARY", "s", "ALL", None, "5", "Using where"),
        ("2", "DEPENDENT SUBQUERY", "i", "ref", "idx_shop", "80", None),
        ("3", "SUBQUERY", "x", "ALL", None, "3000", "Using where"),
    ]
    assert (plan.rows[2]["loops"], plan.rows[2]["r_rows"], plan.rows[2]["actual_time"]) == ("0", None, None)
    heading = plan.plan[0]["children"][1]
    assert heading["kind"] == "Select"
    assert heading["operation"] == "Select #2 (subquery in condition; dependent)"


def test_it_reads_compact_numbers_and_hash_joins() -> None:
    plan = parse_tree(read("hash_join_compact.txt"))

    assert plan.plan[0]["cost"] == 1.2e6
    assert plan.plan[0]["condition"] == "x.qty = i.price"
    assert summary(plan) == [
        ("1", "SIMPLE", "x", "ALL", None, "3000", "Using join buffer (hash join)"),
        ("1", "SIMPLE", "i", "range", "idx_price", "14", "Using index condition; Using where"),
    ]


def test_it_reads_derived_tables_and_materialized_subqueries() -> None:
    plan = parse_tree(read("derived_semijoin.txt"))

    assert summary(plan) == [
        ("1", "PRIMARY", "d", "ALL", None, "5", "Using where"),
        (None, "DERIVED", "item", "index", "idx_shop", "400", "Using index"),
        ("1", "PRIMARY", "<subquery3>", "eq_ref", "<auto_distinct_key>", "1", None),
        ("3", "MATERIALIZED", "item", "range", "idx_price", "4", "Using where"),
    ]
    assert plan.plan[0]["cost"] == 7.25


def test_it_folds_index_merge_and_puts_the_union_result_last() -> None:
    plan = parse_tree(read("index_merge_union.txt"))

    assert summary(plan) == [
        (
            None,
            "PRIMARY",
            "item",
            "index_merge",
            "idx_shop,idx_price",
            "84",
            "Using union(idx_shop,idx_price); Using where",
        ),
        (None, "UNION", "shop", "ref", "idx_city", "2", None),
        (None, "UNION RESULT", "<union temporary>", "ALL", None, "7", None),
    ]


def test_it_reads_zero_rows_and_newer_actual_figures() -> None:
    assert summary(parse_tree(read("zero_rows.txt"))) == [("1", "SIMPLE", None, None, None, "0", "Impossible WHERE")]

    plan = parse_tree(read("newer_actual_rows.txt"))
    assert summary(plan) == [("1", "SIMPLE", "item", "index", "PRIMARY", "5", "Backward index scan")]
    assert (plan.rows[0]["r_rows"], plan.rows[0]["loops"], plan.rows[0]["actual_time"]) == ("5", "1", None)


# --- presentations ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "presentation_table.txt",
        "presentation_vertical.txt",
        "presentation_batch.txt",
        "presentation_chat.txt",
        "presentation_wrapped80.txt",
        "duplicated.txt",
    ],
)
def test_every_presentation_gives_the_same_rows(name: str) -> None:
    expected = parse_tree(read("join_analyze.txt"))
    plan = parse_tree(read(name))

    assert plan.rows == expected.rows
    assert plan.plan == expected.plan


def test_wrapped_lines_are_rejoined_with_a_notice() -> None:
    plan = parse_tree(read("presentation_wrapped80.txt"))

    assert any("hard-wrapped" in notice for notice in plan.notices)
    assert plan.plan[0]["children"][1]["operation"] == "Single-row index lookup on s using PRIMARY (id=i.shop_id)"


def test_a_mail_client_wrap_gets_its_space_back() -> None:
    text = (
        "-> Filter: ((s.city = 'Rome') and\n"
        "(s.id > 2))  (cost=0.75 rows=1)\n"
        "    -> Table scan on s  (cost=0.75\n"
        "rows=5)\n"
    )
    plan = parse_tree(text)

    assert plan.plan[0]["operation"] == "Filter: ((s.city = 'Rome') and (s.id > 2))"
    assert plan.plan[0]["children"][0]["rows"] == 5.0


def test_a_repeated_plan_is_read_once_and_a_second_plan_is_named() -> None:
    assert any("same plan" in notice for notice in parse_tree(read("duplicated.txt")).notices)

    two = read("join_analyze.txt") + "\nand after adding an index:\n\n" + read("zero_rows.txt")
    plan = parse_tree(two)
    assert plan.tables == ["i", "s"]
    assert any("2 plans" in notice for notice in plan.notices)


def test_lost_indentation_is_said_not_guessed() -> None:
    plan = parse_tree(read("lost_indentation.txt"))

    assert len(plan.plan) == 4
    assert all(node["children"] == [] for node in plan.plan)
    assert any("indentation" in notice for notice in plan.notices)


def test_only_relative_indentation_matters() -> None:
    text = "  -> Limit: 1 row(s)\n     -> Table scan on t  (cost=1 rows=1)\n"
    plan = parse_tree(text)

    assert len(plan.plan) == 1
    assert plan.plan[0]["children"][0]["table"] == "t"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda path: path.stem)
def test_the_full_parser_returns_the_tree_plan(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    plan = parse(text)

    assert plan.format == "tree"
    assert (plan.plan, plan.rows) == (parse_tree(text).plan, parse_tree(text).rows)


# --- kinds -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        ("Table scan on <temporary>", ("Table scan", "<temporary>", None, None)),
        ("Covering index scan on item using idx_shop", ("Covering index scan", "item", "idx_shop", None)),
        ("Index range scan on t using a over (1 < a < 5)", ("Index range scan", "t", "a", "1 < a < 5")),
        ("Index lookup on o using idx (customer_id = c.id)", ("Index lookup", "o", "idx", "customer_id = c.id")),
        ("Covering index lookup on t using PRIMARY (id=1)", ("Covering index lookup", "t", "PRIMARY", "id=1")),
        (
            "Single-row covering index lookup on lc using uk (a=p.id)",
            ("Single-row covering index lookup", "lc", "uk", "a=p.id"),
        ),
        (
            "Full-text index search on item using ft_note (note = 'x')",
            ("Full-text index search", "item", "ft_note", "note = 'x'"),
        ),
        ("Constant row from t1", ("Constant row", "t1", None, None)),
        ("Filter: (t.a > 5)", ("Filter", None, None, "(t.a > 5)")),
        ("Nested loop antijoin", ("Nested loop antijoin", None, None, None)),
        ("Nested loop left join", ("Nested loop left join", None, None, None)),
        ("Left hash join (t2.a = t1.a)", ("Hash join", None, None, "t2.a = t1.a")),
        ("Sort: t.a DESC", ("Sort", None, None, None)),
        ("Group aggregate: count(0)", ("Group aggregate", None, None, None)),
        ("Aggregate using temporary table", ("Aggregate using temporary table", None, None, None)),
        ("Limit/Offset: 10/300 row(s)", ("Limit", None, None, None)),
        ("Rows fetched before execution", ("Rows fetched before execution", None, None, None)),
        ("Something new in MySQL 10", ("Operation", None, None, None)),
    ],
)
def test_describe_names_each_kind(operation: str, expected: tuple) -> None:
    assert describe(operation) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a -> b",
        "->",
        "-> see above\n-> and below",
        "| id | select_type |",
        '{"query_block": 1}',
        "->\n->\n->",
    ],
)
def test_text_without_a_plan_gives_none(text: str) -> None:
    assert parse_tree(text) is None


def test_deep_nesting_is_cut_with_a_notice() -> None:
    text = "\n".join(" " * (2 * depth) + f"-> Filter: (t.a > {depth})  (cost=1 rows=1)" for depth in range(300))
    plan = parse_tree(text + "\n" + " " * 600 + "-> Table scan on t  (cost=1 rows=1)")

    assert any("deeper" in notice for notice in plan.notices)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" ->\n|()=.0123456789acostrwlpinuexdTabl:#\\", max_size=300))
def test_random_text_never_raises(text: str) -> None:
    plan = parse_tree(text)
    if plan is not None:
        assert all(value is None or isinstance(value, str) for row in plan.rows for value in row.values())
        json.dumps(plan.plan, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(FIXTURES.glob("*.txt"))), st.integers(0, 10**5), st.integers(0, 30), st.text(max_size=4))
def test_mutated_trees_never_raise(path: Path, where: int, length: int, insert: str) -> None:
    text = path.read_text(encoding="utf-8")
    at = where % (len(text) + 1)
    plan = parse_tree(text[:at] + insert + text[at + length :])
    if plan is not None:
        json.dumps([plan.plan, plan.rows], allow_nan=False)


def test_figures_too_large_for_a_float_become_none() -> None:
    plan = parse_tree("-> Table scan on t  (cost=1e999 rows=2) (actual time=1..2 rows=1e999 loops=1e999)")

    node = plan.plan[0]
    assert (node["cost"], node["rows"], node["actual_rows"], node["loops"]) == (None, 2.0, None, None)
    json.dumps(plan.plan, allow_nan=False)


def test_a_long_unbalanced_paste_joins_into_one_line() -> None:
    plan = parse_tree("-> Filter: (a\n" + "(b and\n" * 20000)

    assert len(plan.plan) == 1


def test_it_reads_a_cte_that_never_ran() -> None:
    plan = parse_tree(read("cte_never_executed.txt"))

    assert summary(plan) == [
        ("1", "PRIMARY", "s", "index", "PRIMARY", "1", "Using index"),
        ("1", "PRIMARY", "top_items", "ref", "<auto_key0>", "2", None),
        (None, "DERIVED", "item", "ALL", None, "1", "Using where"),
    ]
    assert [row["loops"] for row in plan.rows] == ["1", "0", "0"]
    lookup = plan.plan[0]["children"][1]
    assert (lookup["cost"], lookup["rows"], lookup["loops"], lookup["actual_rows"]) == (1.15, 2.0, 0, None)


def test_it_reads_plans_kept_in_sql_comments_with_continuations() -> None:
    plan = parse_tree(read("sql_comment_backslash.txt"))

    assert summary(plan) == [("1", "SIMPLE", "i", "ALL", None, "400", "Using where; Using filesort")]
    assert plan.plan[0]["actual_time_last"] == 0.54


def test_continuation_prompts_before_the_plan_are_not_taken_for_it() -> None:
    text = "mysql> EXPLAIN ANALYZE SELECT i.sku, s.name\n    -> FROM item i JOIN shop s ON s.id = i.shop_id\n    -> WHERE i.price < 5\\G\n"
    text += read("presentation_vertical.txt")

    plan = parse_tree(text)

    assert plan.rows == parse_tree(read("join_analyze.txt")).rows
    assert not any("plans" in notice for notice in plan.notices)


def test_measured_figures_wrapped_onto_a_line_of_their_own_belong_to_the_node_above() -> None:
    # The MySQL 8.0 manual prints each node's `(actual time=…)` on the line after its estimates.
    text = (FIXTURES.parent / "profile" / "mysql80_manual_hash_join.txt").read_text(encoding="utf-8")
    plan = parse(text)

    assert plan.variant == "MySQL EXPLAIN ANALYZE"
    root = plan.plan[0]
    assert (root["cost"], root["rows"], root["actual_time_first"], root["actual_time_last"]) == (4.7, 6.0, 0.032, 0.035)
    assert (root["actual_rows"], root["loops"]) == (6.0, 1)
    t1 = root["children"][1]["children"][0]
    assert (t1["table"], t1["actual_time_first"], t1["actual_time_last"], t1["loops"]) == ("t1", 0.018, 0.022, 1)
    assert "Rejoined 3 plan lines hard-wrapped by a terminal or mail client." in plan.notices
