"""MySQL tree plans as people paste them: retyped as lists, kept in comments, with lines left out,
subquery blocks dedented by an editor, and indentation that does not say where a line belongs."""

from __future__ import annotations

import pytest

from analyzer import ParseError
from analyzer.pipeline import parse

JOIN = [
    (0, "Nested loop inner join  (cost=4.5 rows=10)"),
    (1, "Table scan on o  (cost=1.25 rows=10)"),
    (1, "Single-row index lookup on c using PRIMARY (id=o.customer_id)  (cost=0.26 rows=1)"),
]
DEEP = [
    (0, "Limit: 10 row(s)  (cost=9.1 rows=10)"),
    (1, "Sort: o.created_at DESC  (cost=9.1 rows=30)"),
    (2, "Filter: (o.status = 'open')  (cost=3.25 rows=30)"),
    (3, "Table scan on o  (cost=3.25 rows=300)"),
]


def tree(lines: list[tuple[int, str]], arrow: str = "-> ", width: int = 4, lead: str = "") -> str:
    return "\n".join(lead + " " * (width * depth) + arrow + text for depth, text in lines) + "\n"


def shape(plan) -> list[tuple[int, str]]:
    """(depth, operation) of every node, in order."""
    out: list[tuple[int, str]] = []
    stack = [(node, 0) for node in reversed(plan.plan)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, node["operation"]))
        stack.extend((child, depth + 1) for child in reversed(node["children"]))
    return out


def operations(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(depth, text.split("  (")[0]) for depth, text in lines]


def clean(plan) -> bool:
    return not plan.truncated and not plan.uncertain


# --- 1. lists and comments -------------------------------------------------------------------------


@pytest.mark.parametrize("bullet", ["- ", "* ", "+ ", "\u2022 "])
@pytest.mark.parametrize("width", [2, 4])
@pytest.mark.parametrize("lines", [JOIN, DEEP], ids=["join", "deep"])
def test_a_tree_retyped_as_a_list_reads_like_arrows(bullet: str, width: int, lines) -> None:
    plan = parse(tree(lines, arrow=bullet, width=width))

    assert plan.format == "tree" and clean(plan)
    assert shape(plan) == operations(lines)
    assert plan.rows == parse(tree(lines)).rows
    assert any("bullets as the plan's arrows" in notice for notice in plan.notices)


def test_a_list_at_one_level_reads_as_a_plan_whose_nesting_was_lost() -> None:
    plan = parse(tree(JOIN, arrow="- ", width=0))

    assert [row["table"] for row in plan.rows] == ["o", "c"]
    assert any("indentation of the plan was lost" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "text",
    [
        "Things to check:\n- Aggregate the data per day\n- Sort the result\n- Update the statistics\n",
        "- Table scan on the orders table is slow\n  - Append an index?\n",
        "* Materialize the view\n* Limit: the output\n",
        "Notes:\n+ Sort: by date\n+ Filter: active users\n",
    ],
)
def test_a_list_of_prose_is_no_plan(text: str) -> None:
    with pytest.raises(ParseError):
        parse(text)


def test_a_prose_item_inside_a_listed_plan_is_other_text() -> None:
    lines = [*JOIN[:2], (1, "this one is slow!"), JOIN[2]]
    plan = parse(tree(lines, arrow="- "))

    assert [row["table"] for row in plan.rows] == ["o", "c"]
    assert plan.uncertain and not plan.truncated
    assert any("line 3" in notice and "inside the plan" in notice for notice in plan.notices)


@pytest.mark.parametrize("marker", ["# ", "-- ", "// "])
@pytest.mark.parametrize("lines", [JOIN, DEEP], ids=["join", "deep"])
@pytest.mark.parametrize("indent", ["", "    ", "\t"])
def test_each_comment_marker_works_at_any_column(marker: str, lines: list[tuple[int, str]], indent: str) -> None:
    plan = parse(tree(lines, lead=indent + marker))

    assert plan.format == "tree" and clean(plan)
    assert shape(plan) == operations(lines)


@pytest.mark.parametrize("marker", ["# ", "-- ", "// "])
def test_a_commented_tree_inside_code_keeps_its_nesting(marker: str) -> None:
    code = "def slow():\n    x = run()\n    y = x + 1\n"
    plan = parse(code + tree(DEEP, lead="    " + marker) + "    return y\n")

    assert shape(plan) == operations(DEEP)


def test_a_bullet_before_each_arrow_still_comes_off() -> None:
    plan = parse(tree(JOIN, arrow="-> ", lead="- "))

    assert shape(plan) == operations(JOIN)
    assert any("Removed the '-'" in notice for notice in plan.notices)


# --- 2. lines left out, and other text inside the plan ---------------------------------------------

ELISIONS = ["...", "…", "// ... much more text", "-- omitted --", "(snip)", "[...]", "// 중략", "(省略)", "<omitted>"]


@pytest.mark.parametrize("elision", ELISIONS)
@pytest.mark.parametrize("depth", [1, 2])
def test_an_elision_inside_the_plan_marks_it_truncated(elision: str, depth: int) -> None:
    lines = [*DEEP[:2], (depth, elision), *DEEP[2:]]
    text = tree(lines).replace("-> " + elision, elision)
    plan = parse(text)

    assert plan.truncated and not plan.uncertain
    assert [row["table"] for row in plan.rows] == ["o"]
    assert any("line 3" in notice and elision in notice for notice in plan.notices)


@pytest.mark.parametrize("elision", ["// ... much more text", "...", "(snip)"])
@pytest.mark.parametrize("blank", ["", "\n"])
def test_an_elision_after_the_last_line_marks_it_truncated(elision: str, blank: str) -> None:
    plan = parse(tree(JOIN) + blank + elision + "\n")

    assert plan.truncated
    assert any(f"line {4 + len(blank)}" in notice for notice in plan.notices)


@pytest.mark.parametrize("comment", ["// 这里很慢", "# this join is the slow part", "-- see the index below", "why?"])
def test_other_text_inside_the_plan_marks_it_uncertain(comment: str) -> None:
    lines = [JOIN[0], JOIN[1], (1, comment), JOIN[2]]
    plan = parse(tree(lines).replace("-> " + comment, comment))

    assert plan.uncertain and not plan.truncated
    assert [row["table"] for row in plan.rows] == ["o", "c"]
    assert any("line 3" in notice and "inside the plan" in notice for notice in plan.notices)


def test_the_notice_names_the_lines_as_the_paste_numbers_them() -> None:
    text = "```\n" + tree([*JOIN[:2], (1, "..."), JOIN[2]]).replace("-> ...", "...") + "```\n"
    plan = parse(text)

    assert plan.truncated
    assert any("line 4 ('...')" in notice for notice in plan.notices)


@pytest.mark.parametrize("width", [60, 72, 80])
def test_a_wrapped_long_condition_is_no_foreign_line(width: int) -> None:
    condition = "Filter: ((o.status = 'open') and (o.created_at > '2024-01-01') and (o.total > 100) and (o.id <> 7))"
    line = f"-> {condition}  (cost=1.25 rows=3)"
    wrapped = "\n".join(line[k : k + width] for k in range(0, len(line), width))
    plan = parse(wrapped + "\n    -> Table scan on o  (cost=1.25 rows=10)\n")

    assert clean(plan)
    assert plan.plan[0]["condition"] == condition[len("Filter: ") :]


@pytest.mark.parametrize("after", ["Why is this slow...", "\nAny idea why?", "\nThanks!"])
def test_chat_after_the_plan_is_no_elision(after: str) -> None:
    plan = parse(tree(JOIN) + after + "\n")

    assert not plan.truncated and not plan.uncertain


def test_empty_comment_lines_inside_a_commented_plan_are_no_text() -> None:
    text = (
        "// -> Nested loop inner join  (cost=4.5 rows=10)\n//\n//     -> Table scan on o  (cost=1.25 rows=10)\n"
        "//\n//     -> Table scan on c  (cost=1.25 rows=10)\n"
    )
    plan = parse(text)

    assert clean(plan) and [row["table"] for row in plan.rows] == ["o", "c"]


# --- 3. subquery blocks dedented ---------------------------------------------------------------------

SUBQUERY = [
    (0, "Aggregate: avg(o2.total)  (cost=2.25 rows=1)"),
    (1, "Table scan on o2  (cost=1.25 rows=10)"),
]


@pytest.mark.parametrize("gap", ["", "\n", "\nand the subquery:\n"])
@pytest.mark.parametrize("width", [2, 4])
def test_a_dedented_subquery_block_goes_under_the_line_that_refers_to_it(gap: str, width: int) -> None:
    outer = [
        (0, "Nested loop inner join  (cost=4.5 rows=10)"),
        (1, "Filter: (o.total > (select #2))  (cost=1.25 rows=3)"),
        (2, "Table scan on o  (cost=1.25 rows=10)"),
        (1, "Single-row index lookup on c using PRIMARY (id=o.customer_id)  (cost=0.26 rows=1)"),
    ]
    block = [(0, "Select #2 (subquery in condition; run only once)")] + [(d + 1, t) for d, t in SUBQUERY]
    plan = parse(tree(outer, width=width) + gap + tree(block, width=width))

    assert shape(plan) == operations(outer[:3] + [(d + 2, t) for d, t in block] + outer[3:])
    assert not any("2 plans" in notice for notice in plan.notices)
    assert any("Repaired the indentation of 1 subquery block" in notice for notice in plan.notices)
    assert [row["select_type"] for row in plan.rows] == ["PRIMARY", "SUBQUERY", "PRIMARY"]


def test_a_subquery_block_dedented_by_one_level_goes_back_under_its_referrer() -> None:
    lines = [
        (0, "Nested loop inner join  (cost=4.5 rows=10)"),
        (1, "Filter: (o.total > (select #3))  (cost=1.25 rows=3)"),
        (2, "Table scan on o  (cost=1.25 rows=10)"),
        (1, "Select #3 (subquery in condition; dependent)"),
        (2, "Aggregate: avg(o2.total)  (cost=2.25 rows=1)"),
        (1, "Table scan on c  (cost=0.26 rows=1)"),
    ]
    plan = parse(tree(lines))

    assert plan.plan[0]["children"][0]["children"][1]["operation"].startswith("Select #3")
    assert [child["operation"][:5] for child in plan.plan[0]["children"]] == ["Filte", "Table"]


@pytest.mark.parametrize("gap", ["", "\n"])
def test_a_select_list_subquery_at_column_0_goes_under_the_root(gap: str) -> None:
    outer = [(0, "Table scan on t1  (cost=0.55 rows=3)")]
    block = [(0, "Select #2 (subquery in projection; dependent)")] + [(d + 1, t) for d, t in SUBQUERY]
    plan = parse(tree(outer) + gap + tree(block))

    assert len(plan.plan) == 1
    assert shape(plan) == operations(outer + [(d + 1, t) for d, t in block])
    assert any("top of the plan" in notice for notice in plan.notices)


def test_a_subquery_block_in_its_place_is_left_alone() -> None:
    lines = [
        (0, "Filter: (o.total > (select #2))  (cost=1.25 rows=3)"),
        (1, "Table scan on o  (cost=1.25 rows=10)"),
        (1, "Select #2 (subquery in condition; run only once)"),
        (2, "Aggregate: avg(o2.total)  (cost=2.25 rows=1)"),
        (3, "Table scan on o2  (cost=1.25 rows=10)"),
        (1, "Select #3 (subquery in projection; run only once)"),
        (2, "Table scan on x  (cost=1 rows=1)"),
    ]
    plan = parse(tree(lines))

    assert shape(plan) == operations(lines)
    assert not any("Repaired" in notice for notice in plan.notices) and clean(plan)


@pytest.mark.parametrize("gap", ["\n", "\nafter adding an index:\n\n"])
def test_two_separate_plans_stay_two(gap: str) -> None:
    plan = parse(tree(JOIN) + gap + tree(DEEP))

    assert [row["table"] for row in plan.rows] == ["o", "c"]
    assert any("2 plans" in notice for notice in plan.notices)
    assert not any("Repaired" in notice for notice in plan.notices)


def test_a_repeated_select_number_starts_no_block_of_the_plan() -> None:
    first = [(0, "Filter: (a > 1)  (cost=1 rows=1)"), (1, "Select #2 (subquery in condition)"), (2, *SUBQUERY[1][1:])]
    plan = parse(tree(first) + "\n" + tree([(0, "Select #2 (subquery in condition)"), (1, SUBQUERY[1][1])]))

    assert any("2 plans" in notice for notice in plan.notices)


# --- 4. indentation that does not say where a line belongs ------------------------------------------


@pytest.mark.parametrize("shift", [1, 2, 3])
def test_a_line_between_two_levels_is_uncertain(shift: int) -> None:
    text = (
        tree(
            [
                (0, "Nested loop inner join  (cost=4.5 rows=10)"),
                (1, "Nested loop inner join  (cost=3 rows=10)"),
                (2, "Table scan on a  (cost=1.25 rows=10)"),
                (2, "Table scan on b  (cost=1.25 rows=10)"),
            ]
        )
        + " " * (4 + shift)
        + "-> Table scan on c  (cost=1.25 rows=10)\n"
    )
    plan = parse(text)

    assert plan.uncertain and not plan.truncated
    assert [row["table"] for row in plan.rows] == ["a", "b", "c"]
    assert any("indentation of line 5" in notice for notice in plan.notices)


def test_tabs_mixed_with_spaces_that_nest_two_ways_are_uncertain() -> None:
    text = (
        "-> Nested loop inner join  (cost=4.5 rows=10)\n"
        "\t-> Nested loop inner join  (cost=3 rows=10)\n"
        "\t    -> Table scan on a  (cost=1.25 rows=10)\n"
        "\t-> Table scan on b  (cost=1.25 rows=10)\n"
        "        -> Table scan on c  (cost=1.25 rows=10)\n"
    )
    plan = parse(text)

    assert plan.uncertain
    assert any("mixes tabs and spaces" in notice and "line 5" in notice for notice in plan.notices)


def test_tabs_mixed_with_spaces_that_nest_one_way_only_are_read_that_way() -> None:
    text = (
        "-> Nested loop inner join  (cost=4.5 rows=10)\n"
        "        -> Nested loop inner join  (cost=3 rows=10)\n"
        "\t\t-> Table scan on a  (cost=1.25 rows=10)\n"
        "\t-> Table scan on b  (cost=1.25 rows=10)\n"
    )
    plan = parse(text)

    assert not plan.uncertain
    assert shape(plan) == [
        (0, "Nested loop inner join"),
        (1, "Nested loop inner join"),
        (2, "Table scan on a"),
        (1, "Table scan on b"),
    ]
    assert any("as 8 spaces" in notice for notice in plan.notices)


@pytest.mark.parametrize("width", [1, 2, 3, 4, 8])
@pytest.mark.parametrize("lead", ["", "   "])
def test_consistent_indentation_is_never_flagged(width: int, lead: str) -> None:
    lines = [
        (0, "Nested loop inner join  (cost=9 rows=10)"),
        (1, "Filter: (o.status = 'open')  (cost=3.25 rows=30)"),
        (2, "Table scan on o  (cost=3.25 rows=300)"),
        (1, "Nested loop inner join  (cost=2 rows=1)"),
        (2, "Table scan on z  (cost=1 rows=1)"),
        (2, "Table scan on y  (cost=1 rows=1)"),
    ]
    plan = parse(tree(lines, width=width, lead=lead))

    assert clean(plan) and shape(plan) == operations(lines)


def test_tabs_alone_are_never_flagged() -> None:
    plan = parse("\n".join("\t" * depth + "-> " + text for depth, text in DEEP))

    assert clean(plan) and shape(plan) == operations(DEEP)
