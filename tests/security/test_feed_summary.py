"""The Atom feed declares summaries as HTML, so a note's plain-text summary must arrive escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from notes.models import Note

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.mark.django_db
def test_plain_text_summary_is_not_html_in_the_feed(client):
    summary = "<script>alert(1)</script> <b>MDEV-1</b> & more"
    Note.objects.create(kind=Note.Kind.RELEASE, title="t", slug="s", date="2024-01-01", summary=summary)
    root = ET.fromstring(client.get("/notes/feed/").content)
    element = root.find(f"{ATOM}entry/{ATOM}summary")
    assert element.get("type") == "html"
    # After XML decoding, a feed reader holds HTML: it must be the escaped text, not markup.
    assert element.text == "&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;MDEV-1&lt;/b&gt; &amp; more"
