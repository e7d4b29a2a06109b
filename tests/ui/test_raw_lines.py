"""The raw paste marked by what became of its lines: a wrapper per span, a marker linking to its reason
in the legend (written once per reason, shown in the tooltip on hover, focus and tap), everything
escaped; analyses without `lines` show it unmarked."""

from __future__ import annotations

from django.template.loader import render_to_string

from analyzer import analyze
from analyzer.render.highlight import MAX_HIGHLIGHT_CHARS
from analyzer.render.view import MAX_MARKED_SPANS
from tests.analyzer.repair.mangle import box
from tests.ui.html import parse
from tests.ui.test_hostile import assert_inert

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
TABLE = box(COLUMNS, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "5", "Using where"]])
PASTE = "Hi all, why is this slow?\n<script>alert(1)</script>\n\n" + TABLE + "1 row in set (0.00 sec)\n\nThanks!\n"


def render(analysis: dict, raw: str, prefix: str = "") -> str:
    return render_to_string("analyzer/_analysis.html", {"analysis": analysis, "raw_explain": raw, "prefix": prefix})


def raw_block(markup: str):
    return parse(markup).find_all("pre", cls="raw")[0]


def test_each_span_of_lines_has_one_wrapper_with_its_marker():
    analysis = analyze(PASTE).to_dict()
    raw = raw_block(render(analysis, PASTE))
    assert "marked" in raw.classes
    marked = [n for n in raw.find_all("span", cls="lines") if len(n.classes) > 1]
    assert [sorted(n.classes - {"lines"}) for n in marked] == [
        ["lines-ignored"],
        ["lines-plan"],
        ["lines-ignored"],
        ["lines-ignored"],
    ]
    assert [n.find_all("a", cls="line-mark")[0].text for n in marked] == [
        "not read: lines 1\u20132",
        "plan: lines 4\u20138",
        "not read: line 9",
        "not read: line 11",
    ]
    assert raw.text_except("line-mark") == PASTE  # the paste itself, nothing added or lost


def test_the_marker_links_to_its_reason_written_once_in_the_legend():
    doc = parse(render(analyze(PASTE).to_dict(), PASTE))
    marks = [span.find_all("a", cls="line-mark")[0] for span in doc.find_all("span", cls="lines-ignored")]
    mark = marks[0]
    assert "term" in mark.classes  # focusable, and opens the tooltip on hover, focus and tap like a term
    assert mark.find_all("span", cls="visually-hidden")[0].text == ": lines 1\u20132"
    reason = doc.by_id(mark.attrs["aria-describedby"])
    assert mark.attrs["href"] == "#" + mark.attrs["aria-describedby"]
    assert reason is not None and reason.text == "other text"
    assert reason.parent.tag == "li" and "tip-source" in reason.parent.classes
    assert reason.parent.text == "not read ignored: other text"
    # Lines 9 and 11 were ignored for the same reason: one entry serves both.
    assert marks[2].attrs["aria-describedby"] == marks[0].attrs["aria-describedby"]
    status = doc.by_id(marks[1].attrs["aria-describedby"])
    assert status.text == "a client status line such as 'N rows in set'"


def test_a_hostile_paste_and_hostile_reasons_stay_text():
    analysis = analyze(PASTE).to_dict()
    analysis["lines"][0]["reason"] = '<img src=x onerror=alert(2)>"'
    markup = render(analysis, PASTE)
    assert_inert(markup)
    assert "<script>alert(1)</script>\n" in raw_block(markup).text
    assert "&lt;img src=x onerror=alert(2)&gt;&quot;</span>" in markup
    assert "style=" not in markup  # classes only: the CSP forbids inline styles


def test_the_legend_names_the_roles_and_reasons_found_and_the_summary_counts_lines_not_read():
    doc = parse(render(analyze(PASTE).to_dict(), PASTE))
    legend = doc.find_all("ul", cls="line-legend")[0]
    assert [li.text for li in legend.find_all("li")][:-1] == [
        "plan read as the plan: the EXPLAIN result shown",
        "not read ignored: other text",
        "not read ignored: a client status line such as 'N rows in set'",
    ]
    roles = [li.classes - {"tip-source"} for li in legend.find_all("li", cls="tip-source")]
    assert roles == [{"lines-plan"}, {"lines-ignored"}, {"lines-ignored"}]
    assert doc.find_all("summary")[-1].text == "Show the raw paste, highlighted (4 lines not read)"


def test_every_role_has_its_marker():
    paste = (
        "mysql> EXPLAIN EXTENDED SELECT a FROM t;\n" + TABLE + "\nNote (Code 1003): select `t`.`a` AS `a` from `t`\n"
    )
    doc = parse(render(analyze(paste).to_dict(), paste))
    markers = [a.text.split(":")[0] for a in doc.find_all("pre", cls="raw")[0].find_all("a", cls="line-mark")]
    assert markers == ["query", "plan", "warnings"]
    assert doc.find_all("summary")[-1].text == "Show the raw paste, highlighted"


def test_analyses_saved_without_lines_show_the_paste_unmarked():
    analysis = analyze(PASTE).to_dict()
    del analysis["lines"]
    for old in (analysis, {**analysis, "lines": []}):
        markup = render(old, PASTE)
        raw = raw_block(markup)
        assert "marked" not in raw.classes and not raw.find_all("span", cls="lines")
        assert raw.text == PASTE and raw.find_all("span", cls="gh")  # still highlighted
        assert "line-legend" not in markup


def test_spans_that_do_not_fit_the_paste_are_not_shown():
    good = analyze(PASTE).to_dict()["lines"]
    broken = [
        [*good, {"first": 40, "last": 41, "role": "ignored", "reason": "beyond the paste"}],
        [good[1], good[0]],  # out of order
        [{**good[0], "role": "evil"}],
        [{**good[0], "first": "1"}],
        [{**good[0], "first": True}],
        [{**good[0], "reason": None}],
        ["1-2"],
        {"first": 1},
    ]
    for lines in broken:
        raw = raw_block(render({**analyze(PASTE).to_dict(), "lines": lines}, PASTE))
        assert not raw.find_all("span", cls="lines"), lines
        assert raw.text == PASTE


def test_crlf_line_breaks_are_counted_as_the_analysis_counted_them():
    paste = PASTE.replace("\n", "\r\n")
    raw = raw_block(render(analyze(paste).to_dict(), paste))
    plan = raw.find_all("span", cls="lines-plan")[0]
    assert plan.text_except("line-mark") == TABLE
    assert raw.text_except("line-mark") == PASTE


def test_two_analyses_on_one_page_keep_their_marker_ids_apart():
    analysis = analyze(PASTE).to_dict()
    doc = parse(render(analysis, PASTE, "a-") + render(analysis, PASTE, "b-"))
    ids = [n.attrs["id"] for n in doc.iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids))
    assert sorted(i for i in ids if "line-why" in i) == [f"{p}-line-why-{n}" for p in "ab" for n in (1, 2, 3)]


def test_a_paste_too_big_to_highlight_is_still_marked():
    chat = "".join(f"chat line {n} with some words in it to make it long\n" for n in range(4000))
    paste = chat + TABLE
    assert len(paste) > MAX_HIGHLIGHT_CHARS
    raw = raw_block(render(analyze(paste).to_dict(), paste))
    assert [sorted(n.classes) for n in raw.find_all("span", cls="lines")] == [
        ["lines", "lines-ignored"],
        ["lines", "lines-plan"],
    ]
    assert not raw.find_all("span", cls="gh")  # plain text, as before
    assert raw.text_except("line-mark") == paste


def test_past_the_limit_spans_are_shown_unmarked():
    count = MAX_MARKED_SPANS + 3
    paste = "x\n\n" * count
    lines = [{"first": 2 * n + 1, "last": 2 * n + 1, "role": "ignored", "reason": "other text"} for n in range(count)]
    markup = render({**analyze(PASTE).to_dict(), "lines": lines}, paste)
    raw = raw_block(markup)
    assert len(raw.find_all("a", cls="line-mark")) == MAX_MARKED_SPANS
    assert len(parse(markup).find_all("li", cls="tip-source")) == 1  # one reason for them all
    assert raw.text_except("line-mark") == paste
    assert f"The first {MAX_MARKED_SPANS} spans of lines are marked; 3 more" in " ".join(markup.split())
