"""The terminal report (`format_report`): the reading's doubts are stated on its first line."""

from pathlib import Path

from analyzer import analyze
from analyzer.render.text import format_profile, format_report

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


PROFILE_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "profile"


def test_report_shows_where_the_time_went_after_the_plan():
    report = format_report(analyze((PROFILE_FIXTURES / "mysql80_manual_hash_join.txt").read_text(encoding="utf-8")))
    # Self times 0.022, 0.008 (0.035 - 0.005 - 0.022) and 0.005 over 0.035: 62.9%, 22.9%, 14.3%;
    # 6 actual rows of 6 estimated on each step.
    block = [
        "profile: 0.035 ms in all, the slowest step first",
        "  step                             loops  total ms  self ms  share  rows actual/est.",
        "  Table scan on t1                     1     0.022    0.022  62.9%                 1",
        "  Inner hash join (t2.c2 = t1.c1)      1     0.035    0.008  22.9%                 1",
        "  Table scan on t2                     1     0.005    0.005  14.3%                 1",
    ]
    assert "\n".join(block) in report
    assert report.index("+----+") < report.index("profile:") < report.index("findings:")


def test_report_without_times_has_no_profile():
    assert "profile:" not in format_report(analyze(COMPLETE))


def test_profile_cuts_long_labels_and_leaves_unknown_factors_empty():
    analysis = analyze((PROFILE_FIXTURES / "sb_miniproject_hash_joins_never_executed.txt").read_text(encoding="utf-8"))
    assert analysis.profile is not None
    lines = format_profile(analysis.profile).splitlines()
    # 0.09 / 0.3 = 30%; 0 actual rows against 100 estimated gives no factor.
    assert lines[2] == "  Inner hash join (<hash>(teaching.semester)=<hash>(transcrip…      1     0.253     0.09  30.0%"
    assert len(lines) == 2 + 6
