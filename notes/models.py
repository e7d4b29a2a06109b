"""Release notes and benchmark notes, edited in the admin and loaded from `notes/content/`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from notes import schema


def _as_validation_error(check: Callable[[Any], None], value: Any) -> None:
    try:
        check(value)
    except schema.DataError as exc:
        raise ValidationError(str(exc)) from None


def validate_links(value: Any) -> None:
    _as_validation_error(schema.check_links, value)


def validate_facts(value: Any) -> None:
    _as_validation_error(schema.check_facts, value)


def validate_tables(value: Any) -> None:
    _as_validation_error(schema.check_tables, value)


class NoteQuerySet(models.QuerySet):
    def newest_first(self) -> NoteQuerySet:
        return self.order_by("-date", "title")

    def releases(self) -> NoteQuerySet:
        return self.filter(kind=Note.Kind.RELEASE)

    def benchmarks(self) -> NoteQuerySet:
        return self.filter(kind=Note.Kind.BENCHMARK)


class Note(models.Model):
    class Kind(models.TextChoices):
        RELEASE = "release", "Release"
        BENCHMARK = "benchmark", "Benchmark"

    class Precision(models.TextChoices):
        DAY = "day", "Exact day"
        MONTH = "month", "Month only"
        YEAR = "year", "Year only"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    title = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    date = models.DateField(help_text="Publication date; see date precision for how exact it is.")
    date_precision = models.CharField(max_length=8, choices=Precision.choices, default=Precision.DAY)
    summary = models.CharField(max_length=400)
    body = models.TextField(blank=True, help_text="Markdown. Issue keys such as MDEV-7324 become links.")
    product = models.CharField(max_length=100, blank=True, help_text="Releases: the product released.")
    version = models.CharField(max_length=40, blank=True, help_text="Releases: the version released.")
    links = models.JSONField(default=list, blank=True, validators=[validate_links])
    facts = models.JSONField(
        default=list, blank=True, validators=[validate_facts], help_text="Setup or release facts, in groups."
    )
    tables = models.JSONField(default=list, blank=True, validators=[validate_tables])
    source_digest = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Digest of the content files last loaded."
    )
    updated = models.DateTimeField(auto_now=True)

    objects = NoteQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "title"]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        if self.kind == self.Kind.RELEASE and not (self.product and self.version):
            raise ValidationError("A release note needs a product and a version.")

    def display_date(self) -> str:
        """The date as exact as it is known: "23 May 2013", "May 2013" or "2012"."""
        if self.date_precision == self.Precision.YEAR:
            return f"{self.date:%Y}"
        if self.date_precision == self.Precision.MONTH:
            return f"{self.date:%B %Y}"
        return f"{self.date.day} {self.date:%B %Y}"

    def get_absolute_url(self) -> str:
        return reverse("notes:detail", args=[self.slug])

    def csv_url(self, number: int) -> str:
        return reverse("notes:table-csv", args=[self.slug, number])
