"""Property tests: whatever the text, the parser answers with a well-formed Plan or a ParseError.

Random text and real pastes mutated at random (characters and lines deleted, duplicated,
inserted, lines cut short) must never raise anything else, and never take long: the
generous hypothesis deadline catches super-linear behaviour on the larger inputs. Pastes built
to be slow (a head, then a few lines repeated) are read or refused, and twice as many copies
of their lines cost at most about twice the work, counted in function calls (the same on every
run, unlike a clock on a shared machine); those that once took minutes are read well within the
time budget of `analyzer.deadline`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from analyzer.model import FORMATS, LINE_ROLES, ParseError
from analyzer.pipeline import parse
from analyzer.repair.unwrap.boxed import UNWRAP_LINES
from tests.analyzer.readers.test_formats import CJK_ROWS, CLASSIC, MYSQL8, MYSQL8_ROWS, ROWID_FILTER_ROWS
from tests.analyzer.repair import mangle

SAMPLES = Path(__file__).parent.parent / "fixtures" / "samples"
PASTES = [json.loads(p.read_text(encoding="utf-8"))["input"] for p in sorted(SAMPLES.glob("*.json"))] + [
    mangle.box(CLASSIC, ROWID_FILTER_ROWS),
    mangle.box(MYSQL8, MYSQL8_ROWS),
    mangle.vertical(CLASSIC, CJK_ROWS),
    mangle.batch(MYSQL8, MYSQL8_ROWS),
    mangle.expand_tabs(mangle.batch(CLASSIC, CJK_ROWS)),
    # Tables without borders, tabs or header (readers.shapes.columns).
    "table type   possible_keys key     key_len ref         rows    Extra\n"
    "tt    ALL    AssignedPC,   NULL    NULL    NULL        3872    Using\n"
    "             ClientID,                                         where\n"
    "do    ALL    PRIMARY       NULL    NULL    NULL        2135\n"
    "      Range checked for each record (index map: 0x1)\n",
    "id select_type table type possible_keys key key_len ref rows Extra\n"
    "1 PRIMARY o ALL NULL NULL NULL NULL 1200 Using where\n"
    "2 DEPENDENT SUBQUERY i ref idx_order idx_order 4 func 3 Using index\n",
    "1\tSIMPLE\tt\tNULL\tALL\tNULL\tNULL\tNULL\tNULL\t100\t100.00\tUsing where\n"
    "1\tSIMPLE\tu\tNULL\teq_ref\tPRIMARY\tPRIMARY\t4\tdb.t.a\t1\t100.00\t\n",
]
# Characters that matter to the readers, so random text hits their code paths.
ALPHABET = st.sampled_from(
    list("+-|*> \t\n\r:.;0123456789NULabcdexyz_\u00a0┌─┬│├┼┤└┴┘員\\{}[]\"'#G`") + ["\r\n", "row"]
)
SETTINGS = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


def check(text: str, max_bytes: int = 1024 * 1024) -> None:
    """Parse `text`; only ParseError may escape, and a Plan must be consistent."""
    try:
        plan = parse(text, max_bytes=max_bytes)
    except ParseError as exc:
        assert exc.message
        assert exc.__cause__ is None, f"a reader crashed: {exc.__cause__!r}"
        return
    assert plan.format in FORMATS
    if plan.format in ("table", "vertical", "tsv"):
        assert plan.columns
        for row in plan.rows:
            assert list(row) == plan.columns
            assert all(v is None or isinstance(v, str) for v in row.values())
    assert all(0 <= i < len(plan.rows) for i in plan.affected_rows)
    assert not plan.affected_rows or plan.truncated
    assert all(isinstance(n, str) and n for n in plan.notices)
    check_lines(plan, text)


def check_lines(plan, text: str) -> None:
    """The line spans are in order, apart, inside the paste, and hold the plan when there are any."""
    count = len(re.split(r"\r\n|\r|\n", text))
    previous = 0
    for span in plan.lines:
        assert span.role in LINE_ROLES and span.reason
        assert previous < span.first <= span.last <= count, (span, previous, count)
        previous = span.last
    assert not plan.lines or any(span.role == "plan" for span in plan.lines)


@SETTINGS
@given(st.text())
def test_any_text(text):
    check(text)


@SETTINGS
@given(st.lists(ALPHABET, max_size=400).map("".join))
def test_text_made_of_structural_characters(text):
    check(text)


def _mutate(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 6))):
        if not lines:
            break
        i = data.draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        kind = data.draw(
            st.sampled_from(["del_char", "dup_char", "ins_char", "del_line", "dup_line", "cut", "ins_line"])
        )
        at = data.draw(st.integers(0, len(line))) if line else 0
        if kind == "del_char" and line:
            lines[i] = line[:at] + line[at + 1 :]
        elif kind == "dup_char" and line:
            lines[i] = line[: at + 1] + line[at:]
        elif kind == "ins_char":
            lines[i] = line[:at] + data.draw(ALPHABET) + line[at:]
        elif kind == "del_line":
            del lines[i]
        elif kind == "dup_line":
            lines.insert(i, line)
        elif kind == "cut":
            lines[i] = line[:at]
        else:
            lines.insert(i, data.draw(st.text(max_size=40)))
    return "\n".join(lines)


@SETTINGS
@given(st.sampled_from(PASTES), st.data())
def test_mutated_real_pastes(paste, data):
    check(_mutate(paste, data))


@SETTINGS
@given(
    st.sampled_from(PASTES),
    st.sampled_from(["terminal", "mail", "quote-terminal", "truncate"]),
    st.integers(20, 140),
    st.data(),
)
def test_damaged_and_mutated_pastes(paste, damage, width, data):
    damaged = {
        "terminal": lambda: mangle.terminal_wrap(paste, width),
        "mail": lambda: mangle.mail_wrap(paste, width),
        "quote-terminal": lambda: mangle.quote(mangle.terminal_wrap(paste, width)),
        "truncate": lambda: mangle.truncate(paste, width),
    }[damage]()
    check(_mutate(damaged, data) if data.draw(st.booleans()) else damaged)


@settings(max_examples=20, deadline=5000)
@given(st.sampled_from(PASTES), st.integers(200, 2000))
def test_large_repeated_pastes_stay_fast(paste, copies):
    # Up to ~2 MB of text with the limit raised: linear readers finish well inside the deadline.
    text = paste * copies
    check(text, max_bytes=len(text.encode()) + 1)


@settings(max_examples=30, deadline=5000)
@given(
    st.sampled_from(["|", "+-", "\n", " ", "\t", "*", "> ", "1 | ", "mysql> ", "| a ", "\u00a0"]),
    st.integers(1, 200_000),
)
def test_long_runs_of_one_token(token, count):
    text = token * count
    check(text, max_bytes=len(text.encode()) + 1)


# Pastes built to be slow: a head (a table's start, a boxed JSON cell, a long `|` line), then a
# unit of a few lines repeated. The readers once took time growing with the square of such pastes
# (headers glued onto every later line, each line starting a table that read all the others).
HEADS = [
    "",
    mangle.box(CLASSIC, ROWID_FILTER_ROWS),
    "| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |\n",
    "| EXPLAIN |\n+-x-+\n| {\n",
    "| EXPLAIN |\n+-\u00e9-+\n| {\n",
    "|" + "." * 300 + "\n",
    "id\tselect_type\ttable\ttype\n",
]
PIECES = st.sampled_from(
    ["|", "| ", " |", "+", "-", "+-", "a", "x ", "1", "é", "表", "\U0001f600", "{", '"k": 1,', "\t", " ", "->", "*", "> "]
)
UNITS = st.lists(st.lists(PIECES, min_size=1, max_size=5).map("".join), min_size=1, max_size=3).map(
    lambda lines: "\n".join(lines) + "\n"
)
GROWTH = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def paste_of(head: str, unit: str, copies: int) -> str:
    return head + unit * copies


def calls(text: str) -> int:
    """The function calls (Python and built-in) `parse(text)` makes: the work it does, counted
    the same on every run whatever the machine's load."""
    count = 0

    def profiler(frame, event, arg):
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profiler)
    try:
        parse(text, deadline_ms=None)
    except ParseError:
        pass
    finally:
        sys.setprofile(None)
    return count


@GROWTH
@given(st.sampled_from(HEADS), UNITS, st.integers(1, 3000))
def test_generated_slow_shapes_are_read_or_refused(head, unit, copies):
    check(paste_of(head, unit, copies))


@GROWTH
@given(st.sampled_from(HEADS), UNITS)
@example("| EXPLAIN |\n+-x-+\n| {\n", "+\n")  # 3,000 border pieces: within the unwrapping budget, 6,000 past it
def test_twice_the_paste_is_at_most_about_twice_the_work(head, unit):
    # At least 6 KB and more lines than the table reader unwraps (`UNWRAP_LINES`, plus a line in
    # 64), then twice that: past the sizes where work bounded by a constant (a header of at most
    # `MAX_COLUMNS` separators, the unwrapping budget of a paste) still grows with the paste.
    copies = max(50, 6000 // len(unit), (UNWRAP_LINES + 200) // unit.count("\n") + 1)
    calls(paste_of(head, unit, 2 * copies))  # fills the caches (patterns compiled on first use, the glossary)
    once, twice = calls(paste_of(head, unit, copies)), calls(paste_of(head, unit, 2 * copies))
    assert twice <= 2.5 * once + 2000, (once, twice, head[:40], unit)


@pytest.mark.parametrize(
    "paste",
    [
        paste_of("| EXPLAIN |\n+-\u00e9-+\n| {\n", '  "k": 1,\n', 6_000) + "} |\n",
        paste_of("| EXPLAIN |\n+-x-+\n| {\n", '  "k": 1,\n', 6_000) + "} |\n",
        "|" + "." * 30_000 + "\n" + "x\n" * 15_000,
        paste_of("", "|a\n x\n" * 100 + "\n", 50),
        paste_of("", "|a\n", 20_000),
        paste_of("", "+-\n", 20_000),
        paste_of("| EXPLAIN |\n+-x-+\n| {\n", '["select_type"]=>\n', 3_000),
    ],
    ids=["json-lines-e-border", "json-lines-x-border", "long-line", "open-headers", "pipes", "borders", "var-dump"],
)
def test_pastes_that_were_slow_are_read_well_within_the_deadline(paste):
    # About 60 KB each: seconds to minutes before the readers were made linear, a small part of the budget now.
    try:
        parse(paste)
    except ParseError as exc:
        assert not exc.too_complex
