"""Search of public explains by the words of their title, query and table names.

On PostgreSQL it is full-text search in the `simple` configuration (no stemming, so table names
match as written), with the web-search syntax (`"two words"`, `-word`, `or`), on the stored
`search_vector` column, through a GIN index of the words of public explains (see migration 0006).

"The newest matches" can be found two ways. Walking the recent-public index and testing each
explain costs as many explains as it takes to meet enough matches: little for frequent words, a
walk through every public explain for words in none (or never in the same one), which is what
the planner chose for words each common but never together. The GIN index finds every match
cheaply (its lists of explains are compressed), but reading each matching explain (its creation
time, to sort them) costs a page read per match: little for rare words, much for words in a
quarter of all explains, or each common and often together. So the search goes:

1. With more matches expected (the planner's estimate, from the index's statistics of public
   explains' words) than `GIN_FIRST`: the newest `WINDOW` public explains are tested in order,
   through the recent-public index, stopping at the `limit`-th match.
2. Then the matches the GIN index gives among the explains created since a cutoff, taken from
   the planner's statistics of creation times (no explain is read to find it): the newest
   fraction of all explains expected to hold `SPARE` times `limit` matches (at least
   `NEWEST_FRACTION`), then ten times that fraction. The creation-time index tells which
   explains are that recent, so only the matching recent ones are read. Finding a recent explain
   in that index costs about a fortieth of reading a match, so a window is tried only when it
   holds fewer than `RECENT_PER_MATCH` explains per match expected in all, and less than half
   of all explains.
3. With fewer than `limit` matches in those, or few expected at all: every match the GIN index
   gives, the newest first.

Each step's answer is exact when it has `limit` matches: every match it left out is older than
them. Each statement is planned with bitmap scans only (the planner may use nothing else).

Elsewhere (SQLite) every word must be a case-insensitive substring of `search_text`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction
from django.db.models import BooleanField, QuerySet, TextField
from django.db.models.expressions import RawSQL

from config import prepared
from pastebin import clock
from pastebin.models import Explain

NEWEST = ("-created_at", "-slug")
GIN_FIRST = 5_000
WINDOW = 20_000
SPARE = 4
NEWEST_FRACTION = 0.01
RECENT_PER_MATCH = 40
# The indexed expression: the words of public explains, NULL for the others.
PUBLIC_WORDS = '(CASE WHEN "pastebin_explain"."visibility" = \'public\' THEN "pastebin_explain"."search_vector" END)'
MATCH = f"{PUBLIC_WORDS} @@ websearch_to_tsquery('simple', %s)"
# The planner's statistics of creation times (about a hundred, each 1% of explains apart) and
# its count of explains.
CREATION_TIMES = (
    "SELECT (SELECT histogram_bounds::text::timestamptz[] FROM pg_stats WHERE schemaname = current_schema() "
    "AND tablename = 'pastebin_explain' AND attname = 'created_at'), "
    "(SELECT reltuples FROM pg_class WHERE oid = 'pastebin_explain'::regclass)"
)


def search_public(text: str, limit: int) -> list[Explain]:
    """The newest `limit` public explains whose title, query or table names match `text`, with
    only what lists show of them (`ExplainQuerySet.listed`)."""
    explains = Explain.objects.public().listed().order_by(*NEWEST)
    if connection.vendor != "postgresql":
        for word in text.split():
            explains = explains.filter(search_text__icontains=word)
        return list(explains[:limit])
    return list(explains.filter(slug__in=newest_matches(text, limit, clock.now())))


def newest_matches(text: str, limit: int, now: datetime) -> list[str]:
    """PostgreSQL: the slugs of the newest `limit` public explains live at `now` matching `text`."""
    with connection.cursor() as cursor:
        expected = estimated_matches(cursor, text)
        if expected > GIN_FIRST:
            found = _from_recent(cursor, text, now, limit)
            if len(found) == limit:
                return found
        for since in recent_cutoffs(expected, limit):
            found = _slugs(bitmap_scans_only(cursor, gin_matches(text, now, limit, since)))
            if len(found) == limit:
                return found
        return _slugs(bitmap_scans_only(cursor, gin_matches(text, now, limit)))


def estimated_matches(cursor, text: str) -> float:
    """How many public explains the planner expects to match `text`."""
    cursor.execute(f"EXPLAIN (FORMAT JSON) SELECT 1 FROM pastebin_explain WHERE {MATCH}", [text])
    return cursor.fetchone()[0][0]["Plan"]["Plan Rows"]


def recent_cutoffs(expected: float, limit: int) -> list[datetime]:
    """The creation times since which the newest explains are expected to hold `SPARE` times
    `limit` of the `expected` matches (at least the newest `NEWEST_FRACTION` of all), then ten
    times as many explains, from the planner's statistics; only those windows holding less than
    half of all explains, and fewer than `RECENT_PER_MATCH` explains per expected match. The
    statement is prepared: planning the `pg_stats` view costs more than reading it."""
    first = max(SPARE * limit / max(expected, 1), NEWEST_FRACTION)
    if first >= 0.5:
        return []
    [(times, explains)] = prepared.rows(CREATION_TIMES, [])
    if not times:
        return []
    shares = [share for share in (first, first * 10) if share < 0.5 and share * explains < RECENT_PER_MATCH * expected]
    return [times[int((1 - share) * (len(times) - 1))] for share in shares]


def _from_recent(cursor, text: str, now: datetime, limit: int) -> list[str]:
    """Matches among the newest `WINDOW` public explains, newest first."""
    vector = RawSQL('"pastebin_explain"."search_vector"', (), output_field=TextField())
    recent = Explain.objects.public(now).order_by(*NEWEST).annotate(vector=vector)
    inner, params = recent.values("slug", "created_at", "vector")[:WINDOW].query.sql_with_params()
    cursor.execute(
        f"SELECT slug FROM ({inner}) AS recent WHERE vector @@ websearch_to_tsquery('simple', %s) "
        "ORDER BY created_at DESC, slug DESC LIMIT %s",
        [*params, text, limit],
    )
    return _slugs(cursor.fetchall())


def gin_matches(text: str, now: datetime, limit: int, since: datetime | None = None) -> QuerySet:
    """The slugs of the newest `limit` of the live matches (created since `since`, if given)."""
    match = RawSQL(MATCH, (text,), output_field=BooleanField())
    matches = Explain.objects.public(now).filter(match)
    if since is not None:
        matches = matches.filter(created_at__gte=since)
    return matches.order_by(*NEWEST).values_list("slug")[:limit]


def _slugs(rows: list[tuple]) -> list[str]:
    return [slug for (slug,) in rows]


def bitmap_scans_only(cursor, queryset: QuerySet, explain: bool = False) -> list[tuple]:
    """The rows of `queryset` (or of its EXPLAIN) planned with bitmap scans only, in a savepoint
    that is rolled back after it, and the planner settings with it."""
    statement, params = queryset.query.sql_with_params()
    with transaction.atomic():
        cursor.execute("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)")
        cursor.execute(f"EXPLAIN {statement}" if explain else statement, params)
        rows = cursor.fetchall()
        transaction.set_rollback(True)
    return rows
