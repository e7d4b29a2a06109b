"""analyzer.insight.compare on hand-built analyses and on real parses."""

from __future__ import annotations

import pytest

from analyzer import analyze
from analyzer.insight.compare import compare, rows_examined
from analyzer.readers.nesting import table_node

BEFORE = """\
+------+-------------+-------+--------+---------------+---------+---------+-------------+-------+----------------------------------------------+
| id   | select_type | table | type   | possible_keys | key     | key_len | ref         | rows  | Extra                                        |
+------+-------------+-------+--------+---------------+---------+---------+-------------+-------+----------------------------------------------+
|    1 | SIMPLE      | s     | ALL    | PRIMARY       | NULL    | NULL    | NULL        | 60000 | Using where; Using temporary; Using filesort |
|    1 | SIMPLE      | e     | eq_ref | PRIMARY       | PRIMARY | 4       | hr.s.emp_no | 1     |                                              |
+------+-------------+-------+--------+---------------+---------+---------+-------------+-------+----------------------------------------------+
"""
AFTER = """\
+------+-------------+-------+--------+----------------------+-------------+---------+-------------+------+---------------------------------+
| id   | select_type | table | type   | possible_keys        | key         | key_len | ref         | rows | Extra                           |
+------+-------------+-------+--------+----------------------+-------------+---------+-------------+------+---------------------------------+
|    1 | SIMPLE      | s     | ref    | PRIMARY,idx_to_date  | idx_to_date | 3       | const       | 2400 | Using temporary; Using filesort |
|    1 | SIMPLE      | e     | eq_ref | PRIMARY              | PRIMARY     | 4       | hr.s.emp_no | 1    |                                 |
|    1 | SIMPLE      | d     | ALL    | NULL                 | NULL        | NULL    | NULL        | 9    |                                 |
+------+-------------+-------+--------+----------------------+-------------+---------+-------------+------+---------------------------------+
"""


def test_changed_access_type_key_rows_and_extra():
    result = compare(analyze(BEFORE).to_dict(), analyze(AFTER).to_dict())
    by_table = {t["table"]: t for t in result["tables"]}
    s = by_table["s"]
    assert s["status"] == "changed"
    assert s["changes"]["type"] == {"before": "ALL", "after": "ref"}
    assert s["changes"]["key"] == {"before": None, "after": "idx_to_date"}
    assert s["changes"]["rows"] == {"before": "60000", "after": "2400"}
    assert s["changes"]["extra"]["after"] == "Using temporary; Using filesort"
    assert by_table["e"]["status"] == "same"
    assert by_table["d"]["status"] == "added"
    assert result["changed"] == 2


def test_rows_examined_before_and_after():
    result = compare(analyze(BEFORE).to_dict(), analyze(AFTER).to_dict())
    assert result["rows_examined"]["before"] == 60000
    assert result["rows_examined"]["after"] == 2400 * 1 * 9
    assert result["rows_examined"]["ratio"] == (2400 * 9) / 60000


def test_rows_examined_sums_selects_and_skips_unreadable():
    rows = [
        {"id": "1", "rows": "10"},
        {"id": "1", "rows": "20"},
        {"id": "2", "rows": "5"},
        {"id": None, "rows": None},
        {"id": "3", "rows": "n/a"},
    ]
    assert rows_examined(_nodes(rows)) == 10 * 20 + 5
    assert rows_examined(_nodes([{"id": "1", "rows": None}])) is None


def test_a_hash_joined_table_adds_its_rows_instead_of_multiplying():
    rows = [
        {"id": "1", "table": "a", "rows": "1000", "extra": None},
        {"id": "1", "table": "b", "rows": "5000", "extra": "Using where; Using join buffer (hash join)"},
    ]
    assert rows_examined(_nodes(rows)) == 1000 + 5000
    rows[1]["extra"] = "Using where; Using join buffer (Block Nested Loop)"
    assert rows_examined(_nodes(rows)) == 1000 * 5000


def _nodes(rows):
    return [table_node(row, index) for index, row in enumerate(rows)]


def test_removed_table_and_repeated_names():
    before = {"rows": [{"table": "t", "type": "ALL", "rows": "5"}, {"table": "t", "type": "ref", "rows": "1"}]}
    after = {"rows": [{"table": "t", "type": "ref", "rows": "1"}]}
    result = compare(before, after)
    statuses = [(t["table"], t["status"], t["before_row"], t["after_row"]) for t in result["tables"]]
    assert statuses == [("t", "changed", 0, 0), ("t", "removed", 1, None)]


def test_empty_analyses():
    result = compare({}, {"rows": []})
    nothing = {"before": None, "after": None, "ratio": None}
    assert result == {"tables": [], "rows_examined": nothing, "time_ms": nothing, "changed": 0}


TIMED_BEFORE = """\
-> Nested loop inner join  (cost=4.70 rows=6) (actual time=0.065..40.0 rows=6 loops=1)
    -> Table scan on i  (cost=1.35 rows=400) (actual time=0.033..30.0 rows=400 loops=1)
    -> Single-row index lookup on s using PRIMARY (id=i.shop_id)  (cost=0.42 rows=1) (actual time=0.008..0.010 rows=1 loops=400)
"""
TIMED_AFTER = """\
-> Nested loop inner join  (cost=4.70 rows=6) (actual time=0.065..2.0 rows=6 loops=1)
    -> Index range scan on i using idx_price  (cost=1.35 rows=6) (actual time=0.033..1.5 rows=6 loops=1)
    -> Single-row index lookup on s using PRIMARY (id=i.shop_id)  (cost=0.42 rows=1) (actual time=0.008..0.010 rows=1 loops=6)
"""


def test_measured_times_before_and_after_per_table():
    before, after = analyze(TIMED_BEFORE).to_dict(), analyze(TIMED_AFTER).to_dict()
    result = compare(before, after)
    assert result["time_ms"] == {"before": 40.0, "after": 2.0, "ratio": 0.05}
    by_table = {t["table"]: t for t in result["tables"]}
    assert by_table["i"]["time_ms"] == {"before": 30.0, "after": 1.5, "ratio": 0.05}
    assert by_table["s"]["time_ms"]["before"] == pytest.approx(4.0)  # 0.010 ms per loop, 400 loops
    assert by_table["s"]["time_ms"]["after"] == pytest.approx(0.06)
    assert result["rows_examined"]["before"] == 400 and result["rows_examined"]["after"] == 6


def test_times_are_unknown_unless_an_analysis_has_a_profile():
    before = analyze(TIMED_BEFORE).to_dict()
    before.pop("profile", None)  # stored before profiles existed
    result = compare(before, analyze(TIMED_AFTER).to_dict())
    assert result["time_ms"] == {"before": None, "after": 2.0, "ratio": None}
    assert all(t["time_ms"]["before"] is None and t["time_ms"]["ratio"] is None for t in result["tables"])
    plain = compare(analyze(BEFORE).to_dict(), analyze(AFTER).to_dict())
    assert plain["time_ms"] == {"before": None, "after": None, "ratio": None}
