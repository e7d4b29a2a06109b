"""Screenshots for the README, at phone and desktop width, light and dark: the home page with a
live preview and an open tooltip, a permalink, a comparison, and the time profile of an EXPLAIN ANALYZE.
Saved under docs/screenshots/."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_profile import save_profiled
from tests.ui.conftest import read_fixture
from tests.ui.test_compare import AFTER, BEFORE
from tests.ui.test_profile import DEPENDENT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUERY = "SELECT e.emp_no FROM employees e WHERE NOT EXISTS (SELECT 1 FROM badges b WHERE b.emp_no = e.emp_no) AND e.dept_no = 'd007'"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
SCHEMES = ["light", "dark"]


def save(text: str, title: str, query: str = "") -> str:
    response = Client().post(
        "/", {"explain": text, "title": title, "query": query, "expires": "1w", "visibility": "public"}
    )
    assert response.status_code == 302
    return response["Location"]


def shoot(page, name: str, width: int) -> None:
    # The page itself never scrolls sideways: only the plan table and code blocks do, in their boxes.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_home_with_preview(open_page, size, scheme):
    page = open_page("/", viewport=SIZES[size], color_scheme=scheme)
    page.locator("#id_query").fill(QUERY)
    page.locator("#id_explain").fill(read_fixture("vertical_prompt.txt"))
    expect(page.locator("#result .findings")).to_be_visible()
    page.locator("#row-1 .term").filter(has_text="ALL").hover()
    shoot(page, f"home-{size}-{scheme}", SIZES[size]["width"])


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_permalink(open_page, size, scheme):
    url = save(read_fixture("vertical_prompt.txt"), "Employees without a badge", QUERY)
    page = open_page(url, viewport=SIZES[size], color_scheme=scheme)
    expect(page.locator(".analysis")).to_be_visible()
    page.locator("#row-1 .term").filter(has_text="ALL").focus()
    shoot(page, f"permalink-{size}-{scheme}", SIZES[size]["width"])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_compare(open_page, scheme):
    before = save(BEFORE, "Employees without a badge").strip("/").split("/")[-1]
    after = save(AFTER, "Same query with an index on badges").strip("/").split("/")[-1]
    page = open_page(f"/compare/{before}/{after}/", viewport=SIZES["desktop"], color_scheme=scheme)
    expect(page.locator("tr.status-changed")).to_have_count(1)
    shoot(page, f"compare-desktop-{scheme}", SIZES["desktop"]["width"])


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_profile(open_page, size, scheme):
    slug = save_profiled(DEPENDENT, "Shops in Rome with pricey items")
    page = open_page(f"/e/{slug}/", viewport=SIZES[size], color_scheme=scheme)
    expect(page.locator("svg.icicle")).to_be_visible()
    page.locator("ul.tree.profiled").scroll_into_view_if_needed()
    shoot(page, f"profile-{size}-{scheme}", SIZES[size]["width"])
