"""The glossary page lists every term at its own anchor."""

from __future__ import annotations

from analyzer.insight import glossary
from tests.ui.html import parse


def test_every_term_has_its_anchor_explanation_and_link(client):
    response = client.get("/terms/")
    assert response.status_code == 200
    doc = parse(response.content)
    assert len(glossary.TERMS) > 50
    for term in glossary.TERMS:
        entry = doc.by_id(term.slug)
        assert entry is not None, term.slug
        assert term.term in entry.text and term.explanation in entry.text and term.title in entry.text
        hrefs = [a.attrs["href"] for a in entry.find_all("a")]
        assert term.url in hrefs and f"#{term.slug}" in hrefs
        assert f"sev-{term.severity}" in entry.classes
    ids = [n.attrs["id"] for n in doc.iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids))


def test_terms_page_is_grouped_by_column(client):
    doc = parse(client.get("/terms/").content)
    for column in glossary.COLUMNS:
        section = doc.by_id(f"column-{column}")
        assert section is not None
        assert len(section.find_all("div", cls="term-entry")) == sum(1 for t in glossary.TERMS if t.column == column)


def test_terms_page_refuses_post(client):
    assert client.post("/terms/").status_code == 405
