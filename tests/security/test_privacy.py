"""What must never leak: delete tokens, unlisted explains, settings; and what must hold byte for byte."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.views.debug import SafeExceptionReporterFilter

from pastebin import views

ROOT = Path(__file__).resolve().parents[2]
CODE = [p for app in ("pastebin", "analyzer", "notes", "config") for p in (ROOT / app).rglob("*.py")]


def test_token_digests_are_compared_in_constant_time():
    source = (ROOT / "pastebin" / "tokens.py").read_text()
    assert "hmac.compare_digest(" in source
    for path in CODE:
        text = path.read_text()
        plain = re.findall(r"\w*token\w*\s*[!=]=\s*\S+|\S+\s*[!=]=\s*\w*token\w*", text)
        assert not [p for p in plain if "None" not in p], f"{path.name}: {plain}"


def test_no_code_logs_or_prints_a_token():
    for path in CODE:
        if path.name == "cli.py":
            continue  # the CLI prints the creator's own answer on their terminal
        for line in path.read_text().splitlines():
            if re.search(r"\b(log(ger)?\.\w+|print|warnings\.warn)\(", line):
                assert not re.search(r"\b(delete_)?token\b", line), f"{path.name}: {line.strip()}"


@pytest.mark.django_db
def test_delete_token_appears_in_no_log_record_and_no_page_but_its_own(client, create_explain, caplog):
    caplog.set_level(logging.DEBUG)
    created = create_explain(visibility="public")
    slug, token = created["slug"], created["delete_token"]
    client.delete(f"/api/v1/explains/{slug}/", HTTP_X_DELETE_TOKEN=token[:-1] + "x")  # logged 403
    client.post(f"/e/{slug}/delete/", {"token": token + "x"})  # logged 403
    for url in (f"/e/{slug}/", f"/e/{slug}/raw/", f"/api/v1/explains/{slug}/", "/api/v1/explains/", "/recent/"):
        assert token not in client.get(url).content.decode(), url
    client.delete(f"/api/v1/explains/{slug}/", HTTP_X_DELETE_TOKEN=token)
    assert caplog.records, "the 403s above should have been logged"
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token[:20] not in str(record.__dict__)


@pytest.mark.django_db
def test_delete_form_token_is_hidden_from_error_reports(create_explain):
    slug = create_explain()["slug"]
    request = RequestFactory().post(f"/e/{slug}/delete/", {"token": "secret-token-value"})
    request.session = {}
    request.user = AnonymousUser()  # the rate limit counts anonymous clients by address
    views.delete(request, slug=slug)
    cleansed = SafeExceptionReporterFilter().get_post_parameters(request)
    assert cleansed["token"] != "secret-token-value"


@pytest.mark.django_db
def test_the_token_shown_after_saving_is_shown_once_and_not_cached(client, paste):
    response = client.post("/", {"explain": paste, "expires": "1d", "visibility": "unlisted"})
    permalink = response["Location"]
    first = client.get(permalink)
    assert "no-store" in first["Cache-Control"]
    token = client.session[views.SESSION_TOKENS][permalink.strip("/").split("/")[-1]]
    assert token in first.content.decode()
    assert token not in client.get(permalink).content.decode()


TEXTS = {
    "crlf": "\r\n",
    "cr": "\r",
    "nbsp": "\u00a0",
    "emoji": " \U0001f600\U0001f468\u200d\U0001f469\u200d\U0001f467 ",
    "bom": "\ufeff",
    "tabs": "\t \t",
    "trailing": "   \n\n\n",
}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", TEXTS)
@pytest.mark.parametrize("how", ["text", "json", "form"])
def test_raw_view_returns_exactly_the_stored_bytes(client, paste, kind, how):
    extra = TEXTS[kind]
    text = (
        paste.replace("\n", extra)
        if kind in ("crlf", "cr")
        else extra + paste.replace("employees", "employees" + extra.strip(" \n") or "e") + extra
    )
    if how == "text":
        response = client.post("/api/v1/explains/", text.encode("utf-8"), content_type="text/plain; charset=utf-8",
                               HTTP_ACCEPT="application/json")  # fmt: skip
        slug = response.json()["slug"]
    elif how == "json":
        response = client.post("/api/v1/explains/", {"explain": text}, content_type="application/json")
        slug = response.json()["slug"]
    else:
        response = client.post("/", {"explain": text, "expires": "1d", "visibility": "unlisted"})
        assert response.status_code == 302, response.content[:300]
        slug = response["Location"].strip("/").split("/")[-1]
    raw = client.get(f"/e/{slug}/raw/")
    assert raw.status_code == 200
    assert raw["Content-Type"] == "text/plain; charset=utf-8"
    assert raw["X-Content-Type-Options"] == "nosniff"
    if how == "form":
        text = text.replace("\r\n", "\n")  # a browser's CRLF for the textarea's LF
    assert raw.content == text.encode("utf-8")
    assert client.get(f"/api/v1/explains/{slug}/").json()["explain"] == text


@pytest.mark.django_db
def test_unlisted_explains_are_listed_nowhere(client, create_explain, paste):
    hidden = create_explain(paste.replace("employees", "zzhidden"), title="zzshared zzhidden")["slug"]
    shown = create_explain(paste.replace("employees", "zzpublic"), title="zzshared zzpublic", visibility="public")[
        "slug"
    ]
    pages = ["/recent/", "/api/v1/explains/", "/search/?q=zzshared", "/search/?q=employees", "/search/?q=zzpublic",
             "/notes/feed/", "/sitemap.xml", "/robots.txt", f"/e/{shown}/", f"/api/v1/explains/{shown}/",
             "/api/v1/explains/?page_size=100"]  # fmt: skip
    seen_public = False
    for url in pages:
        body = client.get(url).content.decode()
        assert hidden not in body and "zzhidden" not in body, url
        seen_public = seen_public or shown in body
    assert seen_public
    assert client.get(f"/e/{hidden}/").status_code == 200  # reachable by its link


@pytest.mark.django_db
def test_saved_pages_carry_noindex(client, create_explain, paste):
    a = create_explain()["slug"]
    b = create_explain()["slug"]
    for url in (f"/e/{a}/", f"/e/{a}/raw/", f"/e/{a}/report/", f"/compare/{a}/{b}/", f"/analyze/?raw_explain={paste}"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "noindex" in response.get("X-Robots-Tag", ""), url
        if response["Content-Type"].startswith("text/html"):
            assert re.search(r'<meta name="robots" content="noindex', response.content.decode()), url


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/no/such/page/", "/e/neverexisted/", "/api/v1/nothing/", "/notes/nope/"])
def test_404_is_the_site_page_and_leaks_nothing(client, settings, url):
    settings.DEBUG = False
    response = client.get(url)
    assert response.status_code == 404
    body = response.content.decode()
    assert 'class="site-header"' in body and "Not found" in body
    for leak in ("Traceback", "SECRET_KEY", "DATABASES", "urlpatterns", "Using the URLconf", settings.SECRET_KEY,
                 str(settings.BASE_DIR)):  # fmt: skip
        assert leak not in body, leak


def test_500_page_is_the_site_page_and_leaks_nothing(settings):
    from django.views.defaults import server_error

    settings.DEBUG = False
    response = server_error(RequestFactory().get("/e/x/?token=secret-value"))
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "/static/css/site.css" in body
    for leak in ("Traceback", "SECRET_KEY", "secret-value", settings.SECRET_KEY, str(settings.BASE_DIR)):
        assert leak not in body, leak
