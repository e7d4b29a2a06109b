"""Every template and every rendered HTML page: no way for markup to run code or skip escaping.

The CSP allows scripts and styles only from 'self', so templates hold no inline script code,
inline event handlers or `style=` attributes, and nothing turns autoescaping off.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from notes.models import Note
from tests.security.hostile import inert_problems

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE_FILES = sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt", ".xml", ".svg"})

FORBIDDEN_IN_TEMPLATES = {
    "|safe filter": re.compile(r"\|\s*safe\b"),
    "autoescape off": re.compile(r"{%\s*autoescape\s+off"),
    "inline event handler": re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE),
    "<style> element": re.compile(r"<style[\s>]", re.IGNORECASE),
    "hx-on attribute": re.compile(r"\shx-on", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
    "inline script": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE),
}


def test_templates_were_found():
    assert len(TEMPLATE_FILES) > 10


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_template_has_nothing_the_csp_or_escaping_forbids(path):
    source = path.read_text(encoding="utf-8")
    found = [name for name, pattern in FORBIDDEN_IN_TEMPLATES.items() if pattern.search(source)]
    assert not found, f"{path.name}: {found}"


def csp_directives(header: str) -> dict[str, list[str]]:
    parts = (p.strip().split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


def check_html_page(response, url: str) -> None:
    assert response["Content-Type"].startswith("text/html"), url
    policy = csp_directives(response.get("Content-Security-Policy", ""))
    assert policy.get("script-src") == ["'self'"], (url, policy)
    assert policy.get("object-src") == ["'none'"], url
    assert "'unsafe-inline'" not in policy.get("style-src", ["'unsafe-inline'"]), url
    assert response.get("X-Content-Type-Options") == "nosniff", url
    assert response.get("X-Frame-Options") == "DENY", url
    # drf-spectacular's split Swagger view serves its start-up code from the same URL; the notes'
    # charts are our own SVG (checked for handlers and styles like everything else).
    own = {"script element src='/api/v1/docs/?script=' text=''", "injected <svg>"}
    problems = [p for p in inert_problems(response.content) if p not in own]
    assert not problems, (url, problems[:5])


@pytest.fixture
def site(client, create_explain, paste):
    """A saved explain, another one to compare with, the shipped notes and a gone explain."""
    call_command("load_notes", verbosity=0)
    first = create_explain(visibility="public", title="first")
    second = create_explain(paste.replace("employees", "salaries"), visibility="public", title="second")
    gone = create_explain()
    client.delete(f"/api/v1/explains/{gone['slug']}/", HTTP_X_DELETE_TOKEN=gone["delete_token"])
    return {"a": first["slug"], "b": second["slug"], "gone": gone["slug"]}


def page_requests(site: dict, paste: str) -> list[tuple[str, str, dict, int]]:
    a, b, gone = site["a"], site["b"], site["gone"]
    pages = [
        ("get", "/", {}, 200), ("post", "/", {"explain": "nothing here"}, 400),
        ("get", "/preview/", {}, 200), ("post", "/preview/", {"explain": paste}, 200),
        ("post", "/preview/", {"explain": "nothing"}, 400), ("get", "/analyze/", {"raw_explain": paste}, 200),
        ("post", "/analyze/", {"raw_explain": paste}, 200), ("get", f"/e/{a}/", {}, 200),
        ("get", f"/e/{a}/report/", {}, 200), ("post", f"/e/{a}/report/", {}, 400),
        ("post", f"/e/{a}/misread/", {"misread-comment": "x" * 2001}, 400), ("post", "/misread/", {}, 400),
        ("post", f"/e/{a}/delete/", {"token": "wrong"}, 403), ("get", f"/compare/{a}/{b}/", {}, 200),
        ("get", f"/e/{a}/delete/", {}, 200), ("get", f"/e/{a}/edit/", {}, 200),
        ("post", f"/e/{a}/edit/", {"token": "wrong"}, 403), ("get", "/compare/", {"a": a, "b": "x!"}, 400),
        ("get", "/recent/", {}, 200), ("get", "/search/", {"q": "employees"}, 200), ("get", "/terms/", {}, 200),
        ("get", "/notes/", {}, 200), ("get", "/notes/releases/", {}, 200), ("get", "/notes/benchmarks/", {}, 200),
        ("get", f"/e/{gone}/", {}, 410), ("get", "/e/neverexisted/", {}, 404), ("get", "/no/such/page/", {}, 404),
        ("get", "/recent/", {"after": "!!"}, 400), ("get", "/api/v1/docs/", {}, 200),
    ]  # fmt: skip
    pages += [("get", note.get_absolute_url(), {}, 200) for note in Note.objects.all()]
    return pages


@pytest.mark.django_db
def test_every_page_has_the_strict_csp_and_runs_nothing_inline(client, site, paste):
    for method, url, data, status in page_requests(site, paste):
        response = getattr(client, method)(url, data)
        assert response.status_code == status, (method, url, response.status_code)
        if url == "/recent/" and status == 400:
            continue  # a plain-text 400, checked in test_recent_bad_cursor_is_plain_text
        check_html_page(response, url)


@pytest.mark.django_db
def test_recent_bad_cursor_is_plain_text(client):
    response = client.get("/recent/", {"after": "<script>alert(1)</script>"})
    assert response.status_code == 400
    assert b"<script" not in response.content
