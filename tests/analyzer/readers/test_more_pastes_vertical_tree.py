"""More pastes of vertical (`\\G`) and tree output: row numbers that show rows missing, a paste
that starts inside a row, and tree plans with a step label before each arrow."""

from __future__ import annotations

import pytest

from analyzer import ParseError
from analyzer.pipeline import parse

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
TABLES = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]


def _row(number: int, table: str, width: int = 13) -> list[str]:
    """The lines of `\\G` row `number` reading `table`, names right-aligned to `width`."""
    cells = ["1", "SIMPLE", table, "ALL", "NULL", "NULL", "NULL", "NULL", str(number * 10), "Using where"]
    marker = f"{'*' * 27} {number}. row {'*' * 27}"
    return [marker] + [f"{name.rjust(width)}: {cell}" for name, cell in zip(COLUMNS, cells, strict=True)]


def _vertical(numbers: list[int], width: int = 13, footer: bool = True) -> str:
    lines = [line for k, number in enumerate(numbers) for line in _row(number, TABLES[k], width)]
    if footer:
        lines.append(f"{len(numbers)} rows in set (0.00 sec)")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("numbers", [[1], [1, 2], [1, 2, 3], list(range(1, 12))])
@pytest.mark.parametrize("width", [13, 20])
def test_rows_numbered_one_after_another_are_complete(numbers, width):
    plan = parse(_vertical(numbers, width))
    assert not plan.truncated, plan.notices
    assert [row["table"] for row in plan.rows] == TABLES[: len(numbers)]


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        ([2, 3], "lacks row 1:"),
        ([3, 4], "lacks rows 1 and 2:"),
        ([6, 7, 8], "lacks rows 1 to 5:"),
        ([1, 2, 4], "lacks row 3:"),
        ([1, 3, 6], "lacks rows 2, 4 and 5:"),
        ([1, 2, 3, 9], "lacks rows 4 to 8:"),
        ([4, 5, 9], "lacks rows 1 to 3 and 6 to 8:"),
    ],
)
@pytest.mark.parametrize("footer", [True, False])
def test_rows_missing_from_the_numbers_make_the_reading_truncated(numbers, said, footer):
    plan = parse(_vertical(numbers, footer=footer))
    assert plan.truncated
    notice = next(n for n in plan.notices if "lacks row" in n)
    assert said in notice
    assert "line" in notice.split(":", 1)[1]
    assert [row["table"] for row in plan.rows] == TABLES[: len(numbers)]


def test_the_notice_names_the_marker_lines_that_skip():
    text = _vertical([1, 3])
    plan = parse(text)
    line = text.split("\n").index(_row(3, "b")[0]) + 1
    assert any("lacks row 2:" in n and f"(line {line})" in n for n in plan.notices), plan.notices


def test_a_row_shown_again_is_not_a_gap():
    lines = _row(1, "a") + _row(2, "b") + _row(2, "b") + _row(3, "c")
    plan = parse("\n".join(lines) + "\n")
    assert not any("lacks row" in n for n in plan.notices), plan.notices


def test_two_result_sets_each_numbered_from_one_are_not_a_gap():
    first = "\n".join(_row(1, "a") + _row(2, "b")) + "\n2 rows in set (0.00 sec)\n\n"
    second = "\n".join(_row(1, "c")) + "\n1 row in set (0.00 sec)\n"
    plan = parse(first + "mysql> EXPLAIN SELECT * FROM c\\G\n" + second)
    assert not plan.truncated, plan.notices


@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("indent", [0, 4])
@pytest.mark.parametrize(
    ("tail", "first", "said"),
    [
        (["rows: 3", "Extra:"], 3, "row 2, and row 1 before it is missing"),
        (["         rows: 20", "        Extra: Using where"], 2, "row 1."),
        (
            ["key_len: 4", "ref: const", "rows: 1", "Extra: Using index"],
            5,
            "row 4, and rows 1 to 3 before it are missing",
        ),
    ],
)
def test_a_paste_that_starts_inside_a_row_reads_its_end_as_a_partial_row(tail, first, said, blank, indent):
    lead = [" " * indent + line for line in tail]
    if blank:
        lead = [piece for line in lead for piece in (line, "")]
    text = "\n".join(["Here is the plan:", "", *lead, *_row(first, "c")]) + "\n"
    plan = parse(text)
    assert plan.truncated
    assert [row["table"] for row in plan.rows] == ["\u2026", "c"]
    assert plan.rows[0]["rows"] == tail[-2].split(":")[1].strip()
    assert plan.columns[:3] == ["id", "select_type", "table"]
    notice = next(n for n in plan.notices if "starts inside a row" in n)
    assert said in notice and "line 3" in notice.replace("lines 3", "line 3")
    assert [span.role for span in plan.lines if span.first >= 3] == ["plan"]


@pytest.mark.parametrize(
    "lead",
    [
        ["id: 7", "rows: 3"],  # an `id` starts a row, it does not end one
        ["rows: 3", "That was all I could copy."],  # prose after it
        ["Note: this is slow"],  # not an EXPLAIN column
    ],
)
def test_other_lines_before_a_later_row_are_not_its_end(lead):
    plan = parse("\n".join([*lead, "", *_row(2, "c")]) + "\n")
    assert plan.truncated  # row 1 is missing
    assert [row["table"] for row in plan.rows] == ["c"]
    assert not any("starts inside a row" in n for n in plan.notices)


def test_fields_before_the_first_row_are_not_the_end_of_a_row():
    plan = parse("\n".join(["rows: 3", "Extra: Using where", "", *_row(1, "a"), *_row(2, "b")]) + "\n")
    assert not plan.truncated, plan.notices
    assert [row["table"] for row in plan.rows] == ["a", "b"]


def test_rows_without_markers_then_numbered_rows_go_on_without_a_gap():
    unmarked = _row(1, "a")[1:]
    plan = parse("\n".join([*unmarked, *_row(2, "b")]) + "\n")
    assert not any("lacks row" in n for n in plan.notices), plan.notices
    assert [row["table"] for row in plan.rows] == ["a", "b"]


def test_prose_is_still_refused():
    with pytest.raises(ParseError):
        parse("rows: 3\nExtra: none\nThat was all.\n")


@pytest.mark.parametrize("number", ["10", "123456", "99999999999", "1" * 40, "9" * 5000])
def test_a_large_row_number_is_read_quickly(number):
    lines = _row(1, "a")
    lines += [f"{'*' * 27} {number}. row {'*' * 27}", *_row(2, "b")[1:]]
    plan = parse("\n".join(lines) + "\n")
    assert [row["table"] for row in plan.rows] == ["a", "b"]
    assert plan.truncated == (len(number) <= 12)


TREE = [
    (0, "Sort: c.name  (cost=40.1 rows=100) (actual time=2.1..2.2 rows=100 loops=1)"),
    (1, "Nested loop inner join  (cost=30.5 rows=100) (actual time=0.2..1.9 rows=100 loops=1)"),
    (2, "Table scan on c  (cost=10.25 rows=100) (actual time=0.1..0.5 rows=100 loops=1)"),
    (
        2,
        "Index lookup on o using idx_customer (customer_id=c.id)  (cost=0.25 rows=1) (actual time=0.01..0.01 rows=1 loops=100)",
    ),
]
STEP_LABELS = {
    "letters": ["A", "B", "C", "D"],
    "digits": ["1", "2", "3", "4"],
    "tens": ["10", "20", "30", "40"],
    "dotted": ["1.", "2.", "3.", "4."],
    "parenthesised": ["(a)", "(b)", "(c)", "(d)"],
    "closing": ["a)", "b)", "c)", "d)"],
    "bracketed": ["[1]", "[2]", "[3]", "[4]"],
    "circled": ["\u2460", "\u2461", "\u2462", "\u2463"],
}


def _labelled_tree(labels: list[str | None], step: int = 4, wrap: bool = False, lead: str = "") -> str:
    """The tree plan with `labels` written before its arrows (None: no label on that line), the
    labels padded to one width; with `wrap`, each node's measured figures on a line of their own."""
    width = max(len(label or "") for label in labels)
    lines = []
    for (depth, text), label in zip(TREE, labels, strict=True):
        gutter = (label or "").ljust(width)
        body = text
        if wrap:
            body, measured = text.split(" (actual", 1)
            lines.append(f"{lead}{gutter} {' ' * (depth * step)}-> {body}")
            lines.append(f"{lead}{' ' * (width + depth * step + 12)}(actual{measured}")
        else:
            lines.append(f"{lead}{gutter} {' ' * (depth * step)}-> {body}")
    return "\n".join(lines) + "\n"


def _shape(plan) -> list[tuple[str, int]]:
    """Each node's kind with its depth."""
    found: list[tuple[str, int]] = []
    stack = [(node, 0) for node in reversed(plan.plan)]
    while stack:
        node, depth = stack.pop()
        found.append((node["kind"], depth))
        stack += [(child, depth + 1) for child in reversed(node["children"])]
    return found


@pytest.mark.parametrize("style", sorted(STEP_LABELS))
@pytest.mark.parametrize("step", [2, 4, 6])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("lead", ["", "  "])
def test_step_labels_before_the_arrows_are_a_gutter(style, step, wrap, lead):
    plan = parse(_labelled_tree(STEP_LABELS[style], step, wrap, lead))
    assert plan.format == "tree"
    assert not plan.truncated and not plan.uncertain, plan.notices
    assert plan.tables == ["c", "o"]
    assert _shape(plan) == _shape(parse(_labelled_tree([None] * 4, step, wrap)))
    assert [depth for _, depth in _shape(plan)] == [0, 1, 2, 2]
    # (Labels numbered one after another are taken off as line numbers.)
    assert any("step labels" in notice or "line numbers" in notice for notice in plan.notices)


def test_labels_on_some_arrows_only_keep_the_nesting():
    plan = parse(_labelled_tree(["A", None, "B", None]))
    assert [depth for _, depth in _shape(plan)] == [0, 1, 2, 2]
    assert not plan.uncertain, plan.notices


def test_a_tree_without_labels_is_read_as_before():
    plan = parse(_labelled_tree([None] * 4))
    assert not any("step labels" in notice for notice in plan.notices)
    assert [depth for _, depth in _shape(plan)] == [0, 1, 2, 2]


@pytest.mark.parametrize(
    "text",
    [
        "A -> B means that A depends on B.\nB -> C means that B depends on C.\n",
        "I -> you: see the plan\nYou -> me: which plan?\nI -> you: never mind\n",
        "1. -> open the file\n2. -> read the plan\n3. -> close it\n",
        "Steps:\nA -> Table scan is slow here\nB -> Index lookup is fast\n",
    ],
)
def test_prose_with_arrows_after_a_word_is_no_plan(text):
    with pytest.raises(ParseError):
        parse(text)


@pytest.mark.parametrize(
    "labels",
    [
        ["A", "A", "B", "B"],  # the same label twice: no gutter of steps
    ],
)
def test_repeated_labels_are_not_taken_off(labels):
    try:
        plan = parse(_labelled_tree(labels))
    except ParseError:
        return
    assert not any("step labels" in notice for notice in plan.notices)


def test_labels_at_different_columns_are_not_taken_off():
    text = "A -> Table scan on t  (cost=1.0 rows=10)\n    B -> Filter: (t.a > 1)  (cost=1.0 rows=3)\n"
    try:
        plan = parse(text)
    except ParseError:
        return
    assert not any("step labels" in notice for notice in plan.notices)


VAR_EXPORT_ROWS = [
    {"id": 1, "select_type": "SIMPLE", "table": "o", "type": "ref", "possible_keys": "idx_c", "key": "idx_c",
     "key_len": "4", "ref": "const", "rows": 12, "Extra": "Using where"},
    {"id": 1, "select_type": "SIMPLE", "table": "c", "type": "eq_ref", "possible_keys": "PRIMARY", "key": "PRIMARY",
     "key_len": "4", "ref": "shop.o.c_id", "rows": 1, "Extra": None},
]  # fmt: skip


def _exported(value: object) -> str:
    """A scalar as var_export prints it."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _var_export(rows: list[dict], container: str = "array", lead: str = "", quote_numbers: bool = False) -> str:
    """`rows` as var_export prints them (each row an array, a `(object) array(` or a
    `stdClass::__set_state(array(`), after `lead` (`Explain : `)."""
    opening, closing = {
        "array": ("array (", "),"),
        "object": ("(object) array(", "),"),
        "set_state": ("\\stdClass::__set_state(array(", ")),"),
    }[container]
    lines = [f"{lead}array ("]
    for k, row in enumerate(rows):
        lines += [f"  {k} => ", f"  {opening}"]
        for key, cell in row.items():
            shown = _exported(str(cell) if quote_numbers and isinstance(cell, int) else cell)
            lines.append(f"    '{key}' => {shown},")
        lines.append(f"  {closing}")
    lines.append(")")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("container", ["array", "object", "set_state"])
@pytest.mark.parametrize("lead", ["", "Explain : ", "$rows = "])
@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("quote_numbers", [False, True])
def test_var_export_dumps_are_read(container, lead, count, quote_numbers):
    text = "SQL : SELECT * FROM o JOIN c ON c.id = o.c_id\n" + _var_export(
        VAR_EXPORT_ROWS[:count], container, lead, quote_numbers
    )
    plan = parse(text + "UsingTime : 1 ms\n")
    assert not plan.truncated, plan.notices
    assert [row["table"] for row in plan.rows] == ["o", "c"][:count]
    assert [row["type"] for row in plan.rows] == ["ref", "eq_ref"][:count]
    assert plan.rows[0]["rows"] == "12"
    assert any("var_export" in notice for notice in plan.notices)


def test_var_export_escapes_are_undone():
    row = dict(VAR_EXPORT_ROWS[0], Extra="Using where; Using index condition", ref="it's\\here")
    plan = parse(_var_export([row]))
    assert plan.rows[0]["ref"] == "it's\\here"


def test_a_var_export_dump_cut_short_is_truncated():
    text = _var_export(VAR_EXPORT_ROWS)
    lines = text.split("\n")
    plan = parse("\n".join(lines[: lines.index("  1 => ") + 6]) + "\n")
    assert plan.truncated


@pytest.mark.parametrize(
    "text",
    [
        "$config = array (\n  'host' => 'localhost',\n  'port' => 3306,\n)\n",
        "array (\n  'select_type' => 'SIMPLE',\n  'comment' => 'not a plan',\n)\n",
    ],
)
def test_other_var_export_dumps_are_no_plan(text):
    with pytest.raises(ParseError):
        parse(text)


def _escaped_vertical(mark: str = "", rows: int = 1) -> str:
    """`\\G` output of `rows` rows as one JSON string, its line breaks escaped, each line after `mark`."""
    lines = [line for k in range(rows) for line in _row(k + 1, TABLES[k])]
    return "\\n".join(mark + line for line in lines) + "\\n"


@pytest.mark.parametrize("mark", ["", "# ", "#"])
@pytest.mark.parametrize("rows", [1, 3])
def test_a_vertical_plan_logged_as_a_json_string_is_read(mark, rows):
    text = '{\n  "query": "SELECT * FROM a",\n  "explain": "' + _escaped_vertical(mark, rows) + '",\n  "ts": 1\n}\n'
    plan = parse(text)
    assert plan.format == "vertical"
    assert not plan.truncated, plan.notices
    assert [row["table"] for row in plan.rows] == TABLES[:rows]


@pytest.mark.parametrize("breaks", [[1], [3], [2, 7], [1, 2, 3]])
def test_a_logged_string_broken_by_real_line_breaks_is_followed(breaks):
    pieces = _escaped_vertical(rows=1).split("\\n")
    escaped = "".join(piece + ("\n" if k in breaks else "\\n") for k, piece in enumerate(pieces[:-1]))
    text = '{\n  "sql": "select * from a",\n  "explain": "' + escaped.removesuffix("\\n") + '"\n}\n'
    plan = parse(text)
    assert not plan.truncated, plan.notices
    assert [row["table"] for row in plan.rows] == ["a"]
    assert plan.rows[0]["extra"] == "Using where"


@pytest.mark.parametrize(
    "text",
    [
        '{"message": "# first note\\n# second note\\n# third note"}\n',
        '{"message": "line one\\nline two\\nline three\n and more"}\n',
    ],
)
def test_logged_strings_of_other_text_are_no_plan(text):
    with pytest.raises(ParseError):
        parse(text)
