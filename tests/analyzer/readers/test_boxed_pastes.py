"""Boxed tables as clients and authors printed them: a cell wider than its column that pushes the
`|` signs after it right (MySQL 5's client and a UNION RESULT row's NULL id), read at the row's
`|` signs with a notice, and damage that only looks like it flagged or refused."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
ROWS = [
    ["1", "PRIMARY", "a", "ALL", "NULL", "NULL", "NULL", "NULL", "10", ""],
    ["2", "UNION", "b", "ALL", "NULL", "NULL", "NULL", "NULL", "20", ""],
    ["NULL", "UNION RESULT", "<union1,2>", "ALL", "NULL", "NULL", "NULL", "NULL", "NULL", "Using temporary"],
]


def box(columns, rows, widths=None, indent=0, trailing=""):
    """A `mysql -t` table whose columns are `widths` wide (by default as wide as their names and
    values); a cell wider than its column is printed whole, pushing the rest of its row right."""
    widths = widths or [max(len(str(c)) for c in col) for col in zip(columns, *rows, strict=True)]
    pad = " " * indent
    border = pad + "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells, end=""):
        return pad + "|" + "|".join(f" {cell:<{w}} " for cell, w in zip(cells, widths, strict=True)) + "|" + end

    return "\n".join([border, line(columns), border, *(line(r, trailing) for r in rows), border])


def narrow(widths_of, column, width):
    widths = [max(len(c) for c in col) for col in zip(COLUMNS, *widths_of, strict=True)]
    widths[column] = width
    return widths


@pytest.mark.parametrize("indent", [0, 2, 4])
@pytest.mark.parametrize("trailing", ["", " "])
def test_null_id_wider_than_the_id_column_is_read(indent, trailing):
    text = box(COLUMNS, ROWS, narrow(ROWS, 0, 2), indent, trailing)
    assert "| NULL | UNION RESULT |" in text
    plan = parse(text)
    assert not plan.truncated and not plan.uncertain
    assert [r["table"] for r in plan.rows] == ["a", "b", "<union1,2>"]
    assert plan.rows[2]["id"] is None
    assert plan.rows[2]["extra"] == "Using temporary"
    assert any("Read line 6 at its '|' signs" in n for n in plan.notices)


def test_several_shifted_rows_are_named():
    rows = [
        ["1", "PRIMARY", "<derived2>", "system", "NULL", "NULL", "NULL", "NULL", "1", ""],
        ["2", "DERIVED", "a", "ALL", "NULL", "NULL", "NULL", "NULL", "10", ""],
        ["3", "UNION", "b", "ALL", "NULL", "NULL", "NULL", "NULL", "20", ""],
        ["NULL", "UNION RESULT", "<union2,3>", "ALL", "NULL", "NULL", "NULL", "NULL", "NULL", ""],
        ["4", "UNION", "c", "ALL", "NULL", "NULL", "NULL", "NULL", "5", ""],
        ["NULL", "UNION RESULT", "<union1,4>", "ALL", "NULL", "NULL", "NULL", "NULL", "NULL", ""],
    ]
    plan = parse(box(COLUMNS, rows, narrow(rows, 0, 2)))
    assert not plan.truncated
    assert [r["table"] for r in plan.rows] == ["<derived2>", "a", "b", "<union2,3>", "c", "<union1,4>"]
    assert any("Read lines 7 and 9 at their '|' signs" in n for n in plan.notices)


def test_a_wide_cell_in_the_middle_shifts_the_rest():
    rows = [r[:] for r in ROWS]
    rows[0][4] = "PRIMARY,idx_created_at"
    plan = parse(box(COLUMNS, rows, narrow(rows, 4, 13)))
    assert not plan.truncated and not plan.uncertain
    assert plan.rows[0]["possible_keys"] == "PRIMARY,idx_created_at"
    assert plan.rows[0]["rows"] == "10"


def test_a_shift_that_is_not_constant_is_flagged():
    rows = [r[:] for r in ROWS]
    rows[2][2] = "<union1,2,3,4,5>"  # a second wide cell on the same row: two shifts
    widths = narrow(rows, 0, 2)
    widths[2] = 10
    plan = parse(box(COLUMNS, rows, widths))
    assert plan.truncated
    assert not any("at its '|' signs" in n for n in plan.notices)


def test_a_row_with_an_extra_bar_is_flagged():
    text = box(COLUMNS, ROWS, narrow(ROWS, 0, 2)).replace("| Using temporary |", "| Using | temporary |")
    plan = parse(text)
    assert plan.truncated


def test_a_wide_cell_with_extra_padding_is_flagged():
    # The bars are shifted by one amount but the wide cell holds more than its value and two spaces.
    text = box(COLUMNS, ROWS, narrow(ROWS, 0, 2)).replace("| NULL | UNION", "|  NULL  | UNION")
    plan = parse(text)
    assert plan.truncated


def test_prose_with_bars_is_not_read():
    text = "We saw | NULL | UNION RESULT | in the output\nand | more | text | here |\n"
    with pytest.raises(ParseError):
        parse(text)


# -- client NULL markers and mycli's rule under the header ---------------------------------------

NUMERIC = {"id", "rows", "filtered", "key_len"}


def mycli(columns, rows, null="<null>", indent=0):
    """A table as mycli prints it: NULL as `null`, a `|---+---|` rule under the header, numbers right-aligned."""
    rows = [[null if cell == "NULL" else cell for cell in row] for row in rows]
    widths = [max(len(c) for c in col) for col in zip(columns, *rows, strict=True)]
    pad = " " * indent

    def line(cells):
        return (
            pad
            + "|"
            + "|".join(
                f" {cell:>{w}} " if name in NUMERIC else f" {cell:<{w}} "
                for cell, name, w in zip(cells, columns, widths, strict=True)
            )
            + "|"
        )

    border = pad + "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    rule = pad + "|" + "+".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([border, line(columns), rule, *(line(r) for r in rows), border])


@pytest.mark.parametrize("null", ["<null>", "(null)", "(NULL)", "[NULL]", "<NULL>", "[null]"])
@pytest.mark.parametrize("indent", [0, 3])
def test_client_null_markers_read_as_null(null, indent):
    plan = parse(mycli(COLUMNS, ROWS, null, indent))
    assert not plan.truncated and not plan.uncertain
    assert [r["table"] for r in plan.rows] == ["a", "b", "<union1,2>"]
    assert plan.rows[2]["id"] is None and plan.rows[0]["key"] is None and plan.rows[0]["rows"] == "10"
    assert sum(f"Read '{null}' as NULL" in n for n in plan.notices) == 1


def test_mycli_rule_under_the_header_is_no_row():
    rows = [["1", "SIMPLE", "orders", "ref", "idx_customer", "idx_customer", "4", "const", "12", "NULL"]]
    plan = parse(mycli(COLUMNS, rows))
    assert len(plan.rows) == 1 and not plan.truncated and not plan.uncertain
    assert plan.rows[0]["table"] == "orders" and plan.rows[0]["extra"] is None


def test_a_rule_off_the_columns_is_read_as_damage():
    text = mycli(COLUMNS, ROWS).splitlines()
    text[2] = "|" + "-" * (len(text[2]) - 2) + "|"  # no '+' at the columns
    plan = parse("\n".join(text))
    assert plan.truncated or plan.uncertain


def test_mixed_markers_are_not_read_as_null():
    text = mycli(COLUMNS, ROWS, "<null>").replace("| <null> | UNION RESULT", "| (null) | UNION RESULT")
    plan = parse(text)
    assert plan.uncertain  # `<null>` and `(null)` are no id, and neither was taken for NULL
    assert not any("as NULL" in n for n in plan.notices)


def test_a_marker_beside_plain_null_is_not_read_as_null():
    rows = [r[:] for r in ROWS]
    rows[0][7] = "(null)"  # a ref printed as text, where other NULLs are NULL
    plan = parse(box(COLUMNS, rows))
    assert plan.rows[0]["ref"] == "(null)"
    assert not any("as NULL" in n for n in plan.notices)


@pytest.mark.parametrize("table", ["<nullable>", "(null)_archive", "t_<null>"])
def test_names_that_hold_a_marker_stay(table):
    rows = [r[:] for r in ROWS]
    rows[0][2] = table
    plan = parse(mycli(COLUMNS, rows))
    assert plan.rows[0]["table"] == table
    assert plan.rows[0]["key"] is None


# -- columns an author left out as `...` ---------------------------------------------------------


def elided(columns, rows, keep, mark="...", indent=0):
    """A box of `columns` with the columns not in `keep` replaced by one `mark` column per run."""
    names: list[str] = []
    cells: list[list[str]] = [[] for _ in rows]
    for k, name in enumerate(columns):
        if name in keep:
            names.append(name)
            for out, row in zip(cells, rows, strict=True):
                out.append(row[k])
        elif not names or names[-1] != mark:
            names.append(mark)
            for out in cells:
                out.append(mark)
    return box(names, cells, indent=indent)


@pytest.mark.parametrize("mark", ["...", "....", "....."])
@pytest.mark.parametrize(
    "keep",
    [
        ("id", "rows", "Extra"),
        ("rows", "Extra"),
        ("id", "select_type", "table", "type", "Extra"),
        ("id", "table", "key", "rows"),
    ],
)
def test_columns_elided_in_the_header_are_read_truncated(keep, mark):
    plan = parse(elided(COLUMNS, ROWS, keep, mark))
    assert plan.truncated
    shown = [name.lower() for name in keep]
    # Where the header is EXPLAIN's without them, the columns every EXPLAIN has come back as missing.
    assert [name for name in plan.columns if name in shown] == shown
    assert len(plan.rows) == 3
    printed = {name.lower(): ROWS[1][COLUMNS.index(name)] for name in keep}
    assert {name: "NULL" if plan.rows[1][name] is None else plan.rows[1][name] for name in shown} == printed
    assert mark not in plan.columns
    assert any("shows '...' in its header" in n for n in plan.notices)


def aurora(rows, indent=0, mark="..."):
    """A box whose borders show `mark` in place of the columns between id and Extra."""
    extra = max(len(r[-1]) for r in rows)
    pad = " " * indent
    border = f"{pad}+----+{mark}+{'-' * (extra + 2)}+"
    lines = [border, f"{pad}| id |{mark}| {'Extra':<{extra}} |", border]
    lines += [f"{pad}| {r[0]:>2} |{mark}| {r[-1]:<{extra}} |" for r in rows]
    return "\n".join([*lines, border])


@pytest.mark.parametrize("indent", [0, 2])
@pytest.mark.parametrize("mark", ["...", "......"])
def test_borders_with_elided_columns_are_read_truncated(indent, mark):
    rows = [["1", "Using where; Using index"], ["1", "Using where; Using join buffer (hash join)"], ["2", ""]]
    plan = parse(aurora(rows, indent, mark))
    assert plan.truncated
    assert plan.columns == ["id", "extra"]
    assert [r["extra"] for r in plan.rows] == [r[1] for r in rows]
    assert any("between '+' signs" in n and "lines 1, 2, 3" in n for n in plan.notices)


def test_an_elided_row_off_the_gap_is_flagged():
    text = aurora([["1", "Using where"], ["1", "Using index"]]).replace("|  1 |...| Using index", "|  1 | Using index ")
    plan = parse(text)
    assert plan.truncated


@pytest.mark.parametrize(
    "header",
    [
        "| Id | ... | Info |",  # SHOW PROCESSLIST with columns left out
        "| ... | Extra |",  # one EXPLAIN column is not enough
        "| Extra | ... | id |",  # not in a server's order
        "| id | ... | rows | comment |",  # a name EXPLAIN has not
    ],
)
def test_elided_headers_of_other_tables_are_refused(header):
    cells = len(header.split("|")) - 2
    row = "| " + " | ".join(["1"] * cells) + " |"
    with pytest.raises(ParseError, match="not those of EXPLAIN"):
        parse(f"{header}\n{row}\n")


def test_prose_with_dots_and_plus_signs_is_not_read():
    with pytest.raises(ParseError):
        parse("Totals: 1+...+n grows fast.\nSee +...+ above | and so on ...\n")


# -- HTML line breaks at the end of every line ---------------------------------------------------


@pytest.mark.parametrize("tag", ["<br />", "<br>", "<br/>", "<BR>"])
@pytest.mark.parametrize("indent", [0, 2])
def test_line_break_tags_ending_every_line_are_taken_off(tag, indent):
    text = "\n".join(line + tag for line in box(COLUMNS, ROWS, indent=indent).splitlines())
    plan = parse(f"mysql> EXPLAIN SELECT * FROM a UNION SELECT * FROM b;{tag}\n{text}\n3 rows in set (0.01 sec)</p>")
    assert not plan.truncated and not plan.uncertain
    assert [r["table"] for r in plan.rows] == ["a", "b", "<union1,2>"]
    assert any(f"Removed the HTML line break ('{tag}')" in n and "8 lines" in n for n in plan.notices)


def test_a_single_line_break_tag_stays():
    text = box(COLUMNS, ROWS).splitlines()
    text[3] += "<br>"  # one row only: no page put it on every line
    plan = parse("\n".join(text))
    assert not any("HTML line break" in n for n in plan.notices)
    assert plan.truncated  # the row runs past the border: read as damaged


def test_prose_with_line_breaks_is_not_read():
    with pytest.raises(ParseError):
        parse("First line of a post<br />\nsecond line<br />\nthird line<br />\n")
