"""Vertical (`\\G`) output read by what EXPLAIN prints: rows told by their labels without their
`*** N. row ***` line, comments typed after values, lines cut at a width, and refusals that say
what was there."""

from __future__ import annotations

import pytest

from analyzer import ParseError
from analyzer.readers.dispatch import parse

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
