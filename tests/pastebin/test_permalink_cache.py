"""Permalink pages served from the cache: rendered once, revalidated with ETags, never stale."""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.pastes import explain_table
from pastebin import permalink
from pastebin.models import Explain
from pastebin.saving import delete_explain, save_explain

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved():
    return save_explain(explain_table(20), title="cached page").explain


def test_the_analysis_section_is_rendered_once_for_every_visitor(client, saved, rendered):
    pages = [client.get(saved.get_absolute_url()) for _ in range(3)]
    client.cookies["sessionid"] = "someone-else"  # a visitor with a session gets a page of its own
    pages.append(client.get(saved.get_absolute_url()))
    assert [p.status_code for p in pages] == [200] * 4
    assert rendered == ["analyzer/_analysis.html"]
    assert all(b"Full table scan" in p.content for p in pages)


def test_a_cached_page_is_the_same_for_every_visitor_and_holds_no_secret(client, saved):
    first = client.get(saved.get_absolute_url())
    second = client.__class__().get(saved.get_absolute_url())
    assert first.content == second.content and first["ETag"] == second["ETag"]
    assert b"csrfmiddlewaretoken" not in first.content and not first.cookies and not second.cookies


def test_revalidation_answers_304_until_the_page_changes(client, saved):
    first = client.get(saved.get_absolute_url())
    tag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache" and first["Last-Modified"]
    again = client.get(saved.get_absolute_url(), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    save_explain(explain_table(3), improves_on=saved)  # the page now lists an improvement
    changed = client.get(saved.get_absolute_url(), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag and b"Improved by" in changed.content


def test_a_deleted_or_hidden_explain_is_never_served_from_the_cache(client, saved):
    url, tag = saved.get_absolute_url(), client.get(saved.get_absolute_url())["ETag"]
    Explain.objects.filter(pk=saved.pk).update(hidden=True)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 410
    Explain.objects.filter(pk=saved.pk).update(hidden=False)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    delete_explain(Explain.objects.get(pk=saved.pk))
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 410
    assert cache.get(permalink.cache_key(saved.slug, saved.parser_version)) is None


def test_a_new_parser_version_renders_the_section_again(client, saved, rendered):
    client.get(saved.get_absolute_url())
    Explain.objects.filter(pk=saved.pk).update(parser_version="next")
    client.get(saved.get_absolute_url())
    assert len(rendered) == 2


def test_an_anonymous_visit_reads_no_session_and_no_paste(client, saved):
    client.get(saved.get_absolute_url())  # warm the cache
    with CaptureQueriesContext(connection) as queries:
        page = client.get(saved.get_absolute_url())
    assert page.status_code == 200
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "django_session" not in sql
    assert "raw_explain" not in sql and "analysis" not in sql
    assert len(queries.captured_queries) == 1  # the explain, the one it improves on, those improving on it


def test_the_page_that_shows_a_new_delete_token_is_never_cached(client):
    response = client.post("/", {"explain": explain_table(2), "expires": "1d", "visibility": "unlisted"}, follow=True)
    assert response.status_code == 200 and b"delete token" in response.content
    assert "no-store" in response["Cache-Control"] and not response.has_header("ETag")


def test_pages_with_a_csrf_token_are_not_compressed_others_are(client, saved):
    plain = client.get(saved.get_absolute_url())
    packed = client.get(saved.get_absolute_url(), HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert packed["Content-Encoding"] == "gzip" and gzip.decompress(packed.content) == plain.content
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert packed["ETag"] != plain["ETag"]  # two representations, two tags
    again = client.get(saved.get_absolute_url(), HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304
    form = client.get(f"/e/{saved.slug}/misread/", HTTP_ACCEPT_ENCODING="gzip", HTTP_HX_REQUEST="true")
    assert b"csrfmiddlewaretoken" in form.content and not form.has_header("Content-Encoding")
    recent = client.get("/recent/", HTTP_ACCEPT_ENCODING="gzip")
    assert recent["Content-Encoding"] == "gzip" and b"<html" in gzip.decompress(recent.content)
    api = client.get(f"/api/v1/explains/{saved.slug}", HTTP_ACCEPT_ENCODING="gzip")
    assert not api.has_header("Content-Encoding")


def test_cache_url_selects_the_backend():
    from config.settings import caches

    assert caches("locmem://")["default"]["BACKEND"].endswith("LocMemCache")
    assert caches("locmem://")["throttle"]["BACKEND"].endswith("DatabaseCache")
    shared = caches("redis://:secret@cache.internal:6379/2")
    assert shared["default"]["BACKEND"].endswith("RedisCache") and shared["throttle"]["LOCATION"].endswith("/2")
    with pytest.raises(ValueError, match="unknown cache"):
        caches("memcached://cache.internal")
