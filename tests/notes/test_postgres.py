"""On PostgreSQL the JSON fields are jsonb, which reorders object keys and stores numbers as
numeric: the data must still come back exactly as loaded."""

from __future__ import annotations

import pytest

from notes.models import Note


@pytest.mark.postgres
@pytest.mark.django_db
def test_jsonb_round_trip_keeps_every_figure(loaded_notes):
    for slug, source in loaded_notes.items():
        note = Note.objects.get(slug=slug)
        assert note.tables == source.tables
        assert note.facts == source.facts
        assert note.links == source.links
    # jsonb containment: only the threadpool note has line charts
    assert list(Note.objects.filter(tables__contains=[{"chart": "line"}]).values_list("slug", flat=True)) == [
        "mariadb-mysql-windows-threadpool"
    ]
