"""Notes pages: lists, one page per note, and a CSV download per benchmark table."""

from __future__ import annotations

import csv

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from notes.models import Note
from notes.presentation import csv_header, table_rows, table_views
from notes.rendering import render_markdown

LIST_TITLES = {
    None: "Release and benchmark notes",
    Note.Kind.RELEASE: "Release notes",
    Note.Kind.BENCHMARK: "Benchmark notes",
}


def note_list(request: HttpRequest, kind: str | None = None) -> HttpResponse:
    notes = Note.objects.newest_first()
    if kind is not None:
        notes = notes.filter(kind=kind)
    return render(request, "notes/list.html", {"notes": notes, "kind": kind, "heading": LIST_TITLES[kind]})


def note_detail(request: HttpRequest, slug: str) -> HttpResponse:
    note = get_object_or_404(Note, slug=slug)
    context = {
        "note": note,
        "body_html": mark_safe(render_markdown(note.body)),  # sanitized by nh3 in render_markdown
        "tables": [(view, mark_safe(view.svg)) for view in table_views(note)],  # built with ElementTree
    }
    return render(request, "notes/detail.html", context)


def table_csv(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    note = get_object_or_404(Note, slug=slug)
    if not 1 <= number <= len(note.tables):
        raise Http404("No such table.")
    table = note.tables[number - 1]
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{note.slug}-table-{number}.csv"'
    writer = csv.writer(response, lineterminator="\n")
    writer.writerow(csv_header(table))
    writer.writerows(table_rows(table))
    return response
