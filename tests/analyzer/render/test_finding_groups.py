"""Findings grouped for reading: one entry per kind, most severe first, shared advice said once."""

from __future__ import annotations

from analyzer import analyze
from analyzer.model import Finding
from analyzer.render.finding_groups import group_findings
from analyzer.render.text import format_findings

ADVICE = "An index on the columns of its WHERE or join condition would let the server look rows up."
COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]


def eleven_rows() -> str:
    """An 11-row plan: six tables scanned in full (three of them with a join buffer), five lookups."""
    rows = []
    for n in range(11):
        if n < 6:
            extra = "Using where" if n < 3 else "Using where; Using join buffer (hash join)"
            rows.append(["1", "SIMPLE", f"t{n}", "ALL", "NULL", "NULL", "NULL", "NULL", str(20000 + n), extra])
        else:
            rows.append(["1", "SIMPLE", f"t{n}", "eq_ref", "PRIMARY", "PRIMARY", "4", f"db.t0.c{n}", "1", "NULL"])
    return "\n".join("\t".join(r) for r in [COLUMNS, *rows]) + "\n"


def groups_of(findings: list[Finding]):
    return group_findings(findings, lambda f: f.severity, lambda f: f.kind, lambda f: f.message)


def test_the_same_finding_on_several_rows_is_one_group_with_its_advice_once():
    findings = [
        Finding("bad", f"Full table scan on `a` (type ALL): about 60,000 rows read. {ADVICE}", [0], "full-table-scan"),
        Finding("warning", "`a`: an internal temporary table is built (Using temporary).", [0], "temporary"),
        Finding("warning", f"Full table scan on `b` (type ALL): about 500 rows read. {ADVICE}", [1], "full-table-scan"),
        Finding("info", "Full table scan on `c` (type ALL): about 50 rows read.", [2], "full-table-scan"),
    ]
    groups = groups_of(findings)
    assert [(g.kind, g.severity, len(g.items)) for g in groups] == [
        ("full-table-scan", "bad", 3),
        ("temporary", "warning", 1),
    ]
    scans = groups[0]
    assert scans.title == "Full table scans (3)" and scans.mixed
    assert scans.advice == ADVICE
    assert [item.text for item in scans.items] == [
        "Full table scan on `a` (type ALL): about 60,000 rows read.",
        "Full table scan on `b` (type ALL): about 500 rows read.",
        "Full table scan on `c` (type ALL): about 50 rows read.",
    ]
    assert [item.finding.rows for item in scans.items] == [[0], [1], [2]]
    # A group of one is the finding as it was.
    assert groups[1].single and groups[1].title == findings[1].message and not groups[1].advice


def test_groups_are_ordered_by_their_most_severe_finding_and_items_inside_too():
    findings = [
        Finding("warning", "`x`: sorted (Using filesort).", [0], "filesort"),
        Finding("info", "Scan of `y`.", [1], "full-table-scan"),
        Finding("warning", "`z`: sorted (Using filesort).", [2], "filesort"),
        Finding("bad", "Scan of `w`.", [3], "full-table-scan"),
    ]
    groups = groups_of(findings)
    assert [g.kind for g in groups] == ["full-table-scan", "filesort"]
    assert [item.finding.rows for item in groups[0].items] == [[3], [1]]
    assert not groups[1].mixed and groups[1].advice == ""  # nothing shared as whole sentences


def test_findings_without_a_kind_stay_alone():
    findings = [Finding("warning", "One thing."), Finding("warning", "Another thing.")]
    assert [len(g.items) for g in groups_of(findings)] == [1, 1]


def test_advice_only_when_it_is_whole_sentences_after_text_of_their_own():
    findings = [
        Finding("warning", "Same words. Same words.", [0], "k"),
        Finding("warning", "Same words.", [1], "k"),
    ]
    group = groups_of(findings)[0]
    assert group.advice == "" and [i.text for i in group.items] == ["Same words. Same words.", "Same words."]


def test_an_eleven_row_plan_has_one_entry_per_kind_in_the_text_report():
    analysis = analyze(eleven_rows())
    kinds = [f.kind for f in analysis.findings]
    assert kinds.count("full-table-scan") == 6 and kinds.count("join-buffer") == 3
    report = format_findings(analysis.findings)
    top = [line for line in report.splitlines() if line.startswith("  [")]
    assert len(top) == len({f.kind for f in analysis.findings}) < len(analysis.findings)
    assert top[0].startswith("  [bad] ")
    assert "  [bad] Full table scans (6):" in top
    assert report.count(ADVICE) == 1
    assert "    - Full table scan on `t0` (type ALL): about 20,000 rows read. (row 1)" in report.splitlines()
