"""Vertical (`\\G`) output read by what EXPLAIN prints: rows told by their labels without their
`*** N. row ***` line, comments typed after values, lines cut at a width, and refusals that say
what was there."""

from __future__ import annotations

import pytest

from analyzer import ParseError
from analyzer.pipeline import parse

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "Extra"]
ROWS = [
    ["1", "SIMPLE", "o", "ref", "idx_customer,idx_status", "idx_customer", "4", "const", "120", "10.00", "Using where"],
    ["1", "SIMPLE", "c", "eq_ref", "PRIMARY", "PRIMARY", "4", "shop.o.customer_id", "1", "100.00", "NULL"],
    ["1", "SIMPLE", "p", "ALL", "NULL", "NULL", "NULL", "NULL", "5000", "33.33", "Using join buffer (hash join)"],
]


def _fields(row: list[str], layout: str, indent: int = 0, columns: list[str] = COLUMNS) -> list[str]:
    """The `name: value` lines of a row: names right-aligned as the client prints them, or
    left-aligned, or each indented by a different amount ("ragged"), after `indent` spaces."""
    width = max(len(c) for c in columns)
    lines = []
    for k, (name, cell) in enumerate(zip(columns, row, strict=True)):
        if layout == "right":
            label = name.rjust(width)
        elif layout == "left":
            label = name
        else:
            label = " " * (k * 3 % 7) + name
        lines.append(f"{' ' * indent}{label}: {cell}")
    return lines


def _unmarked(rows: list[list[str]], layout: str = "right", indent: int = 0, blank: bool = False) -> str:
    """`\\G` output of `rows` without the `*** N. row ***` lines (an empty line between rows if `blank`)."""
    lines: list[str] = []
    for row in rows:
        if blank and lines:
            lines.append("")
        lines += _fields(row, layout, indent)
    return "\n".join(lines) + "\n"


def _marker(number: int, indent: int = 0) -> str:
    return f"{' ' * indent}{'*' * 27} {number}. row {'*' * 27}"


def _read(rows: list[list[str]]) -> list[dict[str, str | None]]:
    return [{c.lower(): (None if v == "NULL" else v) for c, v in zip(COLUMNS, row, strict=True)} for row in rows]


# Rows without their `*** N. row ***` line.


@pytest.mark.parametrize("layout", ["right", "left", "ragged"])
@pytest.mark.parametrize("indent", [0, 2, 4, 8])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_rows_without_markers_are_read_by_their_labels(layout, indent, count):
    plan = parse(_unmarked(ROWS[:count], layout, indent))
    assert plan.format == "vertical"
    assert plan.rows == _read(ROWS[:count])
    assert not plan.truncated and not plan.uncertain
    assert any("had no '*** N. row ***' line" in notice for notice in plan.notices), plan.notices


@pytest.mark.parametrize("indent", [0, 4])
def test_rows_without_markers_apart_by_empty_lines(indent):
    plan = parse(_unmarked(ROWS, indent=indent, blank=True))
    assert plan.rows == _read(ROWS)
    assert not plan.truncated


@pytest.mark.parametrize(
    "prefix",
    [
        "mysql> EXPLAIN SELECT * FROM o JOIN c ON c.id = o.customer_id\n",
        "EXPLAIN SELECT * FROM o JOIN c ON c.id = o.customer_id\n",
        "mysql> EXPLAIN SELECT * FROM o\n    -> JOIN c ON c.id = o.customer_id\n",
    ],
    ids=["prompt", "bare", "continued"],
)
@pytest.mark.parametrize("indent", [0, 4])
def test_rows_after_a_statement_typed_without_terminator(prefix, indent):
    # The statement ends where the labelled fields start: they are not more of its text.
    plan = parse(prefix + _unmarked(ROWS[:2], indent=indent))
    assert plan.rows == _read(ROWS[:2])
    assert not plan.truncated
    assert plan.query is not None and plan.query.startswith("SELECT * FROM o")
    assert "customer_id" in plan.query and "select_type" not in plan.query


def test_an_indented_paste_whose_first_marker_is_missing():
    lines = _fields(ROWS[0], "right", 4) + [_marker(2, 4)] + _fields(ROWS[1], "right", 4)
    plan = parse("\n".join(lines) + "\n")
    assert plan.rows == _read(ROWS[:2])
    assert not plan.truncated
    assert any("(starting on line 1)" in notice for notice in plan.notices), plan.notices


def test_a_later_marker_missing():
    lines = [_marker(1), *_fields(ROWS[0], "right"), *_fields(ROWS[1], "right"), _marker(3), *_fields(ROWS[2], "right")]
    plan = parse("\n".join(lines) + "\n")
    assert plan.rows == _read(ROWS)
    assert any("(starting on line 13)" in notice for notice in plan.notices), plan.notices


def test_rows_without_markers_with_labels_reordered():
    order = [10, 2, 0, 1, 3, 4, 5, 6, 7, 8, 9]
    lines = [f"{COLUMNS[k]}: {row[k]}" for row in ROWS[:2] for k in order]
    plan = parse("\n".join(lines) + "\n")
    assert plan.rows == [{c.lower(): r[c.lower()] for c in [COLUMNS[k] for k in order]} for r in _read(ROWS[:2])]
    assert not plan.truncated


def test_a_row_without_marker_lacking_labels_is_flagged():
    second = [line for line in _fields(ROWS[1], "left") if not line.startswith(("key_len", "ref"))]
    plan = parse("\n".join(_fields(ROWS[0], "left") + second) + "\n")
    assert len(plan.rows) == 2
    assert plan.rows[1]["key_len"] == "…" and plan.rows[1]["ref"] == "…"
    assert plan.rows[1]["rows"] == "1" and plan.rows[1]["key"] == "PRIMARY"
    assert plan.truncated
    assert any("line 12" in notice and "lack" in notice for notice in plan.notices), plan.notices


def test_mariadb_analyze_rows_without_markers():
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "r_rows"]
    columns += ["filtered", "r_filtered", "Extra"]
    rows = [
        [
            "1",
            "SIMPLE",
            "t1",
            "ALL",
            "NULL",
            "NULL",
            "NULL",
            "NULL",
            "1000",
            "1000.00",
            "100.00",
            "9.90",
            "Using where",
        ],
        ["1", "SIMPLE", "t2", "ref", "a", "a", "5", "test.t1.a", "2", "1.50", "100.00", "100.00", ""],
    ]
    text = "\n".join(line for row in rows for line in _fields(row, "right", 4, columns)) + "\n"
    plan = parse(text)
    assert plan.variant == "MariaDB ANALYZE"
    assert [row["r_rows"] for row in plan.rows] == ["1000.00", "1.50"]
    assert not plan.truncated


@pytest.mark.parametrize(
    "text",
    [
        # Three labels are not a row: a config file, or prose.
        "id: 5\ntype: service\nkey: deploy\nname: api\n",
        "The table: orders\nIts type: ALL\nrows: 1000000, key: none.\n",
        # Labels one to a paragraph.
        "id: 1\n\nSo the table: orders\n\ntype: ALL\n\nrows: 10\n",
    ],
    ids=["config", "prose", "scattered"],
)
def test_text_with_a_few_labels_is_no_plan(text):
    with pytest.raises(ParseError) as error:
        parse(text)
    assert "empty" not in str(error.value)


# Comments typed after values.

COMMENTED = {
    "type": "ref   -- accès indexé par égalité",
    "key": "idx_customer  // the index",
    "rows": "120  # estimated",
    "Extra": "Using where   -- filtered after reading",
}


def _commented(marked: bool, indent: int, comments: dict[str, str]) -> str:
    row = [comments.get(name, cell) for name, cell in zip(COLUMNS, ROWS[0], strict=True)]
    lines = ([_marker(1, indent)] if marked else []) + _fields(row, "right", indent) + _fields(ROWS[1], "right", indent)
    if marked:
        lines.insert(len(COLUMNS) + 1, _marker(2, indent))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
@pytest.mark.parametrize("indent", [0, 4])
def test_comments_after_values_are_removed(marked, indent):
    plan = parse(_commented(marked, indent, COMMENTED))
    assert plan.rows == _read(ROWS[:2])
    assert not plan.truncated
    first = 2 if marked else 1
    lines = ", ".join(str(first + COLUMNS.index(name)) for name in ("type", "key", "rows"))
    expected = f"of 4 cells of the vertical output (lines {lines} and {first + COLUMNS.index('Extra')})"
    assert any(expected in notice for notice in plan.notices), plan.notices


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ("id", "1 # first select"),
        ("select_type", "SIMPLE -- no subquery"),
        ("possible_keys", "idx_customer,idx_status // two"),
        ("ref", "const  -- the literal"),
        ("filtered", "10.00 # %"),
        ("Extra", "Using where; Using join buffer (hash join) // BNL before 8.0.20"),
        ("Extra", "Range checked for each record (index map: 0x1) -- no good index"),
    ],
)
def test_one_comment_removed(name, cell):
    plan = parse(_commented(True, 0, {name: cell}))
    expected = cell.split(" #")[0].split(" --")[0].split(" //")[0].rstrip()
    assert plan.rows[0][name.lower()] == expected
    assert any("Removed the comment typed after the value of 1 cell" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        # No marker after a space, or none at all: the value is as printed.
        ("ref", "func"),
        ("key", "#hash#$hj"),
        ("key_len", "--"),
        ("Extra", "Using where--checked"),
        ("Extra", "Using where; Using index"),
        # An Extra item no server prints: the text after it may be part of it.
        ("Extra", "Using where with pushed condition (`t`.`a` = '# 1')"),
        ("Extra", "Table function: json_table # x"),
    ],
)
def test_values_without_a_comment_are_kept(name, cell):
    plan = parse(_commented(True, 0, {name: cell}))
    assert plan.rows[0][name.lower()] == cell
    assert not any("comment" in notice for notice in plan.notices), plan.notices


def test_a_comment_in_a_warning_message_is_kept():
    text = _commented(True, 0, {}) + (
        "*************************** 1. row ***************************\n"
        "  Level: Note\n"
        "   Code: 1003\n"
        "Message: /* select#1 */ select 1 AS `a` -- b # c\n"
    )
    plan = parse(text)
    assert plan.warnings == ["/* select#1 */ select 1 AS `a` -- b # c"]
    assert not any("comment" in notice for notice in plan.notices), plan.notices


def test_a_value_followed_by_a_comment_is_not_cut_with_its_line():
    # Lines cut at one width (row 2's Extra stops inside an item): the values followed by a
    # comment end before it, whole.
    keys = "idx_customer,idx_status  # both are (indexed by the customer"
    extra = "Using where  -- (filtered after reading the rows of the index"[: len(keys)]
    text = _commented(True, 0, {"Extra": extra, "possible_keys": keys})
    cut = "Using index condition; Using where; Using temporary; Using filesort"[: len(keys)]
    text = text.replace("        Extra: NULL", f"        Extra: {cut}")
    assert len({len(line) for line in text.splitlines() if " -- " in line or " # " in line or cut in line}) == 1
    plan = parse(text)
    assert plan.truncated
    assert plan.rows[0] == _read(ROWS[:1])[0]
    assert plan.rows[1]["extra"] == cut + "…"


# Lines cut at a width by a pager or a terminal (`less -S`).

LONG = [
    [
        "1", "SIMPLE", "orders", "range",
        "idx_customer_created,idx_status_created,idx_created_at,idx_customer_status_created_at_and_more",
        "idx_customer_status_created_at_and_more", "12", "NULL", "48213", "33.33",
        "Using index condition; Using where; Using temporary; Using filesort; Backward index scan",
    ],
    [
        "1", "SIMPLE", "customers", "eq_ref",
        "PRIMARY,idx_country_segment_created_at_long_name_here,idx_email_address_unique_name_long",
        "PRIMARY", "4", "shop.orders.customer_id", "1", "100.00",
        "Using where; Using join buffer (hash join); Not exists; Using index for group-by (scanning)",
    ],
]  # fmt: skip


def _cut(rows: list[list[str]], width: int, marked: bool = True, indent: int = 0) -> str:
    """`\\G` output of `rows` with every line cut at `width` columns, trailing blanks dropped."""
    lines: list[str] = []
    for number, row in enumerate(rows, 1):
        lines += ([_marker(number, indent)] if marked else []) + _fields(row, "right", indent)
    return "\n".join(line[:width].rstrip() for line in lines) + "\n"


@pytest.mark.parametrize("width", [80, 86, 90, 97, 100, 104])
@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
def test_lines_cut_at_a_width_are_flagged_naming_rows_and_lines(width, marked):
    plan = parse(_cut(LONG, width, marked))
    assert plan.truncated
    notice = next(n for n in plan.notices if "truncated at" in n)
    assert f"truncated at {width} columns" in notice
    assert "rows 1 and 2, lines " in notice
    assert any(cell.endswith("…") for row in plan.rows for cell in (row["extra"], row["possible_keys"]))


def _ending_at(width: int, head: str, tail: str, filler: str) -> str:
    """`head`, then `filler` repeated and cut, then `tail`: a value whose line (after the client's
    15 columns of `name: `) is `width` columns wide."""
    middle = width - 15 - len(head) - len(tail)
    return head + (filler * 40)[:middle] + tail


@pytest.mark.parametrize("width", [80, 100, 120])
def test_a_cut_on_a_space_one_column_short_is_flagged(width):
    # The cut falls on the space after `Using where;`: the line ends one column short of the
    # width, which another value's line reaches.
    row = [*ROWS[0]]
    row[10] = _ending_at(width - 1, "Using union(", "); Using where;", "idx_a,") + " Using index condition; Using MRR"
    row[4] = _ending_at(width + 5, "idx_a,", "", "idx_customer_")
    text = _cut([row, ROWS[1]], width)
    assert next(line for line in text.splitlines() if "Extra" in line).endswith("; Using where;")
    assert sum(len(line) == width - 1 for line in text.splitlines()) == 1
    plan = parse(text)
    assert plan.truncated
    assert plan.rows[0]["extra"].endswith("Using where;…")


@pytest.mark.parametrize("width", [95, 100, 111])
def test_possible_keys_cut_inside_the_key_it_names(width):
    # The key's name, printed in full on its own line, is cut short at the end of possible_keys.
    row = [*ROWS[0]]
    row[5] = "idx_" + "customer_" * (width // 9 - 4)
    row[4] = _ending_at(width + 20, "", "," + row[5], "idx_country,")
    text = _cut([row], width)
    assert row[5] in text
    plan = parse(text)
    assert plan.truncated
    assert "inside a name its row prints in full" in " ".join(plan.notices)
    assert plan.rows[0]["possible_keys"].endswith("…") and plan.rows[0]["key"] == row[5]


@pytest.mark.parametrize("width", [80, 100, 120, 132, 160])
def test_several_values_at_a_usual_width_one_of_which_may_go_on(width):
    # `Using index` may be the start of `Using index condition`; possible_keys lacks the key.
    first, second = [*ROWS[0]], [*ROWS[1]]
    first[10] = _ending_at(width, "Using where; ", "; Using index", "Using MRR; ")
    second[4] = _ending_at(width, "PRIMARY,", "", "idx_email,")
    second[5] = "idx_country"
    text = _cut([first, second], width)
    assert sum(len(line) == width for line in text.splitlines()) == 2
    plan = parse(text)
    assert plan.truncated
    assert "several values end there, a usual terminal width" in " ".join(plan.notices)


@pytest.mark.parametrize("width", [80, 100, 97])
@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
def test_whole_values_ending_at_one_width_are_not_flagged(width, marked):
    # The longest lines of a complete plan happen to end at one width: their values are whole.
    first, second = [*ROWS[0]], [*ROWS[1]]
    first[10] = _ending_at(width, "Using where; ", "; Using filesort", "Using MRR; ")
    second[4] = _ending_at(width, "PRIMARY,idx_country,", "", "idx_email,")
    second[5] = "idx_country"
    text = _cut([first, second], 400, marked)
    assert sum(len(line) == width for line in text.splitlines()) == 2
    plan = parse(text)
    assert not plan.truncated, plan.notices
    assert plan.rows[0]["extra"] == first[10] and plan.rows[1]["possible_keys"] == second[4]


@pytest.mark.parametrize("width", [97, 103])
def test_a_value_that_may_go_on_at_an_unusual_width_is_not_flagged(width):
    # `Using index` ends one of the longest lines, but at a width no terminal is usually set to.
    first, second = [*ROWS[0]], [*ROWS[1]]
    first[10] = _ending_at(width, "Using where; ", "; Using index", "Using MRR; ")
    second[4] = _ending_at(width, "PRIMARY,idx_country,", "", "idx_email,")
    second[5] = "idx_country"
    plan = parse(_cut([first, second], 400))
    assert not plan.truncated, plan.notices


# Refusals when nothing is left to read.


@pytest.mark.parametrize("text", ["", " ", "\n\n", "  \t\n   \n"])
def test_an_empty_paste_is_said_to_be_empty(text):
    with pytest.raises(ParseError, match="^The paste is empty: "):
        parse(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("mysql> SHOW TABLES;\n", "client prompts with the statements typed there are removed (line 1)"),
        (
            "mysql> EXPLAIN SELECT * FROM t\n    -> WHERE a = 1;\nEmpty set (0.00 sec)\n",
            "client prompts with the statements typed there and client status lines ('N rows in set') are removed "
            "(lines 1, 2 and 3): the paste holds an EXPLAIN statement but not its output",
        ),
        ("EXPLAIN SELECT * FROM t WHERE a = 1;\n", "statements typed without a prompt are removed (line 1)"),
        ("```sql\n\n```\n", "code fences are removed (lines 1 and 3): the paste holds no EXPLAIN output"),
        ("\u200b\u200b\n", "cleaned up (Removed 2 invisible characters"),
        ("\x1b[0m\n", "cleaned up (Removed 1 terminal colour code"),
    ],
    ids=["prompt", "statement-and-status", "bare-statement", "fences", "invisible", "colour"],
)
def test_a_paste_the_cleanup_empties_says_what_was_removed(text, said):
    with pytest.raises(ParseError) as error:
        parse(text)
    message = str(error.value)
    assert message.startswith("Nothing is left to read once the ")
    assert said in message
    assert "empty" not in message


@pytest.mark.parametrize("indent", [0, 4])
def test_unmarked_rows_after_an_unterminated_prompt_are_never_called_empty(indent):
    # The statement used to run on over the fields, and the paste was called empty.
    text = "mysql> EXPLAIN SELECT * FROM o\n" + _unmarked(ROWS[:1], indent=indent)
    plan = parse(text)
    assert plan.rows == _read(ROWS[:1])


@pytest.mark.parametrize("bullet", ["- ", "* "])
def test_rows_as_list_items(bullet):
    # A YAML list of rows (`- id: 1` then the other fields indented), or Markdown bullets.
    lines = []
    for row in ROWS:
        fields = _fields(row, "left")
        lines += [bullet + fields[0]] + ["  " + line for line in fields[1:]]
    plan = parse("\n".join(lines) + "\n")
    assert plan.rows == _read(ROWS)
    assert not plan.truncated


def test_every_field_a_bullet():
    plan = parse("\n".join("- " + line for row in ROWS[:2] for line in _fields(row, "left")) + "\n")
    assert plan.rows == _read(ROWS[:2])


# -- an Extra item ending with a name, cut at a usual width -------------------------------------


def _engine_row(extra: str) -> str:
    fields = [("id", "1"), ("select_type", "SIMPLE"), ("table", "orders"), ("type", "ALL")]
    fields += [("possible_keys", "NULL"), ("key", "NULL"), ("key_len", "NULL"), ("ref", "NULL")]
    fields += [("rows", "1488248"), ("Extra", extra)]
    return "*************************** 1. row ***************************\n" + "".join(
        f"{name:>13}: {value}\n" for name, value in fields
    )


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize("head", ["Using where; Using secondary engine ", "Using pushed condition "])
def test_an_open_ended_extra_item_ending_at_a_usual_width_is_flagged(width, head):
    extra = head + "x" * (width - 15 - len(head))
    text = _engine_row(extra)
    assert max(len(line) for line in text.splitlines()) == width
    assert parse(text).truncated


@pytest.mark.parametrize("width", [79, 83, 101])
def test_an_open_ended_extra_item_ending_elsewhere_is_whole(width):
    extra = "Using where; Using secondary engine " + "x" * (width - 15 - 36)
    plan = parse(_engine_row(extra))
    assert not plan.truncated, plan.notices
    assert plan.rows[0]["extra"] == extra
