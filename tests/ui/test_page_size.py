"""Page weight: each explanation is written once per page, and the permalink of a saved 20-row
explain (the benchmarks' paste, 67 annotated terms) stays small."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from bench.pastes import explain_table
from pastebin.saving import save_explain
from tests.ui.html import parse

pytestmark = pytest.mark.django_db

# It was 124 KB, 44 KB of it tooltips repeating 15 explanations; then 67.5 KB, 23 KB of it the clean
# copies and the highlighted paste, which are now loaded when opened (tests/pastebin/test_parts.py).
PERMALINK_BUDGET = 40_000


def test_the_permalink_of_a_20_row_explain_is_small_and_explains_each_term_once(client):
    explain = save_explain(explain_table(20)).explain
    response = client.get(explain.get_absolute_url())
    assert response.status_code == 200
    assert len(response.content) < PERMALINK_BUDGET
    page = response.content.decode()
    terms = parse(page).find_all("a", cls="term")
    assert len(terms) > 60
    for target in {term.attrs["aria-describedby"] for term in terms}:
        assert page.count(f' id="{target}"') == 1
    for note in explain.analysis["annotations"]:
        assert page.count(f">{escape(note['explanation'])}<") == 1
