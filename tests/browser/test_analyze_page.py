"""The analyze page in a real browser: live preview, tooltips, hostile pastes, no JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import read_fixture
from tests.ui.test_hostile import PAYLOADS, hostile_table
from tests.ui.test_hostile import QUERY as HOSTILE_QUERY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUERY = "SELECT e.emp_no FROM employees e WHERE NOT EXISTS (SELECT 1 FROM badges b WHERE b.emp_no = e.emp_no) AND e.dept_no = 'd007'"


def preview_posts(page) -> list[str]:
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/preview/" in r.url else None)
    return posts


def test_mangled_paste_previews_live_and_debounced(open_page):
    page = open_page("/preview/")
    posts = preview_posts(page)
    page.locator("#id_explain").fill(read_fixture("mangled_email72.txt"))
    expect(page.locator(".analysis")).to_be_visible()
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    expect(page.locator(".notices")).to_contain_text("Rejoined")
    assert len(posts) == 1
    expect(page.locator("#result-status")).to_have_text(re.compile(r"^Analysis updated: 2 rows"))
    expect(page.locator("#result-status")).to_have_count(1)
    # Typing a word sends one request after the pause, not one per key.
    page.locator("#id_query").press_sequentially("SELECT 1 FROM e", delay=25)
    expect(page.locator("pre.sql")).to_have_text("SELECT 1 FROM e")
    page.wait_for_timeout(800)
    assert len(posts) == 2
    assert page.url.endswith("/preview/")  # shown in place, no navigation


def explanation_of(page, term) -> str:
    """The text of the explanation `term` is described by (written once, in the list of terms)."""
    return page.locator("#" + term.get_attribute("aria-describedby")).inner_text()


def assert_in_viewport(page, locator) -> None:
    box, viewport = locator.bounding_box(), page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


def test_tooltip_opens_on_hover_and_focus_and_links_to_the_glossary(open_page):
    page = open_page("/preview/")
    page.locator("#id_explain").fill(read_fixture("no_badge_table.txt"))
    term = page.locator("#row-1 .term").filter(has_text="ALL")
    tip = page.get_by_role("tooltip")
    expect(tip).to_be_hidden()

    term.hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(explanation_of(page, term))
    expect(tip).to_contain_text("Documentation")
    assert_in_viewport(page, tip)
    page.mouse.move(5, 5)
    expect(tip).to_be_hidden()

    term.focus()
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    # Shift+Tab goes back to the previous term (MATERIALIZED): the tooltip opens with its explanation.
    page.keyboard.press("Shift+Tab")
    previous = page.locator("#row-1 .term").filter(has_text="MATERIALIZED")
    expect(previous).to_be_focused()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(explanation_of(page, previous))
    expect(tip).not_to_contain_text(explanation_of(page, term))
    term.focus()
    expect(tip).to_contain_text(explanation_of(page, term))

    # Keyboard users reach the links inside the tooltip; the glossary link opens the term.
    glossary = tip.get_by_role("link", name=re.compile("^Glossary"))
    slug = glossary.get_attribute("href").split("#", 1)[1]
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(glossary).to_be_focused()
    page.keyboard.press("Escape")  # from inside the tooltip: closes it and goes back to the term
    expect(tip).to_be_hidden()
    expect(term).to_be_focused()
    page.keyboard.press("Enter")
    expect(tip).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(glossary).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/terms/#{slug}$"))
    expect(page.locator(f"#{slug}")).to_be_in_viewport()
    expect(page.locator(f"#{slug}")).to_contain_text("ALL")


def test_tooltip_opens_on_tap(open_page):
    page = open_page("/preview/", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.locator("#id_explain").fill(read_fixture("no_badge_table.txt"))
    term = page.locator(".term").first
    tip = page.get_by_role("tooltip")
    term.tap()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(explanation_of(page, term))
    assert_in_viewport(page, tip)  # kept inside the phone screen
    assert page.url.endswith("/preview/")  # the tap opened the tooltip, it did not follow the link
    page.locator("h1").tap()
    expect(tip).to_be_hidden()
    term.tap()
    expect(tip).to_be_visible()
    term.tap()
    expect(tip).to_be_hidden()


def test_hostile_paste_runs_nothing(open_page, trouble):
    page = open_page("/preview/")
    page.locator("#id_query").fill(HOSTILE_QUERY)
    page.locator("#id_explain").fill(hostile_table())
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    page.locator(".raw-section summary").click()
    page.wait_for_timeout(300)
    table_text = page.locator("table.plan").inner_text()
    for payload in PAYLOADS:
        assert payload in table_text
    expect(page.locator("pre.sql")).to_have_text(HOSTILE_QUERY)
    expect(page.locator("pre.raw")).to_contain_text(PAYLOADS[0])
    assert page.locator("main img, main svg, main script").count() == 0
    assert not trouble.dialogs and not trouble.console_errors


def test_focusing_the_mark_of_lines_not_read_shows_why(open_page):
    page = open_page("/preview/")
    page.locator("#id_explain").fill("Hi all, why is this slow?\n\n" + read_fixture("no_badge_table.txt") + "Thanks!\n")
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    expect(page.locator(".raw-section summary")).to_have_text("Show the raw paste, highlighted (2 lines not read)")
    page.locator(".raw-section summary").click()
    mark = page.locator(".lines-ignored .term").first
    expect(mark).to_have_text("not read: line 1")
    tip = page.get_by_role("tooltip")
    expect(tip).to_be_hidden()
    mark.focus()
    expect(tip).to_be_visible()
    expect(tip).to_have_text("not read ignored: other text")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    # Tab goes on to the mark of the plan's lines, whose tooltip says what they were read as.
    page.keyboard.press("Tab")
    plan = page.locator(".lines-plan .term")
    expect(plan).to_be_focused()
    expect(tip).to_have_text("plan read as the plan: the EXPLAIN result shown")


def test_copy_button_copies_the_clean_table(open_page):
    page = open_page("/preview/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("#id_explain").fill(read_fixture("vertical_prompt.txt"))
    button = page.locator("[data-copy='clean-table']")
    expect(button).to_be_visible()
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#clean-table").inner_text()
    assert copied.startswith("+----+")


def test_without_javascript_the_form_posts_and_the_page_answers(open_page):
    page = open_page("/preview/", java_script_enabled=False)
    expect(page.locator("[data-copy]")).to_have_count(0)  # nothing to see before a result
    page.locator("#id_explain").fill(read_fixture("vertical_prompt.txt"))
    page.locator("#id_query").fill(QUERY)
    with page.expect_navigation():
        page.get_by_role("button", name="Analyze").click()
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#id_explain")).to_have_value(re.compile(r"^MariaDB \[hr\]>"))
    expect(page.locator(".copy-btn").first).to_be_hidden()  # no dead buttons without JavaScript
    expect(page.locator("#clean-table")).to_be_visible()
    # A term links to its explanation in the list of terms on the page.
    term = page.locator(".term").first
    target = term.get_attribute("aria-describedby")
    expect(page.locator(".page-terms")).to_be_visible()
    term.click()
    page.wait_for_url(re.compile(rf"#{target}$"))
    expect(page.locator(f"#{target}")).to_be_in_viewport()
    expect(page.locator(f"#{target}")).to_have_text(re.compile(r"\w"))
    expect(page.get_by_role("tooltip")).to_have_count(0)


def test_without_javascript_a_paste_with_no_explain_gets_the_error(open_page, trouble):
    trouble.expect_error("status of 400")
    page = open_page("/preview/", java_script_enabled=False)
    page.locator("#id_explain").fill("just some words")
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Analyze").click()
    assert navigation.value.status == 400
    expect(page.get_by_role("alert")).to_contain_text("EXPLAIN")
