"""Client tables damaged on their way to a page: a bottom border with text glued after it, a last
cell edited by hand past the right border, a table a page starts in the middle of, Markdown tables
without outer pipes, a table flattened onto one line with a border split by a space, and cells put
one per line each with its right `|`."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse

NAMES = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
ROWS = [
    ["1", "PRIMARY", "orders", "ALL", "idx_customer", "NULL", "NULL", "NULL", "1200", "Using where"],
    ["1", "PRIMARY", "customers", "eq_ref", "PRIMARY", "PRIMARY", "4", "shop.orders.customer_id", "1", ""],
    ["2", "SUBQUERY", "items", "ref", "idx_order", "idx_order", "4", "const", "3", "Using index"],
]
SIMPLE = [["1", "SIMPLE", "t", "range", "idx_a", "idx_a", "5", "NULL", "40", "Using index condition"]]


def _rows(count: int) -> list[list[str]]:
    """`count` rows of a plan (1 or 3) the check stage takes as whole."""
    return SIMPLE if count == 1 else ROWS[:count]


def _box(names: list[str], rows: list[list[str]], indent: str = "") -> list[str]:
    """The client's boxed table, as lines."""
    table = [names, *rows]
    widths = [max(len(line[k]) for line in table) for k in range(len(names))]
    border = indent + "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: list[str]) -> str:
        return indent + "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return [border, line(names), border, *(line(row) for row in rows), border]


def _tables(plan) -> list[str | None]:
    return [row["table"] for row in plan.rows]


# A bottom border with other text glued after it (its line break lost).


@pytest.mark.parametrize("indent", ["", "  "])
@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("glued", ["expr IN (SELECT a FROM t)", "Next we look at", " (see below)", "1 row in set"])
def test_a_bottom_border_with_text_glued_after_it_ends_the_table(indent, count, glued):
    lines = _box(NAMES, _rows(count), indent)
    lines[-1] += glued
    plan = parse("\n".join(["Some prose first.", *lines, "More prose."]))
    assert not plan.truncated, plan.notices
    assert _tables(plan) == [row[2] for row in _rows(count)]
    assert any("glued after the table's border on line" in notice for notice in plan.notices)


def test_a_glued_border_must_have_the_tables_width_and_columns():
    lines = _box(NAMES, ROWS[:2])
    # A border of another width (its `+` signs elsewhere) glued to text is no bottom border of this table.
    lines[-1] = "+----+---+" + "text"
    plan = parse("\n".join(lines))
    assert plan.truncated
    assert not any("glued" in notice for notice in plan.notices)


def test_a_border_whose_dashes_go_on_past_the_width_is_not_parted():
    lines = _box(NAMES, ROWS[:2])
    lines[-1] += "-----+ more"
    plan = parse("\n".join(lines))
    assert plan.truncated
    assert not any("glued" in notice for notice in plan.notices)


# A last cell edited by hand past the right border.


def _overflowing(extra: str, row: int = 0) -> str:
    lines = _box(NAMES, ROWS)
    at = 3 + row
    cut = lines[at].rfind("|", 0, len(lines[at]) - 1)
    lines[at] = lines[at][: cut + 1] + f" {extra} |"
    return "\n".join(lines)


@pytest.mark.parametrize("row", [0, 2])
@pytest.mark.parametrize("extra", ["Backward index scan,Using index", "Using where; Using index; Using filesort"])
def test_a_last_cell_running_past_the_border_is_read_to_the_closing_bar(row, extra):
    plan = parse(_overflowing(extra, row))
    assert not plan.truncated, plan.notices
    assert plan.rows[row]["extra"] == extra
    assert _tables(plan) == [r[2] for r in ROWS]
    assert any("runs past the table's right border" in notice for notice in plan.notices)


def test_an_overflowing_row_without_its_closing_bar_stays_cut():
    text = _overflowing("Backward index scan,Using index")
    lines = text.split("\n")
    lines[3] = lines[3].rstrip("| ")
    plan = parse("\n".join(lines))
    assert plan.truncated
    assert plan.affected_rows == [0]


@pytest.mark.parametrize("extra", ["Using index | note", "a |b"])
def test_an_overflow_holding_another_cell_is_damaged(extra):
    plan = parse(_overflowing(extra))
    assert plan.truncated
    assert plan.affected_rows == [0]


# A table a page starts in the middle of: rows, then the bottom border, no header or top border.

UNION_ROWS = [
    ["1", "PRIMARY", "t1", "ALL", "NULL", "NULL", "NULL", "NULL", "1000", ""],
    ["2", "UNION", "t2", "ALL", "NULL", "NULL", "NULL", "NULL", "1000", ""],
    ["NULL", "UNION RESULT", "<union1,2>", "ALL", "NULL", "NULL", "NULL", "NULL", "NULL", ""],
]


def _tail(rows: list[list[str]], squeeze_null: bool, indent: str = "") -> str:
    lines = _box(NAMES, rows, indent)[3:]
    if squeeze_null:
        lines = [line.replace("| NULL ", "|NULL ", 1) if "UNION RESULT" in line else line for line in lines]
    return "\n".join(lines)


@pytest.mark.parametrize("squeeze_null", [False, True])
@pytest.mark.parametrize("indent", ["", "    "])
@pytest.mark.parametrize("count", [1, 2])
def test_rows_closed_by_a_bottom_border_without_header_are_read_and_truncated(squeeze_null, indent, count):
    rows = UNION_ROWS[3 - count :]
    plan = parse("Page 3\n\n" + _tail(rows, squeeze_null, indent))
    assert plan.truncated
    assert _tables(plan) == [row[2] for row in rows]
    assert plan.rows[-1]["select_type"] == "UNION RESULT" and plan.rows[-1]["id"] is None
    assert any("starts before the paste" in notice for notice in plan.notices)


def test_headerless_rows_inside_both_borders_are_not_said_to_start_mid_table():
    lines = _box(NAMES, UNION_ROWS)
    plan = parse("\n".join([lines[0], *lines[3:]]))
    assert _tables(plan) == [row[2] for row in UNION_ROWS]
    assert not any("starts before the paste" in notice for notice in plan.notices)


def test_headerless_rows_without_borders_are_not_said_to_start_mid_table():
    plan = parse("\n".join(_box(NAMES, UNION_ROWS)[3:-1]))
    assert _tables(plan) == [row[2] for row in UNION_ROWS]
    assert not any("starts before the paste" in notice for notice in plan.notices)


def test_a_null_id_starts_a_row_only_before_a_result_select_type():
    text = "\n".join(_box(NAMES, [["NULL", "SIMPLE", "t", "ALL", "NULL", "NULL", "NULL", "NULL", "5", ""]])[3:])
    with pytest.raises(ParseError):
        parse(text)


# Markdown tables without outer pipes, written with or without spaces around their `|` signs.


def _markdown(rows: list[list[str]], rule: str, spaced: bool, outer: bool = False, drop: int = 0) -> str:
    sep = " | " if spaced else "|"

    def line(cells: list[str]) -> str:
        text = sep.join(cells)
        pad = " " if spaced else ""
        return f"|{pad}{text}{pad}|" if outer else text

    rule_line = "|".join([rule] * len(NAMES))
    return "\n".join(
        [line(NAMES), f"|{rule_line}|" if outer else rule_line, *(line(row[: len(row) - drop]) for row in rows)]
    )


@pytest.mark.parametrize("rule", ["-", "---", ":-", ":-:", "--:"])
@pytest.mark.parametrize("spaced", [False, True])
@pytest.mark.parametrize("count", [1, 3])
def test_a_markdown_table_without_outer_pipes_is_read(rule, spaced, count):
    rows = [[cell or "NULL" for cell in row] for row in _rows(count)]
    plan = parse(_markdown(rows, rule, spaced))
    assert not plan.truncated, plan.notices
    assert _tables(plan) == [row[2] for row in rows]
    assert [row["extra"] or "NULL" for row in plan.rows] == [row[-1] for row in rows]


@pytest.mark.parametrize("outer", [False, True])
@pytest.mark.parametrize("spaced", [False, True])
@pytest.mark.parametrize("drop", [1, 2])
def test_markdown_rows_short_of_cells_are_read_in_order_and_truncated(outer, spaced, drop):
    rows = [[cell or "NULL" for cell in row] for row in ROWS]
    plan = parse(_markdown(rows, "---", spaced, outer, drop))
    assert plan.truncated
    assert _tables(plan) == [row[2] for row in rows]
    assert [row["type"] for row in plan.rows] == [row[3] for row in rows]
    assert all(row["extra"] == "…" for row in plan.rows)
    assert plan.affected_rows == [0, 1, 2]


def test_a_header_of_another_count_than_its_rule_is_no_markdown_table():
    text = "id|select_type|table|type|possible_keys|key|key_len|ref|rows|Extra\n-|-|-\n1|SIMPLE|t|ALL|NULL|NULL|NULL|NULL|5|"
    with pytest.raises(ParseError):
        parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "a|b|c\n-|-|-\n1|2|3",
        "Costs went up|down|sideways\n---|---|---\nnot a plan|at all|here",
    ],
)
def test_markdown_tables_of_other_columns_are_no_explain(text):
    with pytest.raises(ParseError):
        parse(text)


@pytest.mark.parametrize("prose", ["", "The plan:\n"])
def test_a_tab_separated_header_ending_the_paste_is_read_without_rows(prose):
    plan = parse(prose + "\t".join(NAMES))
    assert plan.truncated
    assert plan.rows == []


# A client session flattened onto one line, a border split by a stray space.


def _flattened(rows: list[list[str]], split_at: int, tail: str = "") -> str:
    lines = _box(NAMES, rows)
    border = lines[0]
    split = border[:split_at] + " " + border[split_at:] if split_at else border
    lines = [split if line == border else line for line in lines]
    status = f"{len(rows)} row{'s' if len(rows) > 1 else ''} in set (0.01 sec)"
    return " ".join(["mysql> EXPLAIN SELECT * FROM t;", *lines, status]) + tail


@pytest.mark.parametrize("split_at", [0, 3, -3, -10])
@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("tail", ["", "Copy the code", " Next: indexes."])
def test_a_flattened_table_with_a_space_inside_a_border_is_read(split_at, count, tail):
    rows = _rows(count)
    plan = parse(_flattened(rows, split_at, tail))
    assert not plan.truncated, plan.notices
    assert _tables(plan) == [row[2] for row in rows]
    assert [row["type"] for row in plan.rows] == [row[3] for row in rows]
    assert any("back on its lines" in notice for notice in plan.notices)
    assert any("stray space" in notice for notice in plan.notices) == bool(split_at)


def test_a_border_run_with_two_spaces_is_not_unflattened():
    text = _flattened(ROWS, 0).replace("+----+", "+-- - -+")
    assert text.count("+-- - -+") == 3
    with pytest.raises(ParseError):
        parse(text)


# Tab- or space-separated output cut at a width.

ANALYZE_NAMES = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "r_rows"]
ANALYZE_NAMES += ["filtered", "r_filtered", "Extra"]
MYSQL57_NAMES = ["id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows"]
MYSQL57_NAMES += ["filtered", "Extra"]
OLD_ROW = ["1", "SIMPLE", "order_items_archive", "ALL", "NULL", "NULL", "NULL", "NULL", "2"]


def _cut_after_join_buffer(names: list[str], row: list[str], kind: str, pad: str = "") -> tuple[str, int]:
    """Batch output whose last row's Extra is cut right after `Using join buffer`, and the cut's width."""
    first = ["1", "SIMPLE", "t1", *(["NULL"] if "partitions" in names else []), "ALL"]
    first += ["NULL"] * 4 + ["10"] + ["10.00", "100.00", "100.00"][: len(names) - len(first) - 6] + ["Using where"]
    line = "\t".join([*row, f"Using where{pad}; Using join buffer {kind}"])
    kept = line.index(" (") if "(" in kind else len(line)
    return "\n".join(["\t".join(names), "\t".join(first), line[:kept]]), kept


@pytest.mark.parametrize("pad", ["", "; Using index"])
@pytest.mark.parametrize(
    ("names", "row", "kind"),
    [
        (ANALYZE_NAMES, [*OLD_ROW, "2.00", "100.00", "100.00"], "(flat, BNL join)"),
        (ANALYZE_NAMES, [*OLD_ROW, "2.00", "50.00", "50.00"], "(incremental, BNLH join)"),
        (MYSQL57_NAMES, [*OLD_ROW[:3], "NULL", *OLD_ROW[3:], "100.00"], "(Block Nested Loop)"),
        (MYSQL57_NAMES, [*OLD_ROW[:3], "NULL", *OLD_ROW[3:], "33.33"], "(hash join)"),
    ],
)
def test_a_bare_join_buffer_from_a_server_that_names_its_kind_was_cut(names, row, kind, pad):
    text, _ = _cut_after_join_buffer(names, row, kind, pad)
    plan = parse(text)
    assert plan.truncated
    assert plan.rows[-1]["extra"].endswith("Using join buffer…")


def test_a_bare_join_buffer_from_an_older_server_is_whole():
    names = [*NAMES[:9], "Extra"]
    text = "\n".join(
        [
            "\t".join(names),
            "\t".join(["1", "SIMPLE", "t1", "ALL", "NULL", "NULL", "NULL", "NULL", "10", "Using where"]),
            "\t".join([*OLD_ROW, "Using where; Using join buffer"]),
        ]
    )
    plan = parse(text)
    assert not plan.truncated, plan.notices
    assert plan.rows[-1]["extra"] == "Using where; Using join buffer"


SPACED_ROWS = [
    ["1", "SIMPLE", "t1", "index_merge", "idx_a,idx_b,idx_c", "idx_a,idx_b", "4,4", "NULL", "2508", "Using where"],
    ["1", "SIMPLE", "t2", "ref", "idx_d", "idx_d", "5", "test.t1.d", "12", "Using index"],
]


def _spaced(rows: list[list[str]]) -> list[str]:
    return [" ".join(NAMES), *(" ".join(row) for row in rows)]


def _cut_spaced_row(width: int, keep: str) -> str:
    """The first of `SPACED_ROWS` cut at `width` characters right after `keep` (`25` of the rows'
    2508, or the whole 2508 before Extra): its possible_keys are lengthened to make the cut fall there."""
    row = list(SPACED_ROWS[0])
    keys = row[4]
    for filler in ["", "c", *(",k" + "k" * m for m in range(width))]:
        row[4] = keys.replace("idx_c", "idx_c" + filler) if filler == "c" else keys + filler
        line = " ".join(row)
        if line[:width].endswith(" " + keep):
            return line[:width]
    raise AssertionError(f"no cut at {width} after {keep}")


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize("keep", ["25", "2508"])
def test_a_space_separated_row_cut_at_a_usual_width_before_extra_is_truncated(width, keep):
    plan = parse("\n".join([" ".join(NAMES), _cut_spaced_row(width, keep), " ".join(SPACED_ROWS[1])]))
    assert plan.truncated
    assert plan.rows[0]["rows"] == keep + "…"
    assert plan.rows[0]["extra"] == "…"
    assert any("truncated at that width" in notice for notice in plan.notices)


@pytest.mark.parametrize("width", [90, 111])
def test_rows_cut_at_one_width_shared_by_two_lines_are_truncated(width):
    line = _cut_spaced_row(width, "2508")
    plan = parse("\n".join([" ".join(NAMES), line, line.replace("t1", "t3")]))
    assert plan.truncated
    assert [row["extra"] for row in plan.rows] == ["…", "…"]


@pytest.mark.parametrize("width", [90, 111])
def test_a_lone_widest_row_without_extra_at_an_unusual_width_is_whole(width):
    plan = parse("\n".join([" ".join(NAMES), _cut_spaced_row(width, "2508"), " ".join(SPACED_ROWS[1])]))
    assert not plan.truncated, plan.notices
    assert plan.rows[0]["rows"] == "2508"


# A table whose cells were each put on a line of their own, each with the `|` after it.


def _cells_per_line(rows: list[list[str]], top: bool = True, bottom: bool = True, rule: str = "-" * 60 + "+") -> str:
    lines = [rule] if top else []
    lines += [f"{name} |" for name in NAMES] + [rule]
    for row in rows:
        lines += [f"{cell} |" if cell else "|" for cell in row]
    if bottom:
        lines.append(rule)
    return "\n".join(lines)


@pytest.mark.parametrize("rule", ["-" * 30 + "+", "-----+-----+", "--------"])
@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("top", [False, True])
def test_cells_on_lines_of_their_own_with_their_bars_are_read(rule, count, top):
    rows = _rows(count)
    plan = parse("Before:\n" + _cells_per_line(rows, top=top, rule=rule) + "\nAfter.")
    assert not plan.truncated, plan.notices
    assert _tables(plan) == [row[2] for row in rows]
    assert [row["extra"] or "" for row in plan.rows] == [row[-1] for row in rows]
    assert any("each put on a line of their own" in notice for notice in plan.notices)
    assert not any("other text" in notice and "line 2)" in notice for notice in plan.notices)


def test_cells_per_line_under_a_top_border_without_the_bottom_one_are_truncated():
    plan = parse(_cells_per_line(ROWS, bottom=False))
    assert plan.truncated
    assert _tables(plan) == [row[2] for row in ROWS]


def test_a_cell_line_without_its_bar_ends_the_rows():
    text = _cells_per_line(ROWS).replace("customers |", "customers")
    plan = parse(text)
    assert plan.truncated
    assert _tables(plan) == ["orders"]


def test_a_foreign_cell_list_is_no_explain():
    with pytest.raises(ParseError):
        parse("-----+\nid |\nnot a header |\n")


def test_a_cell_list_of_too_few_explain_names_reads_no_rows():
    plan = parse("id |\nselect_type |\nname |\nvalue |\n-----+\n1 |\nSIMPLE |\nx |\ny |")
    assert plan.truncated
    assert plan.rows == []


# -- a border after every row --------------------------------------------------------------------

_RULE = "+----+-------------+-------+------+---------------+------+---------+------+------+-------------+"
_HEAD = "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra       |"


def _ruled(tables: list[str]) -> str:
    rows = [
        f"|  1 | SIMPLE      | {name:<5} | ALL  | NULL          | NULL | NULL    | NULL | {10 * (i + 1):>4} | Using where |"
        for i, name in enumerate(tables)
    ]
    return "\n".join([_RULE, _HEAD, _RULE, *(f"{row}\n{_RULE}" for row in rows)]) + "\n"


@pytest.mark.parametrize("tables", [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e"]])
def test_a_border_after_every_row_keeps_every_row(tables):
    plan = parse(_ruled(tables))
    assert [row["table"] for row in plan.rows] == tables
    assert not plan.truncated and not plan.uncertain
    assert any("printed after each row" in notice for notice in plan.notices)


def test_a_second_table_right_after_a_bottom_border_is_not_more_rows():
    warnings = "| Level | Code | Message                                                                          |"
    second = _ruled(["x"])
    for after in (warnings, _HEAD):
        text = _ruled(["a", "b"]) + (after + "\n" if after == warnings else second)
        plan = parse(text)
        assert [row["table"] for row in plan.rows][:2] == ["a", "b"]
        assert "x" not in [row["table"] for row in plan.rows[:2]]


# -- borders shorter than the header -------------------------------------------------------------


@pytest.mark.parametrize("border", ["+----+", "+--+--+", "+-------------------+"])
@pytest.mark.parametrize("rows", [1, 3])
def test_borders_shorter_than_the_header_draw_no_frame(border, rows):
    header = "| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |"
    body = [f"| 1 | SIMPLE | t{i} | ref | a | a | 5 | const | 3 | Using index |" for i in range(rows)]
    plan = parse("\n".join([border, header, border, *body, border]) + "\n")
    assert [row["table"] for row in plan.rows] == [f"t{i}" for i in range(rows)]
    assert not plan.truncated
    assert any("shorter than its header" in notice for notice in plan.notices)


def test_a_short_border_over_a_header_that_is_no_explain_is_still_refused():
    with pytest.raises(ParseError) as refused:
        parse("+----+\n| name | value |\n+----+\n| a | 1 |\n+----+\n")
    assert "EXPLAIN" in refused.value.message


# -- a table a page stripped of its spaces --------------------------------------------------------


@pytest.mark.parametrize("kind", ["DEPENDENT SUBQUERY", "UNION"])
def test_a_table_stripped_of_its_spaces_reads_at_every_bar(kind):
    rule = "+----+--------------------+-------+------+---------------+------+---------+------+------+-------------+"
    rows = [
        "|id|select_type|table|type|possible_keys|key|key_len|ref|rows|Extra|",
        "|1|PRIMARY|t1|ALL|NULL|NULL|NULL|NULL|100|Usingwhere|",
        f"|2|{kind.replace(' ', '')}|t2|ref|idx|idx|4|func|1||",
    ]
    plan = parse("\n".join([rule, rows[0], rule, *rows[1:], rule]) + "\n")
    assert [row["table"] for row in plan.rows] == ["t1", "t2"]
    assert [row["select_type"] for row in plan.rows] == ["PRIMARY", kind]
    assert not plan.truncated
