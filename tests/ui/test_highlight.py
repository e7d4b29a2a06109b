"""The query highlighter and the generated Pygments stylesheet."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from analyzer.render.highlight import highlight_query, pygments_css
from tests.ui.html import parse


def test_query_tokens_use_classes_and_tables_link_to_rows():
    html = highlight_query("SELECT d.x FROM `departments` AS d JOIN employees e ON e.id = d.id", {"d": 0, "e": 1})
    doc = parse(html)
    assert "style=" not in html
    assert [s.text for s in doc.find_all("span", cls="k")][:2] == ["SELECT", "FROM"]
    links = [(a.text, a.attrs["href"]) for a in doc.find_all("a", cls="table-link")]
    assert ("employees", "#row-1") in links and ("e", "#row-1") in links
    assert ("departments", "#row-0") in links and links.count(("d", "#row-0")) == 3
    assert doc.text == "SELECT d.x FROM `departments` AS d JOIN employees e ON e.id = d.id"


def test_query_without_plan_tables_has_no_links():
    html = highlight_query("SELECT 1 FROM dual", {})
    assert "<a" not in html and parse(html).text == "SELECT 1 FROM dual"


def test_hostile_query_is_escaped():
    html = highlight_query("SELECT '<script>alert(1)</script>' FROM t", {"t": 0})
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_committed_pygments_css_is_up_to_date():
    committed = (Path(settings.BASE_DIR) / "static" / "css" / "pygments.css").read_text()
    assert committed == pygments_css(), "run: python -m analyzer.render.highlight > static/css/pygments.css"
    assert "prefers-color-scheme: dark" in committed
