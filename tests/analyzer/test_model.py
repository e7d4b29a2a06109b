"""The plan model: every reader produces a typed PlanNode tree, linked to the printed rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer import ParseError, analyze
from analyzer.model import JOIN_ALGORITHMS, OPERATIONS, PlanNode

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _paste(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            case = json.loads(text)
        except ValueError:
            return text
        if isinstance(case, dict) and isinstance(case.get("input"), str):
            return case["input"]  # a test case holding the paste; other JSON files are plans
    return text


def _node(tree: PlanNode, **match: object) -> PlanNode:
    found = [n for n in tree.walk() if all(getattr(n, k) == v for k, v in match.items())]
    assert len(found) == 1, [n.label for n in found]
    return found[0]


def test_tabular_plan_nests_derived_tables_and_subqueries():
    paste = (
        "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
        "1\tPRIMARY\t<derived2>\tALL\tNULL\tNULL\tNULL\tNULL\t200\tUsing where\n"
        "1\tPRIMARY\tc\tref\tidx_a,idx_b\tidx_a\t4\td.id\t3\t\n"
        "2\tDERIVED\to\tALL\tNULL\tNULL\tNULL\tNULL\t5000\tUsing temporary\n"
        "3\tDEPENDENT SUBQUERY\tx\teq_ref\tPRIMARY\tPRIMARY\t4\tc.x\t1\tUsing index\n"
    )
    tree = analyze(paste).plan.tree
    assert tree is not None and tree.operation == "query"
    [primary] = tree.children
    assert (primary.operation, primary.select_id, primary.select_type) == ("select", 1, "PRIMARY")
    derived, c = primary.children[:2]
    assert (derived.table, derived.row, derived.rows_estimated, derived.join_algorithm) == ("<derived2>", 0, 200.0, None)
    assert derived.children[0].select_id == 2 and derived.children[0].children[0].table == "o"
    assert (c.possible_keys, c.key, c.key_length, c.ref, c.rows_estimated) == (["idx_a", "idx_b"], "idx_a", 4, ["d.id"], 3.0)
    assert c.join_algorithm == "nested_loop" and c.extra == []
    subquery = _node(tree, select_id=3, operation="select")
    assert subquery.select_type == "DEPENDENT SUBQUERY" and subquery.children[0].extra == ["Using index"]
    assert subquery not in tree.children and subquery in primary.walk()


def test_union_result_holds_its_members_and_every_row_has_one_node():
    paste = (
        "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
        "1\tPRIMARY\ta\tALL\tNULL\tNULL\tNULL\tNULL\t10\t\n"
        "2\tUNION\tb\tALL\tNULL\tNULL\tNULL\tNULL\t20\t\n"
        "NULL\tUNION RESULT\t<union1,2>\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\tUsing temporary\n"
    )
    plan = analyze(paste).plan
    assert plan.tree is not None
    [union] = plan.tree.children
    assert (union.operation, union.table, union.select_id, union.row) == ("union", "<union1,2>", None, 2)
    assert [child.select_id for child in union.children] == [1, 2]
    assert sorted(plan.tree.by_row()) == [0, 1, 2]


@pytest.mark.parametrize(
    ("extra", "algorithm"),
    [
        ("Using where; Using join buffer (hash join)", "hash"),
        ("Using join buffer (Block Nested Loop)", "block_nested_loop"),
        ("Using join buffer (flat, BNL join)", "block_nested_loop"),
        ("Using join buffer (flat, BNLH join)", "hash"),
        ("Using join buffer (Batched Key Access)", "batched_key_access"),
        ("Using join buffer (incremental, BKA join); Key-ordered scan", "batched_key_access"),
        ("Using where", "nested_loop"),
    ],
)
def test_join_algorithm_of_a_joined_table(extra, algorithm):
    paste = (
        "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
        "1\tSIMPLE\ta\tALL\tNULL\tNULL\tNULL\tNULL\t10\tNULL\n"
        f"1\tSIMPLE\tb\tALL\tNULL\tNULL\tNULL\tNULL\t20\t{extra}\n"
    )
    tree = analyze(paste).plan.tree
    assert tree is not None
    assert _node(tree, table="a").join_algorithm is None
    assert _node(tree, table="b").join_algorithm == algorithm


def test_mysql_explain_analyze_tree_gives_times_loops_and_cost():
    tree = analyze((FIXTURES / "tree" / "dependent_subquery_analyze.txt").read_text()).plan.tree
    assert tree is not None
    top = tree.children[0]
    assert (top.operation, top.cost, top.rows_estimated, top.rows_actual, top.loops) == ("filter", 0.75, 1.0, 2.0, 1)
    assert (top.time_first_ms, top.time_last_ms) == (0.412, 0.598)
    lookup = _node(tree, table="i")
    assert (lookup.operation, lookup.access_type, lookup.key, lookup.loops, lookup.rows_actual) == (
        "table",
        "ref",
        "idx_shop",
        2,
        80.0,
    )
    assert (lookup.select_id, lookup.select_type, lookup.row) == (2, "DEPENDENT SUBQUERY", 1)
    subquery = _node(tree, operation="subquery", select_id=2)
    assert subquery.select_type == "DEPENDENT SUBQUERY" and subquery.children[0].operation == "aggregate"
    never = _node(tree, table="x")
    assert (never.loops, never.time_last_ms, never.rows_estimated) == (0, None, 3000.0)


def test_mysql_tree_hash_join_is_a_join_node():
    tree = analyze((FIXTURES / "tree" / "hash_join_compact.txt").read_text()).plan.tree
    assert tree is not None
    join = tree.children[0]
    assert (join.operation, join.join_algorithm, join.condition) == ("join", "hash", "x.qty = i.price")
    assert [n.table for n in join.walk() if n.operation == "table"] == ["x", "i"]


def test_mariadb_analyze_json_keeps_r_figures():
    tree = analyze((FIXTURES / "json" / "mariadb" / "bnlh_join.analyze.json").read_text()).plan.tree
    assert tree is not None
    select = tree.children[0]
    assert (select.operation, select.select_id, select.r_loops, select.r_total_time_ms) == ("select", 1, 1, 0.822787927)
    i, s = select.children
    assert (i.access_type, i.key, i.key_length, i.rows_estimated, i.r_rows, i.r_filtered) == (
        "range",
        "idx_price",
        5,
        14.0,
        14.0,
        100.0,
    )
    assert (i.r_table_time_ms, i.r_other_time_ms, i.possible_keys) == (0.037951195, 0.010090199, ["idx_price"])
    assert (s.join_algorithm, s.condition, s.ref, s.r_loops) == ("hash", "s.qty = i.price", ["jt_scratch.i.price"], 1)


def test_mysql_json_version_2_maps_operations():
    tree = analyze((FIXTURES / "json" / "mysql" / "mysql84_v2_analyze.json").read_text()).plan.tree
    assert tree is not None
    join = tree.children[0]
    assert (join.operation, join.join_algorithm, join.loops) == ("join", "nested_loop", 1)
    scan = _node(tree, table="i")
    assert (scan.access_type, scan.rows_estimated, scan.time_last_ms, scan.cost, scan.row) == (
        "ALL",
        400.0,
        0.244,
        40.75,
        0,
    )
    assert _node(tree, table="s").loops == 20


def test_mysql_json_version_1_costs_and_wrappers():
    tree = analyze((FIXTURES / "json" / "mysql" / "mysql57_join.json").read_text()).plan.tree
    assert tree is not None
    select = tree.children[0]
    assert (select.cost, [n.table for n in select.children]) == (9.61, ["i", "s"])
    assert [n.cost for n in select.children] == [81.83, 128.5]
    assert select.children[1].join_algorithm == "nested_loop"


def test_a_cell_cut_short_gives_no_figure():
    paste = (
        "+----+-------------+-------+------+---------------+------+---------+------+-------+-------+\n"
        "| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows  | Extra |\n"
        "+----+-------------+-------+------+---------------+------+---------+------+-------+-------+\n"
        "|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL | 12\n"
    )
    plan = analyze(paste).plan
    assert plan.truncated and plan.tree is not None
    node = _node(plan.tree, table="t")
    assert plan.rows[0]["rows"] != "12" and node.rows_estimated is None


def test_model_round_trips_through_the_api_dict():
    analysis = analyze((FIXTURES / "tree" / "dependent_subquery_analyze.txt").read_text())
    data = analysis.to_dict()["tree"]
    assert json.loads(json.dumps(data)) == data
    assert PlanNode.from_dict(data) == analysis.plan.tree


@pytest.mark.parametrize(
    "junk",
    [None, 3, "tree", [], {"operation": 1, "label": "x"}, {"label": "x"}],
)
def test_from_dict_refuses_what_is_not_a_node(junk):
    assert PlanNode.from_dict(junk) is None


def test_from_dict_drops_mistyped_fields():
    node = PlanNode.from_dict(
        {"operation": "table", "label": "t", "rows_estimated": "many", "loops": True, "extra": ["a", 3], "children": [7]}
    )
    assert node == PlanNode("table", "t", extra=["a"])


def _fixture_pastes() -> list[Path]:
    paths = [p for p in sorted(FIXTURES.rglob("*")) if p.is_file() and p.suffix in (".txt", ".json", ".tsv")]
    qa = [p for p in paths if "qa" in p.parts]
    return [p for p in paths if "qa" not in p.parts] + qa[::7]


def test_every_fixture_gives_a_well_typed_model():
    checked = 0
    for path in _fixture_pastes():
        try:
            plan = analyze(_paste(path)).plan
        except (ParseError, ValueError, UnicodeDecodeError):
            continue
        checked += 1
        tree = plan.tree
        assert tree is not None and tree.operation == "query", path
        linked = [n for n in tree.walk() if n.row is not None]
        assert len({n.row for n in linked}) == len(linked), f"{path}: a row linked twice"
        assert sorted(n.row for n in linked) == list(range(len(plan.rows))), f"{path}: a row without a node"
        for node in tree.walk():
            assert node.operation in OPERATIONS and node.join_algorithm in (None, *JOIN_ALGORITHMS), path
            for name in ("rows_estimated", "filtered", "cost", "rows_actual", "time_last_ms", "r_total_time_ms"):
                assert getattr(node, name) is None or isinstance(getattr(node, name), float), (path, name)
            assert node.loops is None or isinstance(node.loops, int), path
            if node.row is not None and plan.format != "tree":
                assert node.table == (plan.rows[node.row].get("table") or None), path
    assert checked > 300


def test_blocks_that_name_each_other_are_still_all_in_the_model():
    paste = (
        "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
        "1\tDERIVED\t<derived2>\tALL\tNULL\tNULL\tNULL\tNULL\t10\t\n"
        "2\tDERIVED\t<derived3>\tALL\tNULL\tNULL\tNULL\tNULL\t10\t\n"
        "3\tDERIVED\t<derived1>\tALL\tNULL\tNULL\tNULL\tNULL\t10\t\n"
    )
    tree = analyze(paste).plan.tree
    assert tree is not None
    assert sorted(tree.by_row()) == [0, 1, 2]


def test_a_long_chain_of_subqueries_is_modelled_without_dropping_rows():
    lines = ["id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra"]
    lines += [f"{n}\tDEPENDENT SUBQUERY\tt{n}\tALL\tNULL\tNULL\tNULL\tNULL\t10\t" for n in range(1, 3001)]
    plan = analyze("\n".join(lines) + "\n").plan
    assert plan.tree is not None
    assert sorted(plan.tree.by_row()) == list(range(3000))
    assert PlanNode.from_dict(plan.tree.to_dict()) == plan.tree


def test_mysql_json_subqueries_and_derived_tables_keep_their_place():
    tree = analyze((FIXTURES / "json" / "mysql" / "mysql80_derived_subqueries.json").read_text()).plan.tree
    assert tree is not None
    d = _node(tree, table="d")
    subquery, materialize = d.children
    assert (subquery.operation, subquery.label) == ("subquery", "dependent subquery")
    assert (subquery.children[0].select_id, subquery.children[0].select_type) == (3, "DEPENDENT SUBQUERY")
    assert materialize.operation == "materialize" and materialize.children[0].select_type == "DERIVED"
    grouping = materialize.children[0].children[0]
    assert grouping.operation == "aggregate" and grouping.children[0].table == "item"


def test_walk_paths_gives_each_node_with_its_child_indexes():
    a, b, c = PlanNode("table", "a"), PlanNode("table", "b"), PlanNode("table", "c")
    root = PlanNode("query", "query", children=[PlanNode("join", "j", children=[a, b]), c])
    assert [(path, node.label) for path, node in root.walk_paths()] == [
        ((), "query"),
        ((0,), "j"),
        ((0, 0), "a"),
        ((0, 1), "b"),
        ((1,), "c"),
    ]


def test_analysis_dict_has_the_profile_and_finding_paths():
    timed = analyze("-> Table scan on t  (cost=1.25 rows=10) (actual time=0.02..0.05 rows=10 loops=2)\n").to_dict()
    # 0.05 ms per loop x 2 loops.
    assert timed["profile"]["total_ms"] == 0.1
    assert timed["profile"]["nodes"][0]["path"] == [0]
    assert [finding["path"] for finding in timed["findings"]] == [[0], [0]]  # full scan, time hotspot
    untimed = analyze("-> Table scan on t  (cost=1.25 rows=10)\n").to_dict()
    assert untimed["profile"] is None
    assert list(timed) == list(untimed)
