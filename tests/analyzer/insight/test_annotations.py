"""Annotations and findings for hand-built plans."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.insight.annotations import annotate
from analyzer.insight.findings import SCAN_ROWS_BAD
from analyzer.model import Plan
from analyzer.readers.cells import number

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]


def make_row(**cells: str | None) -> dict[str, str | None]:
    row: dict[str, str | None] = {
        "id": "1",
        "select_type": "SIMPLE",
        "table": "t",
        "type": "ref",
        "possible_keys": "idx",
        "key": "idx",
        "key_len": "4",
        "ref": "const",
        "rows": "1",
        "extra": "",
    }
    row.update(cells)
    return row


def make_plan(*rows: dict[str, str | None], columns: list[str] | None = None) -> Plan:
    return Plan(format="table", columns=columns or list(rows[0]) if rows else COLUMNS, rows=list(rows))


def kinds(findings) -> list[str]:
    return [f.kind for f in findings]


def only(findings, kind: str):
    matching = [f for f in findings if f.kind == kind]
    assert len(matching) == 1, kinds(findings)
    return matching[0]


# --- annotations -------------------------------------------------------------------------------


def test_each_extra_item_gets_its_own_annotation():
    plan = make_plan(make_row(extra="Using where; Using temporary; Using filesort"))
    annotations, _ = annotate(plan)
    extra = [a for a in annotations if a.column == "extra"]
    assert [a.term for a in extra] == ["Using where", "Using temporary", "Using filesort"]
    assert [a.slug for a in extra] == ["extra-using-where", "extra-using-temporary", "extra-using-filesort"]
    assert all(a.row == 0 for a in extra)
    assert all(a.url.startswith("https://") and a.explanation and a.title for a in extra)


def test_select_type_and_type_are_annotated():
    plan = make_plan(make_row(select_type="DEPENDENT SUBQUERY", type="eq_ref"))
    annotations, _ = annotate(plan)
    by_column = {a.column: a for a in annotations}
    assert by_column["select_type"].slug == "select-dependent-subquery"
    assert by_column["select_type"].severity == "warning"
    assert by_column["type"].slug == "type-eq-ref"
    assert by_column["type"].term == "eq_ref"


def test_unknown_extra_items_are_kept_unannotated():
    row = make_row(extra="Using where; Frobnicating widgets; Using index")
    plan = make_plan(row)
    annotations, _ = annotate(plan)
    assert [a.term for a in annotations if a.column == "extra"] == ["Using where", "Using index"]
    assert plan.rows[0]["extra"] == "Using where; Frobnicating widgets; Using index"


def test_argument_terms_keep_their_printed_form():
    plan = make_plan(
        make_row(extra="Using where; Using join buffer (flat, BNL join)"),
        make_row(extra="FirstMatch(t1); Range checked for each record (index map: 0x3)"),
    )
    annotations, _ = annotate(plan)
    terms = {(a.row, a.term): a.slug for a in annotations if a.column == "extra"}
    assert terms[(0, "Using join buffer (flat, BNL join)")] == "extra-join-buffer-bnl"
    assert terms[(1, "FirstMatch(t1)")] == "extra-firstmatch"
    assert terms[(1, "Range checked for each record (index map: 0x3)")] == "extra-range-checked-for-each-record"


def test_rowid_filter_type_annotates_both_parts():
    plan = make_plan(
        make_row(type="ref|filter", key="idx_a|idx_b", rows="4 (15%)", extra="Using where; Using rowid filter")
    )
    annotations, _ = annotate(plan)
    types = [(a.term, a.slug) for a in annotations if a.column == "type"]
    assert types == [("ref", "type-ref"), ("filter", "type-rowid-filter")]
    assert "extra-using-rowid-filter" in [a.slug for a in annotations]


def test_scan_of_a_union_result_is_not_flagged_bad():
    plan = make_plan(
        make_row(select_type="PRIMARY"),
        make_row(id="2", select_type="UNION"),
        make_row(id=None, select_type="UNION RESULT", table="<union1,2>", type="ALL", rows=None, key=None),
    )
    annotations, findings = annotate(plan)
    scan = next(a for a in annotations if a.row == 2 and a.column == "type")
    assert scan.slug == "type-all" and scan.severity == "info"
    assert "full-table-scan" not in kinds(findings)


def test_none_and_missing_cells_give_no_annotation():
    plan = make_plan({"id": "1", "select_type": None, "type": None, "extra": None}, {"table": "x"})
    annotations, findings = annotate(plan)
    assert annotations == []
    assert findings == []


def test_empty_plan():
    assert annotate(Plan(format="table")) == ([], [])


# --- findings ----------------------------------------------------------------------------------


def test_full_table_scan_reports_rows_and_severity_by_size():
    plan = make_plan(
        make_row(table="big", type="ALL", key=None, possible_keys=None, rows="60000"),
        make_row(id="2", table="mid", type="ALL", key=None, possible_keys=None, rows="500"),
        make_row(id="3", table="tiny", type="ALL", key=None, possible_keys=None, rows="5"),
        make_row(id="4", table="unknown", type="ALL", key=None, possible_keys=None, rows=None),
    )
    _, findings = annotate(plan)
    scans = {f.rows[0]: f for f in findings if f.kind == "full-table-scan"}
    assert scans[0].severity == "bad" and "`big`" in scans[0].message and "60,000" in scans[0].message
    assert scans[1].severity == "warning" and "500" in scans[1].message
    assert scans[2].severity == "info" and "`tiny`" in scans[2].message
    assert scans[3].severity == "warning" and "unknown number" in scans[3].message


def test_full_table_scan_threshold_edges():
    at = SCAN_ROWS_BAD
    plan = make_plan(
        make_row(table="a", type="ALL", key=None, possible_keys=None, rows=str(at)),
        make_row(id="2", table="b", type="ALL", key=None, possible_keys=None, rows=str(at - 1)),
    )
    _, findings = annotate(plan)
    scans = {f.rows[0]: f.severity for f in findings if f.kind == "full-table-scan"}
    assert scans == {0: "bad", 1: "warning"}


def test_full_index_scan_only_without_using_index():
    plan = make_plan(
        make_row(table="a", type="index", rows="2000", extra="Using where"),
        make_row(id="2", table="b", type="index", rows="2000", extra="Using where; Using index"),
    )
    _, findings = annotate(plan)
    found = only(findings, "full-index-scan")
    assert found.rows == [0]
    assert found.severity == "warning"
    assert "`a`" in found.message and "2,000" in found.message


def test_join_row_product_thresholds():
    def plan_for(first: str, second: str) -> Plan:
        return make_plan(
            make_row(table="a", type="range", rows=first),
            make_row(table="b", type="ref", rows=second),
        )

    _, below = annotate(plan_for("1000", "100"))  # 100,000: not above the warning line
    assert "join-rows" not in kinds(below)

    _, warning = annotate(plan_for("1001", "100"))
    found = only(warning, "join-rows")
    assert found.severity == "warning"
    assert found.rows == [0, 1]
    assert "100,100" in found.message and "`a`" in found.message and "`b`" in found.message

    _, bad = annotate(plan_for("100001", "100"))
    assert only(bad, "join-rows").severity == "bad"

    _, edge = annotate(plan_for("100000", "100"))  # exactly 1e7 is still a warning
    assert only(edge, "join-rows").severity == "warning"


def test_a_hash_join_is_no_row_product():
    plan = make_plan(
        make_row(table="a", type="ALL", rows="100000"),
        make_row(table="b", type="ALL", rows="50000", extra="Using where; Using join buffer (hash join)"),
    )
    _, findings = annotate(plan)
    assert "join-rows" not in kinds(findings)
    plan.rows[1]["extra"] = "Using where; Using join buffer (Block Nested Loop)"
    _, findings = annotate(plan)
    assert only(findings, "join-rows").severity == "bad"


def test_a_hash_join_in_tree_output_is_no_row_product():
    paste = (
        "-> Inner hash join (b.x = a.x)  (cost=5e+08 rows=5e+09)\n"
        "    -> Table scan on b  (cost=5000 rows=50000)\n"
        "    -> Hash\n"
        "        -> Table scan on a  (cost=10000 rows=100000)\n"
    )
    findings = analyze(paste).findings
    assert "join-rows" not in kinds(findings)
    assert [f.kind for f in findings].count("full-table-scan") == 2


def test_join_rows_are_counted_per_select_id():
    plan = make_plan(
        make_row(id="1", table="a", rows="1000"),
        make_row(id="2", select_type="DEPENDENT SUBQUERY", table="b", rows="1000"),
    )
    _, findings = annotate(plan)
    assert "join-rows" not in kinds(findings)


def test_join_rows_read_rowid_filter_counts_and_decimals():
    plan = make_plan(
        make_row(table="a", type="range", rows="2000 (15%)"),
        make_row(table="b", type="ref", rows="1.5e+03"),
    )
    _, findings = annotate(plan)
    found = only(findings, "join-rows")
    assert "3,000,000" in found.message


def test_filesort_and_temporary():
    plan = make_plan(
        make_row(table="a", extra="Using where; Using temporary; Using filesort"),
        make_row(id="2", table="b", extra="Using filesort"),
        make_row(id="3", table="c", extra="Using temporary"),
    )
    _, findings = annotate(plan)
    assert only(findings, "temporary-filesort").rows == [0]
    assert only(findings, "filesort").rows == [1]
    assert only(findings, "temporary").rows == [2]
    assert "`b`" in only(findings, "filesort").message


def test_dependent_and_uncacheable_subqueries():
    plan = make_plan(
        make_row(select_type="PRIMARY", table="o", rows="10"),
        make_row(id="2", select_type="DEPENDENT SUBQUERY", table="d", rows="300"),
        make_row(id="3", select_type="UNCACHEABLE SUBQUERY", table="u", rows="7"),
        make_row(id="4", select_type="DEPENDENT UNION", table="du", rows="2"),
    )
    _, findings = annotate(plan)
    dependent = [f for f in findings if f.kind == "dependent-subquery"]
    assert [f.rows for f in dependent] == [[1], [3]]
    assert "select #2" in dependent[0].message and "`d`" in dependent[0].message and "300" in dependent[0].message
    uncacheable = only(findings, "uncacheable-subquery")
    assert uncacheable.severity == "bad" and uncacheable.rows == [2] and "`u`" in uncacheable.message


def test_join_buffer_means_no_index_for_the_join():
    plan = make_plan(
        make_row(table="a", type="ALL", key=None, possible_keys=None, rows="50"),
        make_row(
            table="b",
            type="ALL",
            key=None,
            possible_keys=None,
            rows="80",
            extra="Using where; Using join buffer (Block Nested Loop)",
        ),
        make_row(id="2", table="c", type="hash_ALL", rows="80", extra="Using join buffer (flat, BNLH join)"),
        make_row(id="3", table="d", type="eq_ref", extra="Using join buffer (flat, BKA join)"),
    )
    _, findings = annotate(plan)
    buffers = {f.rows[0]: f for f in findings if f.kind == "join-buffer"}
    assert set(buffers) == {1, 2}
    assert (
        buffers[1].severity == "warning" and "`b`" in buffers[1].message and "Block Nested Loop" in buffers[1].message
    )
    assert buffers[2].severity == "info"


def test_possible_keys_without_key():
    plan = make_plan(
        make_row(table="a", type="ALL", possible_keys="idx_x,idx_y", key=None, rows="20"),
        make_row(table="b", type="ALL", possible_keys=None, key=None, rows="20"),
        make_row(table="c", type="ref", possible_keys="idx_z", key="idx_z", rows="20"),
    )
    _, findings = annotate(plan)
    found = only(findings, "unused-index")
    assert found.rows == [0] and "idx_x,idx_y" in found.message


def test_low_filtered_thresholds():
    columns = [*COLUMNS[:-1], "filtered", "extra"]
    plan = Plan(
        format="table",
        columns=columns,
        rows=[
            make_row(table="low", type="ALL", key=None, rows="5000", filtered="5.00"),
            make_row(table="edge", type="ALL", key=None, rows="5000", filtered="10.00"),
            make_row(table="small", type="ALL", key=None, rows="999", filtered="1.00"),
            make_row(table="bad", type="ALL", key=None, rows="5000", filtered="n/a"),
        ],
    )
    _, findings = annotate(plan)
    found = only(findings, "low-filtered")
    assert found.rows == [0]
    assert "5.00%" in found.message and "5,000" in found.message and "`low`" in found.message


def test_low_filtered_prefers_measured_values_in_analyze_output():
    plan = make_plan(
        make_row(table="t", type="ALL", key=None, rows="100", r_rows="20000.00", filtered="100.00", r_filtered="2.50")
    )
    _, findings = annotate(plan)
    found = only(findings, "low-filtered")
    assert "2.50%" in found.message and "measured" in found.message and "20,000" in found.message


def test_estimate_off_in_analyze_output():
    plan = make_plan(
        make_row(table="under", rows="161", r_rows="1610.00"),
        make_row(table="over", rows="10000", r_rows="999.00"),
        make_row(table="close", rows="161", r_rows="1609.00"),
        make_row(table="tiny", rows="1", r_rows="50.00"),
        make_row(table="never", rows="500", r_rows=None),
    )
    _, findings = annotate(plan)
    off = {f.rows[0]: f for f in findings if f.kind == "estimate-off"}
    assert set(off) == {0, 1}
    assert "161" in off[0].message and "1,610" in off[0].message and "10x more" in off[0].message
    assert "10,000" in off[1].message and "999" in off[1].message and "fewer" in off[1].message


def test_no_rows_outcomes_are_info():
    plan = make_plan(
        make_row(
            table=None,
            type=None,
            key=None,
            possible_keys=None,
            rows=None,
            extra="Impossible WHERE noticed after reading const tables",
        ),
    )
    annotations, findings = annotate(plan)
    found = only(findings, "no-rows")
    assert found.severity == "info" and found.rows == [0]
    assert "Impossible WHERE noticed after reading const tables" in found.message
    assert [a.slug for a in annotations if a.column == "extra"] == ["extra-impossible-where-const"]


def test_all_lookups_is_good_only_when_nothing_is_wrong():
    plan = make_plan(
        make_row(table="a", type="const", rows="1"),
        make_row(table="b", type="eq_ref", rows="1"),
        make_row(table="c", type="ref|filter", rows="3 (10%)"),
    )
    _, findings = annotate(plan)
    found = only(findings, "all-index-lookups")
    assert found.severity == "good" and found.rows == [0, 1, 2]

    _, with_range = annotate(make_plan(make_row(type="range")))
    assert "all-index-lookups" not in kinds(with_range)

    _, with_sort = annotate(make_plan(make_row(type="ref", extra="Using filesort")))
    assert "all-index-lookups" not in kinds(with_sort)


def test_findings_are_sorted_most_severe_first_and_stable():
    plan = make_plan(
        make_row(table="info1", type="ALL", key=None, possible_keys=None, rows="5", extra="Impossible HAVING"),
        make_row(id="2", table="warn1", extra="Using filesort"),
        make_row(id="3", table="bad1", type="ALL", key=None, possible_keys=None, rows="50000"),
        make_row(id="4", table="warn2", extra="Using temporary"),
    )
    _, findings = annotate(plan)
    severities = [f.severity for f in findings]
    assert severities == sorted(severities, key=["bad", "warning", "info", "good"].index)
    warnings = [f.kind for f in findings if f.severity == "warning"]
    assert warnings == ["filesort", "temporary"]
    assert findings[0].rows == [2]


# --- lenient numbers and odd input -------------------------------------------------------------


def test_number_parsing_is_lenient_but_never_guesses():
    assert number("4 (15%)") == 4
    assert number("1.5e+06") == 1_500_000
    assert number("100.00") == 100
    assert number(" 161.00 ") == 161
    assert number(12) == 12
    unreadable: object
    for unreadable in (None, "", "NULL", "n/a", "inf", "nan", True, [], "(15%)"):
        assert number(unreadable) is None


def test_odd_values_never_raise():
    rows: list[Any] = [
        {"type": 7, "extra": ["Using where"], "rows": "1e999", "select_type": {"x": 1}},
        {"type": "|", "extra": ";;; ; ", "rows": "-5", "filtered": "-1", "r_rows": "0"},
        {"type": "ref|", "possible_keys": "", "key": "", "table": ""},
        "not a row",
        {"id": None, "select_type": "DEPENDENT   SUBQUERY", "extra": "Using\u00a0filesort"},
    ]
    annotations, findings = annotate(Plan(format="json", rows=rows))
    assert "filesort" in kinds(findings)
    assert "dependent-subquery" in kinds(findings)
    assert any(a.slug == "extra-using-filesort" and a.row == 4 for a in annotations)


cell = st.one_of(
    st.none(),
    st.text(max_size=40),
    st.sampled_from(
        ["ALL", "ref|filter", "Using where; Using filesort", "4 (15%)", "1e400", "NULL", "DEPENDENT SUBQUERY"]
    ),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
)
keys = st.sampled_from(
    ["id", "select_type", "table", "type", "possible_keys", "key", "rows", "r_rows", "filtered", "r_filtered", "extra"]
)
row_strategy = st.dictionaries(st.one_of(keys, st.text(max_size=8)), cell, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(row_strategy, max_size=8))
def test_random_rows_never_raise(rows):
    plan = Plan(format="table", rows=rows)
    annotations, findings = annotate(plan)
    assert all(0 <= a.row < len(rows) for a in annotations)
    for finding in findings:
        assert finding.severity in ("bad", "warning", "info", "good")
        assert finding.kind and finding.message
        assert all(0 <= r < len(rows) for r in finding.rows)


def test_no_key_finding_about_a_key_column_the_paste_does_not_have():
    columns = ["id", "select_type", "table", "type", "possible_keys"]
    row = {"id": "1", "select_type": "SIMPLE", "table": "t", "type": "ALL", "possible_keys": "idx_a"}
    _, findings = annotate(Plan(format="table", columns=columns, rows=[row]))
    assert "unused-index" not in kinds(findings)
    _, findings = annotate(make_plan(make_row(possible_keys="idx_a,idx_…", key=None)))
    assert "unused-index" not in kinds(findings)
    _, findings = annotate(make_plan(make_row(possible_keys="idx_a", key=None)))
    assert "unused-index" in kinds(findings)


def test_a_count_of_one_is_singular_in_messages():
    from analyzer.insight.findings import _estimate_off, _rows_text

    assert _rows_text(1) == "about 1 row" and _rows_text(2) == "about 2 rows"
    message = _estimate_off("`t`", 1, 500, "read")
    assert message is not None and message.startswith("`t`: the optimizer estimated 1 row but 500 were read")
