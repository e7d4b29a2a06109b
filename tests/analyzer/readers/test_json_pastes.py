"""JSON plans as pasted from places that changed them: MySQL's `/* … */` end markers after closing
braces and brackets, and other comments outside the document's strings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from tests.analyzer.repair.mangle import terminal_wrap


def marked(value: Any, indent: int = 2, key: str | None = None, level: int = 0) -> str:
    """`value` as MySQL 5.6/5.7 (and mysqltest) print a JSON plan: each object and list a key
    holds closed with `/* key */` before the comma."""
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    marker = f" /* {key} */" if key else ""
    if isinstance(value, dict):
        members = [f"{inner}{json.dumps(k)}: {marked(v, indent, k, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + f"\n{pad}}}{marker}"
    if isinstance(value, list):
        items = [inner + marked(item, indent, None, level + 1) for item in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]{marker}"
    return json.dumps(value)


def table(name: str, access: str = "ALL", rows: int = 10, **more: Any) -> dict[str, Any]:
    return {
        "table": {
            "table_name": name,
            "access_type": access,
            "rows_examined_per_scan": rows,
            "filtered": "100.00",
            "cost_info": {"read_cost": "1.00", "eval_cost": "0.20", "prefix_cost": "1.20"},
            "used_columns": ["id", "a"],
            **more,
        }
    }


def plan(names: list[str]) -> dict[str, Any]:
    """A query block joining `names` (one table alone, else a nested loop)."""
    block: dict[str, Any] = {"select_id": 1, "cost_info": {"query_cost": "12.40"}}
    if len(names) == 1:
        block.update(table(names[0]))
    else:
        block["nested_loop"] = [table(name, "ALL" if i == 0 else "eq_ref") for i, name in enumerate(names)]
    return {"query_block": block}


def tables(text: str) -> list[str | None]:
    return [row.get("table") for row in parse(text).rows]


@pytest.mark.parametrize("indent", [2, 4])
@pytest.mark.parametrize("names", [["t1"], ["o", "c"], ["a", "b", "c", "d"]])
def test_end_markers_are_removed_with_a_notice(indent, names):
    text = marked(plan(names), indent)
    assert "} /* table */" in text and "/* query_block */" in text
    parsed = parse(text)
    assert [row["table"] for row in parsed.rows] == names
    assert not parsed.truncated and not parsed.uncertain
    notice = next(n for n in parsed.notices if "end marker" in n)
    assert notice.startswith("Removed ") and "'/* cost_info */'" in notice
    assert parsed.variant == "MySQL EXPLAIN FORMAT=JSON"


def test_the_count_of_end_markers_is_said():
    parsed = parse(marked({"query_block": {"select_id": 1, "message": "No tables used"}}))
    assert "Removed the end marker '/* query_block */'" in parsed.notices[0]
    parsed = parse(marked(plan(["a", "b"])))
    # query_block, cost_info x3, nested_loop, table x2, used_columns x2
    assert "Removed 9 end markers" in parsed.notices[0]


def test_a_comment_inside_a_string_stays():
    condition = "<in_optimizer>(`t`.`a`,<exists>(/* select#2 */ select 1 from `u` where (`u`.`b` = '*/ \"x\" /*')))"
    doc = {"query_block": {"select_id": 1, **table("t", attached_condition=condition)}}
    parsed = parse(marked(doc))
    assert parsed.plan["query_block"]["table"]["attached_condition"] == condition
    assert [row["table"] for row in parsed.rows] == ["t"]
    assert not parsed.truncated


def test_nested_subqueries_with_end_markers():
    inner = {"dependent": True, "cacheable": False, "query_block": {"select_id": 2, **table("t2")}}
    outer = table("t1", attached_condition="(/* select#2 */ select 1)", attached_subqueries=[inner])
    parsed = parse(marked({"query_block": {"select_id": 1, **outer}}))
    assert [(row["table"], row["select_type"]) for row in parsed.rows] == [
        ("t1", "PRIMARY"),
        ("t2", "DEPENDENT SUBQUERY"),
    ]
    assert not parsed.truncated


def test_comments_that_are_no_end_markers_are_removed_and_named():
    text = marked(plan(["a", "b"])).replace('"select_id": 1,', '"select_id": 1 /* select#1 */,')
    text = text.replace('"nested_loop": [', '"nested_loop": [ /* the join */')
    parsed = parse(text)
    assert [row["table"] for row in parsed.rows] == ["a", "b"]
    assert not parsed.truncated
    assert any(n.startswith("Removed 11 comments such as '/* select#1 */'") for n in parsed.notices)


def test_end_markers_in_the_client_box_and_in_batch_output():
    text = marked(plan(["p", "q"]))
    lines = text.split("\n")
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    boxed = "\n".join(
        [rule, "| " + "EXPLAIN".ljust(width) + " |", rule, *("| " + line.ljust(width) + " |" for line in lines), rule]
    )
    batch = "EXPLAIN\n" + text.replace("\n", "\\n")
    for paste in (boxed, batch):
        parsed = parse(paste)
        assert [row["table"] for row in parsed.rows] == ["p", "q"]
        assert not parsed.truncated
        assert any("end markers" in n for n in parsed.notices)


@pytest.mark.parametrize("width", [27, 29, 31])
def test_end_markers_in_a_terminal_wrapped_plan(width):
    text = terminal_wrap(marked(plan(["a", "b", "c"])), width, strip=False)
    parsed = parse(text)
    assert [row["table"] for row in parsed.rows] == ["a", "b", "c"]
    assert not parsed.truncated
    assert any("hard-wrapped" in n for n in parsed.notices)
    assert any(n.startswith("Removed 12 end markers") for n in parsed.notices)


def test_mysqltest_result_with_statement_header_and_warnings():
    paste = "\n".join(
        [
            "EXPLAIN FORMAT=JSON SELECT * FROM a JOIN b ON a.id = b.id;;",
            "EXPLAIN",
            marked(plan(["a", "b"])),
            "Warnings:",
            "Note\t1003\t/* select#1 */ select `test`.`a`.`id` AS `id` from `test`.`a` join `test`.`b`",
        ]
    )
    parsed = parse(paste)
    assert [row["table"] for row in parsed.rows] == ["a", "b"]
    assert not parsed.truncated
    assert parsed.warnings and parsed.warnings[0].startswith("/* select#1 */")


def test_a_cut_plan_with_end_markers_is_flagged():
    text = marked(plan(["a", "b", "c"]))
    cut = text[: text.index('"table_name": "c"')]
    parsed = parse(cut)
    assert parsed.truncated
    assert [row["table"] for row in parsed.rows] == ["a", "b"]
    assert any("end markers" in n for n in parsed.notices)
    assert any("truncated" in n for n in parsed.notices)


def test_an_unclosed_comment_is_damage_not_a_reading():
    text = marked(plan(["a", "b"])).replace("} /* table */\n      },", "} /* table\n      },", 1)
    parsed = parse(text)
    assert parsed.truncated
    assert tables(text) == ["a"]


def test_comments_outside_a_document_are_not_a_plan():
    with pytest.raises(ParseError):
        parse("/* query_block */ { looks like } /* table */ nothing here\n/* select#1 */ select 1")
