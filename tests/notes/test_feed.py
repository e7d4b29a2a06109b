from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from notes.models import Note

ATOM = "{http://www.w3.org/2005/Atom}"
pytestmark = pytest.mark.django_db


def test_feed_is_atom_with_every_note(client, loaded_notes):
    response = client.get("/notes/feed/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    assert root.find(f"{ATOM}title").text
    assert root.find(f"{ATOM}id").text and root.find(f"{ATOM}updated").text
    assert root.find(f"{ATOM}author/{ATOM}name").text
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == Note.objects.count() == len(loaded_notes)
    links = {entry.find(f"{ATOM}link").get("href") for entry in entries}
    for slug in loaded_notes:
        assert f"http://testserver/notes/{slug}/" in links
    for entry in entries:
        for tag in ("title", "id", "updated", "summary"):
            assert entry.find(f"{ATOM}{tag}") is not None, tag
    titles = [entry.find(f"{ATOM}title").text for entry in entries]
    assert titles == [note.title for note in Note.objects.newest_first()]
