"""The work of `manage.py purge_expired` and `manage.py reanalyze`, in batches that stay quick
however many explains are stored.

Both go by key: a batch is a set of slugs read from an index, and each statement picks its rows
by them. Purging never loads an explain; re-analysis reads only what the analyzer needs and
writes only the explains, and the columns, that changed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import orjson
from django.db import OperationalError, connection, transaction
from django.db.models import QuerySet
from psycopg import errors as psycopg_errors

import analyzer
from pastebin import idempotency
from pastebin.models import (
    AbuseReport,
    DeletedSlug,
    Explain,
    IdempotencyRecord,
    MisreadReport,
    joined_search_text,
    table_names,
)
from pastebin.saving import SaveError, run_analysis


def slug_batches(explains: QuerySet[Explain], size: int) -> Iterator[list[str]]:
    """The slugs of `explains`, `size` at a time in slug order (each batch read from the primary key)."""
    last = ""
    while batch := list(explains.filter(slug__gt=last).order_by("slug").values_list("slug", flat=True)[:size]):
        yield batch
        last = batch[-1]


# One statement per batch: its explains are picked from the expiry index and deleted by their row
# addresses (no second search by key), and tombstones are left for those deleted. A row changed
# meanwhile has moved and is left for the next batch, so an expiry extended at the same moment
# holds. A trigger deletes or unlinks what points at them, a statement per link (migration 0015).
# Batches running side by side (`purge`) each take a slice of the expiry times after `after`,
# and skip rows another purge has locked.
EARLIEST = datetime(1, 1, 1, tzinfo=UTC)
PURGE_BATCH = """
WITH batch AS MATERIALIZED (
    SELECT ctid FROM pastebin_explain WHERE expires_at <= %(upto)s AND expires_at > %(after)s
    ORDER BY expires_at LIMIT %(size)s FOR UPDATE SKIP LOCKED
),
gone AS (
    DELETE FROM pastebin_explain WHERE ctid = ANY(ARRAY(SELECT ctid FROM batch)) AND expires_at <= %(now)s
    RETURNING slug
),
tombstones AS (
    INSERT INTO pastebin_deletedslug (slug, deleted_at, reason) SELECT slug, %(now)s, %(reason)s FROM gone
    ON CONFLICT (slug) DO NOTHING
)
SELECT count(*) FROM gone"""


def purge_expired(now: datetime, size: int, after: datetime = EARLIEST, upto: datetime | None = None) -> int:
    """Delete up to `size` explains expired at `now` (the first to expire first), of those whose
    expiry is after `after` and at most `upto` (PostgreSQL), in one transaction, leaving
    tombstones; how many were deleted. What points at them goes with them:
    abuse reports and idempotency records are deleted, misread reports (which keep their own copy
    of the paste) and improvements lose the link. Nothing is loaded: on PostgreSQL it is one
    statement, whose trigger acts on what points at the explains; elsewhere one statement per
    table."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            values = {"now": now, "size": size, "reason": "expired", "after": after, "upto": upto or now}
            cursor.execute(PURGE_BATCH, values)
            return cursor.fetchone()[0]
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


def purge(now: datetime, size: int, jobs: int) -> tuple[int, int]:
    """Delete every explain expired at `now`, `size` per batch, and the idempotency records older
    than 24 hours; how many of each were deleted. On PostgreSQL `jobs` threads delete explains
    side by side, each on a connection of its own, and one more the records meanwhile. A purged
    explain costs the database server about 40 µs of CPU, mostly the heap and TOAST work of the
    row and its tombstone, so the server's cores are what bounds the rate. Inside a
    transaction it all runs on the caller's connection: the others would not see what it wrote."""
    cutoff = idempotency.cutoff(now)
    if jobs <= 1 or connection.vendor != "postgresql" or connection.in_atomic_block:
        return _purge_until_done(now, size), delete_records(cutoff, size)
    slices = _expiry_slices(now, jobs)
    with ThreadPoolExecutor(len(slices) + 1) as pool:
        old_records = pool.submit(_on_own_connection, delete_records, cutoff, size)
        explains = sum(pool.map(lambda bounds: _on_own_connection(_purge_until_done, now, size, *bounds), slices))
        return explains, old_records.result()


def _expiry_slices(now: datetime, count: int) -> list[tuple[datetime, datetime]]:
    """`count` slices of the expiry times up to `now`, (after, upto], holding about as many
    explains each (so that batches side by side never meet in the expiry index)."""
    fractions = [n / count for n in range(1, count)]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT percentile_disc(%s::float8[]) WITHIN GROUP (ORDER BY expires_at) FROM pastebin_explain "
            "WHERE expires_at <= %s",
            [fractions, now],
        )
        cuts = [cut for cut in cursor.fetchone()[0] or [] if cut is not None]
    bounds = [EARLIEST, *sorted(set(cuts)), now]
    return list(zip(bounds, bounds[1:], strict=False))


def _on_own_connection(work: Callable[..., int], *args: object) -> int:
    """`work(*args)` in a pool's thread, closing the thread's connection after it."""
    try:
        return work(*args)
    finally:
        connection.close()


def _purge_until_done(
    now: datetime, size: int, after: datetime = EARLIEST, upto: datetime | None = None, retries: int = 3
) -> int:
    """Batches until one finds nothing left that is not another thread's. Batches side by side
    can deadlock on the rows that point at explains of both; the one PostgreSQL cancels is run again."""
    total = 0
    while True:
        try:
            deleted = purge_expired(now, size, after, upto)
        except OperationalError as exc:
            if retries == 0 or not isinstance(exc.__cause__, psycopg_errors.DeadlockDetected):
                raise
            retries -= 1
            continue
        if not deleted:
            return total
        total += deleted


# The oldest records, by row address, skipping those another transaction holds: a purge batch
# deleting their explains holds them (its trigger deletes them), and waiting for it could close
# a cycle of waits with the batches side by side. The records skipped go with their explains, or
# in the next purge if that batch is rolled back.
OLD_RECORDS_BATCH = """
DELETE FROM pastebin_idempotencyrecord WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM pastebin_idempotencyrecord WHERE created_at <= %(cutoff)s
    ORDER BY created_at LIMIT %(size)s FOR UPDATE SKIP LOCKED
))"""


def delete_records(cutoff: datetime, size: int) -> int:
    """Delete the idempotency records created at or before `cutoff`, the oldest `size` per
    statement; how many were deleted. On PostgreSQL it never waits for a record another
    transaction holds (it leaves it)."""
    deleted = 0
    while batch := _delete_old_records(cutoff, size):
        deleted += batch
    return deleted


def _delete_old_records(cutoff: datetime, size: int) -> int:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(OLD_RECORDS_BATCH, {"cutoff": cutoff, "size": size})
            return cursor.rowcount
    oldest = IdempotencyRecord.objects.filter(created_at__lte=cutoff).order_by("created_at").values("pk")[:size]
    return _raw_delete(IdempotencyRecord.objects.filter(pk__in=oldest))


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
    """An explain's fresh analysis (encoded as JSON), and its search text when that changed (else None)."""

    slug: str
    analysis: str
    search_text: str | None


@dataclass(frozen=True)
class Reading:
    """What the analyzer made of one paste: the analysis encoded as JSON and its table names (for
    the search text), or why it no longer reads; and the CPU time it took."""

    analysis: str = ""
    tables: str = ""
    failure: str | None = None
    seconds: float = 0.0


class Readings:
    """The readings of the last pastes analyzed, by a digest of what the analysis is a function
    of (the paste, its query and table definitions, the analyzer's version): stored explains
    repeat, the same paste saved again or copied, and are then analyzed once."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.kept: OrderedDict[bytes, Reading] = OrderedDict()

    def read(self, raw_explain: str, query: str, schema: str) -> Reading:
        """This paste's reading: the one kept (having cost no analysis time now), or a fresh one, then kept."""
        inputs = "\0".join((analyzer.PARSER_VERSION, raw_explain, query, schema))
        key = hashlib.blake2b(inputs.encode(), digest_size=16).digest()
        if (kept := self.kept.get(key)) is not None:
            self.kept.move_to_end(key)
            return replace(kept, seconds=0.0)
        self.kept[key] = reading = _fresh_reading(raw_explain, query, schema)
        if len(self.kept) > self.size:
            self.kept.popitem(last=False)
        return reading


def reanalyze(slugs: list[str], readings: Readings | None = None) -> Outcome:
    """Analyze these explains again and store, for each, only what changed; a paste found in
    `readings` is not analyzed again.

    The stored analyses are never read here: the database compares each with the fresh one
    (reading it back and decoding it would cost more than the comparison), so an explain whose
    analysis, parser version and search text are all unchanged is not written at all, and one
    whose analysis is unchanged keeps its stored value."""
    readings = readings or Readings()
    outcome = Outcome()
    groups: dict[tuple[str, ...], list[Fresh]] = defaultdict(list)
    rows = Explain.objects.filter(slug__in=slugs).values_list(
        "slug", "raw_explain", "query", "schema", "title", "parser_version", "search_text"
    )
    for slug, raw_explain, query, schema, title, parser_version, old_search_text in rows:
        reading = readings.read(raw_explain, query, schema)
        outcome.analysis_seconds += reading.seconds
        if reading.failure is not None:
            outcome.failures.append(f"{slug}: kept the old analysis: {reading.failure}")
            continue
        outcome.analyzed += 1
        text = joined_search_text(title, query, reading.tables)
        changed = (("parser_version",) if parser_version != analyzer.PARSER_VERSION else ()) + (
            ("search_text",) if text != old_search_text else ()
        )
        groups[changed].append(Fresh(slug, reading.analysis, text if text != old_search_text else None))
    with transaction.atomic():
        for changed, explains in groups.items():
            outcome.changed += _update(changed, explains)
    return outcome


def _fresh_reading(raw_explain: str, query: str, schema: str) -> Reading:
    """Analyze the paste (as stored, with its table definitions), counting the analyzer's CPU time."""
    started = time.process_time()
    try:
        analysis = run_analysis(raw_explain, query or None, schema or None).to_dict()
    except SaveError as exc:
        return Reading(failure=exc.message, seconds=time.process_time() - started)
    seconds = time.process_time() - started
    return Reading(_encode(analysis), table_names(analysis), seconds=seconds)


def _encode(analysis: dict) -> str:
    """The analysis as JSON, as the database is sent it: by orjson for PostgreSQL, whose jsonb
    keeps values and not their spelling, else (and for what orjson refuses) as Django writes a
    JSONField, so that an unchanged analysis is the same text."""
    if connection.vendor == "postgresql":
        try:
            return orjson.dumps(analysis).decode()
        except orjson.JSONEncodeError:  # integers beyond 64 bits, keys that are not strings
            pass
    return json.dumps(analysis)


def _update(changed: tuple[str, ...], explains: list[Fresh]) -> int:
    """Store the fresh analyses of `explains` and the `changed` fields (the parser version, the
    search text); how many rows were written. An analysis equal to the stored one is kept as
    stored, and when nothing else changed the row is left alone. On PostgreSQL it is one
    statement, its rows in a VALUES list; elsewhere one single-row UPDATE per explain, sent at once."""
    stored = "pastebin_explain.analysis"
    assignments = [f"analysis = CASE WHEN {stored} = fresh.analysis THEN {stored} ELSE fresh.analysis END"]
    if "parser_version" in changed:
        assignments.append("parser_version = %s")
    if "search_text" in changed:
        assignments.append("search_text = fresh.search_text")
    where = "pastebin_explain.slug = fresh.slug" + ("" if changed else f" AND {stored} <> fresh.analysis")
    version = [analyzer.PARSER_VERSION] if "parser_version" in changed else []
    rows = [(explain.slug, explain.analysis, explain.search_text) for explain in explains]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            fresh = f"(VALUES {', '.join(['(%s, %s::jsonb, %s)'] * len(rows))}) AS fresh (slug, analysis, search_text)"
            cursor.execute(
                f"UPDATE pastebin_explain SET {', '.join(assignments)} FROM {fresh} WHERE {where}",
                [*version, *(value for row in rows for value in row)],
            )
        else:
            fresh = "(SELECT %s AS slug, %s AS analysis, %s AS search_text) AS fresh"
            cursor.executemany(
                f"UPDATE pastebin_explain SET {', '.join(assignments)} FROM {fresh} WHERE {where}",
                [[*version, *row] for row in rows],
            )
        return cursor.rowcount
