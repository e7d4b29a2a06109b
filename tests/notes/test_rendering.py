"""Markdown is rendered, issue keys become tracker links, and hostile markup is neutralised."""

from __future__ import annotations

import datetime

import pytest

from notes.models import Note
from notes.rendering import render_markdown


def test_markdown_basics():
    html = render_markdown("## Heading\n\nSome *text* and `code`.\n\n* one\n* two\n")
    assert "<h2>Heading</h2>" in html
    assert "<em>text</em>" in html and "<code>code</code>" in html
    assert html.count("<li>") == 2


def test_issue_keys_become_links():
    html = render_markdown("Fixed CONJ-21 and MDEV-7324.")
    assert '<a href="https://jira.mariadb.org/browse/CONJ-21"' in html
    assert '<a href="https://jira.mariadb.org/browse/MDEV-7324"' in html


def test_issue_keys_left_alone_in_code_links_and_lookalikes():
    html = render_markdown("`MDEV-1` [see MDEV-2](https://example.org/) UTF-8 TLSv1-2 XMDEV-3")
    assert "<code>MDEV-1</code>" in html
    assert html.count("<a ") == 1 and "browse/MDEV-2" not in html
    assert "browse/" not in html


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "[click](javascript:alert(1))",
        '<a href="JaVaScRiPt:alert(1)">x</a>',
        "<img src=x onerror=alert(1)>",
        '<p onclick="alert(1)">x</p>',
        '<a href="data:text/html,<script>alert(1)</script>">x</a>',
        "<iframe src=https://evil.example></iframe>",
        '<div style="background:url(javascript:alert(1))">x</div>',
    ],
)
def test_hostile_markup_is_sanitized(hostile):
    html = render_markdown(f"Before {hostile} after").lower()
    assert "<script" not in html
    assert "javascript:" not in html
    assert "onerror" not in html and "onclick" not in html
    assert "data:text" not in html and "<iframe" not in html and "style=" not in html
    assert "before" in html and "after" in html


def test_allowed_links_keep_their_scheme():
    html = render_markdown("[a](https://mariadb.org/) [b](mailto:someone@example.org) [c](ftp://example.org/)")
    assert 'href="https://mariadb.org/"' in html
    assert 'href="mailto:someone@example.org"' in html
    assert "ftp:" not in html


@pytest.mark.django_db
def test_hostile_body_is_sanitized_on_the_page(client):
    Note.objects.create(
        kind=Note.Kind.BENCHMARK,
        title="<b>Title</b>",
        slug="hostile",
        date=datetime.date(2020, 1, 1),
        summary="<script>alert('summary')</script>",
        body="<script>alert('x')</script>\n\n[x](javascript:alert(1))\n\n<img src=x onerror=alert(1)>",
    )
    html = client.get("/notes/hostile/").content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;summary&#x27;)" in html
    assert "javascript:" not in html and "onerror" not in html
    assert "&lt;b&gt;Title&lt;/b&gt;" in html
