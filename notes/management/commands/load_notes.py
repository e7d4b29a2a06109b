"""`manage.py load_notes`: create or update the notes shipped in `notes/content/`.

Idempotent: a note whose files have not changed since the last load is left alone, so
edits made in the admin survive until the files themselves change (or `--force`).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from notes.models import Note
from notes.schema import DataError
from notes.sources import CONTENT_DIR, read_notes


class Command(BaseCommand):
    help = "Load the release and benchmark notes from notes/content/ into the database."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--directory", type=Path, default=CONTENT_DIR, help="Where the .md/.json files are.")
        parser.add_argument("--force", action="store_true", help="Overwrite notes even if their files are unchanged.")

    def handle(self, *args, directory: Path, force: bool, **options) -> None:
        try:
            sources = read_notes(directory)
        except DataError as exc:
            raise CommandError(str(exc)) from None
        counts = {"created": 0, "updated": 0, "unchanged": 0}
        with transaction.atomic():
            for source in sources:
                fields = asdict(source)
                fields["source_digest"] = fields.pop("digest")
                note = Note.objects.filter(slug=source.slug).first()
                if note is not None and note.source_digest == source.digest and not force:
                    counts["unchanged"] += 1
                    continue
                counts["created" if note is None else "updated"] += 1
                note = note or Note()
                for name, value in fields.items():
                    setattr(note, name, value)
                try:
                    note.full_clean()
                except ValidationError as exc:
                    raise CommandError(f"{source.slug}: {exc}") from None
                note.save()
        self.stdout.write(", ".join(f"{count} {label}" for label, count in counts.items()) + " notes.")
