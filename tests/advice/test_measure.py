"""The measure of tests/advice/measure.py on ANALYZE FORMAT=JSON documents shaped as MariaDB 10.11
prints them (times and engine statistics left out)."""

from __future__ import annotations

import pytest

from tests.advice.measure import examined_rows


def _table(name: str, access: str, r_loops: float | None, r_rows: float | None, rows: int = 1, **more) -> dict:
    return {"table": {"table_name": name, "access_type": access, "r_loops": r_loops, "rows": rows, "r_rows": r_rows, **more}}


def test_scan_then_lookups_per_row():
    doc = {"query_block": {"select_id": 1, "r_loops": 1, "nested_loop": [
        _table("o", "ALL", 1, 30000, rows=30145),
        _table("c", "eq_ref", 30000, 1, key="PRIMARY"),
    ]}}
    assert examined_rows(doc) == 60000


def test_average_rows_per_loop_are_multiplied_out():
    doc = {"query_block": {"nested_loop": [
        _table("c", "ref", 1, 30, rows=31),
        _table("o", "ref", 30, 9.9, rows=10),
    ]}}
    assert examined_rows(doc) == 30 + 297


def test_const_tables_count_their_rows_and_never_run_tables_nothing():
    doc = {"query_block": {"nested_loop": [
        _table("orders", "const", 0, None, rows=1),
        _table("items", "ref", 0, None, rows=7),
    ]}}
    assert examined_rows(doc) == 1


def test_ordered_index_scan_ended_by_limit_counts_what_it_read():
    doc = {"query_block": {"select_id": 1, "r_loops": 1, "table": {
        "table_name": "orders", "access_type": "index", "key": "created", "r_loops": 1, "rows": 50276,
        "r_rows": 83, "filtered": 100, "r_filtered": 12.04819277}}}
    assert examined_rows(doc) == 83


def test_filesort_and_join_buffer():
    doc = {"query_block": {"nested_loop": [
        {"read_sorted_file": {"r_rows": 10, "filesort": {"r_loops": 1, "r_output_rows": 10,
            **_table("c", "ALL", 1, 3000, rows=3000)}}},
        {"block-nl-join": {**_table("o", "ALL", 2, 30000, rows=30000), "buffer_type": "flat"}},
    ]}}
    assert examined_rows(doc) == 3000 + 60000


def test_work_tables_are_not_counted_the_tables_filling_them_are():
    doc = {"query_block": {"nested_loop": [
        _table("c", "ALL", 1, 3000, rows=3000),
        {"table": {"table_name": "<subquery2>", "access_type": "eq_ref", "r_loops": 3000, "r_rows": 1, "rows": 1,
                   "materialized": {"unique": 1, "query_block": {"nested_loop": [_table("o", "ALL", 1, 30000)]}}}},
    ]}, "subqueries": [{"expression_cache": {"query_block": {"table": {
        "table_name": "p", "access_type": "ref", "r_loops": 4, "r_rows": 2.5, "rows": 3}}}}]}
    assert examined_rows(doc) == 3000 + 30000 + 10


def test_refuses_what_is_no_plan():
    with pytest.raises(ValueError):
        examined_rows({"table": {}})
