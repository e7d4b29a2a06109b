"""Screenshots of the analysis at phone and desktop width, light and dark, for the README."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.ui.conftest import read_fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUERY = "SELECT e.emp_no FROM employees e WHERE NOT EXISTS (SELECT 1 FROM badges b WHERE b.emp_no = e.emp_no) AND e.dept_no = 'd007'"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_analysis_screenshot(open_page, size, scheme):
    page = open_page("/preview/", viewport=SIZES[size], color_scheme=scheme)
    page.locator("#id_query").fill(QUERY)
    page.locator("#id_explain").fill(read_fixture("vertical_prompt.txt"))
    expect(page.locator(".findings")).to_be_visible()
    page.locator("#row-1 .term").filter(has_text="ALL").hover()
    # The page never scrolls sideways: only the plan table and code blocks do, inside their boxes.
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"analyze-{size}-{scheme}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
