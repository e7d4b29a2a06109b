"""Accessibility in a real browser: axe-core finds no serious or critical violation, nor any about
landmarks, on any page, light or dark; "Skip to results" reaches the analysis; few Tab presses from the paste box to the
first term of the plan.

axe-core comes from the npm registry (package.json, `npm ci`) into node_modules/; without it these
tests skip with the reason, and fail under REQUIRE_BROWSER=1 as the other browser tests do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import expect

from bench.pastes import explain_table
from tests.browser.test_layout import save
from tests.ui.conftest import read_fixture
from tests.ui.test_compare import AFTER, BEFORE
from tests.ui.test_profile import figures, timed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent.parent.parent / "node_modules" / "axe-core" / "axe.min.js"
SCHEMES = ["light", "dark"]
PAGES = ["home", "analysis", "permalink", "profile", "compare", "terms", "notes", "note", "recent", "search"]
# Tab presses from the EXPLAIN box to the first term of explain_table(3)'s plan: the query, the
# table definitions, the folded save options, Analyze, Save & share, the 8 links of its 4 findings,
# the first row's number, then the term. It took 20 when the five save options were each a stop and
# the plan's scroll box one more.
MOST_TABS_TO_FIRST_TERM = 15


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        reason = f"needs axe-core at {AXE} (npm ci)"
        if os.environ.get("REQUIRE_BROWSER", "") not in ("", "0"):
            pytest.fail(f"{reason}; REQUIRE_BROWSER=1 makes this test mandatory")
        pytest.skip(reason)
    return AXE.read_text(encoding="utf-8")


def page_path(name: str) -> str:
    if name == "permalink":
        return f"/e/{save(read_fixture('mangled_email72.txt'), 'permalink')}/"
    if name == "profile":
        lines = [(d, f"Nested loop inner join (t{d}.id = t{d + 1}.a)", figures(10, 10, 9.0 - d)) for d in range(8)]
        return f"/e/{save(timed(*lines, (8, 'Table scan on t9', figures(100, 100, 0.5))), 'profile')}/"
    if name == "compare":
        return f"/compare/{save(BEFORE, 'before')}/{save(AFTER, 'after')}/"
    if name in ("notes", "note"):
        call_command("load_notes", verbosity=0)
        return "/notes/" if name == "notes" else "/notes/explain-analyzer-launch/"
    if name in ("recent", "search"):
        response = Client().post("/", {"explain": BEFORE, "title": "listed", "expires": "1d", "visibility": "public"})
        assert response.status_code == 302
        return "/recent/" if name == "recent" else "/search/?q=listed"
    return {"home": "/", "analysis": "/analyze/?example=group-by", "terms": "/terms/"}[name]


def serious_violations(page, axe_source: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, and any about its landmarks
    (moderate ones such as two regions of the same name), one line per element."""
    page.evaluate(axe_source)
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')[:160]!r}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical") or v["id"].startswith("landmark") or v["id"] == "region"
        for node in v["nodes"]
    ]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_violation(open_page, axe_source, name, scheme):
    page = open_page(page_path(name), color_scheme=scheme)
    if name == "home":  # with the analysis of the example shown under the form
        page.get_by_role("link", name="Try an example").click()
        expect(page.locator("#result .analysis")).to_be_visible()
        page.locator("#result table.plan .term").first.focus()  # its tooltip open too
        expect(page.get_by_role("tooltip")).to_be_visible()
    found = serious_violations(page, axe_source)
    assert not found, "\n".join(found)


def tabs_to_first_term(page) -> int:
    page.locator("#id_explain").focus()
    first = page.locator("#result table.plan .term").first
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        if first.evaluate("element => element === document.activeElement"):
            return presses
    raise AssertionError("Tab never reached the first term of the plan")


def test_few_tab_stops_from_the_paste_box_to_the_first_term(open_page):
    page = open_page("/")
    page.locator("#id_explain").fill(explain_table(3))
    expect(page.locator("#result table.plan tbody tr")).to_have_count(3)
    presses = tabs_to_first_term(page)
    print(f"Tab presses from the EXPLAIN box to the first term: {presses}")
    assert presses <= MOST_TABS_TO_FIRST_TERM


def test_skip_to_results_link_moves_focus_to_the_analysis(open_page):
    page = open_page("/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to results")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.locator("#id_explain").fill(explain_table(3))
    expect(page.locator("#result table.plan tbody tr")).to_have_count(3)
    skip.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("region", name="Results")).to_be_focused()
    page.keyboard.press("Tab")  # on into the analysis, past the form
    assert page.evaluate("document.activeElement.closest('#result .analysis') !== null")
