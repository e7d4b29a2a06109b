"""EXPLAIN FORMAT=JSON reader: dialects, client presentations, flattening, damage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.pipeline import parse
from analyzer.readers.documents.json_plan import COLUMNS, parse_json
from tests.analyzer.repair.mangle import mail_wrap, quote, terminal_wrap

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "json"
MARIADB = FIXTURES / "mariadb"
CASES = sorted(path.name.rsplit(".", 2)[0] for path in MARIADB.glob("*.explain.json"))

# Where a MariaDB 10.11 JSON document does not carry what its tabular EXPLAIN prints:
# the rowid filter's key length (so type/key stay plain, Extra says "Using rowid filter"),
# a "Using where" the server prints for the materialized IN subquery without a condition, and
# the index map of "Range checked for each record (index map: 0xE)".
KNOWN_GAPS = {
    ("rowid_filter", "type"),
    ("rowid_filter", "key"),
    ("in_subquery", "extra"),
    # The JSON lists the keys; the bitmap of their index numbers needs the table definition.
    ("range_checked", "extra"),
    ("rowid_filter", "rows"),
    ("rowid_filter", "key_len"),
    # MariaDB leaves key_length empty for a single-table UPDATE's index scan.
    ("update_stmt", "key_len"),
}


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def tabular(path: Path) -> list[dict[str, str | None]]:
    """Rows of a `mariadb -B` result: lower-cased header, NULL as None, '' as None."""
    header, *lines = read(path).rstrip("\n").split("\n")
    names = [name.lower() for name in header.split("\t")]
    return [
        {name: (None if value in ("NULL", "") else value) for name, value in zip(names, line.split("\t"), strict=True)}
        for line in lines
    ]


def same_numbers(got: str, printed: str) -> bool:
    """JSON 100 against tabular "100.00", "5,5" against "5,5"; a rowid filter's "(P%)" is ignored."""
    printed = printed.split(" (")[0]
    pairs = list(zip(got.split(","), printed.split(","), strict=True))
    return all(float(a) == pytest.approx(float(b), abs=0.006) for a, b in pairs)


@pytest.mark.parametrize("statement", ["explain", "analyze"])
@pytest.mark.parametrize("case", CASES)
def test_it_flattens_mariadb_json_like_its_tabular_explain(case: str, statement: str) -> None:
    plan = parse_json(read(MARIADB / f"{case}.{statement}.json"))
    expected = tabular(MARIADB / f"{case}.{statement}.tsv")

    assert plan is not None
    assert plan.format == "json"
    assert len(plan.rows) == len(expected)
    for row, want in zip(plan.rows, expected, strict=True):
        for column in ("id", "select_type", "table", "type", "possible_keys", "key", "ref", "extra"):
            if (case, column) not in KNOWN_GAPS:
                assert row[column] == want[column], (case, column)
        # A recursive CTE's never-looped UNION RESULT has r_rows null in JSON, 0.00 in the table.
        for column in ("rows", "key_len", "filtered", "r_rows", "r_filtered"):
            if (case, column) not in KNOWN_GAPS and None not in (row.get(column), want.get(column)):
                assert same_numbers(row[column], want[column]), (case, column)
    assert plan.tables == [row["table"] for row in expected if row["table"] is not None]


def test_it_adds_the_analyze_columns_only_for_analyze() -> None:
    explain = parse_json(read(MARIADB / "join_bnl.explain.json"))
    analyze = parse_json(read(MARIADB / "join_bnl.analyze.json"))

    assert explain.columns == COLUMNS
    assert analyze.columns[8:12] == ["rows", "r_rows", "filtered", "r_filtered"]
    assert analyze.rows[1]["extra"] == "Using where; Using join buffer (flat, BNL join)"
    assert analyze.variant == "MariaDB ANALYZE FORMAT=JSON"


def test_it_keeps_the_document_as_the_plan() -> None:
    text = read(MARIADB / "derived.explain.json")
    plan = parse_json(text)

    assert plan.plan == json.loads(text)
    assert [(row["id"], row["select_type"], row["table"]) for row in plan.rows] == [
        ("1", "PRIMARY", "<derived2>"),
        ("2", "DERIVED", "item"),
    ]


def test_it_formats_numbers_without_losing_information() -> None:
    doc: dict[str, Any] = {
        "query_block": {
            "select_id": 1,
            "table": {"table_name": "t", "access_type": "ALL", "rows": 161, "filtered": 1.5},
        }
    }
    row = parse_json(json.dumps(doc)).rows[0]

    assert (row["rows"], row["filtered"]) == ("161", "1.5")
    doc["query_block"]["table"]["filtered"] = 100
    assert parse_json(json.dumps(doc)).rows[0]["filtered"] == "100"


# --- client presentations -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "hr_dept_join.json.json_raw.clean",
        "hr_dept_join.json.json_table.clean",
        "hr_dept_join.json.json_batch_escaped.clean",
    ],
)
def test_it_reads_the_shared_samples_in_each_presentation(name: str) -> None:
    plan = parse_json(read(FIXTURES / "samples" / f"{name}.txt"))

    assert plan.tables == ["e", "d"]
    assert [row["type"] for row in plan.rows] == ["range", "eq_ref"]
    assert plan.rows[0]["extra"] == "Using index condition"
    assert plan.truncated is False


@pytest.mark.parametrize(
    "path",
    sorted((FIXTURES / "samples").glob("*.txt")) + sorted((FIXTURES / "presentations").glob("*.txt")),
    ids=lambda path: path.stem,
)
def test_the_full_parser_returns_the_json_plan(path: Path) -> None:
    text = read(path)
    plan = parse(text)

    assert plan.format == "json"
    assert plan.rows == parse_json(text).rows
    assert plan.tables


@pytest.mark.parametrize(
    ("name", "tables"),
    [
        ("mariadb_table.txt", ["s", "i"]),
        ("mariadb_table_analyze.txt", ["shop", "<subquery2>", "item"]),
        ("mariadb_vertical.txt", ["i", "s"]),
        ("mariadb_batch.txt", ["shop", "item", "<union1,2>"]),
    ],
)
def test_it_reads_real_client_output(name: str, tables: list[str]) -> None:
    plan = parse_json(read(FIXTURES / "presentations" / name))

    assert plan.tables == tables
    assert not plan.truncated


def test_it_reads_a_box_with_every_line_bordered_and_padded() -> None:
    lines = read(MARIADB / "join_eqref.explain.json").rstrip("\n").split("\n")
    width = max(len(line) for line in lines) + 2
    border = "+" + "-" * width + "+"
    boxed = [border, "| EXPLAIN".ljust(width + 1) + "|", border]
    boxed += [f"| {line}".ljust(width + 1) + "|" for line in lines] + [border]

    plan = parse_json("\n".join(boxed))

    assert plan.tables == ["i", "s"]


def test_it_finds_the_document_between_chat_text() -> None:
    doc = read(MARIADB / "group_order.explain.json")
    text = f'Why does this {{sort}} take so long?\nEXPLAIN: {doc}\nThanks! {{"a": 1}}'

    plan = parse_json(text)

    assert plan.tables == ["item"]
    assert plan.rows[0]["extra"] == "Using index; Using temporary; Using filesort"


def test_it_skips_json_that_is_not_a_plan() -> None:
    doc = read(MARIADB / "simple_range.explain.json")
    text = '{"query": {"match": "x"}}\nand then the plan:\n' + doc

    assert parse_json(text).tables == ["item"]


# --- MySQL dialects ---------------------------------------------------------------------------


def rows_of(name: str) -> list[tuple[str | None, ...]]:
    plan = parse_json(read(FIXTURES / "mysql" / name))
    return [(row["id"], row["select_type"], row["table"], row["type"], row["rows"], row["extra"]) for row in plan.rows]


def test_it_reads_mysql_57_rows_examined_and_flags() -> None:
    assert rows_of("mysql57_join.json") == [
        ("1", "SIMPLE", "i", "ALL", "400", "Using where"),
        ("1", "SIMPLE", "s", "eq_ref", "1", "Using index"),
    ]
    plan = parse_json(read(FIXTURES / "mysql" / "mysql57_join.json"))
    assert plan.rows[0]["filtered"] == "33.33"
    assert plan.rows[1]["ref"] == "shop.i.shop_id"
    assert plan.variant == "MySQL EXPLAIN FORMAT=JSON"


def test_it_gives_operation_flags_to_the_first_table() -> None:
    assert rows_of("mysql80_group_order.json") == [
        ("1", "SIMPLE", "item", "index", "400", "Using index; Using temporary; Using filesort"),
    ]


def test_it_orders_nested_selects_after_their_parent() -> None:
    assert rows_of("mysql80_derived_subqueries.json") == [
        ("1", "PRIMARY", "d", "ALL", "5", "Using where"),
        ("3", "DEPENDENT SUBQUERY", "s", "ref", "2", "Using index"),
        ("2", "DERIVED", "item", "index", "400", "Using index"),
    ]


def test_it_puts_the_union_result_last() -> None:
    assert rows_of("mysql80_union.json") == [
        ("1", "PRIMARY", "shop", "ref", "2", None),
        ("2", "UNION", "item", "ref", "4", None),
        (None, "UNION RESULT", "<union1,2>", "ALL", None, "Using temporary"),
    ]


def test_it_reads_join_buffers_and_messages() -> None:
    assert rows_of("mysql80_hash_join_no_tables.json")[1][-1] == "Using where; Using join buffer (hash join)"
    assert rows_of("mysql_no_tables.json") == [("1", "SIMPLE", None, None, None, "No tables used")]


def test_it_marks_a_semijoin_weedout() -> None:
    assert rows_of("mysql56_weedout.json") == [
        ("1", "PRIMARY", "item", "ALL", "400", "Using where; Start temporary"),
        ("1", "PRIMARY", "shop", "eq_ref", "1", "End temporary"),
    ]


def test_it_reads_mysql_version_2_with_analyze_figures() -> None:
    plan = parse_json(read(FIXTURES / "mysql" / "mysql84_v2_analyze.json"))

    assert plan.format == "json"
    assert plan.query.startswith("/* select#1 */ select")
    assert plan.tables == ["i", "s"]
    assert plan.rows[0] == {
        "id": "1",
        "select_type": "SIMPLE",
        "table": "i",
        "type": "ALL",
        "key": None,
        "rows": "400",
        "r_rows": "400",
        "loops": "1",
        "actual_time": "0.031..0.244",
        "extra": "Using where",
    }
    assert plan.rows[1]["loops"] == "20"
    assert plan.variant == "MySQL EXPLAIN ANALYZE FORMAT=JSON (version 2)"


def test_it_keeps_repeated_table_keys_of_old_mariadb() -> None:
    text = read(FIXTURES / "mariadb_old" / "mariadb101_duplicate_tables.json")
    plan = parse_json(text)

    assert plan.tables == ["t1", "t2"]
    assert set(plan.plan["query_block"]) == {"select_id", "table", "table#2"}
    assert plan.rows[1]["extra"] == "Using where"


# --- damage ----------------------------------------------------------------------------------


def test_a_cut_document_keeps_its_complete_part_and_says_truncated() -> None:
    text = read(MARIADB / "exists_subquery.explain.json")
    cut = text[: text.index('"table_name": "x"')]

    plan = parse_json(cut)

    assert plan.truncated is True
    assert any("truncated" in notice for notice in plan.notices)
    assert plan.tables == ["s", "i"]


def test_a_document_cut_after_its_first_brace_gives_an_empty_truncated_plan() -> None:
    plan = parse_json('{\n  "query_block": {\n    "select_id": 1,\n    "nested_lo')

    assert plan.truncated is True
    assert plan.rows == []
    assert any("truncated" in notice for notice in plan.notices)


def test_damage_in_the_middle_is_reported_with_its_line() -> None:
    text = read(MARIADB / "join_eqref.explain.json").replace('"access_type": "ALL"', '"access_type": <ALL>', 1)

    plan = parse_json(text + "\nthat is all\n")

    assert plan.truncated is True
    assert "line" in plan.notices[-1]
    # Members before the damage are kept: table s is known by name only.
    assert plan.tables == ["i", "s"]
    assert plan.rows[1]["type"] is None


def test_lines_cut_at_100_columns_never_pass_for_complete() -> None:
    text = read(MARIADB / "in_subquery.explain.json")
    cut = "\n".join(line[:30] for line in text.split("\n"))

    plan = parse_json(cut)

    assert plan is None or plan.truncated


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{}",
        "{not json at all",
        '{"a": 1}',
        '{"query": {"match_all": {}}}',
        "SELECT {fn NOW()} FROM dual",
        "| id | select_type | table |",
        '["query_block"]',
        '{"query_block" 1}',
        "{" * 50,
        '{"query_plan": 3, "x": }',
        "\\n\\n{\\n",
    ],
)
def test_garbage_that_looks_a_bit_like_json_gives_none_or_an_honest_plan(text: str) -> None:
    plan = parse_json(text)

    assert plan is None or plan.truncated or plan.rows == []


def test_deep_nesting_is_refused_without_raising() -> None:
    deep = '{"query_block": ' + '{"a": ' * 3000 + "1" + "}" * 3001
    plan = parse_json(deep)

    assert plan is not None and plan.truncated
    assert "deeply" in plan.notices[0]


def test_a_deep_cut_document_is_refused_without_raising() -> None:
    plan = parse_json('{"query_block": ' + "[" * 5000)

    assert plan is None or plan.truncated


# --- properties ------------------------------------------------------------------------------

SAMPLE_TEXTS = [read(path) for path in sorted(MARIADB.glob("*.json"))] + [
    read(path) for path in sorted((FIXTURES / "mysql").glob("*.json"))
]
KEYS = [
    "query_block",
    "table",
    "table_name",
    "nested_loop",
    "rows",
    "access_type",
    "subqueries",
    "query_block",
    "union_result",
    "query_specifications",
    "materialized",
    "block-nl-join",
    "attached_condition",
    "filesort",
    "duplicates_removal",
    "inputs",
    "operation",
    "heading",
    "select_id",
    "message",
    "using_index",
    "first_match",
]
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=40,
)


def check_plan(plan) -> None:
    if plan is None:
        return
    assert plan.format == "json"
    for row in plan.rows:
        assert set(row) == set(plan.columns)
        assert all(value is None or isinstance(value, str) for value in row.values())
    assert all(isinstance(table, str) for table in plan.tables)
    json.dumps([plan.plan, plan.rows], allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=6))
def test_random_plan_shaped_documents_never_raise(doc: dict) -> None:
    check_plan(parse_json(json.dumps({"query_block": doc})))
    check_plan(parse_json(json.dumps(doc)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SAMPLE_TEXTS), st.integers(0, 10**6), st.integers(0, 40), st.text(max_size=5))
def test_mutated_documents_never_raise(text: str, where: int, length: int, insert: str) -> None:
    at = where % (len(text) + 1)
    check_plan(parse_json(text[:at] + insert + text[at + length :]))
    check_plan(parse_json(text[:at]))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]":,\\n query_blocktable_name0123456789|+-', max_size=200))
def test_random_text_never_raises(text: str) -> None:
    check_plan(parse_json(text))


@pytest.mark.parametrize("width", [33, 40, 60, 80])
@pytest.mark.parametrize("case", ["rowid_filter.analyze", "derived.explain", "exists_subquery.analyze"])
def test_a_terminal_wrap_is_undone(case: str, width: int) -> None:
    text = read(MARIADB / f"{case}.json")
    pieces = []
    for line in text.split("\n"):
        while len(line) > width:
            pieces.append(line[:width])
            line = line[width:]
        pieces.append(line)

    plan = parse_json("\n".join(pieces))

    assert plan.rows == parse_json(text).rows
    assert not plan.truncated


def test_version_2_headings_become_subquery_selects() -> None:
    plan = parse_json(read(FIXTURES / "mysql" / "mysql84_v2_subquery.json"))

    assert [
        (row["id"], row["select_type"], row["table"], row["type"], row["rows"], row["extra"]) for row in plan.rows
    ] == [
        ("1", "PRIMARY", "s", "ALL", "5", "Using where"),
        ("2", "DEPENDENT SUBQUERY", "i", "ref", "4.12", "Using index"),
    ]
    assert plan.variant == "MySQL EXPLAIN FORMAT=JSON (version 2)"


def test_it_reads_mariadb_show_analyze_documents() -> None:
    body = read(MARIADB / "simple_range.analyze.json").strip()[1:]
    text = '{\n  "r_query_time_in_progress_ms": 17,' + body

    plan = parse_json(text)

    assert plan.tables == ["item"]
    assert plan.rows[0]["r_rows"] is not None


def test_numbers_json_cannot_carry_become_null() -> None:
    text = '{"query_block": {"select_id": 1, "table": {"table_name": "t", "rows": 1e999, "filtered": NaN, "r_rows": -Infinity}}}'
    plan = parse_json(text)

    assert (plan.rows[0]["rows"], plan.rows[0]["filtered"]) == (None, None)
    assert json.dumps(plan.plan, allow_nan=False) == (
        '{"query_block": {"select_id": 1, "table": {"table_name": "t", "rows": null, "filtered": null, "r_rows": null}}}'
    )


def test_mysql_dml_targets_get_their_statement_as_select_type() -> None:
    doc = {
        "query_block": {
            "select_id": 1,
            "cost_info": {"query_cost": "1.20"},
            "table": {
                "update": True,
                "table_name": "item",
                "access_type": "range",
                "key": "idx_shop",
                "rows_examined_per_scan": 80,
            },
        }
    }
    mariadb = read(MARIADB / "update_stmt.explain.json")

    assert parse_json(json.dumps(doc)).rows[0]["select_type"] == "UPDATE"
    assert parse_json(mariadb).rows[0]["select_type"] == "SIMPLE"


def batch_escaped(document: str) -> str:
    """The document as `mysql -B` prints it: one line, with backslashes, tabs and newlines escaped."""
    return "EXPLAIN\n" + document.rstrip("\n").replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n") + "\n"


@pytest.mark.parametrize("case", ["in_subquery.explain", "join_bnl.analyze", "exists_subquery.explain"])
@pytest.mark.parametrize(
    "damage",
    [
        lambda text: terminal_wrap(text, 80),
        lambda text: terminal_wrap(text, 132, strip=False),
        lambda text: "\n".join(terminal_wrap(quote(text), 80).split("\n")),  # quoted, then wrapped
        lambda text: quote(terminal_wrap(text, 100)),  # wrapped, then quoted
        lambda text: mail_wrap(text, 72),
        lambda text: mail_wrap(text, 76, keep_space=True),
    ],
    ids=["wrap80", "wrap132_spaces_kept", "quote_then_wrap80", "wrap100_then_quote", "mail72", "mail76_flowed"],
)
def test_a_wrapped_batch_escaped_document_is_rejoined_exactly(case: str, damage) -> None:
    document = read(MARIADB / f"{case}.json")
    text = damage(batch_escaped(document))
    assert len(text.split("\n")) > 4  # it was wrapped

    plan = parse(text)

    assert plan.format == "json"
    assert plan.truncated is False, plan.notices
    assert plan.plan == json.loads(document)
    assert any("one-line (batch) JSON plan" in notice for notice in plan.notices)


def test_a_second_batch_document_after_a_wrapped_one_is_not_glued_to_it() -> None:
    document = read(MARIADB / "in_subquery.explain.json")
    text = terminal_wrap(batch_escaped(document), 80)

    plan = parse(text + text)

    assert plan.truncated is False
    assert plan.plan == json.loads(document)


def test_a_quoted_part_of_a_document_is_read_and_flagged() -> None:
    fragment = (
        '"table": {\n  "table_name": "orders",\n  "access_type": "eq_ref",\n  "key": "PRIMARY",\n'
        '  "rows": 1,\n  "filtered": 100\n'
    )
    plan = parse_json(fragment)
    assert plan is not None and plan.truncated
    assert [(row["table"], row["type"]) for row in plan.rows] == [("orders", "eq_ref")]
    assert any('starts at "table" (line 1)' in notice for notice in plan.notices)


def test_text_that_only_mentions_a_key_is_no_fragment() -> None:
    assert parse_json('The "table": {} key holds the table.\n') is None


QUERY_BLOCK = """{
  "query_block": {
    "select_id": 1,
    "table": {"table_name": "t", "access_type": "ALL", "rows": 10, "filtered": 100,
              "attached_condition": "(`d`.`t`.`a` = 1)"}
  }
}"""


def test_typographic_quotes_are_straightened_when_they_break_the_document():
    curly = QUERY_BLOCK.replace('"attached_condition": "(`d`.`t`.`a` = 1)"', "“attached_condition”: “(`d`.`t`.`a` = 1)”")
    plan = parse_json(curly)
    assert plan is not None and not plan.truncated
    assert plan.rows[0]["extra"] == "Using where"
    assert any("Straightened 4 typographic quotes" in n for n in plan.notices)


def test_a_query_block_without_outer_braces_is_the_whole_document():
    inner = QUERY_BLOCK.strip()[1:-1]
    plan = parse_json(inner)
    assert plan is not None and not plan.truncated and plan.rows[0]["table"] == "t"
    assert any("lacks its outer braces" in n for n in plan.notices)


def test_a_table_fragment_is_still_flagged_partial():
    fragment = '"table": {"table_name": "t", "access_type": "ALL", "rows": 10}\n'
    plan = parse_json(fragment)
    assert plan is not None and plan.truncated


def test_the_join_buffer_time_is_its_table_s_other_time() -> None:
    plan = parse((MARIADB / "join_bnl.analyze.json").read_text(encoding="utf-8"))
    assert plan.tree is not None
    [select] = plan.tree.children
    buffered = select.children[1]
    # The table's own r_other_time_ms 0.033996594, plus the block-nl-join's r_unpack_time_ms
    # 1.003988663 and r_other_time_ms 0.823420447 = 1.861405704; its read time stays as printed.
    assert (buffered.table, buffered.r_table_time_ms) == ("s", 0.213490531)
    assert buffered.r_other_time_ms == pytest.approx(1.861405704)
    assert buffered.condition == "s.qty = i.price"
