"""JSON plans as pasted from places that changed them: MySQL's `/* … */` end markers after closing
braces and brackets, and other comments outside the document's strings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from tests.analyzer.repair.mangle import box, terminal_wrap

CLASSIC = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
TABLE_U = ["1", "SIMPLE", "u", "eq_ref", "PRIMARY", "PRIMARY", "4", "t.id", "1", None]


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


# --- a unified diff of a plan -------------------------------------------------------------------


def diffed(old: str, new: str) -> list[str]:
    """The hunk lines of a diff from `old` to `new` (line by line: `-` old, `+` new, ` ` same)."""
    out: list[str] = []
    for before, after in zip(old.split("\n"), new.split("\n"), strict=True):
        out += [" " + before] if before == after else ["-" + before, "+" + after]
    return out


def with_headers(hunk: list[str], name: str = "mysql-test/r/explain_json.result") -> str:
    return "\n".join(
        [
            f"--- a/{name}",
            f"+++ b/{name}",
            f"@@ -120,{len(hunk)} +120,{len(hunk)} @@ EXPLAIN",
            *hunk,
        ]
    )


@pytest.mark.parametrize("indent", [1, 2, 4])
def test_every_line_added_by_a_diff(indent):
    text = "explain format=json select * from t0 where 1>2;\nEXPLAIN\n" + json.dumps(
        {"query_block": {"select_id": 1, "table": {"table_name": "t0", "access_type": "ALL", "rows": 5}}},
        indent=indent,
    )
    parsed = parse("\n".join("+" + line for line in text.split("\n")))
    assert [row["table"] for row in parsed.rows] == ["t0"]
    assert not parsed.truncated
    assert parsed.query == "select * from t0 where 1>2"
    lines = text.count("\n") + 1
    assert f"Removed the '+' a diff put before {lines} lines." in parsed.notices


@pytest.mark.parametrize("headers", [True, False])
def test_a_diff_of_a_json_plan_is_read_as_its_new_side(headers):
    old = marked(plan(["a", "b"]))
    new = old.replace(
        '"table_name": "b",\n          "access_type": "eq_ref"', '"table_name": "b",\n          "access_type": "ref"'
    )
    new = new.replace('"rows_examined_per_scan": 10', '"rows_examined_per_scan": 99')
    hunk = diffed(old, new)
    text = with_headers(hunk) if headers else "\n".join(hunk)
    parsed = parse(text)
    assert [(row["table"], row["type"], row["rows"]) for row in parsed.rows] == [("a", "ALL", "99"), ("b", "ref", "99")]
    assert not parsed.truncated
    notice = next(n for n in parsed.notices if "a diff put before" in n)
    assert "'+' and ' '" in notice and "the plan shown is the diff's new side" in notice
    assert ("header line" in notice) is headers
    left_out = [span for span in parsed.lines if span.reason == "a diff's header or a line it removed"]
    assert left_out and left_out[0].first == (1 if headers else 12)


def test_a_diff_of_a_table_with_hunk_headers():
    old = box(CLASSIC, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "1000", "Using where"], TABLE_U])
    new = box(CLASSIC, [["1", "SIMPLE", "t", "ref", "k", "k", "4", "const", "12", None], TABLE_U])
    parsed = parse("diff --git a/r.result b/r.result\nindex 1a2b3c4..5d6e7f8 100644\n" + with_headers(diffed(old, new)))
    assert [(row["table"], row["type"], row["rows"]) for row in parsed.rows] == [
        ("t", "ref", "12"),
        ("u", "eq_ref", "1"),
    ]
    assert not parsed.truncated


def test_a_diff_of_a_tree_plan():
    old = "-> Nested loop inner join  (cost=4.5 rows=10)\n    -> Table scan on t  (cost=1.2 rows=10)\n    -> Single-row index lookup on u using PRIMARY (id=t.id)  (cost=0.3 rows=1)"
    new = old.replace("Table scan on t  (cost=1.2 rows=10)", "Index scan on t using k  (cost=1.1 rows=10)")
    for text in (with_headers(diffed(old, new)), "\n".join(diffed(old, new))):
        parsed = parse(text)
        assert parsed.format == "tree"
        assert [row.get("table") for row in parsed.rows if row.get("table")] == ["t", "u"]
        assert [(row["table"], row["type"], row["key"]) for row in parsed.rows] == [
            ("t", "index", "k"),
            ("u", "eq_ref", "PRIMARY"),
        ]


def test_plans_whose_lines_start_with_plus_or_minus_are_no_diff():
    tree = "-> Limit: 10 row(s)\n    -> Sort: t.a  (cost=2 rows=5)\n        -> Table scan on t  (cost=1 rows=5)"
    table = box(CLASSIC, [TABLE_U])
    listed = "- -> Limit: 10 row(s)\n- -> Sort: t.a\n- -> Table scan on t  (cost=1 rows=5)"
    for text in (tree, table, listed, "+1 for this\n+1 me too\n" + table):
        assert not any("a diff put before" in n for n in parse(text).notices), text


def test_a_hunk_header_alone_in_prose_is_not_taken_for_a_plan():
    with pytest.raises(ParseError):
        parse("@@ -1,2 +1,2 @@\n-old words\n+new words\n")


# -- a writer's notes after the values ------------------------------------------------------------

NOTED = """{
  "query_block": {
    "select_id": 1,{note} the only select
    "table": {
      "table_name": "t1",{note} the table read
      "access_type": "ALL",
      "rows_examined_per_scan": 100,{note} every row
      "attached_condition": "(`t1`.`a` = '# not a comment -- nor this // nor this')"
    }
  }
}
"""


@pytest.mark.parametrize("note", ["    #", "  //", "   --"])
def test_notes_after_values_are_comments_outside_strings(note):
    parsed = parse(NOTED.replace("{note}", note))
    assert [row["table"] for row in parsed.rows] == ["t1"]
    assert not parsed.truncated
    assert "# not a comment -- nor this // nor this" in str(parsed.plan)
    assert any("comments such as" in n for n in parsed.notices)


def test_a_masked_value_is_no_comment():
    plain = (
        NOTED.replace("{note} the only select", "").replace("{note} the table read", "").replace("{note} every row", "")
    )
    text = plain.replace('"rows_examined_per_scan": 100,', '"rows_examined_per_scan": #,')
    parsed = parse(text)
    assert [row["table"] for row in parsed.rows] == ["t1"]
    assert any("masked" in n for n in parsed.notices)
