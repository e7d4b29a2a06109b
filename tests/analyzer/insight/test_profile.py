"""The time profile on real EXPLAIN ANALYZE outputs, against figures worked out by hand.

Each expected value was computed from the figures printed in the fixture, as each comment shows:
MySQL prints a node's time to its last row per loop, so its total is `last x loops` and its self
time its total minus its children's totals; MariaDB prints totals (see `analyzer/insight/profile.py`).
Paths are child indexes from the root of the plan tree (`query` node), read off the indentation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer import analyze
from analyzer.insight.profile import format_factor, format_ms, node_at, profile, short_label
from analyzer.model import PlanNode

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def paste_of(relative: str) -> str:
    """The paste of a fixture; the shared samples keep theirs under `input`."""
    text = (FIXTURES / relative).read_text(encoding="utf-8")
    return json.loads(text)["input"] if relative.startswith("samples/") else text


def analysis_of(relative: str):
    return analyze(paste_of(relative))


def by_path(analysis) -> dict[tuple[int, ...], dict]:
    assert analysis.profile is not None
    return {tuple(node["path"]): node for node in analysis.profile.to_dict()["nodes"]}


def figures(entry: dict) -> tuple:
    return entry["loops"], entry["total_ms"], entry["self_ms"], entry["share"]


def approx(*values: float):
    """The figures as worked out by hand, to the 5 or 6 significant digits written down."""
    return pytest.approx(values, rel=1e-5, abs=1e-12)


def near(value: float):
    return pytest.approx(value, rel=1e-5)


# --- MySQL EXPLAIN ANALYZE ------------------------------------------------------------------------


def test_mysql_blog_plan_times_every_step_and_survives_the_untimed_temporary_scan():
    analysis = analysis_of("profile/mysql8018_blog_staff_payment.txt")
    nodes = by_path(analysis)
    # Totals: last time x loops. Self: total minus the children's totals.
    # [0] Table scan on <temporary>: 0.001 x 1, under it 58.104 -> self clamped to 0.
    # [0,0] Aggregate: 58.104 x 1 - 46.135 = 11.969.
    # [0,0,0] Nested loop: 46.135 - (0.051 x 1) - (22.767 x 2 = 45.534) = 0.55.
    # [0,0,0,1] Filter: 45.534 - (19.988 x 2 = 39.976) = 5.558.
    # The temporary scan printed less than its child took, so the plan's total is the sum of the self
    # times: 0 + 11.969 + 0.55 + 0.051 + 5.558 + 39.976 = 58.104; shares are self / 58.104.
    assert analysis.profile.total_ms == pytest.approx(58.104)
    assert figures(nodes[(0,)]) == approx(1, 0.001, 0.0, 0.0)
    assert figures(nodes[(0, 0)]) == approx(1, 58.104, 11.969, 0.205993)  # 11.969 / 58.104
    assert figures(nodes[(0, 0, 0)]) == approx(1, 46.135, 0.55, 0.00946579)  # 0.55 / 58.104
    assert figures(nodes[(0, 0, 0, 0)]) == approx(1, 0.051, 0.051, 0.000877736)  # 0.051 / 58.104
    assert figures(nodes[(0, 0, 0, 1)]) == approx(2, 45.534, 5.558, 0.0956561)  # 5.558 / 58.104
    assert figures(nodes[(0, 0, 0, 1, 0)]) == approx(2, 39.976, 39.976, 0.688008)  # 39.976 / 58.104
    # Estimate factors, actual / estimated rows per loop: 5687/1787, 2844/894, 8024/8043, 2/2; none
    # where the estimate is not printed.
    factors = [nodes[path]["estimate_factor"] for path in sorted(nodes)]
    assert factors[:2] == [None, None]
    assert factors[2:] == approx(3.182429, 1.0, 3.181208, 0.997638)
    assert [node.label for node in analysis.profile.nodes] == [
        "Index lookup on payment using idx_fk_staff_id (staff_id=staff.staff_id)",
        "Aggregate using temporary table",
        "Filter: (payment.payment_date like '2005-08%')",
        "Nested loop inner join",
        "Table scan on staff",
        "Table scan on <temporary>",
    ]
    lookup = nodes[(0, 0, 0, 1, 0)]
    assert (lookup["table"], lookup["rows_estimated"], lookup["rows_actual"]) == ("payment", 8043.0, 8024.0)
    assert nodes[(0,)]["table"] == "<temporary>"


def test_mysql_manual_hash_join_passes_the_hash_build_up_through_the_untimed_hash_node():
    analysis = analysis_of("profile/mysql80_manual_hash_join.txt")
    nodes = by_path(analysis)
    # [0] Inner hash join 0.035 x 1; children: [0,0] t2 0.005 and [0,1] Hash (no time), which passes
    # up [0,1,0] t1 0.022. Self of the join: 0.035 - 0.005 - 0.022 = 0.008. Shares over 0.035.
    assert analysis.profile.total_ms == pytest.approx(0.035)
    assert set(nodes) == {(0,), (0, 0), (0, 1, 0)}
    assert figures(nodes[(0,)]) == approx(1, 0.035, 0.008, 0.228571)  # 0.008 / 0.035
    assert figures(nodes[(0, 0)]) == approx(1, 0.005, 0.005, 0.142857)  # 0.005 / 0.035
    assert figures(nodes[(0, 1, 0)]) == approx(1, 0.022, 0.022, 0.628571)  # 0.022 / 0.035
    assert [node["estimate_factor"] for node in nodes.values()] == [1.0, 1.0, 1.0]  # 6 rows of 6 each


def test_mysql_dependent_subquery_time_reaches_the_filter_through_its_select_heading():
    analysis = analysis_of("profile/isucon_correlated_subquery.txt")
    nodes = by_path(analysis)
    # [0] Nested loop: 44468.229 x 1 - [0,0] (0.320 x 1) - [0,1] (4446.771 x 10 = 44467.71) = 0.199.
    # [0,1] Filter: 44467.71 - [0,1,0] (10.217 x 10 = 102.17) - [0,1,1] Select #3 (no time) passing up
    #       [0,1,1,0] Limit 4.430 x 10000 = 44300 -> 44467.71 - 102.17 - 44300 = 65.54.
    # [0,1,1,0] Limit: 44300 - Sort (4.427 x 10000 = 44270) = 30.
    # [0,1,1,0,0] Sort: 44270 - lookup (3.348 x 10000 = 33480) = 10790.
    # Self times add up to 44468.229, the root's total (no clamping).
    assert analysis.profile.total_ms == pytest.approx(44468.229)
    assert figures(nodes[(0,)]) == approx(1, 44468.229, 0.199, 4.47511e-06)
    assert figures(nodes[(0, 0)]) == approx(1, 0.32, 0.32, 7.19615e-06)
    assert figures(nodes[(0, 1)]) == approx(10, 44467.71, 65.54, 0.00147386)
    assert figures(nodes[(0, 1, 0)]) == approx(10, 102.17, 102.17, 0.0022976)
    assert figures(nodes[(0, 1, 1, 0)]) == approx(10000, 44300.0, 30.0, 0.000674639)
    assert figures(nodes[(0, 1, 1, 0, 0)]) == approx(10000, 44270.0, 10790.0, 0.242645)  # 10790 / 44468.229
    assert figures(nodes[(0, 1, 1, 0, 0, 0)]) == approx(10000, 33480.0, 33480.0, 0.752897)  # 33480 / 44468.229
    assert (1, 1) not in [path[:2] for path in nodes if len(path) == 3]  # the Select #3 heading has no entry
    # 10/9946 on the join, 1/995 on the filter and the sort, 1000/995 on the lookup on con; the lookup
    # on latest prints no estimate.
    assert nodes[(0,)]["estimate_factor"] == near(0.00100543)
    assert nodes[(0, 1)]["estimate_factor"] == near(0.00100503)
    assert nodes[(0, 1, 0)]["estimate_factor"] == near(1.00503)
    assert nodes[(0, 1, 1, 0, 0)]["estimate_factor"] == near(0.00100503)
    assert nodes[(0, 1, 1, 0, 0, 0)]["estimate_factor"] is None


def test_mysql_never_executed_steps_have_no_entry_and_hash_joins_share_the_time():
    analysis = analysis_of("profile/sb_miniproject_hash_joins_never_executed.txt")
    nodes = by_path(analysis)
    # [0] join 0.300 - [0,1,0] (Hash passes it up) 0.276 = 0.024; [0,1,0] 0.276 - [0,1,0,1,0] 0.253 = 0.023;
    # [0,1,0,1,0] Filter 0.253 - its join 0.253 = 0; [0,1,0,1,0,0] join 0.253 - 0.088 - 0.075 = 0.09.
    # The never executed scans of Student and Professor (and the filter above Professor) have no time.
    assert analysis.profile.total_ms == pytest.approx(0.3)
    assert sorted(nodes) == [(0,), (0, 1, 0), (0, 1, 0, 1, 0), (0, 1, 0, 1, 0, 0), (0, 1, 0, 1, 0, 0, 0), (0, 1, 0, 1, 0, 0, 1, 0)]
    assert figures(nodes[(0,)]) == approx(1, 0.3, 0.024, 0.08)  # 0.024 / 0.3
    assert figures(nodes[(0, 1, 0)]) == approx(1, 0.276, 0.023, 0.0766667)
    assert figures(nodes[(0, 1, 0, 1, 0)]) == approx(1, 0.253, 0.0, 0.0)
    assert figures(nodes[(0, 1, 0, 1, 0, 0)]) == approx(1, 0.253, 0.09, 0.3)
    assert figures(nodes[(0, 1, 0, 1, 0, 0, 0)]) == approx(1, 0.088, 0.088, 0.293333)
    assert figures(nodes[(0, 1, 0, 1, 0, 0, 1, 0)]) == approx(1, 0.075, 0.075, 0.25)
    # 0 actual rows: no factor (the contract leaves it null when either figure is zero).
    assert nodes[(0,)]["estimate_factor"] is None


def test_mysql_fractional_rows_and_many_loops():
    analysis = analysis_of("real/plans/notes_kr_analyze_tree_box_border_stripped.txt")
    nodes = by_path(analysis)
    # [0] <temporary> 511 - [0,0] aggregate 511 = 0; [0,0] 511 - [0,0,0] join 509 = 2;
    # [0,0,0] 509 - [0,0,0,0] 248 x 1 - [0,0,0,1] 1.12 x 233 (= 260.96) = 0.04;
    # [0,0,0,1] 260.96 - [0,0,0,1,0] 1.11 x 233 (= 258.63) = 2.33. Total 511; shares over 511.
    assert analysis.profile.total_ms == pytest.approx(511.0)
    assert figures(nodes[(0,)]) == approx(1, 511.0, 0.0, 0.0)
    assert figures(nodes[(0, 0)]) == approx(1, 511.0, 2.0, 0.00391389)
    assert figures(nodes[(0, 0, 0)]) == approx(1, 509.0, 0.04, 7.82779e-05)
    assert figures(nodes[(0, 0, 0, 0)]) == approx(1, 248.0, 248.0, 0.485323)
    assert figures(nodes[(0, 0, 0, 1)]) == approx(233, 260.96, 2.33, 0.00455969)
    assert figures(nodes[(0, 0, 0, 1, 0)]) == approx(233, 258.63, 258.63, 0.506125)
    # 9.53 / 9.4 and 0.85 / 1.57 rows per loop; 198 / 365 on the join.
    assert nodes[(0, 0, 0, 1, 0)]["estimate_factor"] == near(1.01383)
    assert nodes[(0, 0, 0, 1)]["estimate_factor"] == near(0.541401)
    assert nodes[(0, 0, 0)]["estimate_factor"] == near(0.542466)


def test_mysql_explain_analyze_format_json():
    analysis = analysis_of("real/plans/mysql95_doc_analyze_json_into_user_variable.txt")
    nodes = by_path(analysis)
    # actual_last_row_ms x actual_loops: filter 0.020957, range scan 0.018502;
    # filter self 0.020957 - 0.018502 = 0.002455; shares over 0.020957.
    assert analysis.profile.total_ms == pytest.approx(0.020957)
    assert figures(nodes[(0,)]) == approx(1, 0.020957, 0.002455, 0.117145)
    assert figures(nodes[(0, 0)]) == approx(1, 0.018502, 0.018502, 0.882855)
    assert nodes[(0, 0)]["estimate_factor"] == 1.0  # 17.0 / 17.0


# --- MariaDB ANALYZE FORMAT=JSON ------------------------------------------------------------------


def test_mariadb_documentation_example_with_table_totals_of_older_servers():
    analysis = analysis_of("real/plans/mariadb_doc_analyze_json_subquery.txt")
    nodes = by_path(analysis)
    # Tables print r_total_time_ms, their own time: customer 270.3, orders 39208 (150000 loops).
    # [0,1,0] select #2: 39531 holds orders (39208 fits) -> self 323.
    # [0] select #1: 39872 holds customer (270.3) and, through the subquery list, select #2 (39531):
    # 39801.3 fits -> self 70.7. Total 39872.
    assert analysis.profile.total_ms == pytest.approx(39872.0)
    assert figures(nodes[(0,)]) == approx(1, 39872.0, 70.7, 0.00177317)  # 70.7 / 39872
    assert figures(nodes[(0, 0)]) == approx(1, 270.3, 270.3, 0.00677919)  # 270.3 / 39872
    assert figures(nodes[(0, 1, 0)]) == approx(150000, 39531.0, 323.0, 0.00810092)  # 323 / 39872
    assert figures(nodes[(0, 1, 0, 0)]) == approx(150000, 39208.0, 39208.0, 0.983347)  # 39208 / 39872
    # r_rows / rows: 10 / 7 for orders, 150000 / 150303 for customer.
    assert nodes[(0, 1, 0, 0)]["estimate_factor"] == near(1.428571)
    assert nodes[(0, 0)]["estimate_factor"] == near(0.997984)
    assert nodes[(0,)]["estimate_factor"] is None


def test_mariadb_table_time_excludes_the_subquery_its_condition_runs():
    analysis = analysis_of("profile/mariadb1011_dependent_subquery_in_where.txt")
    nodes = by_path(analysis)
    # c: 0.158893573 + 0.142026656 = 0.300920229; o: 3.566895752 + 0.228360972 = 3.795256724 (400 loops).
    # Select #2: 3.865929509 - 3.795256724 = 0.070672785.
    # Select #1: 4.263203505 - 0.300920229 - 3.865929509 = 0.096353767.
    assert analysis.profile.total_ms == pytest.approx(4.263203505)
    assert figures(nodes[(0,)]) == approx(1, 4.263203505, 0.096353767, 0.0226012)
    assert figures(nodes[(0, 0)]) == approx(1, 0.300920229, 0.300920229, 0.0705855)
    assert figures(nodes[(0, 1, 0)]) == approx(400, 3.865929509, 0.070672785, 0.0165774)
    assert figures(nodes[(0, 1, 0, 0)]) == approx(400, 3.795256724, 3.795256724, 0.890236)  # 3.795.../4.263...
    assert nodes[(0, 1, 0, 0)]["estimate_factor"] == near(2.5)  # r_rows 10 / rows 4


def test_mariadb_filesort_of_a_temporary_table_is_timed_after_the_join_filled_it():
    analysis = analysis_of("json/mariadb/straight_join_filesort_temp.analyze.json")
    nodes = by_path(analysis)
    # s: 0.015250758 + 0.008614319 = 0.023865077; i: 0.208068931 + 0.044928994 = 0.252997925.
    # The temporary table (no time) passes up 0.276863002, more than the filesort's 0.007339239: the
    # sort did not hold it, so the filesort's self is 0.007339239 and its total 0.284202241.
    # Select #1: 0.299924879 - 0.284202241 = 0.015722638.
    assert analysis.profile.total_ms == pytest.approx(0.299924879)
    assert figures(nodes[(0,)]) == approx(1, 0.299924879, 0.015722638, 0.0524219)
    assert figures(nodes[(0, 0)]) == approx(1, 0.284202241, 0.007339239, 0.0244702)
    assert figures(nodes[(0, 0, 0, 0)]) == approx(1, 0.023865077, 0.023865077, 0.0795701)
    assert figures(nodes[(0, 0, 0, 1)]) == approx(5, 0.252997925, 0.252997925, 0.843538)
    assert sum(node.share for node in analysis.profile.nodes) == pytest.approx(1.0)


def test_mariadb_constant_subquery_run_while_planning_is_outside_the_select_time():
    analysis = analysis_of("json/mariadb/uncorrelated_sub.analyze.json")
    nodes = by_path(analysis)
    # Select #1 prints 0.016074038: its table item (0.010270919 + 0.0026606 = 0.012931519) fits, the
    # subquery's select #2 (0.054607552) does not, so it is added: total 0.07068159,
    # self 0.016074038 - 0.012931519 = 0.003142519. Select #2 holds its item (0.050752193):
    # self 0.054607552 - 0.050752193 = 0.003855359.
    assert analysis.profile.total_ms == pytest.approx(0.07068159)
    assert figures(nodes[(0,)]) == approx(1, 0.07068159, 0.003142519, 0.0444601)
    assert figures(nodes[(0, 0)]) == approx(1, 0.012931519, 0.012931519, 0.182956)
    assert figures(nodes[(0, 1, 0)]) == approx(1, 0.054607552, 0.003855359, 0.0545453)
    assert figures(nodes[(0, 1, 0, 0)]) == approx(1, 0.050752193, 0.050752193, 0.71804)


def test_mariadb_join_buffer_time_counts_for_its_table():
    analysis = analysis_of("json/mariadb/join_bnl.analyze.json")
    nodes = by_path(analysis)
    # s: r_table_time_ms 0.213490531 + its r_other_time_ms 0.033996594 + the block-nl-join's
    # r_unpack_time_ms 1.003988663 and r_other_time_ms 0.823420447 = 2.074896235.
    # i: 0.034858875 + 0.006787039 = 0.041645914. Select #1: 2.123459707 - both = 0.006917558.
    assert figures(nodes[(0, 1)]) == approx(1, 2.074896235, 2.074896235, 0.97713)
    assert figures(nodes[(0, 0)]) == approx(1, 0.041645914, 0.041645914, 0.0196122)
    assert figures(nodes[(0,)]) == approx(1, 2.123459707, 0.006917558, 0.00325769)


def test_mariadb_derived_table_materialization_is_timed_in_its_own_select():
    analysis = analysis_of("json/mariadb/derived.analyze.json")
    nodes = by_path(analysis)
    # <derived2>: own 0.004949719 + 0.004126439 = 0.009076158, plus select #2 under it (0.060812272,
    # which holds item 0.034517515 + 0.014246758 = 0.048764273, self 0.012047999): 0.06988843.
    # Select #1: 0.07018963 - 0.06988843 = 0.0003012.
    assert figures(nodes[(0, 0)]) == approx(1, 0.06988843, 0.009076158, 0.129309)
    assert figures(nodes[(0, 0, 0, 0)]) == approx(1, 0.060812272, 0.012047999, 0.17165)
    assert figures(nodes[(0, 0, 0, 0, 0)]) == approx(1, 0.048764273, 0.048764273, 0.694755)
    assert figures(nodes[(0,)]) == approx(1, 0.07018963, 0.0003012, 0.00429123)
    assert nodes[(0, 0)]["estimate_factor"] == near(0.0125)  # r_rows 5 / rows 400


def test_mariadb_single_table_delete_without_loops_counts_one_pass():
    nodes = by_path(analysis_of("json/mariadb/delete_stmt.analyze.json"))
    # No r_loops anywhere: one pass. sale: 0.1444053 + 0.007399479 = 0.151804779; select 0.159344818.
    assert figures(nodes[(0, 0)])[:3] == approx(1, 0.151804779, 0.151804779)
    assert figures(nodes[(0,)])[:3] == approx(1, 0.159344818, 0.007540039)


# --- plans without times --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative",
    [
        "real/docs/kb_mariadb_analyze_vertical.txt",  # MariaDB tabular ANALYZE: r_rows, no times
        "tree/newer_actual_rows.txt",  # MySQL `(actual rows=… loops=…)` without times
        "tree/group_sort.txt",  # FORMAT=TREE, no ANALYZE
        "json/mariadb/join_bnl.explain.json",  # plain EXPLAIN FORMAT=JSON
        "samples/hr_dept_join.an.table.clean.json",  # MariaDB tabular ANALYZE, captured
        "samples/hr_dept_join.plain.table.clean.json",
    ],
)
def test_plans_without_times_have_no_profile(relative):
    analysis = analysis_of(relative)
    assert analysis.profile is None
    assert analysis.to_dict()["profile"] is None


def test_profile_of_a_hand_built_tree_and_its_helpers():
    leaf = PlanNode("table", "Table scan on t", table="t", loops=4, time_last_ms=0.25, rows_estimated=10, rows_actual=0)
    root = PlanNode("query", "query", children=[PlanNode("subquery", "Select #2", children=[leaf])])
    result = profile(root)
    assert result is not None
    # 0.25 x 4 = 1.0; the only timed node holds all of it; 0 actual rows gives no factor.
    [entry] = result.nodes
    assert (entry.path, entry.total_ms, entry.self_ms, entry.share, entry.estimate_factor) == ((0, 0), 1.0, 1.0, 1.0, None)
    assert node_at(root, entry.path) is leaf
    assert profile(PlanNode("query", "query")) is None
    assert [format_ms(v) for v in (58.104, 44468.229, 0.09, 0.00022, 0.0, 1000.0)] == [
        "58.104",
        "44,468.229",
        "0.09",
        "0.00022",
        "0",
        "1,000",
    ]
    assert [format_factor(v) for v in (None, 3.182428, 0.0010050251, 1005.0)] == ["", "3.18", "0.00101", "1,005"]
    assert short_label("x" * 200, 10) == "x" * 9 + "…"
