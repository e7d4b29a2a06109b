"""Clean output of every shape the parser reads: values come back exactly as printed."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.resultset import CUT
from tests.analyzer.repair.mangle import batch, box, expand_tabs, vertical

CLASSIC = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
MYSQL8 = [
    "id",
    "select_type",
    "table",
    "partitions",
    "type",
    "possible_keys",
    "key",
    "key_len",
    "ref",
    "rows",
    "filtered",
    "Extra",
]
MYSQL8_ROWS = [
    ["1", "PRIMARY", "<derived2>", None, "ALL", None, None, None, None, "2", "100.00", None],
    [
        "2",
        "DERIVED",
        "orders",
        "p0,p1",
        "range",
        "idx_created",
        "idx_created",
        "5",
        None,
        "1200",
        "33.33",
        "Using where",
    ],
    ["3", "DEPENDENT SUBQUERY", "items", None, "ref", "idx_order", "idx_order", "4", "func", "3", "10.00", ""],
]
ROWID_FILTER_ROWS = [
    [
        "1",
        "SIMPLE",
        "t",
        "ref|filter",
        "idx_a,idx_b",
        "idx_a|idx_b",
        "4|1",
        "const",
        "4 (15%)",
        "Using index condition; Using where; Using rowid filter",
    ],
    ["1", "SIMPLE", "u", "eq_ref", "PRIMARY", "PRIMARY", "4", "db.t.u_id", "1", ""],
]
CJK_ROWS = [
    ["1", "SIMPLE", "員工", "ALL", None, None, None, None, "12", "Using where"],
    ["1", "SIMPLE", "部門テーブル", "eq_ref", "PRIMARY", "PRIMARY", "4", "hr.員工.dept", "1", ""],
]


def expected(columns: list[str], rows: list[list[str | None]]) -> list[dict]:
    return [dict(zip([c.lower() for c in columns], row, strict=True)) for row in rows]


@pytest.mark.parametrize(
    ("columns", "rows"),
    [(CLASSIC, ROWID_FILTER_ROWS), (MYSQL8, MYSQL8_ROWS), (CLASSIC, CJK_ROWS)],
    ids=["rowid-filter", "mysql8", "cjk"],
)
@pytest.mark.parametrize(
    ("render", "fmt"),
    [(box, "table"), (vertical, "vertical"), (batch, "tsv"), (lambda c, r: expand_tabs(batch(c, r)), "tsv")],
    ids=["table", "vertical", "tsv", "tsv-expanded"],
)
def test_each_format_gives_cells_as_printed(columns, rows, render, fmt):
    plan = parse(render(columns, rows))
    assert plan.format == fmt
    assert plan.columns == [c.lower() for c in columns]
    assert plan.rows == expected(columns, rows)
    assert not plan.truncated


def test_null_and_empty_string_differ():
    plan = parse(box(MYSQL8, MYSQL8_ROWS))
    assert plan.rows[0]["extra"] is None
    assert plan.rows[2]["extra"] == ""
    assert plan.rows[0]["partitions"] is None


def test_cells_with_pipes_are_not_split():
    row = parse(box(CLASSIC, ROWID_FILTER_ROWS)).rows[0]
    assert (row["type"], row["key"], row["key_len"], row["rows"]) == ("ref|filter", "idx_a|idx_b", "4|1", "4 (15%)")


def test_cjk_cells_padded_by_display_width():
    plan = parse(box(CLASSIC, CJK_ROWS))
    assert [r["table"] for r in plan.rows] == ["員工", "部門テーブル"]
    assert plan.rows[1]["ref"] == "hr.員工.dept"


def test_combining_accent_counts_one_column_as_the_client_pads_it():
    cafe = "cafe\u0301"  # NFD text: e + combining acute accent
    rows = [["1", "SIMPLE", cafe, "ref", "idx_customer", "idx_customer", "4", "const", "3", ""]]
    header = "| id | select_type | table | type | possible_keys | key          | key_len | ref   | rows | Extra |"
    line = "|  1 | SIMPLE      | " + cafe + " | ref  | idx_customer  | idx_customer | 4       | const |    3 |       |"
    border = "+" + "+".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "+"
    plan = parse("\n".join([border, header, border, line, border]))
    assert plan.rows == expected(CLASSIC, rows)


def test_explain_partitions_columns():
    columns = ["id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows"]
    columns.append("Extra")
    rows = [["1", "SIMPLE", "sales", "p2019,p2020", "ALL", None, None, None, None, "5000", "Using where"]]
    plan = parse(box(columns, rows))
    assert plan.columns[3] == "partitions"
    assert plan.rows[0]["partitions"] == "p2019,p2020"


def test_mariadb_analyze_columns():
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "r_rows"]
    columns += ["filtered", "r_filtered", "Extra"]
    rows = [["1", "SIMPLE", "t", "ALL", None, None, None, None, "1000", "1000.00", "100.00", "10.00", "Using where"]]
    plan = parse(box(columns, rows))
    assert plan.rows[0]["r_rows"] == "1000.00"
    assert plan.rows[0]["r_filtered"] == "10.00"


def test_unknown_columns_are_kept():
    columns = [*CLASSIC[:9], "cost_estimate", "Extra"]
    rows = [["1", "SIMPLE", "t", "ALL", None, None, None, None, "10", "12.5", ""]]
    plan = parse(box(columns, rows))
    assert plan.columns[9] == "cost_estimate"
    assert plan.rows[0]["cost_estimate"] == "12.5"


def test_unicode_box_single_and_double_lines():
    ascii_table = box(CLASSIC, ROWID_FILTER_ROWS)
    lines = ascii_table.splitlines()
    single = [
        lines[0].replace("+", "┬").replace("-", "─"),
        *(
            line.replace("|", "│") if line.startswith("|") else line.replace("+", "┼").replace("-", "─")
            for line in lines[1:]
        ),
    ]
    double = [
        line.replace("|", "║") if line.startswith("|") else line.replace("+", "╬").replace("-", "═") for line in lines
    ]
    for variant in (single, double):
        # Cells with `|` inside stay as they are: only box characters are translated.
        text = "\n".join(variant).replace("ref│filter", "ref|filter")
        text = text.replace("idx_a│idx_b", "idx_a|idx_b").replace("4│1", "4|1")
        plan = parse(text)
        assert plan.rows == expected(CLASSIC, ROWID_FILTER_ROWS)


def test_borderless_table_with_pipes_only():
    lines = [line for line in box(CLASSIC, ROWID_FILTER_ROWS).splitlines() if not line.startswith("+")]
    plan = parse("\n".join(lines))
    assert plan.rows == expected(CLASSIC, ROWID_FILTER_ROWS)
    assert any("no '+---+' borders" in n for n in plan.notices)


def test_table_without_outer_borders():
    lines = [line[2:-2] for line in box(CLASSIC, CJK_ROWS).splitlines() if not line.startswith("+")]
    assert parse("\n".join(lines)).rows == expected(CLASSIC, CJK_ROWS)


def test_markdown_table():
    text = (
        "| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |\n"
        "|----|---|---|---|---|---|---|---|---|---|\n"
        "| 1 | SIMPLE | t | ALL | NULL | NULL | NULL | NULL | 10 | Using where |\n"
    )
    plan = parse(text)
    assert plan.rows == [
        expected(CLASSIC, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "10", "Using where"]])[0]
    ]


def test_vertical_extra_without_trailing_space():
    text = vertical(CLASSIC, ROWID_FILTER_ROWS).replace("Extra: \n", "Extra:\n")
    assert parse(text).rows[1]["extra"] == ""


def test_header_case_is_lowered():
    plan = parse(box([c.upper() for c in CLASSIC], ROWID_FILTER_ROWS))
    assert plan.columns == [c.lower() for c in CLASSIC]


def test_tsv_warnings_block_of_mysql_test_results():
    text = batch(CLASSIC, ROWID_FILTER_ROWS) + "Warnings:\nNote\t1003\tselect `t`.`a` AS `a` from `t`\n"
    plan = parse(text)
    assert plan.warnings == ["select `t`.`a` AS `a` from `t`"]
    assert len(plan.rows) == 2


@pytest.mark.parametrize(
    "text",
    ["", "   \n\n", "hello, how are you?", "SELECT * FROM t;", "+---+\n| a |\n+---+\n| 1 |\n+---+", "id\tname\n1\tx"],
)
def test_no_explain_is_a_parse_error_saying_what_was_expected(text):
    with pytest.raises(ParseError) as info:
        parse(text)
    assert "EXPLAIN" in info.value.message
    assert "tab-separated" in info.value.message


def test_show_warnings_alone_is_not_an_explain():
    text = box(["Level", "Code", "Message"], [["Note", "1003", "select 1"]])
    with pytest.raises(ParseError, match="not those of EXPLAIN") as info:
        parse(text)
    assert info.value.line == 1


@pytest.mark.parametrize("text", ["|\n|\n|\n", "| |\n| |\n"])
def test_a_table_without_column_names_says_so(text):
    with pytest.raises(ParseError, match="has no column names") as info:
        parse(text)
    assert "columns ," not in info.value.message


def test_size_limit_counts_utf8_bytes_and_comes_first():
    table = box(CLASSIC, CJK_ROWS)
    size = len(table.encode("utf-8"))
    assert parse(table, max_bytes=size).rows
    with pytest.raises(ParseError) as info:
        parse(table, max_bytes=size - 1)
    assert info.value.too_large
    with pytest.raises(ParseError) as info:
        parse("x" * 2000, max_bytes=1000)
    assert info.value.too_large


def test_cut_marker_is_not_a_printed_value():
    assert all(CUT not in str(v) for row in MYSQL8_ROWS + ROWID_FILTER_ROWS + CJK_ROWS for v in row)


def test_a_grid_table_with_an_equals_header_rule():
    table = box(CLASSIC, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "10", "Using where"]])
    lines = table.splitlines()
    lines[2] = lines[2].replace("-", "=")
    plan = parse("\n".join(lines) + "\n")
    assert [row["table"] for row in plan.rows] == ["t"] and not plan.truncated
    assert any("'='" in notice for notice in plan.notices)


@pytest.mark.parametrize("closing", ["...", "`", "EOT", "');"])
def test_vertical_output_closed_by_a_heredoc_or_string_end_keeps_its_last_value(closing):
    record = (
        "*************************** 1. row ***************************\n"
        "           id: 1\n  select_type: SIMPLE\n        table: t\n         type: index\n"
        "possible_keys: NULL\n          key: a\n      key_len: 5\n          ref: NULL\n"
        "         rows: 3\n        Extra: Using index\n"
    )
    plan = parse(record + closing + "\n")
    assert plan.rows[0]["extra"] == "Using index"
    assert any("Ignored 1 line of other text" in n for n in plan.notices)


def test_a_long_vertical_value_wrapped_by_a_mail_client_is_still_rejoined():
    keys = ",".join(f"idx_customer_order_{i}" for i in range(6))
    record = (
        "*************************** 1. row ***************************\n"
        "           id: 1\n  select_type: SIMPLE\n        table: t\n         type: ALL\n"
        f"possible_keys:\n{keys}\n          key: NULL\n      key_len: NULL\n          ref: NULL\n"
        "         rows: 3\n        Extra: Using where\n"
    )
    assert parse(record).rows[0]["possible_keys"] == keys


STACKED = """\
+----+-------------+------------+-------+---------------+
| id | select_type | table      | type  | possible_keys |
+----+-------------+------------+-------+---------------+
|  1 | SIMPLE      | customers  | const | PRIMARY       |
|  1 | SIMPLE      | orders     | ALL   | NULL          |
+----+-------------+------------+-------+---------------+
+---------+---------+-------+------+-------------+
| key     | key_len | ref   | rows | Extra       |
+---------+---------+-------+------+-------------+
| PRIMARY | 4       | const |    1 |             |
| NULL    | NULL    | NULL  |    1 | Using where |
+---------+---------+-------+------+-------------+
"""


def test_tables_stacked_one_above_the_other_are_one_wide_plan():
    plan = parse(STACKED)
    assert plan.columns == ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]
    assert [(r["table"], r["key"], r["extra"]) for r in plan.rows] == [("customers", "PRIMARY", ""), ("orders", None, "Using where")]
    assert not plan.truncated
    assert any("Joined the tables on lines 1 and 7" in n for n in plan.notices)


def test_stacked_tables_with_other_row_counts_or_columns_stay_apart():
    top, below = STACKED.split("+---------+---------+", 1)
    one_row_less = top + "+---------+---------+" + below.replace("| NULL    | NULL    | NULL  |    1 | Using where |\n", "")
    plan = parse(one_row_less)
    assert len(plan.rows) == 2 and plan.rows[0]["key"] == CUT and plan.truncated
    repeated = STACKED.split("+---------+")[0] * 2
    assert parse(repeated).rows[0]["key"] == CUT


def test_a_closed_box_without_some_columns_left_them_out_and_is_flagged():
    box_without_extra = "\n".join(line.rsplit("+", 2)[0] + "+" if line.startswith("+") else line.rsplit("|", 2)[0] + "|" for line in STACKED.split("+---------+---------+")[0].splitlines())
    plan = parse(box_without_extra)
    assert plan.columns == ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]
    assert plan.truncated and plan.rows[0]["extra"] == CUT
    assert any("its lines are complete, so they were left out of the paste" in n for n in plan.notices)
    assert not any("truncated" in n for n in plan.notices)


def test_a_tsv_row_one_field_short_is_not_read_as_a_lost_empty_extra_when_its_values_do_not_fit():
    header = "id\tselect_type\ttable\tpartitions\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tfiltered\tExtra\n"
    lost_middle = "1\tSIMPLE\tt\tref\tPRIMARY\tPRIMARY\t4\tconst\t10\t100.00\tUsing where\n"
    plan = parse(header + lost_middle)
    assert plan.truncated
    lost_extra = "1\tSIMPLE\tt\tNULL\tref\tPRIMARY\tPRIMARY\t4\tconst\t10\t100.00\n"
    plan = parse(header + lost_extra)
    assert not plan.truncated and plan.rows[0]["type"] == "ref" and plan.rows[0]["extra"] == ""


def test_markdown_rows_without_their_closing_pipe_under_a_header_with_one():
    text = (
        "id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |  \n"
        "-- | -- | -- | -- | -- | -- | -- | -- | -- | -- | --\n"
        "1 | SIMPLE | t1 | ref | a,b | a | 4 | const | 101107 | Using index; Using filesort\n"
    )
    plan = parse(text)
    assert not plan.truncated
    assert (plan.rows[0]["possible_keys"], plan.rows[0]["extra"]) == ("a,b", "Using index; Using filesort")


def test_a_markdown_table_without_spaces_around_its_pipes():
    text = (
        "|id|select_type|table|type|possible_keys|key|key_len|ref|rows|Extra|\n"
        "|--|-----------|-----|----|-------------|---|-------|---|----|-----|\n"
        "|1|SIMPLE|t|ALL|ix_a||||224739|Using where|\n"
        "|1|SIMPLE|u|ref|a\\|b|a|4|t.id|1||\n"
    )
    plan = parse(text)
    assert not plan.truncated
    assert [(r["table"], r["type"], r["possible_keys"], r["rows"]) for r in plan.rows] == [
        ("t", "ALL", "ix_a", "224739"),
        ("u", "ref", "a|b", "1"),
    ]


@pytest.mark.parametrize("render", [box, vertical, batch], ids=["table", "vertical", "tsv"])
def test_the_columns_of_mysql_before_4_1_lack_id_and_select_type_and_are_complete(render):
    old = CLASSIC[2:]
    plan = parse(render(old, [["t", "ALL", None, None, None, None, "10", "Using where"]]))
    assert plan.columns == [c.lower() for c in old]
    assert plan.rows[0]["table"] == "t" and plan.rows[0]["rows"] == "10"
    assert not plan.truncated


def test_a_figure_with_a_control_blank_after_it_is_read():
    from analyzer.readers.cells import integer

    assert integer("0\x1f") == 0
    assert integer(" 12\x1c") == 12
