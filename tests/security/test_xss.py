"""Hostile strings in every field, saved through the API and the form, stay inert on every page."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User

from notes.models import Note
from pastebin.models import MisreadReport
from tests.security.hostile import PASTES, PAYLOADS, assert_inert, hostile_query

CASES = [(fmt, payload) for fmt in PASTES for payload in PAYLOADS]
IDS = [f"{fmt}-{i}" for fmt in PASTES for i in range(len(PAYLOADS))]


def check_page(client, url: str, method: str = "get", **kwargs) -> str:
    response = getattr(client, method)(url, **kwargs)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Type"].startswith("text/html"), url
    body = response.content.decode()
    assert_inert(body, url)
    csp = response.get("Content-Security-Policy", "")
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp, (url, csp)
    return body


def check_raw(client, slug: str, paste: str) -> None:
    response = client.get(f"/e/{slug}/raw/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.content == paste.encode("utf-8")


def check_profile_svg(client, slug: str) -> None:
    """The profile SVG file, for an explain with timings: well-formed, nothing in it that runs."""
    response = client.get(f"/e/{slug}/profile.svg")
    assert response.status_code in (200, 404), response.status_code
    if response.status_code == 404:
        return
    assert response["Content-Disposition"].startswith("attachment;")
    root = ET.fromstring(response.content)
    tags = {element.tag.rsplit("}", 1)[-1] for element in root.iter()}
    assert tags <= {"svg", "g", "rect", "text", "title", "a"}, tags
    for element in root.iter():
        assert not [name for name in element.attrib if name.startswith("on")], element.attrib
        assert all(value.startswith("#") for name, value in element.attrib.items() if name == "href")


@pytest.mark.django_db
@pytest.mark.parametrize(("fmt", "payload"), CASES, ids=IDS)
def test_saved_through_the_api(client, create_explain, fmt, payload):
    paste = PASTES[fmt](payload)
    body = json.dumps(
        {"explain": paste, "query": hostile_query(payload), "title": payload[:200], "visibility": "public"}
    )
    response = client.post("/api/v1/explains/", body, content_type="application/json", HTTP_ACCEPT="application/json")
    assert response.status_code == 201, response.content[:300]
    slug = response.json()["slug"]
    other = create_explain(visibility="public", title=payload[:200])["slug"]

    page = check_page(client, f"/e/{slug}/")
    assert "&lt;script" in page or "<script" not in payload
    check_raw(client, slug, paste)
    check_profile_svg(client, slug)
    for part in ("table", "vertical", "pasted"):  # the permalink's parts loaded when opened, bare and as a page
        check_page(client, f"/e/{slug}/parts/{part}/", headers={"HX-Request": "true"})
        check_page(client, f"/e/{slug}/parts/{part}/")
    check_page(client, "/recent/")
    check_page(client, "/search/", data={"q": "alert"})
    check_page(client, "/search/", data={"q": payload[:50]})
    check_page(client, f"/compare/{slug}/{other}/")
    check_page(client, f"/compare/{other}/{slug}/")
    check_page(client, f"/e/{slug}/report/")
    check_page(client, f"/e/{slug}/edit/")
    check_page(client, f"/e/{slug}/delete/")
    refused = client.get("/compare/", {"a": slug, "b": payload[:300]})  # not a slug: the form with its error
    assert refused.status_code == 400
    assert_inert(refused.content.decode(), "/compare/")


@pytest.mark.django_db
@pytest.mark.parametrize(("fmt", "payload"), CASES, ids=IDS)
def test_previewed_handed_off_and_saved_through_the_form(client, fmt, payload):
    paste = PASTES[fmt](payload)
    fields = {"explain": paste, "query": hostile_query(payload), "title": payload[:200]}
    check_page(client, "/preview/", method="post", data=fields)
    check_page(client, "/preview/", method="post", data=fields, HTTP_HX_REQUEST="true")
    check_page(client, "/analyze/", method="post", data={"raw_explain": paste, "query": fields["query"]})
    check_page(client, "/analyze/", data={"raw_explain": paste, "title": payload[:200]})
    response = client.post("/", {**fields, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302, response.content[:500]
    page = check_page(client, response["Location"])  # the page that shows the delete token once
    if payload.startswith(("{{", "{%")):
        assert payload in page  # template syntax in data is shown as typed, never evaluated


@pytest.mark.django_db
@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_text_that_is_no_explain_is_escaped_in_the_error(client, payload):
    for url in ("/", "/preview/", "/analyze/"):
        response = client.post(url, {"explain": payload, "raw_explain": payload, "title": payload[:200]})
        assert response.status_code == 400
        assert_inert(response.content, url)
    api = client.post("/api/v1/analyze/", payload, content_type="text/plain", HTTP_ACCEPT="text/plain")
    assert api.status_code == 400 and api["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
def test_admin_pages_escape_saved_explains_and_reports(client, create_explain):
    User.objects.create_superuser("staff", "staff@example.org", "pw-for-tests")
    client.login(username="staff", password="pw-for-tests")
    slugs = []
    for payload in PAYLOADS[:8]:
        created = create_explain(PASTES["table"](payload), title=payload, query=hostile_query(payload))
        slugs.append(created["slug"])
        client.post(f"/e/{created['slug']}/report/", {"reason": payload, "contact": payload[:200]})
        client.post(f"/e/{created['slug']}/misread/", {"misread-comment": payload})
        client.post("/misread/", {"misread-explain": PASTES["vertical"](payload), "misread-comment": payload})
    pages = ["/admin/pastebin/explain/", "/admin/pastebin/abusereport/", "/admin/pastebin/explain/?q=%3Cscript%3E"]
    pages += ["/admin/pastebin/misreadreport/", "/admin/pastebin/misreadreport/?q=%3Cscript%3E"]
    pages += [f"/admin/pastebin/explain/{slug}/change/" for slug in slugs]
    reports = list(MisreadReport.objects.values_list("pk", flat=True))
    assert len(reports) == 2 * len(slugs)
    pages += [f"/admin/pastebin/misreadreport/{pk}/change/" for pk in reports]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_inert_admin(response.content.decode(), url)


def assert_inert_admin(markup: str, url: str) -> None:
    """The admin has scripts of its own (static files) and a few inline styles; nothing else may run."""
    from tests.security.hostile import inert_problems

    own = ("inline style", "injected <svg>", "script element src='/admin/jsi18n/' text=''")
    problems = [p for p in inert_problems(markup) if not p.startswith(own)]
    assert not problems, f"{url}: {problems[:5]}"


@pytest.mark.django_db
@pytest.mark.parametrize("payload", PAYLOADS[:8], ids=range(8))
def test_note_markdown_is_sanitized(client, payload):
    body = (
        f"# Title {payload}\n\n{payload}\n\n[click](javascript:alert(9)) [x]({payload}) "
        f'<a href="javascript:alert(10)">raw</a> <div onclick="alert(11)">d</div>\n\n'
        f"```\n{payload}\n```\n\n| a | b |\n|---|---|\n| {payload} | <b onmouseover=alert(12)>x</b> |\n"
    )
    Note.objects.create(
        kind=Note.Kind.RELEASE, title=payload[:200], slug="hostile", date="2024-01-01",
        summary=payload[:400], body=body, product=payload[:100], version=payload[:40],
    )  # fmt: skip
    for url in ("/notes/hostile/", "/notes/", "/notes/releases/"):
        check_page(client, url)
    api = client.get("/api/v1/notes/hostile/").json()
    assert_inert(api["body_html"], "body_html of the notes API")
