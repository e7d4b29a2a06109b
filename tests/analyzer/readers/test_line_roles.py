"""`Plan.lines`: what became of each line of the paste, with exact line numbers.

Every case lists the spans it expects as (first, last, role, reason-start) in the numbering of
the paste as sent, so that a reading that goes wrong from some line on is visible right there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analyzer import analyze
from analyzer.model import LINE_ROLES, LineSpan
from analyzer.pipeline import parse
from tests.analyzer.repair.mangle import box

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
TABLE = box(COLUMNS, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "5", "Using where"]])
OTHER_TABLE = box(COLUMNS, [["1", "SIMPLE", "t", "ref", "a", "a", "4", "const", "1", None]])
JSON_PLAN = """\
{
  "query_block": {
    "select_id": 1,
    "table": {
      "table_name": "t",
      "access_type": "ALL",
      "rows_examined_per_scan": 5
    }
  }
}"""
TREE_PLAN = """\
-> Nested loop inner join  (cost=4.70 rows=6)
    -> Table scan on t1  (cost=0.85 rows=6)
    -> Single-row index lookup on t2 using PRIMARY (id=t1.id)  (cost=0.52 rows=1)"""


def spans(plan_or_text) -> list[tuple[int, int, str, str]]:
    plan = parse(plan_or_text) if isinstance(plan_or_text, str) else plan_or_text
    return [(s.first, s.last, s.role, s.reason) for s in plan.lines]


def expect(text: str, *expected: tuple[int, int, str, str]) -> None:
    """The spans of `text` are `expected`, each reason starting with the given words."""
    got = spans(text)
    assert [span[:3] for span in got] == [span[:3] for span in expected], got
    for (*_, reason), (*_, start) in zip(got, expected, strict=True):
        assert reason.startswith(start), (reason, start)


def lines(*parts: str) -> str:
    return "\n".join(parts) + "\n"


def test_a_boxed_table_with_chat_around_it():
    text = lines("Hi all, why is this slow?", "", TABLE.rstrip("\n"), "", "Thanks!", "Any idea?")
    expect(
        text,
        (1, 1, "ignored", "other text"),
        (3, 7, "plan", "the EXPLAIN result shown"),
        (9, 10, "ignored", "other text"),
    )


def test_prompts_statements_and_status_lines():
    text = lines(
        "mysql> EXPLAIN SELECT * FROM t",
        "    -> WHERE a = 1;",
        TABLE.rstrip("\n"),
        "1 row in set (0.00 sec)",
        "",
        "mysql> SELECT COUNT(*) FROM t;",
        "+----------+",
        "| COUNT(*) |",
        "+----------+",
        "|        5 |",
        "+----------+",
        "1 row in set (0.00 sec)",
        "",
        "mysql> exit",
        "Bye",
    )
    expect(
        text,
        (1, 2, "query", "the statement the query was taken from"),
        (3, 7, "plan", "the EXPLAIN result shown"),
        (8, 8, "ignored", "a client status line"),
        (10, 10, "ignored", "a client prompt"),
        (11, 15, "ignored", "another result set, not EXPLAIN"),
        (16, 16, "ignored", "a client status line"),
        (18, 19, "ignored", "a client prompt"),  # `exit` has no `;`: the cleanup takes `Bye` as its next line
    )


def test_the_query_comes_from_the_last_explain_typed_before_the_output():
    text = lines(
        "mysql> EXPLAIN SELECT 1 FROM dual;",
        "ERROR 1064 (42000): You have an error in your SQL syntax",
        "mysql> EXPLAIN SELECT * FROM t;",
        TABLE.rstrip("\n"),
    )
    assert parse(text).query == "SELECT * FROM t"
    expect(
        text,
        (1, 1, "ignored", "a client prompt"),
        (2, 2, "ignored", "other text"),
        (3, 3, "query", "the statement"),
        (4, 8, "plan", "the EXPLAIN result shown"),
    )


def test_a_query_given_with_the_paste_replaces_the_typed_one():
    text = lines("mysql> EXPLAIN SELECT * FROM t;", TABLE.rstrip("\n"))
    analysis = analyze(text, query="SELECT * FROM t WHERE a = 2")
    assert spans(analysis.plan) == [
        (1, 1, "ignored", "a typed statement; the query given with the paste is shown"),
        (2, 6, "plan", "the EXPLAIN result shown"),
    ]


def test_a_json_plan_with_text_before_and_after():
    text = lines("Hi all, why is this slow?", "EXPLAIN", JSON_PLAN, "PS: t has 5 rows.", "", "Thanks")
    expect(
        text,
        (1, 1, "ignored", "other text"),
        (2, 12, "plan", "the JSON plan shown"),
        (13, 15, "ignored", "other text"),
    )


def test_a_json_plan_in_the_clients_box():
    cell = JSON_PLAN.split("\n")
    width = max(len(line) for line in cell)
    border = "+" + "-" * (width + 2) + "+"
    boxed = [border, "| " + "EXPLAIN".ljust(width) + " |", border]
    boxed += ["| " + line.ljust(width) + " |" for line in cell] + [border]
    text = lines("mysql> EXPLAIN FORMAT=JSON SELECT * FROM t\\G", *boxed, "1 row in set (0.00 sec)", "", "see above")
    expect(
        text,
        (1, 1, "query", "the statement"),
        (2, 15, "plan", "the JSON plan shown"),
        (16, 16, "ignored", "a client status line"),
        (18, 18, "ignored", "other text"),
    )


def test_a_fenced_tree_plan_with_a_wrapped_last_line_and_chat_right_after():
    wrapped = TREE_PLAN.replace("(cost=0.52 rows=1)", "(cost=0.52\nrows=1)")
    text = lines("Here is the plan:", "```", wrapped, "```", "any ideas (anyone)?")
    plan = parse(text)
    assert plan.format == "tree"
    expect(
        text,
        (1, 1, "ignored", "other text"),
        (2, 2, "ignored", "a code fence"),
        (3, 6, "plan", "the tree plan shown"),
        (7, 7, "ignored", "a code fence"),
        (8, 8, "ignored", "other text"),
    )


def test_chat_glued_to_a_tree_plan_is_not_read_as_part_of_it():
    expect(
        lines(TREE_PLAN, "Why is t1 scanned?"),
        (1, 3, "plan", "the tree plan shown"),
        (4, 4, "ignored", "other text"),
    )


def test_a_second_tree_plan_is_not_read():
    text = lines(TREE_PLAN, "", "after the index:", "", TREE_PLAN.replace("Table scan on t1", "Index scan on t1"))
    assert any("only the first one is shown" in n for n in parse(text).notices)
    expect(
        text,
        (1, 3, "plan", "the tree plan shown"),
        (5, 5, "ignored", "other text"),
        (7, 9, "ignored", "plan text after the plan shown"),
    )


def test_two_different_explain_results():
    text = lines("Before:", TABLE.rstrip("\n"), "After adding the index:", OTHER_TABLE.rstrip("\n"))
    expect(
        text,
        (1, 1, "ignored", "other text"),
        (2, 6, "plan", "the EXPLAIN result shown"),
        (7, 7, "ignored", "other text"),
        (8, 12, "ignored", "another EXPLAIN result, not the one shown"),
    )


def test_a_truncated_first_explain_is_not_the_one_read():
    cut = "\n".join(line[:40] for line in TABLE.rstrip("\n").split("\n")[:4])
    text = lines(cut, "", "sorry, again:", TABLE.rstrip("\n"))
    expect(
        text,
        (1, 4, "ignored", "another EXPLAIN result, not the one shown"),
        (6, 6, "ignored", "other text"),
        (7, 11, "plan", "the EXPLAIN result shown"),
    )


def test_the_same_explain_pasted_twice_is_read_once():
    text = lines(TABLE.rstrip("\n"), "", TABLE.rstrip("\n"))
    expect(
        text,
        (1, 5, "plan", "the EXPLAIN result shown"),
        (7, 11, "ignored", "the same EXPLAIN result again"),
    )


def test_show_warnings_and_the_clients_notes():
    warnings = box(["Level", "Code", "Message"], [["Note", "1003", "select `t`.`a` AS `a` from `t`"]])
    text = lines(
        "mysql> EXPLAIN EXTENDED SELECT a FROM t;",
        TABLE.rstrip("\n"),
        "1 row in set, 1 warning (0.00 sec)",
        "",
        "Note (Code 1003): select `t`.`a` AS `a` from `t`",
        "mysql> SHOW WARNINGS;",
        warnings.rstrip("\n"),
    )
    plan = parse(text)
    assert plan.warnings == ["select `t`.`a` AS `a` from `t`"] * 2
    expect(
        text,
        (1, 1, "query", "the statement"),
        (2, 6, "plan", "the EXPLAIN result shown"),
        (7, 7, "ignored", "a client status line"),
        (9, 9, "warnings", "a warning the client printed"),
        (10, 10, "ignored", "a client prompt"),
        (11, 15, "warnings", "SHOW WARNINGS output"),
    )


def test_crlf_line_breaks_and_a_byte_order_mark_keep_the_numbering():
    text = "\ufeffmysql> EXPLAIN SELECT * FROM t;\r\n" + TABLE.replace("\n", "\r\n") + "\r\nthanks\r\n"
    expect(
        text,
        (1, 1, "query", "the statement"),
        (2, 6, "plan", "the EXPLAIN result shown"),
        (8, 8, "ignored", "other text"),
    )


def test_lone_carriage_returns_count_as_line_breaks():
    text = "hello\r" + TABLE.replace("\n", "\r")
    expect(text, (1, 1, "ignored", "other text"), (2, 6, "plan", "the EXPLAIN"))


def test_a_gutter_prefixed_paste():
    body = lines("mysql> EXPLAIN SELECT * FROM t;", TABLE.rstrip("\n"), "1 row in set (0.00 sec)")
    text = "".join("// " + line + "\n" for line in body.rstrip("\n").split("\n"))
    expect(
        text,
        (1, 1, "query", "the statement"),
        (2, 6, "plan", "the EXPLAIN result shown"),
        (7, 7, "ignored", "a client status line"),
    )


def test_quoted_and_double_spaced_lines_stay_in_the_plan_span():
    quoted = "\n\n".join("> " + line for line in TABLE.rstrip("\n").split("\n"))
    expect(lines("Colleague wrote:", "", quoted), (1, 1, "ignored", "other text"), (3, 11, "plan", "the EXPLAIN"))


def test_a_remark_typed_inside_the_table_is_not_read():
    table = box(COLUMNS, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "5", None]] * 2).rstrip("\n").split("\n")
    text = lines(*table[:4], "", "^ why is this one a full scan?", "", *table[4:])
    assert len(parse(text).rows) == 2
    expect(
        text,
        (1, 4, "plan", "the EXPLAIN result shown"),
        (6, 6, "ignored", "other text inside the output"),
        (8, 9, "plan", "the EXPLAIN result shown"),
    )


def test_a_json_plan_after_the_table_read_is_left_out():
    text = lines(TABLE.rstrip("\n"), "", "and as JSON:", JSON_PLAN)
    plan = parse(text)
    assert plan.format == "table"
    expect(
        text,
        (1, 5, "plan", "the EXPLAIN result shown"),
        (7, 7, "ignored", "other text"),
        (8, 17, "ignored", "a JSON plan, not the one shown"),
    )


def test_a_paste_decoded_as_a_whole_has_no_line_spans():
    # Quoted-printable soft line breaks joined lines: the lines read are not the paste's.
    encoded = "".join(
        line[:70] + "=\n" + line[70:] + "\n" if len(line) > 70 else line + "\n" for line in TABLE.split("\n")
    )
    plan = parse(encoded)
    assert any("quoted-printable" in n for n in plan.notices)
    assert plan.rows and plan.lines == []


def test_a_json_fragment_of_unknown_place_has_no_line_spans():
    fragment = JSON_PLAN.split("\n", 1)[1].rsplit("\n", 1)[0]  # `"query_block": {…}` without its braces
    plan = parse("From the docs:\n" + fragment + "\n")
    assert plan.format == "json" and plan.lines == []


def test_the_api_answer_carries_the_spans():
    data = analyze(lines("Hi", TABLE.rstrip("\n"))).to_dict()
    assert data["lines"] == [
        {"first": 1, "last": 1, "role": "ignored", "reason": "other text"},
        {"first": 2, "last": 6, "role": "plan", "reason": "the EXPLAIN result shown"},
    ]
    assert LineSpan(2, 6, "plan", "x").to_dict() == {"first": 2, "last": 6, "role": "plan", "reason": "x"}


def _corpus() -> list[tuple[str, str]]:
    cases = [
        (p.name, json.loads(p.read_text(encoding="utf-8"))["input"])
        for p in sorted((FIXTURES / "samples").glob("*.json"))
    ]
    cases += [(p.name, p.read_text(encoding="utf-8")) for p in sorted((FIXTURES / "real").glob("*/*.txt"))]
    cases += [(p.name, p.read_text(encoding="utf-8")) for p in sorted((FIXTURES / "explain").glob("*.txt"))]
    return cases


# What a line holds when nothing but its decoration is left: quoting, a line number, a comment mark.
_DECORATION = re.compile(r"^[\s>|:.\d/*#-]*$")


@pytest.mark.parametrize(("name", "text"), _corpus(), ids=[name for name, _ in _corpus()])
def test_every_line_of_real_pastes_is_accounted_for(name, text):
    try:
        plan = parse(text)
    except Exception:  # a paste the parser refuses has no spans to check
        return
    pasted = re.split(r"\r\n|\r|\n", text)
    previous = 0
    for span in plan.lines:
        assert span.role in LINE_ROLES and span.reason
        assert previous < span.first <= span.last <= len(pasted), (span, previous)
        previous = span.last
    if not plan.lines:
        return
    assert any(span.role == "plan" for span in plan.lines)
    inside = {n for span in plan.lines for n in range(span.first, span.last + 1)}
    left = [(n, line) for n, line in enumerate(pasted, 1) if n not in inside and not _DECORATION.match(line)]
    assert not left, f"lines holding text in no span: {left[:3]}"
