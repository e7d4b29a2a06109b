"""The permalink's collapsed parts (clean copies, the highlighted paste), loaded when opened."""

from __future__ import annotations

import gzip
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache

from bench.pastes import explain_table
from pastebin import clock, permalink
from pastebin.models import Explain
from pastebin.saving import delete_explain, save_explain
from tests.security.hostile import table_paste
from tests.ui.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def saved():
    return save_explain(explain_table(3), title="parts").explain


def part_url(explain: Explain, name: str) -> str:
    return f"/e/{explain.slug}/parts/{name}/"


def test_the_permalink_loads_its_collapsed_parts_when_opened_and_links_to_them(client, saved):
    page = client.get(saved.get_absolute_url()).content.decode()
    doc = parse(page)
    assert doc.by_id("clean-table") is None and 'class="hl code raw' not in page  # not in the page
    for name in ("table", "vertical", "pasted"):
        url = part_url(saved, name)
        details = [d for d in doc.find_all("details") if d.attrs.get("hx-get") == url]
        assert len(details) == 1 and "open" not in details[0].attrs
        assert details[0].attrs["hx-trigger"] == "toggle once"
        assert details[0].find_all("a", href=url)  # without JavaScript, a link to the part's page


@pytest.mark.parametrize(
    ("name", "expected"),
    [("table", "| id | select_type"), ("vertical", "select_type: PRIMARY"), ("pasted", "Extra")],
)
def test_each_part_for_htmx_and_as_a_page_of_its_own(client, saved, name, expected):
    bare = client.get(part_url(saved, name), headers=HTMX)
    assert bare.status_code == 200 and bare["Content-Type"].startswith("text/html")
    assert expected in parse(bare.content).text and b"<html" not in bare.content
    assert bare["Cache-Control"] == "private, no-cache" and bare["ETag"]
    assert "HX-Request" in bare["Vary"] and bare["X-Robots-Tag"] == "noindex, nofollow"
    page = client.get(part_url(saved, name))
    assert page.status_code == 200 and b"<html" in page.content and page["ETag"] != bare["ETag"]
    doc = parse(page.content)
    assert doc.find_all("h1")[0].text == permalink.PARTS[name]
    assert doc.find_all("a", href=saved.get_absolute_url())
    assert bare.content.decode() in page.content.decode()


def test_a_copy_comes_with_its_copy_button(client, saved):
    doc = parse(client.get(part_url(saved, "table"), headers=HTMX).content)
    assert doc.find_all("button", cls="copy-btn")[0].attrs["data-copy"] == "clean-table"
    assert "| t0 " in doc.by_id("clean-table").text


def test_the_paste_keeps_its_line_marks(client, saved):
    doc = parse(client.get(part_url(saved, "pasted"), headers=HTMX).content)
    mark = doc.find_all("a", cls="line-mark")[0]
    assert doc.by_id(mark.attrs["aria-describedby"]).text == "the EXPLAIN result shown"


def test_head_revalidation_and_methods(client, saved):
    url = part_url(saved, "pasted")
    first = client.get(url, headers=HTMX)
    head = client.head(url, headers=HTMX)
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == first["ETag"]
    again = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    assert client.post(url, headers=HTMX).status_code == 405
    assert client.get(f"/e/{saved.slug}/parts/everything/").status_code == 404


def test_each_part_is_rendered_once_and_sent_compressed_without_cookies(client, saved, rendered):
    answers = [client.get(part_url(saved, "table"), headers=HTMX, HTTP_ACCEPT_ENCODING="gzip") for _ in range(3)]
    assert rendered == ["analyzer/part.html"]
    assert all(a["Content-Encoding"] == "gzip" and not a.cookies for a in answers)
    assert b"| id | select_type" in gzip.decompress(answers[0].content)


def test_a_script_in_the_paste_stays_text(client):
    explain = save_explain(table_paste(SCRIPT)).explain
    for name in ("table", "vertical", "pasted"):
        for headers in (HTMX, {}):
            body = client.get(part_url(explain, name), headers=headers).content.decode()
            assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body, name


@pytest.mark.parametrize("how", ["deleted", "hidden", "expired", "never saved"])
def test_parts_of_an_explain_that_is_not_live_are_404(client, saved, how):
    for name in permalink.PARTS:  # cached while it was live
        assert client.get(part_url(saved, name), headers=HTMX).status_code == 200
    moment = clock.now()
    if how == "deleted":
        delete_explain(saved)
        assert all(cache.get(permalink.part_key(saved.slug, saved.parser_version, n)) is None for n in permalink.PARTS)
    elif how == "hidden":
        Explain.objects.filter(pk=saved.pk).update(hidden=True)
    elif how == "expired":
        moment = saved.expires_at + timedelta(seconds=1)
    else:
        saved.slug = "neverSavedSlug"
    with mock.patch("pastebin.clock.now", return_value=moment):
        for name in permalink.PARTS:
            for headers in (HTMX, {}):
                response = client.get(part_url(saved, name), headers=headers)
                assert response.status_code == 404 and b"select_type" not in response.content
