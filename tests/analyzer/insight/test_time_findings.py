"""Findings from what ANALYZE measured: the steps holding most of the time, estimates off on steps
without a printed row, steps never executed, and the tree path every finding about one node carries.

The figures in the expected messages are the hand-computed ones of `test_profile.py`.
"""

from __future__ import annotations

from pathlib import Path

from analyzer import analyze

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NEW_KINDS = {"time-hotspot", "never-executed"}


def analysis_of(relative: str):
    return analyze((FIXTURES / relative).read_text(encoding="utf-8"))


def of_kind(analysis, kind: str) -> list[tuple[str, list[int], list[int] | None, str]]:
    return [(f.severity, f.rows, f.path, f.message) for f in analysis.findings if f.kind == kind]


def test_the_step_holding_most_of_the_time_is_named_with_its_loops():
    analysis = analysis_of("profile/mysql8018_blog_staff_payment.txt")
    # 39.976 / 58.104 = 68.8%, more than half: one step is enough. It is printed row 2 (payment).
    assert of_kind(analysis, "time-hotspot") == [
        (
            "info",
            [1],
            [0, 0, 0, 1, 0],
            "69% of the time (39.976 of 58.104 ms) is in Index lookup on payment using idx_fk_staff_id "
            "(staff_id=staff.staff_id): 19.988 ms x 2 loops.",
        )
    ]


def test_steps_are_named_until_they_hold_half_the_time():
    analysis = analysis_of("profile/sb_miniproject_hash_joins_never_executed.txt")
    # 0.09 / 0.3 = 30%, then 0.088 / 0.3 = 29.3%: together more than half, so two steps.
    [join, scan] = of_kind(analysis, "time-hotspot")
    assert join[:3] == ("info", [], [0, 1, 0, 1, 0, 0])
    assert join[3] == (
        "30% of the time (0.09 of 0.3 ms) is in Inner hash join (<hash>(teaching.semester)=<hash>(transcript.semester)), "
        "(<hash>(teaching.crsCode)=… itself: 0.253 ms x 1 loop with the steps under it."
    )
    assert scan == (
        "info",
        [2],
        [0, 1, 0, 1, 0, 0, 0],
        "29% of the time (0.088 of 0.3 ms) is in Table scan on Teaching: 0.088 ms x 1 loop.",
    )


def test_mariadb_hotspot_gives_the_total_over_its_loops():
    analysis = analysis_of("real/plans/mariadb_doc_analyze_json_subquery.txt")
    # 39208 / 39872 = 98.3% in orders, over its 150,000 loops.
    assert of_kind(analysis, "time-hotspot") == [
        (
            "info",
            [1],
            [0, 1, 0, 0],
            "98% of the time (39,208 of 39,872 ms) is in table `orders`: 39,208 ms in 150,000 loops.",
        )
    ]


def test_estimates_off_on_steps_without_a_row():
    analysis = analysis_of("profile/isucon_correlated_subquery.txt")
    off = of_kind(analysis, "estimate-off")
    # Join: 9946 estimated, 10 returned: 9946 / 10 = 995x. Filter and sort: 995 estimated, 1: 995x.
    # The lookup on con (995 vs 1000) and the limit (1 vs 1) are close enough.
    assert [(rows, path) for _, rows, path, _ in off] == [([], [0]), ([], [0, 1]), ([], [0, 1, 1, 0, 0])]
    assert off[0][3] == (
        "Nested loop left join: the optimizer estimated 9,946 rows but 10 were returned (995x fewer). "
        "Outdated statistics (ANALYZE TABLE) or skewed data can mislead the plan."
    )
    assert off[1][3].startswith("Filter: (con.`timestamp` = (select #3)): the optimizer estimated 995 rows but 1 ")
    assert {severity for severity, *_ in off} == {"warning"}
    hotspot = of_kind(analysis, "time-hotspot")
    # 33480 / 44468.229 = 75.3%.
    assert [message for *_, message in hotspot] == [
        "75% of the time (33,480 of 44,468.229 ms) is in Index lookup on latest using jia_isu_uuid_timestamp_idx "
        "(jia_isu_uuid=con.jia_isu_uuid): 3.348 ms x 10,000 loops."
    ]


def test_never_executed_steps_are_named_once_with_the_steps_under_them():
    analysis = analysis_of("profile/sb_miniproject_hash_joins_never_executed.txt")
    assert of_kind(analysis, "never-executed") == [
        (
            "info",
            [0],
            [0, 0],
            "Table scan on Student was never executed: no row reached it, so ANALYZE measured nothing there "
            "and its estimates went untested.",
        ),
        (
            "info",
            [1],
            [0, 1, 0, 0],
            "Filter: (professor.`name` = <cache>((@v5))) was never executed (nor the 1 step under it): no row "
            "reached it, so ANALYZE measured nothing there and its estimates went untested.",
        ),
    ]


def test_mariadb_r_loops_zero_is_never_executed_except_for_const_tables_and_nodes_whose_steps_ran():
    empty = analysis_of("json/mariadb/empty_join.analyze.json")
    assert of_kind(empty, "never-executed") == [
        (
            "info",
            [1],
            [0, 1],
            "Table `b` was never executed: no row reached it, so ANALYZE measured nothing there and its "
            "estimates went untested.",
        )
    ]
    # `r` is a const table, read while planning (r_loops 0); the recursive CTE's union prints r_loops 0
    # while the select under it ran 5 times.
    assert of_kind(analysis_of("json/mariadb/const_table.analyze.json"), "never-executed") == []
    assert of_kind(analysis_of("json/mariadb/cte_recursive.analyze.json"), "never-executed") == []


def test_findings_about_one_row_carry_the_path_of_its_node():
    analysis = analysis_of("profile/sb_miniproject_hash_joins_never_executed.txt")
    scans = {tuple(f.rows): f.path for f in analysis.findings if f.kind == "full-table-scan"}
    # Student [0,0]; Professor under the second join's filter; Teaching and Transcript under the third join.
    assert scans == {
        (0,): [0, 0],
        (1,): [0, 1, 0, 0, 0],
        (2,): [0, 1, 0, 1, 0, 0, 0],
        (3,): [0, 1, 0, 1, 0, 0, 1, 0],
    }
    tabular = analyze(
        "+----+-------------+-------+------+------+\n"
        "| id | select_type | table | type | rows |\n"
        "+----+-------------+-------+------+------+\n"
        "|  1 | SIMPLE      | a     | ALL  | 5000 |\n"
        "|  1 | SIMPLE      | b     | ALL  | 5000 |\n"
        "+----+-------------+-------+------+------+\n"
    )
    paths = {(f.kind, tuple(f.rows)): f.path for f in tabular.findings}
    # query -> select #1 -> the two tables; the join product is about both rows, so no single node.
    assert paths == {
        ("full-table-scan", (0,)): [0, 0],
        ("full-table-scan", (1,)): [0, 1],
        ("join-rows", (0, 1)): None,
    }
    assert sorted(str(f["path"]) for f in tabular.to_dict()["findings"]) == ["None", "[0, 0]", "[0, 1]"]


def test_plans_without_times_get_no_new_findings():
    for relative in ("real/docs/kb_mariadb_analyze_vertical.txt", "tree/group_sort.txt", "json/mariadb/join_bnl.explain.json"):
        analysis = analysis_of(relative)
        assert analysis.profile is None
        assert not [f for f in analysis.findings if f.kind in NEW_KINDS or not f.rows], relative
