"""The rows a JSON plan is flattened into come in the order the same server's tabular EXPLAIN
prints the same plan: a select's own tables in join order, then the selects nested in it in the
server's order (MariaDB: its semi-join materialization nests in join order, then its subqueries,
derived tables and non-merged subqueries newest first, by decreasing select id).

Ground truth: the QA captures (MariaDB 10.11, each statement in every format), the samples, and
the fixture pairs of `tests/fixtures/json/mariadb` (checked column by column in test_json_plan.py).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from analyzer.pipeline import parse
from analyzer.readers.documents.json_plan import parse_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TABULAR_KINDS = ("plain", "ext", "part", "an", "lower")
JSON_KINDS = ("json", "anjson")


def _qa_pairs() -> list[tuple[str, str, str]]:
    """(id, JSON output, tabular output) for each query the QA corpus captured both ways."""
    with gzip.open(FIXTURES / "qa" / "captures.json.gz", "rt", encoding="utf-8") as handle:
        captures = json.load(handle)
    by_query: dict[str, dict[str, dict[str, str]]] = {}
    for key, capture in captures.items():
        query, kind = key.rsplit(".", 1)
        by_query.setdefault(query, {})[kind] = capture["outputs"]
    pairs = []
    for query, kinds in sorted(by_query.items()):
        for json_kind in JSON_KINDS:
            for tabular_kind in TABULAR_KINDS:
                if json_kind in kinds and tabular_kind in kinds:
                    document = kinds[json_kind]["json_raw"]
                    pairs.append((f"{query}.{json_kind}.{tabular_kind}", document, kinds[tabular_kind]["table"]))
    return pairs


def _sample_pairs() -> list[tuple[str, str, str]]:
    """(id, JSON output, tabular output) for each sample query captured both ways, clean."""
    samples = {
        path.name: json.loads(path.read_text(encoding="utf-8")) for path in (FIXTURES / "samples").glob("*.json")
    }
    pairs = []
    for name, sample in sorted(samples.items()):
        query, kind = name.split(".")[:2]
        if kind in JSON_KINDS and name.endswith(".json_raw.clean.json"):
            for tabular_kind in TABULAR_KINDS:
                tabular = samples.get(f"{query}.{tabular_kind}.table.clean.json")
                if tabular is not None:
                    pairs.append((f"{query}.{kind}.{tabular_kind}", sample["input"], tabular["input"]))
    return pairs


PAIRS = _qa_pairs() + _sample_pairs()


def _order(text: str) -> list[tuple[str | None, str | None]]:
    return [(row.get("id"), row.get("table")) for row in parse(text).rows]


def test_the_captures_hold_pairs() -> None:
    assert len(PAIRS) >= 40


@pytest.mark.parametrize(("document", "tabular"), [pair[1:] for pair in PAIRS], ids=[pair[0] for pair in PAIRS])
def test_json_rows_come_in_the_tabular_order(document: str, tabular: str) -> None:
    assert _order(document) == _order(tabular)


# --- MariaDB's order of nested selects, on documents written for the mechanism ---------------


def _table(name: str, **members: object) -> dict[str, object]:
    return {"table": {"table_name": name, "access_type": "ALL", "rows": 10, **members}}


def _block(select_id: int, *tables: dict[str, object], **members: object) -> dict[str, object]:
    return {"select_id": select_id, "nested_loop": list(tables), **members}


def _derived(number: int, inner: str) -> dict[str, object]:
    return _table(f"<derived{number}>", materialized={"query_block": _block(number, _table(inner))})


def _nest(number: int, inner: str) -> dict[str, object]:
    """A semi-join materialization nest: `materialized` holds the query block itself."""
    return _table(f"<subquery{number}>", materialized={"unique": 1, "query_block": _block(number, _table(inner))})


def _non_merged(number: int, inner: str) -> dict[str, object]:
    """A non-merged (grouping) IN subquery: MariaDB puts `materialization` in between."""
    block = _block(number, _table(inner))
    return _table(f"<subquery{number}>", materialized={"unique": 1, "materialization": {"query_block": block}})


def _subquery(number: int, inner: str) -> dict[str, object]:
    return {"query_block": _block(number, _table(inner))}


def _rows(query_block: dict[str, object]) -> list[tuple[str | None, str | None]]:
    plan = parse_json(json.dumps({"query_block": query_block}))
    assert plan is not None
    return [(row["id"], row["table"]) for row in plan.rows]


@pytest.mark.parametrize("count", [2, 3, 5])
def test_derived_tables_come_newest_first(count: int) -> None:
    tables = [_derived(number, f"d{number}") for number in range(2, count + 2)]
    rows = _rows(_block(1, *tables, filesort={"sort_key": "x"}))

    outer = [("1", f"<derived{number}>") for number in range(2, count + 2)]
    nested = [(str(number), f"d{number}") for number in range(count + 1, 1, -1)]
    assert rows == outer + nested


def test_semi_join_nests_come_in_join_order_before_the_units() -> None:
    query_block = _block(
        1,
        _table("t1"),
        _nest(2, "s2"),
        _non_merged(3, "m3"),
        _table("t2"),
        _nest(5, "s5"),
        subqueries=[_subquery(4, "q4")],
    )

    assert _rows(query_block) == [
        ("1", "t1"),
        ("1", "<subquery2>"),
        ("1", "<subquery3>"),
        ("1", "t2"),
        ("1", "<subquery5>"),
        ("2", "s2"),
        ("5", "s5"),
        ("4", "q4"),
        ("3", "m3"),
    ]


def test_a_nested_select_is_followed_by_its_own_nested_selects() -> None:
    inner = _block(2, _derived(3, "d3"), _derived(4, "d4"), subqueries=[_subquery(5, "q5")])
    query_block = _block(1, _table("<derived2>", materialized={"query_block": inner}), subqueries=[_subquery(6, "q6")])

    assert _rows(query_block) == [
        ("1", "<derived2>"),
        ("6", "q6"),
        ("2", "<derived3>"),
        ("2", "<derived4>"),
        ("5", "q5"),
        ("4", "d4"),
        ("3", "d3"),
    ]


def test_a_derived_union_is_ordered_by_its_first_member() -> None:
    union = {
        "union_result": {
            "table_name": "<union3,4>",
            "access_type": "ALL",
            "query_specifications": [
                {"query_block": _block(3, _table("u3"))},
                {"query_block": _block(4, _table("u4"))},
            ],
        }
    }
    query_block = _block(
        1, _derived(2, "d2"), _table("<derived3>", materialized={"query_block": union}), _derived(5, "d5")
    )

    assert _rows(query_block) == [
        ("1", "<derived2>"),
        ("1", "<derived3>"),
        ("1", "<derived5>"),
        ("5", "d5"),
        ("3", "u3"),
        ("4", "u4"),
        (None, "<union3,4>"),
        ("2", "d2"),
    ]


def test_units_without_a_select_id_stay_in_document_order() -> None:
    nameless = {"nested_loop": [_table("d2")]}
    query_block = _block(1, _table("<derived2>", materialized={"query_block": nameless}), _derived(3, "d3"))

    assert _rows(query_block) == [("1", "<derived2>"), ("1", "<derived3>"), (None, "d2"), ("3", "d3")]


def test_mysql_documents_keep_the_join_order_of_their_materializations() -> None:
    """MySQL prints materialized semi-joins and derived tables after the outer tables, in join order."""
    materialized = [
        _table(f"<subquery{n}>", materialized_from_subquery={"query_block": _block(n, _table(f"s{n}"))}) for n in (3, 2)
    ]
    query_block = _block(1, _table("t1"), *materialized, cost_info={"query_cost": "1.0"})

    assert _rows(query_block) == [("1", "t1"), ("1", "<subquery3>"), ("1", "<subquery2>"), ("3", "s3"), ("2", "s2")]


def test_the_plan_model_links_each_table_to_its_row() -> None:
    plan = parse_json(json.dumps({"query_block": _block(1, _derived(2, "d2"), _derived(3, "d3"))}))
    assert plan is not None and plan.tree is not None

    linked = []
    stack = [plan.tree]
    while stack:
        node = stack.pop()
        if node.table is not None and node.row is not None:
            linked.append((node.table, plan.rows[node.row]["table"]))
        stack.extend(node.children)
    assert sorted(linked) == sorted((name, name) for name in ("<derived2>", "<derived3>", "d2", "d3"))
