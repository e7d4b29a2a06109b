from __future__ import annotations

import io
import shutil

import pytest
from django.core.management import CommandError, call_command

from notes.models import Note
from notes.sources import CONTENT_DIR

pytestmark = pytest.mark.django_db


def load(*args) -> str:
    out = io.StringIO()
    call_command("load_notes", *args, stdout=out)
    return out.getvalue()


def test_load_is_idempotent():
    assert load().startswith("8 created, 0 updated, 0 unchanged")
    first = {note.slug: note.updated for note in Note.objects.all()}
    assert load().startswith("0 created, 0 updated, 8 unchanged")
    assert Note.objects.count() == 8
    assert {note.slug: note.updated for note in Note.objects.all()} == first


def test_admin_edits_survive_until_the_files_change(tmp_path):
    directory = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, directory)
    load("--directory", str(directory))
    Note.objects.filter(slug="mariadb-5-5-31").update(summary="Edited by staff")
    load("--directory", str(directory))
    assert Note.objects.get(slug="mariadb-5-5-31").summary == "Edited by staff"

    path = directory / "mariadb-5-5-31.md"
    path.write_text(path.read_text().replace("summary: A stable", "summary: A new stable"))
    assert "1 updated" in load("--directory", str(directory))
    assert Note.objects.get(slug="mariadb-5-5-31").summary.startswith("A new stable")


def test_force_overwrites_edits():
    load()
    Note.objects.filter(slug="mariadb-5-5-31").update(summary="Edited by staff")
    assert "8 updated" in load("--force")
    assert Note.objects.get(slug="mariadb-5-5-31").summary != "Edited by staff"


def test_bad_content_is_refused_and_nothing_is_saved(tmp_path):
    shutil.copytree(CONTENT_DIR, tmp_path / "content")
    data = tmp_path / "content" / "mariadb-10-1-million-qps-power8.json"
    data.write_text(data.read_text().replace("[398124, 397102, 395661, 396285]", "[398124, 397102]"))
    with pytest.raises(CommandError, match="must have 4 entries"):
        load("--directory", str(tmp_path / "content"))
    assert Note.objects.count() == 0


def test_front_matter_errors_are_reported(tmp_path):
    (tmp_path / "broken.md").write_text("---\ntitle: x\nslug: broken\n---\nBody\n")
    with pytest.raises(CommandError, match="front matter lacks"):
        load("--directory", str(tmp_path))
