"""What a new user sees: a paste shows its analysis in view at once, "Try an example", the hint
when nothing is found, the plan table's sticky header and columns, and every page readable at
phone width without scrolling sideways. In light and dark."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from bench.pastes import explain_table
from tests.ui.conftest import read_fixture
from tests.ui.test_compare import BEFORE
from tests.ui.test_profile import figures, timed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCHEMES = ["light", "dark"]
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}

# Pastes into the EXPLAIN box as the browser does: a paste event carrying the text, then, unless a
# handler cancelled it, the text inserted where the caret is. Resolves with the page's own time
# (performance.now) from the paste until the analysis's top is inside the window, whether the
# result was busy meanwhile, and where the analysis ended up.
PASTE = """(text) => new Promise((resolve) => {
  const box = document.querySelector("#id_explain");
  const result = document.querySelector("#result");
  let busy = false;
  new MutationObserver(() => { busy = busy || result.getAttribute("aria-busy") === "true"; })
    .observe(result, {attributes: true});
  box.focus();
  const start = performance.now();
  const data = new DataTransfer();
  data.setData("text/plain", text);
  if (box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}))) {
    document.execCommand("insertText", false, text);
  }
  (function check() {
    const analysis = result.querySelector(".analysis");
    const top = analysis ? analysis.getBoundingClientRect().top : null;
    if (top !== null && top >= 0 && top < innerHeight / 2) {
      resolve({ms: performance.now() - start, top, busy});
    } else if (performance.now() - start > 5000) {
      resolve({ms: null, top, busy});
    } else {
      requestAnimationFrame(check);
    }
  })();
})"""


def save(text: str, title: str) -> str:
    response = Client().post("/", {"explain": text, "title": title, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302
    return response["Location"].strip("/").split("/")[-1]


def preview_posts(page) -> list[str]:
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/preview/" in r.url else None)
    return posts


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_paste_shows_the_analysis_in_view_within_a_second(open_page, scheme):
    page = open_page("/", viewport=DESKTOP, color_scheme=scheme)
    posts = preview_posts(page)
    assert page.locator("#result").bounding_box()["y"] > DESKTOP["height"]  # below the fold before
    shown = page.evaluate(PASTE, read_fixture("vertical_prompt.txt"))
    assert shown["ms"] is not None and shown["ms"] < 1000, shown
    assert shown["busy"]  # the progress showed while it ran
    expect(page.locator("#result table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#result")).not_to_have_attribute("aria-busy", "true")
    page.wait_for_timeout(800)  # no second request when the typing pause would have ended
    assert len(posts) == 1


def test_a_paste_into_the_analyze_page_previews_at_once(open_page):
    page = open_page("/preview/", viewport=PHONE)
    shown = page.evaluate(PASTE, read_fixture("no_badge_table.txt"))
    assert shown["ms"] is not None and shown["ms"] < 1000, shown


@pytest.mark.parametrize("scheme", SCHEMES)
def test_try_an_example_fills_the_box_and_shows_its_analysis(open_page, scheme):
    page = open_page("/", viewport=DESKTOP, color_scheme=scheme)
    page.get_by_role("link", name="Try an example").click()
    expect(page.locator("#result .findings")).to_be_visible()
    expect(page.locator("#id_explain")).to_have_value(re.compile(r"^MariaDB \[hr\]> EXPLAIN SELECT"))
    expect(page.locator("#result table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#result .analysis")).to_be_in_viewport()
    assert page.url.endswith("/")  # in place


def test_without_javascript_try_an_example_opens_its_analysis(open_page):
    page = open_page("/", java_script_enabled=False)
    with page.expect_navigation():
        page.get_by_role("link", name="Try an example").click()
    assert "/analyze/?example=" in page.url
    expect(page.locator("#result table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#id_explain")).to_have_value(re.compile(r"^MariaDB \[hr\]> EXPLAIN SELECT"))


@pytest.mark.parametrize("scheme", SCHEMES)
def test_junk_gets_the_hint_on_how_to_get_explain_output(open_page, scheme):
    page = open_page("/", viewport=DESKTOP, color_scheme=scheme)
    page.locator("#id_explain").fill("Hi all, my query is slow, any idea why?")
    hint = page.locator("#result .error-box .hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("EXPLAIN FORMAT=JSON")
    expect(hint).to_contain_text("\\G")


def test_the_plan_header_stays_in_view_when_the_page_and_the_table_scroll(open_page):
    slug = save(explain_table(20), "many rows")
    page = open_page(f"/e/{slug}/", viewport=DESKTOP)
    header = page.locator("table.plan thead th").nth(3)
    box_top = page.evaluate("document.querySelector('.table-scroll').getBoundingClientRect().top + scrollY")
    page.evaluate(f"window.scrollTo(0, {box_top} + 250)")  # the box's top is above the window
    expect_on_top_at_the_window_top(page, header)
    page.evaluate("document.querySelector('.table-scroll').scrollTop = 300")  # and the box scrolls itself
    expect_on_top_at_the_window_top(page, header)
    page.evaluate(f"window.scrollTo(0, {box_top} - 100)")  # back above: in its place again
    page.wait_for_function("document.querySelector('table.plan thead th').getBoundingClientRect().top > 50")


def expect_on_top_at_the_window_top(page, header) -> None:
    page.wait_for_function(
        """(th) => { const r = th.getBoundingClientRect();
                     return r.top >= 0 && r.top < 4 && document.elementFromPoint(r.left + 5, r.top + 5) === th; }""",
        arg=header.element_handle(),
    )


@pytest.mark.parametrize("scheme", SCHEMES)
def test_id_and_table_stay_in_view_when_the_table_scrolls_sideways(open_page, scheme):
    slug = save(explain_table(20), "wide on a phone")
    page = open_page(f"/e/{slug}/", viewport=PHONE, color_scheme=scheme)
    box = page.locator(".table-scroll")
    box.evaluate("box => { box.scrollIntoView(); box.scrollLeft = box.scrollWidth; }")
    assert box.evaluate("box => box.scrollLeft") > 300
    for column in ("id", "table"):
        index = page.locator("table.plan thead th").all_inner_texts().index(column)
        for cell in (page.locator("table.plan thead th").nth(index), page.locator("#row-4 > *").nth(index)):
            assert cell.evaluate(
                """(cell) => { const r = cell.getBoundingClientRect(), b = cell.closest('.table-scroll').getBoundingClientRect();
                               return r.left >= b.left && r.right <= b.right
                                 && cell.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""
            ), column
    # Extra keeps a readable width, and wraps between its items.
    extra = page.locator("table.plan thead th", has_text="extra")
    assert extra.bounding_box()["width"] >= 250


PAGES = ["home", "analysis", "permalink", "profile", "compare", "terms", "notes"]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways_at_phone_width(open_page, name, scheme):
    path = {
        "home": "/",
        "analysis": "/analyze/?example=group-by",
        "permalink": lambda: f"/e/{save(explain_table(20), 'phone')}/",
        "profile": lambda: f"/e/{save(deep_tree(), 'deep')}/",
        "compare": lambda: f"/compare/{save(BEFORE, 'before')}/{save(long_changes(), 'after')}/",
        "terms": "/terms/",
        "notes": "/notes/",
    }[name]
    page = open_page(path() if callable(path) else path, viewport=PHONE, color_scheme=scheme)
    if name == "home":
        page.get_by_role("link", name="Try an example").click()
        expect(page.locator("#result .analysis")).to_be_visible()
    for link in page.locator(".site-header nav a").all():  # every item of the navigation on the screen
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], link.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    if name == "compare":  # the changes are written out in full, in the box
        changes = page.locator("table.compare-table tr.status-changed td.long")
        assert changes.evaluate("td => td.scrollWidth <= td.clientWidth")
        assert changes.evaluate(
            "td => td.getBoundingClientRect().right <= td.closest('.table-scroll').getBoundingClientRect().right"
        )
    if name == "profile":  # deep steps keep their width: the tree scrolls in its own box
        deepest = page.locator("ul.tree .node-line").last
        assert deepest.bounding_box()["width"] >= 190


def deep_tree() -> str:
    """An EXPLAIN ANALYZE tree twelve steps deep."""
    lines = [
        (depth, f"Nested loop inner join (t{depth}.id = t{depth + 1}.parent_id)", figures(10, 10, 12.0 - depth))
        for depth in range(12)
    ]
    return timed(*lines, (12, "Table scan on the_last_table_of_a_deep_plan", figures(100, 100, 0.5)))


def long_changes() -> str:
    """BEFORE after an index on b, as \\G output with long key lists and Extra: a wide changes column."""
    rows = [
        ("1", "PRIMARY", "e", "ref", "idx_dept", "idx_dept", "16", "const", "868", "Using where; Using index"),
        (
            "2",
            "MATERIALIZED",
            "b",
            "ref",
            "idx_emp,idx_emp_badge_issued_on,idx_badge_kind_and_issuer",
            "idx_emp_badge_issued_on",
            "4",
            "e.id",
            "2",
            "Using index condition; Using where; Using join buffer (flat, BNL join)",
        ),
    ]
    names = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
    return "".join(
        f"*************************** {n}. row ***************************\n"
        + "".join(f"{name:>13}: {value}\n" for name, value in zip(names, row, strict=True))
        for n, row in enumerate(rows, 1)
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_tooltips_never_change_the_page_size(open_page, viewport):
    page = open_page("/", viewport=viewport)
    page.locator("#id_explain").fill(explain_table(20))
    expect(page.locator("#result table.plan tbody tr")).to_have_count(20)
    page.locator("#result .raw-section summary").click()
    size = "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    before = page.evaluate(size)
    terms = page.locator("#result .term")
    for n in range(0, terms.count(), 5):
        terms.nth(n).focus()
        expect(page.get_by_role("tooltip")).to_be_visible()
        assert page.evaluate(size) == before
    assert before[0] <= viewport["width"]
