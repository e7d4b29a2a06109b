"""Atom feed of every note, newest first, at /notes/feed/."""

from __future__ import annotations

import datetime

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from notes.models import Note


class NotesFeed(Feed):
    feed_type = Atom1Feed
    title = "Explain Analyzer: release and benchmark notes"
    subtitle = "MariaDB and MySQL release notes and benchmark write-ups."
    author_name = "Explain Analyzer"  # RFC 4287 wants an author on the feed or on every entry

    def link(self) -> str:
        return reverse("notes:list")

    def items(self):
        return Note.objects.newest_first()

    def item_title(self, item: Note) -> str:
        return item.title

    def item_description(self, item: Note) -> str:
        return escape(item.summary)  # Atom summaries are type="html"; the summary is plain text

    def item_pubdate(self, item: Note) -> datetime.datetime:
        return datetime.datetime.combine(item.date, datetime.time(12, 0), tzinfo=datetime.UTC)

    def item_updateddate(self, item: Note) -> datetime.datetime:
        return item.updated

    def item_categories(self, item: Note) -> list[str]:
        return [item.get_kind_display()]
