"""Rows pasted as a GUI, a web page or a book left them: header-less rows separated by commas, terms
whose case a page's styling changed, double-spaced `\\G` output, and noise lines a scraped page put
between the lines of the output."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse

# --- header-less rows separated by commas (a GUI's copy of rows as CSV)

CSV12 = "1,SIMPLE,orderitems,,ALL,,,,,1,100,Using filesort"


@pytest.mark.parametrize(
    ("text", "tables", "columns"),
    [
        (CSV12, ["orderitems"], 12),
        ("1, SIMPLE, t, ALL, , , , , 30, Using where", ["t"], 10),
        ('"1","SIMPLE","t","ref","a,b","a","4","const","3","Using where"', ["t"], 10),
        (
            "'1','PRIMARY','o','ALL','','','','','9','100.00',''\n'2','DERIVED','i','ALL','','','','','4','100.00',''",
            ["o", "i"],
            11,
        ),
        (
            "Here it is:\n\n1,SIMPLE,a,,index,,PRIMARY,4,,7,100.00,Using index\n1,SIMPLE,b,,eq_ref,PRIMARY,PRIMARY,4,db.a.id,1,100.00,\n",
            ["a", "b"],
            12,
        ),
    ],
    ids=["gui-row", "spaced", "quoted-list", "single-quotes-two-rows", "after-prose"],
)
def test_header_less_comma_rows_are_read_by_their_values(text, tables, columns):
    plan = parse(text)
    assert plan.format == "csv"
    assert [row["table"] for row in plan.rows] == tables
    assert len(plan.columns) == columns
    assert plan.uncertain and not plan.truncated
    assert any("separated by commas" in notice for notice in plan.notices)


def test_empty_comma_fields_are_null_and_quoted_lists_kept_whole():
    plan = parse('"1","SIMPLE","t","ref","a,b","a","4","const","3",""')
    row = plan.rows[0]
    assert row["possible_keys"] == "a,b" and row["extra"] is None
    row = parse(CSV12).rows[0]
    assert row["partitions"] is None and row["key"] is None and row["rows"] == "1" and row["filtered"] == "100"


@pytest.mark.parametrize(
    "text",
    [
        "1,SIMPLE,t,,ref,a,b,a,4,const,10,100,",  # an unquoted list: the fields fit no column order
        "1, SIMPLE, and 2 were the answers I got back, both wrong",
        "1,SIMPLE,t,ALL",
    ],
)
def test_comma_lines_that_fit_no_column_order_are_refused(text):
    with pytest.raises(ParseError):
        parse(text)


# --- terms whose case a page's styling changed


def _vertical(
    fields: list[tuple[str, str]],
    banner: str = "*************************** 1. row ***************************",
    sep: str = ": ",
) -> str:
    width = max(len(name) for name, _ in fields)
    return banner + "\n" + "\n".join(f"{name.rjust(width)}{sep}{text}" for name, text in fields) + "\n"


FIELDS = [
    ("id", "1"),
    ("select_type", "SIMPLE"),
    ("table", "City"),
    ("type", "range"),
    ("possible_keys", "Population"),
    ("key", "Population"),
    ("key_len", "4"),
    ("ref", "NULL"),
    ("rows", "238"),
    ("Extra", "Using index condition"),
]


@pytest.mark.parametrize(
    ("rename", "values", "restored"),
    [
        (str.upper, {}, 0),
        (str.capitalize, {"type": "RANGE"}, 1),
        (lambda name: name, {"type": "Range", "select_type": "simple"}, 2),
        (str.upper, {"type": "RANGE|FILTER", "ref": "null"}, 2),
        (str.capitalize, {"type": "All", "Extra": "USING WHERE"}, 1),
    ],
    ids=["labels-upper", "labels-capitalised", "values-mixed", "rowid-filter-and-null", "all-and-extra"],
)
def test_terms_in_another_case_are_restored(rename, values, restored):
    fields = [(rename(name), values.get(name, text)) for name, text in FIELDS]
    plan = parse(_vertical(fields))
    assert plan.format == "vertical" and not plan.uncertain and not plan.truncated, plan.notices
    row = plan.rows[0]
    assert row["table"] == "City" and row["select_type"] == "SIMPLE" and row["ref"] is None
    expected = {"RANGE|FILTER": "range|filter", "All": "ALL"}.get(values.get("type", ""), "range")
    assert row["type"] == expected
    assert row["extra"] == values.get("Extra", "Using index condition")  # Extra items stay as printed
    said = [notice for notice in plan.notices if notice.startswith("Restored the case of")]
    assert len(said) == (1 if restored else 0)
    if restored:
        assert said[0].startswith(f"Restored the case of {restored} term")


def test_a_table_row_with_lower_cased_terms_is_restored():
    text = (
        "+----+-------------+-------+------+------+\n"
        "| id | select_type | table | type | rows |\n"
        "+----+-------------+-------+------+------+\n"
        "|  1 | simple      | t     | all  | 10   |\n"
        "|  1 | Simple      | u     | REF  | 1    |\n"
        "+----+-------------+-------+------+------+\n"
    )
    plan = parse(text)
    assert [(row["select_type"], row["type"]) for row in plan.rows] == [("SIMPLE", "ALL"), ("SIMPLE", "ref")]
    assert not plan.uncertain
    assert any(notice.startswith("Restored the case of 4 terms") for notice in plan.notices)


def test_a_word_that_is_no_term_in_any_case_is_still_flagged():
    fields = [(name, {"type": "RANGES"}.get(name, text)) for name, text in FIELDS]
    plan = parse(_vertical(fields))
    assert plan.uncertain
    assert not any(notice.startswith("Restored") for notice in plan.notices)


@pytest.mark.parametrize(
    ("banner", "prompt"),
    [
        ("1. Row ***************************", "db 09:26:15> EXPLAIN SELECT * FROM City WHERE Population > 1G\n"),
        ("1. row ***********", ""),
        ("*************************** 1. row ***************************", "mysql> EXPLAIN SELECT 1\\G\n"),
    ],
)
def test_fields_without_a_space_after_the_colon_and_a_banner_without_its_leading_stars(banner, prompt):
    fields = [(name.capitalize(), text) for name, text in FIELDS]
    text = prompt + "\n".join(line.lstrip() for line in _vertical(fields, banner, ":").splitlines())
    plan = parse(text)
    assert plan.format == "vertical" and not plan.uncertain and not plan.truncated, plan.notices
    assert plan.rows[0]["table"] == "City" and plan.rows[0]["rows"] == "238"
    assert plan.rows[0]["extra"] == "Using index condition"
    assert [span.role for span in plan.lines if span.role == "plan"] == ["plan"]
    assert plan.lines[-1].first == (2 if prompt else 1)  # the banner is read as the row's


@pytest.mark.parametrize(
    "text",
    [
        "Config:\nhost:db1\nport:3306\nuser:app\ntimeout:30\n",
        "Notes:\nid:1 is the first\nkey:value pairs follow\ntype:unknown\n",
        "1. Row ******** of the report\nid:1\n",
    ],
)
def test_tight_labels_that_are_no_explain_are_not_read(text):
    with pytest.raises(ParseError):
        parse(text)


# --- double-spaced `\G` output with lines broken after their indentation


def _double_spaced(lines: list[str], broken: dict[int, str]) -> str:
    """`lines` with an empty line after each, and the lines in `broken` split after their
    indentation: the spaces, an empty line, then the rest at column 0."""
    out = []
    for k, line in enumerate(lines):
        if k in broken:
            out += [broken[k], ""]
        out += [line, ""]
    return "\n".join(out)


BOOK = [
    "************************** 1. row *********",
    "          id: 1",
    "  select_type: SIMPLE",
    "        table: inventory",
    "        type: ALL",
    "possible_keys: NULL",
    "key: NULL",
    "      key_len: NULL",
    "          ref: NULL",
    "rows: 787338",
    "        Extra: Using where",
]


@pytest.mark.parametrize(
    "broken",
    [{6: "         ", 9: "       "}, {6: "          "}, {}, {1: " ", 7: "   "}],
    ids=["two-labels", "one-label", "none", "blank-lines-of-spaces"],
)
def test_double_spaced_vertical_with_labels_pushed_to_column_0(broken):
    plan = parse(_double_spaced(BOOK, broken))
    assert plan.format == "vertical" and not plan.uncertain and not plan.truncated, plan.notices
    row = plan.rows[0]
    assert (row["table"], row["type"], row["key"], row["rows"], row["extra"]) == (
        "inventory",
        "ALL",
        None,
        "787338",
        "Using where",
    )
    rejoined = sum(not BOOK[k].startswith(" ") for k in broken)
    assert any(f"indentation of {rejoined} line" in notice for notice in plan.notices) == bool(rejoined)


def test_a_double_spaced_paste_keeps_its_own_empty_lines():
    rows = ["1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t10\t", "1\tSIMPLE\tu\tALL\tNULL\tNULL\tNULL\tNULL\t20\t"]
    header = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra"
    text = "\n\n".join(["Plan:", "", header, *rows, ""])  # one empty line of its own after the prose
    plan = parse(text)
    assert [row["table"] for row in plan.rows] == ["t", "u"]
    assert not any("indentation" in notice for notice in plan.notices)


def test_a_banner_cut_at_the_width_is_still_flagged_but_a_retyped_one_is_not():
    fields = "\n".join(f"{name:>13}: {text}" for name, text in FIELDS)
    cut = parse("*************************** 1. row *********\n" + fields)
    assert cut.truncated
    retyped = parse("************************** 1. row *********\n" + fields)
    assert not retyped.truncated and not retyped.uncertain


# --- noise lines a scraped web page put between the lines of the output

TSV = [
    "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra",
    "1\tSIMPLE\tt1\tref\tstr\tstr\t11\tconst\t1\tUsing where",
    "1\tSIMPLE\tt2\teq_ref\tPRIMARY\tPRIMARY\t4\ttest.t1.id\t1\t",
]
BOX = [
    "+----+-------------+-------+------+---------------+------+---------+------+------+-------------+",
    "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra       |",
    "+----+-------------+-------+------+---------------+------+---------+------+------+-------------+",
    "|  1 | SIMPLE      | t1    | ALL  | NULL          | NULL | NULL    | NULL |   10 | Using where |",
    "|  1 | SIMPLE      | t2    | ALL  | NULL          | NULL | NULL    | NULL |    9 |             |",
    "+----+-------------+-------+------+---------------+------+---------+------+------+-------------+",
]
ROW3 = "|  2 | DERIVED     | t3    | ALL  | NULL          | NULL | NULL    | NULL |    5 |             |"


def _interleaved(lines: list[str], noise) -> str:
    return "\n".join(part for k, line in enumerate(lines) for part in (line, *noise(k)))


@pytest.mark.parametrize(
    ("lines", "noise", "tables"),
    [
        (["explain select * from t1, t2;", *TSV], lambda k: ["|", "|"], ["t1", "t2"]),
        (["explain select * from t1, t2;", *TSV], lambda k: [" | ||"], ["t1", "t2"]),
        (TSV, lambda k: [f"20{k:02d}-09-2{k} 23:08:{k}2 +03:00"], ["t1", "t2"]),
        (BOX, lambda k: ["|"], ["t1", "t2"]),
        (BOX, lambda k: ["  ·  "], ["t1", "t2"]),
    ],
    ids=["two-bars", "bars-after-every-line", "blame-dates", "box-with-bars", "box-with-dots"],
)
def test_noise_lines_between_every_two_lines_are_removed(lines, noise, tables):
    plan = parse(_interleaved(lines, noise))
    assert [row["table"] for row in plan.rows] == tables
    assert not plan.truncated and not plan.uncertain, plan.notices
    assert any("stood between every two lines of the text" in notice for notice in plan.notices)
    assert any(span.reason.startswith("a line a web page put") for span in plan.lines)


def test_a_source_viewers_gutter_comes_off_with_the_noise():
    text = _interleaved(["| " + line for line in ["explain select * from t1, t2;", *TSV]], lambda k: [" | ||"])
    plan = parse(text)
    assert plan.format == "tsv" and [row["table"] for row in plan.rows] == ["t1", "t2"]
    assert plan.rows[1]["extra"] == ""
    assert any(notice.startswith("Took the gutter '|' off 4 lines") for notice in plan.notices)


@pytest.mark.parametrize(
    "text",
    [
        # a border after every row of a table
        "\n".join(
            [
                BOX[0],
                BOX[1],
                BOX[2],
                BOX[3],
                BOX[2],
                BOX[4],
                BOX[2],
                ROW3,
                BOX[5],
            ]
        ),
        # a box drawn with box-drawing characters, a rule after every row
        "┌────┬─────────────┬───────┬──────┐\n│ id │ select_type │ table │ type │\n├────┼─────────────┼───────┼──────┤\n"
        "│ 1  │ SIMPLE      │ t1    │ ALL  │\n├────┼─────────────┼───────┼──────┤\n│ 1  │ SIMPLE      │ t2    │ ref  │\n"
        "├────┼─────────────┼───────┼──────┤\n│ 1  │ SIMPLE      │ t3    │ ref  │\n└────┴─────────────┴───────┴──────┘",
    ],
    ids=["ascii", "box-drawing"],
)
def test_a_border_after_every_row_is_no_noise(text):
    from analyzer.repair.interleaved import noise_lines

    assert noise_lines(text.split("\n")) == []
    assert not any("stood between" in notice for notice in parse(text).notices)


def test_rows_a_terminal_wrapped_keep_their_ends():
    rows = [
        "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra",
        "       |",
        "|  1 | SIMPLE      | t1    | ALL  | NULL          | NULL | NULL    | NULL |   10 | Using where",
        "       |",
        "|  1 | SIMPLE      | t2    | ALL  | NULL          | NULL | NULL    | NULL |    9 |",
        "       |",
    ]
    border = "+----+-------------+-------+------+---------------+------+---------+------+------+-------------+"
    from analyzer.repair.interleaved import noise_lines

    assert noise_lines([border, rows[0], rows[1], border, *rows[2:], border]) == []


@pytest.mark.parametrize(
    "lines",
    [
        ["line one", "|", "line two", "|"],  # two lines of text only
        ['{"query_block": {', '  "table": {"table_name": "t"', "  }", '  "cost": 1', "  }", "}"],
        ["id", "4", "func", "3", "10.00"],  # cells on lines of their own
        ["001 id: 1", "002", "003 table: t", "004", "005 type: ALL"],  # numbered empty lines
        ["> a", ">", "> b", ">", "> c"],  # a quote's empty lines
        ["a", "|", "b", "| |", "c", "|"],  # not the same line
    ],
)
def test_lines_that_are_no_noise_stay(lines):
    from analyzer.repair.interleaved import noise_lines

    assert noise_lines(lines) == []


# --- `#`, the mark mysqltest prints for a value it replaced


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(TSV).replace("\t1\tUsing where", "\t#\tUsing where"),
        "id select_type table partitions type possible_keys key key_len ref rows filtered Extra\n"
        "1 SIMPLE data_locks NULL ref PRIMARY PRIMARY 514 const # 100.00 NULL",
        "*************************** 1. row ***************************\n"
        + "\n".join(f"{name:>13}: {'#' if name == 'rows' else text}" for name, text in FIELDS),
    ],
    ids=["tsv", "spaces", "vertical"],
)
def test_a_masked_rows_figure_is_unknown_not_null(text):
    plan = parse(text)
    row = next(row for row in plan.rows if row.get("rows") == "#")
    assert row["rows"] == "#"  # kept as printed
    node = next(node for node in plan.tree.walk() if node.row == plan.rows.index(row))
    assert node.rows_estimated is None
    assert not plan.truncated
    assert any("the mark mysqltest prints for a value its test replaced" in notice for notice in plan.notices)
    assert not any("never print in" in notice for notice in plan.notices)


def test_a_hash_in_select_type_is_still_flagged():
    text = "\n".join(TSV).replace("\tSIMPLE\tt1", "\t#\tt1")
    plan = parse(text)
    assert plan.uncertain


# --- a PDF's text: single-spaced rows whose lists wrapped after a comma

PDF_HEADER = "table type possible_keys key key_len ref rows Extra"


@pytest.mark.parametrize(
    ("lines", "cells"),
    [
        (
            [
                "et ALL PRIMARY NULL NULL NULL 74",
                "tt ref AssignedPC, ActualPC 15 et.EMPLOYID 52 Using",
                "ClientID, where",
                "ActualPC",
                "do eq_ref PRIMARY PRIMARY 15 tt.ClientID 1",
            ],
            ("tt", "AssignedPC,ClientID,ActualPC", "et.EMPLOYID", "Using where"),
        ),
        (
            [
                "t ref idx_a, idx_a 8 const, 3 Using index",
                "idx_b db.u.id condition",
                "u ALL NULL NULL NULL NULL 10 Using where",
            ],
            ("t", "idx_a,idx_b", "const,db.u.id", "Using index condition"),
        ),
        (
            ["a range PRIMARY, PRIMARY 4 NULL 20 Using", "k1, where", "k2", "b ALL NULL NULL NULL NULL 5"],
            ("a", "PRIMARY,k1,k2", None, "Using where"),
        ),
    ],
    ids=["manual-tt", "two-lists", "three-lines"],
)
def test_cells_a_pdf_wrapped_after_a_comma_are_rejoined(lines, cells):
    plan = parse("\n".join([PDF_HEADER, *lines]))
    row = next(row for row in plan.rows if row["table"] == cells[0])
    assert (row["table"], row["possible_keys"], row["ref"], row["extra"]) == cells
    assert plan.uncertain and not plan.truncated
    assert any("the rest of the cells of the row above" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "tail",
    [
        [],  # the list never goes on
        ["42 is the answer"],  # a number is no index name
    ],
)
def test_a_list_left_open_is_refused(tail):
    with pytest.raises(ParseError):
        parse("\n".join([PDF_HEADER, "tt ref AssignedPC, ActualPC 15 et.EMPLOYID 52 Using where", *tail]))
