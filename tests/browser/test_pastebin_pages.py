"""Home, permalink, glossary, delete, compare and "This was read wrong" in a real browser."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from bench.pastes import explain_table
from pastebin.models import MisreadReport
from tests.ui.conftest import read_fixture
from tests.ui.test_compare import AFTER, BEFORE
from tests.ui.test_hostile import PAYLOADS, hostile_table
from tests.ui.test_hostile import QUERY as HOSTILE_QUERY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE_TITLE = '"><svg onload=alert(9)><script>alert(10)</script>'


def save_via_http(text: str, title: str) -> str:
    response = Client().post("/", {"explain": text, "title": title, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302
    return response["Location"].strip("/").split("/")[-1]


def test_paste_preview_save_tooltip_glossary_and_delete(open_page, trouble):
    trouble.expect_error("status of 410")  # the deleted permalink, visited on purpose
    page = open_page("/")
    page.locator("#id_explain").fill(read_fixture("mangled_email72.txt"))
    expect(page.locator("#result .analysis")).to_be_visible()  # live preview, nothing saved yet
    expect(page.locator("#result table.plan tbody tr")).to_have_count(2)
    assert page.url.endswith("/")
    # The Analyze button shows the analysis in place too, with the query now highlighted.
    page.locator("#id_query").fill("SELECT 1 FROM e JOIN d")
    page.get_by_role("button", name="Analyze").click()
    expect(page.locator("#result pre.sql")).to_have_text("SELECT 1 FROM e JOIN d")
    assert page.url.endswith("/")
    page.get_by_text("Save options").click()  # folded: one tab stop between the paste and its analysis
    page.locator("#id_title").fill("Join after the e-mail mangled it")
    with page.expect_navigation():
        page.get_by_role("button", name="Save & share").click()
    assert re.search(r"/e/\w+/$", page.url)
    permalink = page.url
    expect(page.locator("h1")).to_have_text("Join after the e-mail mangled it")
    expect(page.get_by_text("shown only this once")).to_be_visible()
    expect(page.locator("#permalink-url")).to_have_value(permalink)

    term = page.locator("#row-1 .term").filter(has_text="eq_ref")
    tip = page.get_by_role("tooltip")
    term.hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(page.locator("#" + term.get_attribute("aria-describedby")).inner_text())
    glossary = tip.get_by_role("link", name=re.compile("^Glossary"))
    slug = glossary.get_attribute("href").split("#", 1)[1]
    glossary.click()
    page.wait_for_url(re.compile(rf"/terms/#{slug}$"))
    expect(page.locator(f"#{slug}")).to_be_in_viewport()

    page.go_back()
    page.wait_for_url(permalink)
    expect(page.get_by_text("You created this explain in this browser")).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Delete…").click()
    expect(page.locator("h1")).to_have_text("Delete this explain?")  # a step in the page, no dialog
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, delete it").click()
    expect(page.locator(".messages")).to_contain_text("deleted")
    response = page.goto(permalink)
    assert response.status == 410


def test_copy_link_button(open_page):
    slug = save_via_http(read_fixture("analyze_table.txt"), "copy me")
    page = open_page(f"/e/{slug}/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == page.url


def test_collapsed_parts_load_when_opened_or_are_links_without_javascript(open_page):
    slug = save_via_http(read_fixture("analyze_table.txt"), "parts")
    page = open_page(f"/e/{slug}/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    expect(page.locator("#clean-table")).to_have_count(0)
    page.locator(".copies summary").first.click()
    expect(page.locator("#clean-table")).to_contain_text("| id |")
    button = page.locator("[data-copy='clean-table']")
    button.click()
    expect(button).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#clean-table").inner_text()
    page.locator(".copies summary").first.click()  # closed and opened again: loaded once
    page.locator(".copies summary").first.click()
    expect(page.locator("#clean-table")).to_have_count(1)

    plain = open_page(f"/e/{slug}/", java_script_enabled=False)
    plain.locator(".raw-section summary").click()
    with plain.expect_navigation():
        plain.get_by_role("link", name="Open the paste, highlighted").click()
    assert plain.url.endswith(f"/e/{slug}/parts/pasted/")
    expect(plain.locator("h1")).to_have_text("The paste, highlighted")
    expect(plain.locator("pre.raw")).to_be_visible()


def test_hostile_paste_on_home_and_permalink_runs_nothing(open_page, trouble):
    page = open_page("/")
    page.locator("#id_query").fill(HOSTILE_QUERY)
    page.get_by_text("Save options").click()
    page.locator("#id_title").fill(HOSTILE_TITLE)
    page.locator("#id_explain").fill(hostile_table())
    expect(page.locator("#result table.plan tbody tr")).to_have_count(2)
    with page.expect_navigation():
        page.get_by_role("button", name="Save & share").click()
    expect(page.locator("h1")).to_have_text(HOSTILE_TITLE)
    table_text = page.locator("table.plan").inner_text()
    for payload in PAYLOADS:
        assert payload in table_text
    expect(page.locator("pre.sql")).to_have_text(HOSTILE_QUERY)
    page.locator(".raw-section summary").click()
    expect(page.locator("pre.raw")).to_contain_text(PAYLOADS[1])
    page.locator(".term").first.hover()
    page.wait_for_timeout(300)
    assert page.locator("main img, main svg, main script").count() == 0
    assert not trouble.dialogs and not trouble.unexpected_errors()


def test_tooltips_never_widen_the_page_or_the_plan_table(open_page):
    slug = save_via_http(explain_table(20), "many terms")
    page = open_page(f"/e/{slug}/", viewport={"width": 1280, "height": 720})
    tip = page.get_by_role("tooltip")
    before = page_sizes(page)
    assert before["page"][0] <= 1280  # no horizontal page scroll
    assert before["box"][0] <= max(before["box"][2], before["table"][0])  # the box holds the table, nothing more
    assert before["box"][1] <= max(before["box"][3], before["table"][1])
    terms = page.locator("table.plan .term")
    assert terms.count() > 60
    for n in (0, terms.count() // 2, terms.count() - 1):  # the last: the bottom right corner of the table
        terms.nth(n).hover()
        expect(tip).to_be_visible()
        box = tip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["y"] >= 0 and box["y"] + box["height"] <= 720
        assert page_sizes(page) == before


def page_sizes(page) -> dict[str, list[float]]:
    """Scroll sizes of the page and of the plan table's scroll box (with its visible size), and the table's size."""
    return page.evaluate(
        """() => {
          const root = document.documentElement, box = document.querySelector(".table-scroll");
          const table = box.querySelector("table");
          return {
            page: [root.scrollWidth, root.scrollHeight],
            box: [box.scrollWidth, box.scrollHeight, box.clientWidth, box.clientHeight],
            table: [table.offsetWidth, table.offsetHeight],
          };
        }"""
    )


def test_without_javascript_save_and_analyze(open_page):
    page = open_page("/", java_script_enabled=False)
    page.locator("#id_explain").fill(read_fixture("vertical_prompt.txt"))
    with page.expect_navigation():
        page.get_by_role("button", name="Analyze").click()
    assert page.url.endswith("/analyze/")
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#id_explain")).to_have_value(re.compile("MATERIALIZED"))
    page.locator("#id_title").fill("no script")
    with page.expect_navigation():
        page.get_by_role("button", name="Save & share").click()
    assert re.search(r"/e/\w+/$", page.url)
    expect(page.locator("h1")).to_have_text("no script")
    expect(page.locator("table.plan tbody tr")).to_have_count(2)
    expect(page.locator("#permalink-url")).to_be_visible()


def test_compare_view_shows_the_changed_rows(open_page):
    before, after = save_via_http(BEFORE, "before"), save_via_http(AFTER, "after")
    page = open_page(f"/e/{before}/")
    page.locator("#compare-other").fill(f"{page.url.split('/e/')[0]}/e/{after}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Compare").click()
    assert page.url.endswith(f"/compare/{before}/{after}/")
    changed = page.locator("table.compare-table tr.status-changed")
    expect(changed).to_have_count(1)
    expect(changed).to_contain_text("ALL")
    expect(changed).to_contain_text("idx_emp")
    expect(page.locator(".examined-figures")).to_contain_text("7.4× fewer")
    changed.get_by_role("link", name="b").click()
    expect(page.locator("#b-row-1")).to_be_in_viewport()


def test_this_was_read_wrong_on_a_permalink_sends_the_report_in_place(open_page):
    slug = save_via_http(read_fixture("analyze_table.txt"), "misread")
    page = open_page(f"/e/{slug}/")
    page.get_by_text("This was read wrong").click()
    page.get_by_label("What did it read wrong?").fill("the second row is missing")
    page.get_by_role("button", name="Send to the maintainers").click()
    expect(page.locator("#misread")).to_contain_text("Thank you: the paste was sent to the maintainers")
    assert page.url.endswith(f"/e/{slug}/")  # answered in place, no page load
    report = MisreadReport.objects.get()
    assert (report.explain_id, report.comment) == (slug, "the second row is missing")


def test_this_was_read_wrong_under_the_live_preview_and_its_refusal_in_place(open_page, trouble, settings):
    trouble.expect_error("status of 429")  # the second report, refused on purpose
    settings.MISREAD_REPORT_RATE = "1/hour"
    paste = read_fixture("analyze_table.txt")
    page = open_page("/")
    misread = page.locator("#misread")
    for comment, answer in [("first", "Thank you"), ("second", "Too many reports")]:
        with page.expect_response("**/preview/"):
            page.locator("#id_explain").fill(paste + comment)
        misread.get_by_text("This was read wrong").click()
        misread.get_by_label("What did it read wrong?").fill(comment)
        with page.expect_response("**/misread/"):
            misread.get_by_role("button", name="Send to the maintainers").click()
        expect(misread).to_contain_text(answer)
    assert page.url.endswith("/")
    assert MisreadReport.objects.get().text == paste + "first"
