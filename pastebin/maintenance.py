"""The work of `manage.py purge_expired` and `manage.py reanalyze`, in batches that stay quick
however many explains are stored.

Both go by key: a batch is a set of slugs read from an index, and each statement picks its rows
by them. Purging never loads an explain; re-analysis reads only what the analyzer needs and
writes only the explains, and the columns, that changed.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction
from django.db.models import QuerySet

import analyzer
from pastebin.models import AbuseReport, DeletedSlug, Explain, IdempotencyRecord, MisreadReport, search_text
from pastebin.saving import SaveError, run_analysis


def slug_batches(explains: QuerySet[Explain], size: int) -> Iterator[list[str]]:
    """The slugs of `explains`, `size` at a time in slug order (each batch read from the primary key)."""
    last = ""
    while batch := list(explains.filter(slug__gt=last).order_by("slug").values_list("slug", flat=True)[:size]):
        yield batch
        last = batch[-1]


# One statement per batch: its explains are picked from the expiry index, tombstones left, what
# points at them deleted or unlinked, then they go. Explains of the batch that improve on others
# of it are not unlinked first (a statement must not change a row twice): they go anyway.
PURGE_BATCH = """
WITH batch AS MATERIALIZED (
    SELECT slug FROM pastebin_explain WHERE expires_at <= %(now)s ORDER BY expires_at LIMIT %(size)s
),
tombstones AS (
    INSERT INTO pastebin_deletedslug (slug, deleted_at, reason) SELECT slug, %(now)s, %(reason)s FROM batch
    ON CONFLICT (slug) DO NOTHING
),
reports AS (DELETE FROM pastebin_abusereport WHERE explain_id IN (SELECT slug FROM batch)),
records AS (DELETE FROM pastebin_idempotencyrecord WHERE explain_id IN (SELECT slug FROM batch)),
misread AS (UPDATE pastebin_misreadreport SET explain_id = NULL WHERE explain_id IN (SELECT slug FROM batch)),
links AS (
    UPDATE pastebin_explain SET improves_on_id = NULL
    WHERE improves_on_id IN (SELECT slug FROM batch) AND slug NOT IN (SELECT slug FROM batch)
)
DELETE FROM pastebin_explain WHERE slug IN (SELECT slug FROM batch)"""


def purge_expired(now: datetime, size: int) -> int:
    """Delete up to `size` explains expired at `now` (the first to expire first) in one
    transaction, leaving tombstones; how many were deleted. What points at them goes with them:
    abuse reports and idempotency records are deleted, misread reports (which keep their own copy
    of the paste) and improvements lose the link. Nothing is loaded: on PostgreSQL it is one
    statement, elsewhere one per table."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(PURGE_BATCH, {"now": now, "size": size, "reason": "expired"})
            return cursor.rowcount
    slugs = list(Explain.objects.expired(now).order_by("expires_at").values_list("slug", flat=True)[:size])
    with transaction.atomic():
        DeletedSlug.objects.bulk_create(
            [DeletedSlug(slug=slug, deleted_at=now, reason="expired") for slug in slugs], ignore_conflicts=True
        )
        _raw_delete(AbuseReport.objects.filter(explain_id__in=slugs))
        _raw_delete(IdempotencyRecord.objects.filter(explain_id__in=slugs))
        MisreadReport.objects.filter(explain_id__in=slugs).update(explain=None)
        Explain.objects.filter(improves_on_id__in=slugs).update(improves_on=None)
        return _raw_delete(Explain.objects.filter(slug__in=slugs))


def delete_records(records: QuerySet[IdempotencyRecord], size: int) -> int:
    """Delete these records, the oldest `size` per statement; how many were deleted."""
    deleted = 0
    while batch := _raw_delete(
        IdempotencyRecord.objects.filter(pk__in=records.order_by("created_at").values("pk")[:size])
    ):
        deleted += batch
    return deleted


def _raw_delete(queryset: QuerySet) -> int:
    """DELETE … WHERE, without Django's collector (which would first select every row)."""
    return queryset._raw_delete(queryset.db)


@dataclass
class Outcome:
    """What re-analyzing a batch did."""

    analyzed: int = 0
    changed: int = 0
    analysis_seconds: float = 0.0  # CPU time in the analyzer itself
    failures: list[str] = field(default_factory=list)

    def add(self, other: Outcome) -> None:
        self.analyzed += other.analyzed
        self.changed += other.changed
        self.analysis_seconds += other.analysis_seconds
        self.failures += other.failures


@dataclass(frozen=True)
class Fresh:
    """An explain's fresh analysis, and its search text when that changed (else None)."""

    slug: str
    analysis: dict
    search_text: str | None


def reanalyze(slugs: list[str]) -> Outcome:
    """Analyze these explains again and store, for each, only what changed.

    The stored analyses are never read here: the database compares each with the fresh one
    (reading it back and decoding it would cost more than the comparison), so an explain whose
    analysis, parser version and search text are all unchanged is not written at all, and one
    whose analysis is unchanged keeps its stored value."""
    outcome = Outcome()
    groups: dict[tuple[str, ...], list[Fresh]] = defaultdict(list)
    rows = Explain.objects.filter(slug__in=slugs).values_list(
        "slug", "raw_explain", "query", "schema", "title", "parser_version", "search_text"
    )
    for slug, raw_explain, query, schema, title, parser_version, old_search_text in rows:
        analysis = _analysis(slug, raw_explain, query, schema, outcome)
        if analysis is None:
            continue
        text = search_text(title, query, analysis)
        changed = (("parser_version",) if parser_version != analyzer.PARSER_VERSION else ()) + (
            ("search_text",) if text != old_search_text else ()
        )
        groups[changed].append(Fresh(slug, analysis, text if text != old_search_text else None))
    with transaction.atomic():
        for changed, explains in groups.items():
            outcome.changed += _update(changed, explains)
    return outcome


def _update(changed: tuple[str, ...], explains: list[Fresh]) -> int:
    """Store the fresh analyses of `explains` and the `changed` fields (the parser version, the
    search text), one single-row UPDATE per explain sent at once (`executemany`; PostgreSQL gets
    them in a pipeline), each finding its row by primary key; how many rows were written. An
    analysis equal to the stored one is kept as stored, and when nothing else changed the row is
    left alone."""
    column = Explain._meta.get_field("analysis")
    stored = "pastebin_explain.analysis"
    assignments = [f"analysis = CASE WHEN {stored} = fresh.analysis THEN {stored} ELSE fresh.analysis END"]
    if "parser_version" in changed:
        assignments.append("parser_version = %s")
    if "search_text" in changed:
        assignments.append("search_text = %s")
    statement = (
        f"UPDATE pastebin_explain SET {', '.join(assignments)} FROM (SELECT %s AS analysis) AS fresh "
        f"WHERE pastebin_explain.slug = %s{'' if changed else f' AND {stored} <> fresh.analysis'}"
    )
    rows = [
        [
            *([analyzer.PARSER_VERSION] if "parser_version" in changed else []),
            *([explain.search_text] if "search_text" in changed else []),
            column.get_db_prep_save(explain.analysis, connection),
            explain.slug,
        ]
        for explain in explains
    ]
    with connection.cursor() as cursor:
        cursor.executemany(statement, rows)
        return cursor.rowcount


def _analysis(slug: str, raw_explain: str, query: str, schema: str, outcome: Outcome) -> dict | None:
    """A fresh analysis of this paste (as stored, with its table definitions), or None when it no longer reads."""
    started = time.process_time()
    try:
        analysis = run_analysis(raw_explain, query or None, schema or None).to_dict()
    except SaveError as exc:
        outcome.failures.append(f"{slug}: kept the old analysis: {exc.message}")
        return None
    finally:
        outcome.analysis_seconds += time.process_time() - started
    outcome.analyzed += 1
    return analysis
