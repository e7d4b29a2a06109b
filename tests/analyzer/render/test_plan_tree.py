"""plan_tree: the nesting of SELECTs, derived tables, unions and subqueries."""

from __future__ import annotations

from analyzer import analyze
from analyzer.render.plan_tree import MAX_DEPTH, build_tree, flatten


def row(id_, select_type, table, type_="ALL", rows="10", **extra):
    return {"id": id_, "select_type": select_type, "table": table, "type": type_, "rows": rows, **extra}


def shape(nodes):
    """Nested (label, [children]) tuples, for readable assertions."""
    return [(n.label, shape(n.children)) if n.children else n.label for n in nodes]


def test_simple_join_keeps_join_order():
    nodes = build_tree({"rows": [row("1", "SIMPLE", "e", "range"), row("1", "SIMPLE", "d", "eq_ref", "1")]})
    assert shape(nodes) == [("#1 SIMPLE", ["e", "d"])]
    e = nodes[0].children[0]
    assert (e.kind, e.access, e.rows, e.row) == ("table", "range", "10", 0)


def test_union_result_holds_its_members():
    rows = [
        row("1", "PRIMARY", "employees"),
        row("2", "UNION", "employees"),
        row(None, "UNION RESULT", "<union1,2>", rows=None),
    ]
    nodes = build_tree({"rows": rows})
    assert shape(nodes) == [("<union1,2>", [("#1 PRIMARY", ["employees"]), ("#2 UNION", ["employees"])])]
    assert nodes[0].kind == "union" and nodes[0].row == 2


def test_derived_table_over_a_union_and_a_dependent_subquery():
    rows = [
        row("1", "PRIMARY", "<derived2>"),
        row("1", "PRIMARY", "t", "eq_ref"),
        row("2", "DERIVED", "x"),
        row("3", "UNION", "y"),
        row(None, "UNION RESULT", "<union2,3>", rows=None),
        row("4", "DEPENDENT SUBQUERY", "z", "ref"),
    ]
    assert shape(build_tree({"rows": rows})) == [
        (
            "#1 PRIMARY",
            [
                (
                    "<derived2>",
                    [("<union2,3>", [("#2 DERIVED", ["x"]), ("#3 UNION", ["y", ("#4 DEPENDENT SUBQUERY", ["z"])])])],
                ),
                "t",
            ],
        )
    ]


def test_materialized_subquery_hangs_under_its_table():
    rows = [
        row("1", "PRIMARY", "<subquery2>", "ALL"),
        row("1", "PRIMARY", "e", "eq_ref"),
        row("2", "MATERIALIZED", "b"),
    ]
    assert shape(build_tree({"rows": rows})) == [("#1 PRIMARY", [("<subquery2>", [("#2 MATERIALIZED", ["b"])]), "e"])]


def test_subquery_without_a_named_table_goes_under_the_earlier_select():
    rows = [row("1", "PRIMARY", "e", "ref"), row("2", "MATERIALIZED", "b")]
    assert shape(build_tree({"rows": rows})) == [("#1 PRIMARY", ["e", ("#2 MATERIALIZED", ["b"])])]


def test_analyze_columns_give_actual_rows():
    nodes = build_tree({"rows": [row("1", "SIMPLE", "e", r_rows="161.00")]})
    assert nodes[0].children[0].actual_rows == "161.00"


def test_self_reference_does_not_loop():
    rows = [row("1", "PRIMARY", "<derived1>"), row("2", "DERIVED", "<derived3>"), row("3", "DERIVED", "<derived2>")]
    nodes = build_tree({"rows": rows})
    labels = [item.node.label for item in flatten(nodes)]
    assert labels.count("#1 PRIMARY") == 1 and len(labels) < 20


def test_json_plan_nests_query_blocks_and_tables():
    plan = {
        "query_block": {
            "select_id": 1,
            "nested_loop": [
                {
                    "table": {
                        "table_name": "e",
                        "access_type": "range",
                        "rows": 161,
                        "r_rows": 161,
                        "r_total_time_ms": 0.2,
                    }
                },
                {
                    "table": {
                        "table_name": "<derived2>",
                        "access_type": "ALL",
                        "rows": 5,
                        "materialized": {
                            "query_block": {"select_id": 2, "table": {"table_name": "x", "access_type": "index"}}
                        },
                    }
                },
            ],
            "subqueries": [{"query_block": {"select_id": 3, "table": {"table_name": "z", "access_type": "ref"}}}],
        }
    }
    nodes = build_tree(
        {
            "format": "json",
            "rows": [{"table": "e"}, {"table": "<derived2>"}, {"table": "x"}, {"table": "z"}],
            "plan": plan,
        }
    )
    assert shape(nodes) == [
        (
            "#1 SELECT",
            ["e", ("<derived2>", [("materialized", [("#2 SELECT", ["x"])])]), ("subquery", [("#3 SELECT", ["z"])])],
        )
    ]
    e = nodes[0].children[0]
    assert (e.access, e.rows, e.actual_rows, e.time, e.row) == ("range", "161", "161", "0.2", 0)
    assert nodes[0].children[1].row == 1


def test_tree_plan_with_operations_and_actuals():
    paste = (
        "-> Nested loop inner join  (cost=2.6 rows=6) (actual time=0.065..0.112 rows=6 loops=1)\n"
        "    -> Table scan on t1  (cost=0.85 rows=6) (actual time=0.03..0.04 rows=6 loops=1)\n"
        "    -> Index lookup on t2 using a (a=t1.a)  (cost=0.26 rows=1) (actual time=0.01..0.011 rows=1 loops=6)\n"
    )
    nodes = build_tree(analyze(paste).to_dict())
    assert shape(nodes) == [("Nested loop inner join", ["Table scan on t1", "Index lookup on t2 using a (a=t1.a)"])]
    top, lookup = nodes[0], nodes[0].children[1]
    assert (top.rows, top.actual_rows, top.time, top.loops) == ("6", "6", "0.065..0.112", "1")
    assert (lookup.kind, lookup.table, lookup.access, lookup.loops, lookup.row) == ("table", "t2", "ref", "6", 1)


def test_stored_analysis_without_a_model_is_rebuilt_from_its_rows_and_plan():
    stored = analyze(
        "-> Filter: (s.city = 'Rome')  (cost=0.75 rows=1)\n    -> Table scan on s  (cost=0.75 rows=5)\n"
    ).to_dict()
    fresh = build_tree(stored)
    del stored["tree"]
    assert build_tree(stored) == fresh and shape(fresh) == [("Filter: (s.city = 'Rome')", ["Table scan on s"])]


def test_unknown_or_empty_plans_fall_back_to_rows():
    assert build_tree({"rows": [], "plan": None}) == []
    assert shape(build_tree({"rows": [row("1", "SIMPLE", "t")], "plan": "-> some text"})) == [("#1 SIMPLE", ["t"])]
    assert shape(build_tree({"rows": [row("1", "SIMPLE", "t")], "plan": {"cost_info": {"query_cost": "1"}}})) == [
        ("#1 SIMPLE", ["t"])
    ]


def test_deep_nesting_is_cut_off():
    plan: dict = {"table_name": "leaf"}
    for depth in range(500):
        plan = {"operation": f"step {depth}", "inputs": [plan]}
    items = flatten(build_tree({"format": "json", "rows": [], "plan": {"query_plan": plan}}))
    assert len(items) > 0 and max(i.depth for i in items) < MAX_DEPTH


def test_flatten_closes_every_nested_list():
    rows = [row("1", "PRIMARY", "<derived2>"), row("1", "PRIMARY", "t"), row("2", "DERIVED", "x")]
    items = flatten(build_tree({"rows": rows}))
    opened = sum(1 for i in items if i.opens)
    assert sum(i.closes for i in items) == opened
    assert [(i.node.label, i.depth, i.opens, i.closes) for i in items] == [
        ("#1 PRIMARY", 0, True, 0),
        ("<derived2>", 1, True, 0),
        ("#2 DERIVED", 2, True, 0),
        ("x", 3, False, 2),
        ("t", 1, False, 1),
    ]


def test_tree_reader_nodes_show_first_and_last_row_times():
    paste = (
        "-> Filter: (s.city = 'Rome')  (cost=0.75 rows=1) (actual time=0.412..0.598 rows=2 loops=1)\n"
        "    -> Table scan on s  (cost=0.75 rows=5) (actual time=0.021..0.034 rows=5 loops=1)\n"
    )
    nodes = build_tree(analyze(paste).to_dict())
    top, scan = nodes[0], nodes[0].children[0]
    assert (top.label, top.rows, top.actual_rows, top.time, top.loops) == (
        "Filter: (s.city = 'Rome')",
        "1",
        "2",
        "0.412..0.598",
        "1",
    )
    assert (scan.kind, scan.table, scan.row, scan.rows) == ("table", "s", 0, "5")


def test_mariadb_analyze_json_times():
    plan = {
        "query_block": {
            "select_id": 1,
            "r_loops": 1,
            "r_total_time_ms": 0.29089892,
            "table": {"table_name": "s", "rows": 2, "r_rows": 2, "r_table_time_ms": 0.0123},
        }
    }
    top = build_tree({"format": "json", "rows": [{"table": "s"}], "plan": plan})[0]
    assert (top.kind, top.time, top.loops) == ("select", "0.291", "1")
    assert top.children[0].time == "0.0123"
