"""The time profile of a saved EXPLAIN ANALYZE in a real browser: graph and tree shown, a finding's
link and a graph box scroll to their tree node, the SVG downloads, with and without JavaScript."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from pastebin.models import Explain
from tests.ui.test_profile import DEPENDENT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def save_profiled(text: str, title: str) -> str:
    """Saves `text`; its analysis has a profile and a finding that points at its slowest step."""
    response = Client().post("/", {"explain": text, "title": title, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302
    slug = response["Location"].strip("/").split("/")[-1]
    analysis = Explain.objects.get(slug=slug).analysis
    assert analysis["profile"] and any(f.get("path") for f in analysis["findings"])
    return slug


def test_graph_and_tree_show_and_links_reach_the_tree_node(open_page):
    slug = save_profiled(DEPENDENT, "dependent subquery")
    page = open_page(f"/e/{slug}/", viewport={"width": 1280, "height": 700})
    graph = page.locator("svg.icicle")
    expect(graph).to_be_visible()
    expect(graph.locator("a")).to_have_count(5)
    assert graph.bounding_box()["width"] > 600
    expect(page.locator("ul.tree.profiled li.slowest")).to_be_visible()
    expect(page.locator("#node-0 .share").first).to_contain_text("59.2%")

    link = page.locator('.findings a[href^="#node-"]').first
    target = link.get_attribute("href")
    link.click()
    expect(page.locator(target)).to_be_in_viewport()
    assert page.url.endswith(target)
    assert page.evaluate(f"document.querySelector('{target}').matches(':target')")

    page.evaluate("window.scrollTo(0, 0)")
    box = graph.locator('a[href="#node-0-1-0-0"]')
    box.click()
    expect(page.locator("#node-0-1-0-0")).to_be_in_viewport()

    with page.expect_download() as download:
        page.get_by_role("link", name="Download SVG").click()
    assert download.value.suggested_filename == f"explain-{slug}-profile.svg"


def test_without_javascript_a_pasted_profile_downloads(open_page):
    page = open_page("/preview/", java_script_enabled=False)
    page.locator("#id_explain").fill(DEPENDENT)
    with page.expect_navigation():
        page.get_by_role("button", name="Analyze").click()
    expect(page.locator("svg.icicle")).to_be_visible()
    expect(page.locator("#node-0-2-0-0 .never")).to_have_text("never executed")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download SVG").click()
    assert download.value.suggested_filename == "explain-profile.svg"
    with open(download.value.path(), encoding="utf-8") as saved:
        assert saved.read().startswith("<?xml")


def test_the_live_preview_shows_the_profile_and_downloads_it(open_page):
    page = open_page("/")
    page.locator("#id_explain").fill(DEPENDENT)
    expect(page.locator("#result svg.icicle")).to_be_visible()
    assert page.url.endswith("/")
    with page.expect_download() as download:
        page.locator("#result").get_by_role("button", name="Download SVG").click()
    assert download.value.suggested_filename == "explain-profile.svg"
    assert page.url.endswith("/")
    expect(page.locator("#result svg.icicle")).to_be_visible()  # the page stays as it was
