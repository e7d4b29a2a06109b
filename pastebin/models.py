"""Saved explains, tombstones of deleted ones, abuse reports and misread reports."""

from __future__ import annotations

import functools
from datetime import datetime

from django.conf import settings
from django.db import connection, models
from django.db.models import Expression, Q
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTransform
from django.urls import get_script_prefix, get_urlconf, reverse

from pastebin import clock


class Visibility(models.TextChoices):
    UNLISTED = "unlisted", "Unlisted: only people with the link"
    PUBLIC = "public", "Public: listed in Recent and Search"


LISTED_COLUMNS = ("slug", "title", "query", "created_at", "expires_at", "visibility")
LISTED_ANALYSIS_KEYS = ("query", "format", "tables")


class ExplainQuerySet(models.QuerySet):
    def live(self, now: datetime | None = None) -> ExplainQuerySet:
        """Not hidden by moderators and not expired (`expires_at` NULL means never)."""
        now = now or clock.now()
        return self.filter(hidden=False).filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))

    def public(self, now: datetime | None = None) -> ExplainQuerySet:
        """What lists, search and the API list may show: live and public."""
        return self.live(now).filter(visibility=Visibility.PUBLIC)

    def listed(self, *keys: str) -> ExplainQuerySet:
        """Only what lists of explains show: a few columns, and these keys of the analysis (by
        default `query`, `format` and `tables`) as `analysis_<key>`, picked out by the database,
        which sends neither the paste nor the whole analysis (kilobytes to decode). Each key
        but `tables` (see `listed_tables`) costs PostgreSQL a reading of the whole analysis (out
        of line and compressed): ask only for those shown."""
        keys = keys or LISTED_ANALYSIS_KEYS
        picked = {
            f"analysis_{key}": listed_tables() if key == "tables" else KeyTransform(key, "analysis") for key in keys
        }
        return self.only(*LISTED_COLUMNS).annotate(**picked)

    def before(self, position: tuple[datetime, str] | None) -> ExplainQuerySet:
        """Those after `position` (a creation time and a slug) in the newest-first order of lists
        (`-created_at`, `-slug`); all of them for None."""
        if position is None:
            return self
        when, slug = position
        return self.filter(Q(created_at__lt=when) | Q(created_at=when, slug__lt=slug))

    def expired(self, now: datetime | None = None) -> ExplainQuerySet:
        return self.filter(expires_at__lte=now or clock.now())


def listed_tables() -> Expression:
    """The tables of an explain's analysis, as lists read them: on PostgreSQL from the column
    `listed_tables`, which a trigger keeps equal to them (migration 0018; reading them out of the
    analysis reads the whole analysis), elsewhere picked out of the analysis."""
    if connection.vendor == "postgresql":
        return RawSQL('"pastebin_explain"."listed_tables"', (), output_field=models.JSONField())
    return KeyTransform("tables", "analysis")


# As long as a slug may be, so that it is found nowhere else in a URL reversed with it.
_ANY_SLUG = "0" * 64


def slug_path(name: str) -> tuple[str, str]:
    """The path of an explain's URL `name` before and after its slug, reversed once per script
    prefix and URLconf rather than for each explain (a save's three links took a twentieth of it
    to reverse, a list of twenty explains reversed sixty). A slug is made of characters a URL
    keeps as they are."""
    return _slug_path(name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@functools.lru_cache(maxsize=64)
def _slug_path(name: str, script_prefix: str, urlconf: str) -> tuple[str, str]:
    before, _, after = reverse(name, urlconf, args=[_ANY_SLUG]).rpartition(_ANY_SLUG)
    return before, after


def search_text(title: str, query: str, analysis: object) -> str:
    """What search looks in: the title, the query and the plan's table names, one per line."""
    return joined_search_text(title, query, table_names(analysis))


def table_names(analysis: object) -> str:
    """The names of the tables the analyzed plan reads, sorted, separated by spaces."""
    tables = analysis.get("tables") or [] if isinstance(analysis, dict) else []
    if not tables and isinstance(analysis, dict):
        tables = [row.get("table") for row in analysis.get("rows") or [] if isinstance(row, dict)]
    return " ".join(sorted({str(t) for t in tables if t}))


def joined_search_text(title: str, query: str, names: str) -> str:
    """The search text of an explain with this title and query whose plan reads the tables `names`."""
    return "\n".join(part for part in (title, query, names) if part)


class Explain(models.Model):
    # The random slug is the primary key, so no sequential id shows up anywhere, not even in the admin.
    slug = models.CharField(max_length=32, primary_key=True)
    title = models.CharField(max_length=200, blank=True)
    # The paste exactly as received (or as anonymized, when asked for): never stripped or normalized.
    raw_explain = models.TextField()
    query = models.TextField(blank=True)
    # The tables' definitions (SHOW CREATE TABLE output) sent with it, which its index advice was
    # checked against; kept so that reanalysis gives the same advice.
    schema = models.TextField(blank=True, default="")
    analysis = models.JSONField()
    parser_version = models.CharField(max_length=32)
    # Title, query and table names in one text column, set by `save()`. On PostgreSQL a trigger
    # keeps their words in the column `search_vector` (no model field: pages never read it),
    # indexed for full-text search (see pastebin.search and migration 0006), and the analysis's
    # tables in the column `listed_tables` (migration 0018), which lists read.
    search_text = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(db_index=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.UNLISTED)
    improves_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="improvements"
    )
    delete_token_hash = models.CharField(max_length=64, editable=False)
    anonymized = models.BooleanField(default=False)
    hidden = models.BooleanField(default=False, help_text="Hidden by a moderator: the permalink answers 410.")
    # When its creator last changed its title, visibility or expiry (with the delete token).
    updated_at = models.DateTimeField(null=True, blank=True)

    objects = ExplainQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-slug"]
        indexes = [models.Index(fields=["visibility", "-created_at", "-slug"], name="pastebin_public_recent")]

    def __str__(self) -> str:
        return self.title or self.slug

    def get_absolute_url(self) -> str:
        return reverse("pastebin:detail", args=[self.slug])

    def save(self, *args, **kwargs) -> None:
        self.search_text = search_text(self.title, self.query, self.analysis)
        super().save(*args, **kwargs)

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or clock.now())


class DeletedSlug(models.Model):
    """Slug of a deleted or purged explain, so its permalink answers 410 Gone rather than 404."""

    slug = models.CharField(max_length=32, unique=True)
    deleted_at = models.DateTimeField()
    reason = models.CharField(max_length=20, default="deleted")

    def __str__(self) -> str:
        return self.slug


class AbuseReport(models.Model):
    explain = models.ForeignKey(Explain, on_delete=models.CASCADE, related_name="reports")
    reason = models.TextField(max_length=2000)
    contact = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["resolved", "-created_at"]

    def __str__(self) -> str:
        return f"Report on {self.explain.slug}"


class MisreadStatus(models.TextChoices):
    NEW = "new", "New"
    TRIAGED = "triaged", "Triaged"
    ADDED = "added", "Added to the corpus"
    DISMISSED = "dismissed", "Dismissed"


class MisreadReport(models.Model):
    """A paste someone says the analyzer read wrong, for the maintainers only: never shown publicly.

    `text` is the paste as it was analyzed, or its anonymized version when the reporter asked for
    that. `read_*` and `parser_version` record what the analyzer read of the paste the reporter saw
    (before any anonymizing). Deleting the explain keeps the report and its own copy of the text.
    """

    text = models.TextField()
    comment = models.TextField(max_length=2000, blank=True)
    anonymized = models.BooleanField(default=False)
    explain = models.ForeignKey(
        Explain, null=True, blank=True, on_delete=models.SET_NULL, related_name="misread_reports"
    )
    parser_version = models.CharField(max_length=32)
    read_format = models.CharField("format read", max_length=16)
    read_rows = models.PositiveIntegerField("rows read")
    read_truncated = models.BooleanField("read as truncated")
    created_at = models.DateTimeField(db_index=True)
    status = models.CharField(max_length=10, choices=MisreadStatus.choices, default=MisreadStatus.NEW, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Misread report {self.pk}"


class IdempotencyRecord(models.Model):
    """The first answer to a `POST /api/v1/explains/` sent with an `Idempotency-Key` header.

    Written in the transaction that stores the explain, so both exist or neither. Nothing here
    reveals the key or the delete token: see `pastebin.idempotency` for how they are hashed and
    masked. Deleting the explain deletes its record, so its analysis does not outlive it.
    """

    key_hash = models.CharField(max_length=64, unique=True)
    request_hash = models.CharField(max_length=64)
    explain = models.ForeignKey(Explain, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(db_index=True)
    masked_delete_token = models.CharField(max_length=128)

    def __str__(self) -> str:
        return f"Idempotency record for {self.explain_id}"
