"""The analysis partial: plan table, annotated terms and their explanations, findings, tree, copies, query."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from analyzer import analyze
from analyzer.insight import glossary
from tests.ui.conftest import read_fixture
from tests.ui.html import parse

NO_BADGE_QUERY = "SELECT e.emp_no FROM employees e WHERE NOT EXISTS (SELECT 1 FROM badges b WHERE b.emp_no = e.emp_no)"


def render(analysis: dict, raw: str = "") -> str:
    return render_to_string("analyzer/_analysis.html", {"analysis": analysis, "raw_explain": raw})


def base_analysis(**overrides) -> dict:
    analysis = {
        "format": "table",
        "columns": ["id", "select_type", "table", "type", "possible_keys", "key", "rows", "extra"],
        "rows": [
            {
                "id": "1",
                "select_type": "SIMPLE",
                "table": "t1",
                "type": "ALL",
                "possible_keys": None,
                "key": None,
                "rows": "1000",
                "extra": "Using where; Using filesort",
            },
            {
                "id": "1",
                "select_type": "SIMPLE",
                "table": "t2",
                "type": "eq_ref",
                "possible_keys": "PRIMARY,idx_a,idx_b",
                "key": "PRIMARY",
                "rows": "1",
                "extra": "",
            },
        ],
        "plan": None,
        "tables": ["t1", "t2"],
        "query": None,
        "warnings": [],
        "truncated": False,
        "annotations": [],
        "findings": [],
        "notices": [],
    }
    analysis.update(overrides)
    return analysis


def annotation(row: int, column: str, term: str) -> dict:
    entry = glossary.match(column, term)
    assert entry is not None
    return {
        "row": row,
        "column": column,
        "term": term,
        "severity": entry.severity,
        "title": entry.title,
        "explanation": entry.explanation,
        "url": entry.url,
        "slug": entry.slug,
    }


@pytest.mark.parametrize(
    "fixture",
    ["analyze_table.txt", "vertical_prompt.txt", "tsv.txt", "union_table.txt", "json_plan.txt", "no_badge_table.txt"],
)
def test_every_term_links_to_its_own_explanation_written_once(fixture):
    paste = read_fixture(fixture)
    analysis = analyze(paste).to_dict()
    assert analysis["annotations"], "the annotator should annotate these samples"
    doc = parse(render(analysis, paste))
    terms = doc.find_all("table", cls="plan")[0].find_all("a", cls="term")
    assert len(terms) == len(analysis["annotations"])
    for term, note in zip(terms, _in_document_order(analysis), strict=True):
        assert_explained(doc, term, note)
    entries = doc.find_all("section", cls="page-terms")[0].find_all("div", cls="term-entry")
    fields = ("title", "severity", "explanation", "url", "slug", "term")
    assert len(entries) == len({tuple(a[f] for f in fields) for a in analysis["annotations"]})
    ids = [n.attrs["id"] for n in doc.iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids))


def assert_explained(doc, term, note: dict) -> None:
    """`term` is described by, and links to, the text of `note`'s explanation, in an entry outside the
    plan table with its title, severity and links."""
    target = term.attrs["aria-describedby"]
    assert term.attrs["href"] == f"#{target}"
    assert f"sev-{note['severity']}" in term.classes
    explanation = doc.by_id(target)
    assert explanation is not None and explanation.text == note["explanation"]
    entry = ancestor(explanation, "term-entry")
    assert "tip-source" in entry.classes and f"sev-{note['severity']}" in entry.classes
    assert entry.find_all("dt")[0].text == f"{note['title']} {note['severity']}"
    hrefs = [a.attrs["href"] for a in entry.find_all("a")]
    assert hrefs == [note["url"], f"/terms/#{note['slug']}"]
    assert ancestor(entry, "page-terms").tag == "section"


def ancestor(node, cls: str):
    """The closest ancestor of `node` with class `cls`."""
    while node is not None and cls not in node.classes:
        node = node.parent
    assert node is not None, f"no ancestor of class {cls}"
    return node


def test_a_term_with_a_severity_of_its_own_in_one_row_gets_an_explanation_of_its_own():
    scan, reread = annotation(0, "type", "ALL"), {**annotation(1, "type", "ALL"), "severity": "info"}
    analysis = base_analysis(annotations=[scan, reread, annotation(1, "extra", "Using index")])
    analysis["rows"][1]["type"] = "ALL"
    doc = parse(render(analysis))
    first, second = (doc.by_id(f"row-{n}").find_all("a", cls="term")[0] for n in (0, 1))
    assert first.attrs["aria-describedby"] != second.attrs["aria-describedby"]
    assert_explained(doc, first, scan)
    assert_explained(doc, second, reread)


def test_the_same_explanation_is_written_once_for_all_its_terms():
    notes = [annotation(0, "type", "ALL"), annotation(1, "type", "eq_ref")]
    analysis = base_analysis(
        annotations=[*notes, annotation(1, "select_type", "SIMPLE"), annotation(0, "select_type", "SIMPLE")]
    )
    markup = render(analysis)
    doc = parse(markup)
    simple = [a for a in doc.find_all("a", cls="term") if a.text == "SIMPLE"]
    assert len(simple) == 2 and simple[0].attrs == simple[1].attrs
    assert markup.count(annotation(0, "select_type", "SIMPLE")["explanation"]) == 1
    assert len(doc.find_all("div", cls="term-entry")) == 3


def test_without_annotations_there_is_no_list_of_terms():
    assert "page-terms" not in render(base_analysis())


def _in_document_order(analysis: dict) -> list[dict]:
    columns = analysis["columns"]
    return sorted(
        analysis["annotations"],
        key=lambda a: (a["row"], columns.index(a["column"]) if a["column"] in columns else len(columns)),
    )


def test_terms_are_highlighted_inside_their_cell():
    analysis = base_analysis(annotations=[annotation(0, "extra", "Using filesort"), annotation(0, "type", "ALL")])
    doc = parse(render(analysis))
    row = doc.by_id("row-0")
    extra = row.find_all("td")[-1]
    assert extra.text.startswith("Using where;")
    assert [a.text for a in extra.find_all("a", cls="term")] == ["Using filesort"]
    type_cell = row.find_all("td")[3]
    assert [a.text for a in type_cell.find_all("a", cls="term")] == ["ALL"]


def test_an_annotation_whose_text_is_not_in_the_cell_is_still_shown():
    note = annotation(1, "extra", "Using index")
    doc = parse(render(base_analysis(annotations=[note])))
    terms = doc.by_id("row-1").find_all("a", cls="term")
    assert [a.text for a in terms] == ["Using index"]
    assert_explained(doc, terms[0], note)


def test_plan_table_layout():
    doc = parse(render(base_analysis()))
    table = doc.find_all("table", cls="plan")[0]
    headers = table.find_all("th", scope="col")
    assert [h.text.strip() for h in headers][1:] == base_analysis()["columns"]
    assert "num" in headers[7].classes  # rows: numbers right-aligned
    assert "num" not in headers[3].classes
    assert {c for c in table.classes if c.startswith("num-")} == {"num-2", "num-8"}  # their cells too, by site.css
    nulls = doc.by_id("row-0").find_all("td", cls="null")
    assert [n.text for n in nulls] == ["NULL", "NULL"]
    # Short lists of keys stay on one line; long ones wrap in a box, after their commas.
    keys = doc.by_id("row-1").find_all("td")[4]
    assert keys.text == "PRIMARY,idx_a,idx_b" and not keys.find_all("div") and not keys.find_all("wbr")
    assert [td.text for td in doc.by_id("row-1").find_all("td")][5:] == ["PRIMARY", "1", ""]
    assert doc.by_id("row-1").find_all("th", scope="row")[0].find_all("a", href="#row-1")
    analysis = base_analysis()
    analysis["rows"][1]["possible_keys"] = "PRIMARY,idx_customer_created_at,idx_status"
    keys = parse(render(analysis)).by_id("row-1").find_all("td")[4]
    assert keys.find_all("div", cls="wrap-box") and len(keys.find_all("wbr")) == 2


def test_numeric_columns_past_the_table_classes_are_aligned_by_their_cells():
    columns = [f"c{n}" for n in range(20)]
    analysis = base_analysis(columns=columns, rows=[{c: str(n) for n, c in enumerate(columns)}], tables=[])
    doc = parse(render(analysis))
    table = doc.find_all("table", cls="plan")[0]
    assert {c for c in table.classes if c.startswith("num-")} == {f"num-{p}" for p in range(2, 17)}
    cells = doc.by_id("row-0").find_all("td")
    assert [td.text for td in cells] == [str(n) for n in range(20)]
    assert [n for n, td in enumerate(cells) if "num" in td.classes] == list(range(15, 20))


def test_findings_most_severe_first_with_row_links():
    findings = [
        {"severity": "info", "message": "Sorted in a temporary file", "rows": [0], "kind": "a"},
        {"severity": "bad", "message": "Full scan of t1", "rows": [0], "kind": "b"},
        {"severity": "warning", "message": "Join buffer on t2", "rows": [1, 0], "kind": "c"},
    ]
    doc = parse(render(base_analysis(findings=findings)))
    items = doc.find_all("section", cls="findings")[0].find_all("li")
    assert [i.find_all("p")[0].text for i in items] == [
        "Full scan of t1",
        "Join buffer on t2",
        "Sorted in a temporary file",
    ]
    links = items[1].find_all("a")
    assert [a.attrs["href"] for a in links] == ["#row-1", "#row-0"]
    assert links[0].text == "row 2 (t2)"
    for a in doc.find_all("a"):
        href = a.attrs.get("href", "")
        if href.startswith("#row-"):
            assert doc.by_id(href[1:]) is not None


def test_truncated_rows_are_marked():
    doc = parse(render(base_analysis(truncated=True, affected_rows=[1], notices=["Lines cut at 100 columns"])))
    assert doc.find_all("p", cls="banner")
    assert "affected" in doc.by_id("row-1").classes
    assert "affected" not in doc.by_id("row-0").classes
    assert "Lines cut at 100 columns" in doc.find_all("section", cls="notices")[0].text


def test_clean_copies_with_copy_buttons():
    doc = parse(render(base_analysis()))
    for pre_id in ("clean-table", "clean-vertical"):
        pre = doc.by_id(pre_id)
        assert pre is not None and pre.tag == "pre"
        assert doc.find_all("button", data_copy=pre_id)
    assert "| id | select_type |" in doc.by_id("clean-table").text
    assert "select_type: SIMPLE" in doc.by_id("clean-vertical").text


def test_query_is_highlighted_with_its_tables_linked():
    paste = read_fixture("no_badge_table.txt")
    analysis = analyze(paste, query=NO_BADGE_QUERY).to_dict()
    doc = parse(render(analysis, paste))
    code = doc.find_all("pre", cls="sql")[0]
    assert code.text == NO_BADGE_QUERY
    assert "hl" in code.classes and code.find_all("span", cls="k")  # keywords as classes, no style
    links = {(a.text, a.attrs["href"]) for a in code.find_all("a", cls="table-link")}
    assert ("e", "#row-0") in links and ("employees", "#row-0") in links
    assert ("b", "#row-1") in links and ("badges", "#row-1") in links


def test_tree_view_from_tabular_rows():
    paste = read_fixture("union_table.txt")
    doc = parse(render(analyze(paste).to_dict(), paste))
    tree = doc.find_all("ul", cls="tree")[0]
    top = [li for li in tree.children if not isinstance(li, str)]
    assert len(top) == 1 and "node-union" in top[0].classes
    selects = top[0].find_all("li", cls="node-select")
    assert [s.find_all("span", cls="node-label")[0].text for s in selects] == ["#1 PRIMARY", "#2 UNION"]
    assert "est. 936 rows" in tree.text


def test_tree_view_from_a_json_plan_shows_actual_rows_and_time():
    plan = {
        "query_block": {
            "select_id": 1,
            "r_loops": 1,
            "r_total_time_ms": 0.5,
            "table": {"table_name": "t1", "access_type": "ALL", "rows": 1000, "r_rows": 998, "r_total_time_ms": 0.41},
        }
    }
    analysis = base_analysis(format="json", plan=plan, rows=base_analysis()["rows"][:1])
    tree = parse(render(analysis)).find_all("ul", cls="tree")[0]
    table = tree.find_all("li", cls="node-table")[0]
    assert "est. 1000 rows" in table.text and "actual 998 rows" in table.text and "0.41 ms" in table.text
    assert table.find_all("a", href="#row-0")


def test_raw_paste_is_highlighted_with_the_explain_lexer():
    paste = read_fixture("analyze_table.txt")
    doc = parse(render(analyze(paste).to_dict(), paste))
    raw = doc.find_all("pre", cls="raw")[0]
    assert raw.text_except("line-mark") == paste
    assert raw.find_all("span", cls="gh")  # header cells
    assert raw.find_all("span", cls="kc")  # NULL
    assert raw.find_all("span", cls="m")  # numbers


def test_two_analyses_on_one_page_do_not_share_ids():
    one = render_to_string("analyzer/_analysis.html", {"analysis": base_analysis(), "raw_explain": "", "prefix": "a-"})
    two = render_to_string("analyzer/_analysis.html", {"analysis": base_analysis(), "raw_explain": "", "prefix": "b-"})
    ids = [n.attrs["id"] for n in parse(one + two).iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("flags", "banner"),
    [
        ({}, None),
        ({"truncated": True}, "Incomplete paste."),
        ({"uncertain": True}, "Uncertain reading."),
        ({"truncated": True, "uncertain": True}, "Incomplete paste."),
    ],
)
def test_a_doubtful_reading_has_one_banner_saying_which_doubt(flags, banner):
    html = render(base_analysis(**flags))
    shown = [text for text in ("Incomplete paste.", "Uncertain reading.") if text in html]
    assert shown == ([banner] if banner else [])


def test_show_warnings_are_server_notes_with_the_rewritten_query_highlighted():
    rewritten = "/* select#1 */ select `hr`.`e`.`emp_no` AS `emp_no` from `hr`.`employees` `e` where 1"
    html = render(base_analysis(warnings=[rewritten, "Select 2 was reduced during optimization"], notices=[]))
    doc = parse(html)
    [section] = doc.find_all("section", cls="server-notes")
    assert "The query as the optimizer rewrote it" in section.text
    assert "Select 2 was reduced during optimization" in section.text
    assert section.find_all("pre", cls="sql")
    assert not doc.find_all("section", cls="notices")  # warnings are not repairs


def test_the_variant_is_in_the_summary():
    html = render(base_analysis(format="tree", variant="MySQL EXPLAIN ANALYZE"))
    summary = parse(html).find_all("p", cls="summary")[0].text
    assert "TREE" in summary and "MySQL EXPLAIN ANALYZE" in summary


def test_the_same_finding_on_several_rows_is_one_card_listing_them():
    from tests.analyzer.render.test_finding_groups import ADVICE, eleven_rows

    analysis = analyze(eleven_rows()).to_dict()
    doc = parse(render(analysis))
    [findings] = doc.find_all("section", cls="findings")
    [listing] = findings.find_all("ol")
    cards = [child for child in listing.children if getattr(child, "tag", None) == "li"]
    kinds = list(dict.fromkeys(f["kind"] for f in analysis["findings"]))
    assert len(cards) == len(kinds) == 3 < len(analysis["findings"])
    scans = cards[0]
    assert "sev-bad" in scans.classes and "group" in scans.classes
    assert scans.find_all("p")[0].text == "Full table scans (6)"
    items = scans.find_all("ul")[0].find_all("li")
    assert [i.find_all("a")[0].attrs["href"] for i in items] == [f"#row-{n}" for n in range(6)]
    assert scans.find_all("p", cls="shared")[0].text == ADVICE
    assert render(analysis).count(ADVICE) == 1
    # The summary still counts every finding.
    assert f"{len(analysis['findings'])} findings" in doc.find_all("p", cls="summary")[0].text


def test_counts_in_the_plan_tree_read_as_words():
    from analyzer.web.templatetags.analysis_ui import counted

    assert [counted("1", "row"), counted("3", "row"), counted("0.5", "loop"), counted(1, "loop")] == [
        "1 row",
        "3 rows",
        "0.5 loops",
        "1 loop",
    ]
    analysis = base_analysis()
    analysis["rows"][1]["rows"] = "1"
    html = render(analysis)
    assert "est. 1 row<" in html and "1 rows" not in html


def test_a_json_plan_s_long_decimals_are_shown_with_two():
    analysis = analyze(read_fixture_json("mariadb/rowid_filter.analyze.json")).to_dict()
    assert analysis["rows"][0]["filtered"] == "10.9333334"  # the API keeps the figure as the server printed it
    doc = parse(render(analysis))
    cells = [td.text for td in doc.by_id("row-0").find_all("td")]
    assert "10.93" in cells and "10.9333334" not in render(analysis)


def read_fixture_json(name: str) -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parents[1] / "fixtures" / "json" / name).read_text(encoding="utf-8")
