"""Findings grouped on a phone, errors beside their field, delete confirmed in the page, editing
with the delete token, og: tags and the icon, in a real browser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from pastebin.models import Explain
from tests.analyzer.render.test_finding_groups import ADVICE, eleven_rows
from tests.browser.test_pastebin_pages import HOSTILE_TITLE, save_via_http
from tests.ui.conftest import read_fixture
from tests.ui.test_compare import AFTER, BEFORE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_findings_of_an_eleven_row_plan_stay_short_on_a_phone(open_page):
    slug = save_via_http(eleven_rows(), "eleven rows")
    page = open_page(f"/e/{slug}/", viewport=PHONE, is_mobile=True, has_touch=True)
    cards = page.locator(".findings ol > li")
    expect(cards).to_have_count(3)
    expect(cards.first).to_contain_text("Full table scans (6)")
    expect(page.locator(".findings p.shared").first).to_have_text(ADVICE)
    assert page.locator(".findings").inner_text().count(ADVICE) == 1
    height = page.locator(".findings").bounding_box()["height"]
    assert height < 1500, height  # one card per finding made several thousand pixels
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each table the group names still links to its row.
    cards.first.get_by_role("link", name="row 4 (t3)").click()
    expect(page.locator("#row-3")).to_be_in_viewport()
    # Counts read as words: no "1 rows" or "1 loops" anywhere.
    assert not re.search(r"\b1 (rows|loops)\b", page.locator("main").inner_text())


def test_a_bad_compare_slug_is_an_error_beside_the_field(open_page):
    slug = save_via_http(BEFORE, "before")
    page = open_page(f"/e/{slug}/")
    field = page.locator("#compare-other")
    field.fill("not a slug!")
    page.get_by_role("button", name="Compare").click()
    error = page.locator("#compare-error")
    expect(error).to_contain_text("neither a link to a saved explain")
    expect(page.locator("#compare-other")).to_have_attribute("aria-invalid", "true")
    assert page.url.endswith(f"/e/{slug}/")  # answered in place
    assert page.locator(".messages").count() == 0
    field_box, error_box = page.locator("#compare-other").bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - field_box["y"] < 200  # right under the field, not at the top of the page
    bad = page.evaluate(
        """() => { const probe = document.createElement("span"); probe.style.color = "var(--bad)";
                   document.body.append(probe); const colour = getComputedStyle(probe).color; probe.remove();
                   return colour; }"""
    )
    assert error.evaluate("e => getComputedStyle(e).color") == bad  # the colour of errors
    # Then a good one goes to the comparison.
    other = save_via_http(AFTER, "after")
    page.locator("#compare-other").fill(other)
    with page.expect_navigation():
        page.get_by_role("button", name="Compare").click()
    assert page.url.endswith(f"/compare/{slug}/{other}/")


def test_a_bad_compare_slug_without_javascript(open_page, trouble):
    trouble.expect_error("status of 400")
    slug = save_via_http(BEFORE, "before")
    page = open_page(f"/e/{slug}/", java_script_enabled=False)
    page.locator("#compare-other").fill("abcdefghjkmnpq")
    with page.expect_navigation():
        page.get_by_role("button", name="Compare").click()
    expect(page.locator("#compare-error")).to_have_text("There is no saved explain abcdefghjkmnpq.")
    expect(page.locator("#compare-other")).to_have_value("abcdefghjkmnpq")
    page.get_by_role("link", name="Back to the explain").click()
    assert page.url.endswith(f"/e/{slug}/")


def test_delete_asks_in_the_page_and_works_without_javascript(open_page, trouble):
    trouble.expect_error("status of 403")  # the wrong token, on purpose
    response = save_for_token(read_fixture("analyze_table.txt"))
    slug, token = response["slug"], response["delete_token"]
    page = open_page(f"/e/{slug}/", java_script_enabled=False)
    page.get_by_text("Edit or delete (for its creator").click()
    with page.expect_navigation():
        page.get_by_role("link", name="Delete", exact=True).click()
    expect(page.locator("h1")).to_have_text("Delete this explain?")
    page.get_by_label("Delete token").fill("wrong")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, delete it").click()
    expect(page.locator("#token-error")).to_have_text("The delete token is wrong.")
    assert Explain.objects.filter(slug=slug).exists()
    with page.expect_navigation():
        page.get_by_role("link", name="Cancel").click()
    assert page.url.endswith(f"/e/{slug}/")
    page.goto(page.url.replace(f"/e/{slug}/", f"/e/{slug}/delete/"))
    page.get_by_label("Delete token").fill(token)
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, delete it").click()
    expect(page.locator(".messages")).to_contain_text("The explain was deleted.")
    assert not Explain.objects.filter(slug=slug).exists()


def save_for_token(text: str) -> dict:
    from django.test import Client

    response = Client().post("/api/v1/explains/?title=with+token", text, content_type="text/plain", HTTP_ACCEPT="application/json")
    assert response.status_code == 201
    return response.json()


def test_the_creator_edits_title_visibility_and_expiry(open_page):
    page = open_page("/")
    page.locator("#id_explain").fill(read_fixture("analyze_table.txt"))
    page.get_by_text("Save options").click()  # folded under the paste box
    page.locator("#id_title").fill("before the edit")
    with page.expect_navigation():
        page.get_by_role("button", name="Save & share").click()
    slug = page.url.rstrip("/").split("/")[-1]
    with page.expect_navigation():
        page.get_by_role("link", name="Edit title, visibility or expiry").click()
    expect(page.get_by_label("Delete token")).to_have_count(0)  # this browser keeps it
    page.get_by_label("Title").fill(HOSTILE_TITLE)
    page.get_by_label("Public: listed in Recent and Search").check()
    page.get_by_label("Delete after").select_option("never")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the changes").click()
    assert page.url.endswith(f"/e/{slug}/")
    expect(page.locator("h1")).to_have_text(HOSTILE_TITLE)
    expect(page.locator(".messages")).to_contain_text("The changes were saved.")
    expect(page.locator(".meta")).to_contain_text("never")
    assert page.locator('meta[property="og:title"]').get_attribute("content") == HOSTILE_TITLE
    assert "finding" in page.locator('meta[property="og:description"]').get_attribute("content")
    assert page.locator("main script, main svg[onload]").count() == 0
    explain = Explain.objects.get(slug=slug)
    assert (explain.title, explain.visibility, explain.expires_at) == (HOSTILE_TITLE, "public", None)
    page.goto(page.url.split("/e/")[0] + "/recent/")
    expect(page.get_by_role("link", name=HOSTILE_TITLE)).to_be_visible()


def test_the_favicon_is_served(open_page):
    page = open_page("/")
    response = page.request.get(page.url.rstrip("/") + "/favicon.ico")
    assert response.status == 200 and response.headers["content-type"] == "image/x-icon"
    loaded = page.evaluate(
        """async () => { const img = new Image(); img.src = "/favicon.ico"; await img.decode();
                         return [img.naturalWidth, img.naturalHeight]; }"""
    )
    assert loaded[0] >= 16 and loaded[0] == loaded[1]
