"""Tables whatever separates their cells: borderless `|` grids under a `--+--` rule (DataGrip,
DBeaver, psql), batch output a terminal wrapped at its width, a prompt glued to the last row,
Workbench's comma-separated header over tab-separated rows, and indented CSV exports."""

from __future__ import annotations

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.tables.grid import starts_grid
from analyzer.repair.textwidth import expand_tabs
from analyzer.repair.unwrap.pieces import rejoin

NAMES = ["id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows"]
NAMES += ["filtered", "Extra"]
OLD_NAMES = [n for n in NAMES if n not in ("partitions", "filtered")]
ROWS = [
    ["1", "SIMPLE", "orders", None, "ALL", "idx_customer,idx_created", None, None, None, "100000", "10.00",
     "Using where; Using temporary; Using filesort"],
    ["1", "SIMPLE", "customers", None, "eq_ref", "PRIMARY", "PRIMARY", "4", "shop.orders.customer_id", "1", "100.00",
     "Using where"],
    ["2", "DEPENDENT SUBQUERY", "order_items", None, "ref", "idx_order_id,idx_product", "idx_order_id", "4",
     "shop.orders.id", "3", "33.33", "Using index condition; Using where"],
]  # fmt: skip


def _old(row: list[str | None]) -> list[str | None]:
    return [cell for name, cell in zip(NAMES, row, strict=True) if name not in ("partitions", "filtered")]


def _grid(names: list[str], rows: list[list[str | None]], pad: str = "", closed: bool = False) -> str:
    """A borderless grid as DataGrip (`pad=""`) or psql (`pad=" "`) prints it, NULL blank."""
    table = [names, *[[cell or "" for cell in row] for row in rows]]
    widths = [max(len(line[k]) for line in table) for k in range(len(names))]
    sep = pad + "|" + pad
    end = "|" if closed else ""
    lines = [(pad + sep.join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + end).rstrip() for line in table]
    rule = "+".join("-" * (w + 2 * len(pad)) for w in widths) + ("+" if closed else "")
    return "\n".join([lines[0], rule, *lines[1:]])


def _terminal(line: str, width: int) -> list[str]:
    """`line` as a terminal `width` columns wide wraps it (tabs to 8-column stops)."""
    pieces, piece, column = [], "", 0
    for char in line:
        step = (column // 8 + 1) * 8 - column if char == "\t" else 1
        if column + step > width:
            pieces.append(piece)
            piece, column = "", 0
            step = 8 if char == "\t" else 1
        piece += char
        column += step
    return [*pieces, piece]


def _batch(names: list[str], rows: list[list[str | None]]) -> list[str]:
    return ["\t".join(names), *("\t".join(cell or "NULL" for cell in row) for row in rows)]


def _cells(plan, names):
    return [[row[name.lower()] for name in names] for row in plan.rows]


# 1. Borderless grids.


@pytest.mark.parametrize("pad", ["", " "])
@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("old", [False, True])
def test_borderless_grid_reads_with_blank_cells_as_null(pad, count, old):
    names = OLD_NAMES if old else NAMES
    rows = [_old(row) for row in ROWS[:count]] if old else ROWS[:count]
    plan = parse(_grid(names, rows, pad))
    assert plan.format == "table"
    assert _cells(plan, names) == rows
    assert not plan.truncated and not plan.uncertain
    assert sum("as NULL" in notice for notice in plan.notices) == 1


def test_grid_closed_on_the_right_reads():
    plan = parse(_grid(NAMES, ROWS, closed=True))
    assert _cells(plan, NAMES) == ROWS


def test_the_grid_of_the_brief_reads():
    text = (
        "id|select_type|table|partitions|type|possible_keys|key|key_len|ref|rows|filtered|Extra\n"
        "--+-----------+-----+----------+----+-------------+---+-------+---+----+--------+-----------\n"
        " 1|SIMPLE     |o    |          |ALL |             |   |       |   |1000|    10.0|Using where\n"
        " 1|SIMPLE     |c    |          |eq_ref|PRIMARY    |PRIMARY|4  |o.cid|  1|   100.0|\n"
    )
    plan = parse(text)
    assert [r["table"] for r in plan.rows] == ["o", "c"]
    assert [r["type"] for r in plan.rows] == ["ALL", "eq_ref"]
    assert plan.rows[1]["ref"] == "o.cid" and plan.rows[1]["extra"] is None
    assert not plan.truncated
    assert any("line 4, which does not line up" in notice for notice in plan.notices)


def test_psql_row_count_footer_is_read_and_compared():
    text = _grid(NAMES, ROWS[:2], " ")
    assert not parse(text + "\n(2 rows)").truncated
    plan = parse(text + "\n(3 rows)")
    assert plan.truncated and any("footer says 3 rows" in notice for notice in plan.notices)


def test_grid_row_with_a_lost_cell_is_flagged():
    text = _grid(NAMES, ROWS[:2]).split("\n")
    text[3] = text[3].replace("|", "", 1).replace(" ", "", 3)  # a cell boundary lost, misaligned
    plan = parse("\n".join(text))
    assert plan.truncated and plan.affected_rows == [1]


@pytest.mark.parametrize(
    "text",
    [
        "a|b\n--+--\nnot a grid",  # the rule's `+` not under the `|`
        "name | value\n-----+------\nx    | 1",  # a two-column grid that is no EXPLAIN
        "We compared id|select_type and more\n-- + --\nthat was all.",
    ],
)
def test_grids_that_are_no_explain_are_refused(text):
    with pytest.raises(ParseError):
        parse(text)


def test_a_rule_must_sit_under_the_bars():
    assert starts_grid(["a|b|c", "-+-+-"], 0)
    assert not starts_grid(["a|b|c", "--+-+-"], 0)
    assert not starts_grid(["|a|b|", "+-+-+"], 0)  # a boxed table's border


# 2. Batch output wrapped by a terminal at its width.


@pytest.mark.parametrize("width", [80, 96, 104, 112, 120, 128])
@pytest.mark.parametrize("old", [False, True])
def test_batch_output_wrapped_at_the_terminal_width_rejoins_without_spaces(width, old):
    names = OLD_NAMES if old else NAMES
    rows = [_old(row) for row in ROWS] if old else ROWS
    lines = [piece for line in _batch(names, rows) for piece in _terminal(line, width)]
    assert len(lines) > len(rows) + 2  # the test wraps
    plan = parse("\n".join(lines))
    assert plan.format == "tsv"
    assert _cells(plan, names) == rows
    assert not plan.truncated


def test_batch_rows_wrapped_by_hand_keep_their_space():
    lines = _batch(NAMES, ROWS[:1])
    head, _, rest = lines[1].rpartition("Using temporary")
    plan = parse("\n".join([lines[0], head.rstrip(" ") + "\n" + "Using temporary" + rest]))
    assert plan.rows[0]["extra"] == "Using where; Using temporary; Using filesort"


@pytest.mark.parametrize("width", [64, 80, 120])
def test_rejoin_counts_tabs_to_their_stops(width):
    line = _batch(NAMES, ROWS)[1] * 2
    pieces = _terminal(line, width)
    assert len(pieces) > 2 and len(pieces[0]) < width == len(expand_tabs(pieces[0]))
    assert rejoin(pieces, [0] * len(pieces)) == (line, width)


# 3. A prompt glued to the last row.


@pytest.mark.parametrize(
    ("glued", "extra"),
    [
        (" $", "Using where"),
        (" dana@db01:~$", "Using where"),
        (" user@host:~/dir$ ", "Using where"),
        (" mysql>", "Using where"),
        ("[root@db ~]# ", "Using where"),
        ("PS C:\\>", "Using where"),
        (" MariaDB [shop]> ", "Using where"),
    ],
)
def test_a_prompt_glued_to_the_last_row_is_removed(glued, extra):
    lines = _batch(NAMES, ROWS[:2])
    plan = parse("\n".join(lines) + glued)
    assert plan.rows[-1]["extra"] == extra
    assert not plan.truncated
    assert any("glued to the end of line 3" in notice for notice in plan.notices)


@pytest.mark.parametrize("glued", ["mysql>", "user@host:~/dir$ ", "[root@db ~]# "])
def test_a_prompt_glued_to_null_leaves_the_null(glued):
    rows = [ROWS[0], [*ROWS[1][:-1], None]]
    plan = parse("\n".join(_batch(NAMES, rows)) + glued)
    assert plan.rows[-1]["extra"] is None
    assert any("glued" in notice for notice in plan.notices)


def test_text_ending_in_a_dollar_is_kept_outside_batch_output():
    plan = parse(_grid(NAMES, ROWS[:1], " ") + "\nthat costs $")
    assert not any("glued" in notice for notice in plan.notices)


# 4. Header-less GUI copies and Workbench's comma-separated header over tab-separated rows.


@pytest.mark.parametrize("old", [False, True])
@pytest.mark.parametrize("trailing", ["", "\t"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("empty_extra", [False, True])
def test_workbench_header_over_tab_separated_rows(old, trailing, newline, empty_extra):
    names = OLD_NAMES if old else NAMES
    rows = [_old(row) for row in ROWS] if old else [list(row) for row in ROWS]
    if empty_extra:
        rows[-1][-1] = ""
    header = "# " + ", ".join(names)
    body = ["\t".join("NULL" if cell is None else cell for cell in row) + trailing for row in rows]
    plan = parse(newline.join([header, *body]) + newline)
    assert plan.format == "tsv"
    assert [r["table"] for r in plan.rows] == [row[2] for row in rows]
    assert plan.rows[-1]["extra"] == rows[-1][-1]
    assert not plan.truncated and not plan.uncertain


@pytest.mark.parametrize("count", [1, 2, 3])
def test_headerless_gui_rows_read(count):
    lines = _batch(NAMES, ROWS[:count])[1:]
    plan = parse("\n".join(lines))
    assert [r["table"] for r in plan.rows] == [row[2] for row in ROWS[:count]]


def test_headerless_gui_rows_with_a_doubled_tab_are_not_read_silently():
    lines = _batch(NAMES, ROWS[:2])[1:]
    lines[0] = lines[0].replace("\tALL", "\t\tALL")
    try:
        plan = parse("\n".join(lines))
    except ParseError:
        return
    assert plan.truncated or plan.uncertain or [r["type"] for r in plan.rows] == ["ALL", "eq_ref"]


# 5. Indented quoted CSV exports.


@pytest.mark.parametrize("indent", ["  ", "    ", "\t"])
@pytest.mark.parametrize("null", ["NULL", ""])
def test_indented_csv_export_reads(indent, null):
    header = ",".join(f'"{name}"' for name in NAMES)
    body = [",".join(null if cell is None else f'"{cell}"' for cell in row) for row in ROWS]
    plan = parse("\n".join(indent + line for line in [header, *body]))
    assert plan.format == "csv"
    assert [r["table"] for r in plan.rows] == [row[2] for row in ROWS]
    assert [r["type"] for r in plan.rows] == [row[4] for row in ROWS]
    assert not plan.truncated
