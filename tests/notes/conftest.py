from __future__ import annotations

import pytest
from django.core.management import call_command

from notes.sources import read_notes


@pytest.fixture
def loaded_notes(db):
    """The shipped content, loaded through the real management command."""
    call_command("load_notes", verbosity=0)
    return {note.slug: note for note in read_notes()}


@pytest.fixture(scope="session")
def sources():
    return {note.slug: note for note in read_notes()}
