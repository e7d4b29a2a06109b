"""The terminal report (`format_report`): the reading's doubts are stated on its first line."""

from analyzer import analyze
from analyzer.render.text import format_report

COMPLETE = """+----+-------------+-------+------+---------------+------+---------+------+------+-------+
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL |   10 |       |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
"""


def test_complete_paste_has_no_doubt():
    first = format_report(analyze(COMPLETE)).splitlines()[0]
    assert first == "format: table"


def test_cut_paste_says_incomplete():
    cut = "\n".join(line[:60] for line in COMPLETE.splitlines())
    analysis = analyze(cut)
    assert analysis.plan.truncated
    assert format_report(analysis).splitlines()[0] == "format: table (incomplete paste)"


def test_uncertain_reading_is_said():
    analysis = analyze(COMPLETE)
    analysis.plan.uncertain = True
    assert format_report(analysis).splitlines()[0] == "format: table (uncertain reading)"


def test_variant_and_server_notes_are_shown():
    tree = "-> Table scan on t  (cost=1.25 rows=10) (actual time=0.01..0.02 rows=10 loops=1)\n"
    assert format_report(analyze(tree)).splitlines()[0] == "format: tree (MySQL EXPLAIN ANALYZE)"
    analysis = analyze(COMPLETE)
    analysis.plan.warnings = ["/* select#1 */ select 1"]
    assert "server notes (SHOW WARNINGS):\n  - /* select#1 */ select 1" in format_report(analysis)
