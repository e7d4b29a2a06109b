"""Search of public explains by the words of their title, query and table names.

On PostgreSQL it is full-text search in the `simple` configuration (no stemming, so table names
match as written), with the web-search syntax (`"two words"`, `-word`, `or`), on the stored
`search_vector` column, through a GIN index of the words of public explains (see migration 0006).

"The newest matches" can be found two ways. Walking the recent-public index and testing each
explain costs as many explains as it takes to meet enough matches: little for frequent words, a
walk through every public explain for words in none (or never in the same one), which is what
the planner chose for words each common but never together. The GIN index reads every match:
little for rare words, much for words in a quarter of all explains. So the search picks:

1. The planner's estimate of the matches, from the index's statistics of public explains' words:
   at most `GIN_FIRST`, and the GIN index gives them all (the planner may use nothing else), the
   newest first.
2. More: the newest `WINDOW` public explains are tested in order, through the recent-public
   index, stopping at the `limit`-th match; with fewer matches than that among them (the estimate
   was too high), the GIN index gives them all after all.

Elsewhere (SQLite) every word must be a case-insensitive substring of `search_text`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction
from django.db.models import BooleanField, QuerySet, TextField
from django.db.models.expressions import RawSQL

from pastebin import clock
from pastebin.models import Explain

NEWEST = ("-created_at", "-slug")
GIN_FIRST = 5_000
WINDOW = 20_000
# The indexed expression: the words of public explains, NULL for the others.
PUBLIC_WORDS = '(CASE WHEN "pastebin_explain"."visibility" = \'public\' THEN "pastebin_explain"."search_vector" END)'
MATCH = f"{PUBLIC_WORDS} @@ websearch_to_tsquery('simple', %s)"


def search_public(text: str, limit: int) -> list[Explain]:
    """The newest `limit` public explains whose title, query or table names match `text`
    (without their pastes, which result lists do not show)."""
    explains = Explain.objects.public().defer("raw_explain").order_by(*NEWEST)
    if connection.vendor != "postgresql":
        for word in text.split():
            explains = explains.filter(search_text__icontains=word)
        return list(explains[:limit])
    return list(explains.filter(slug__in=newest_matches(text, limit, clock.now())))


def newest_matches(text: str, limit: int, now: datetime) -> list[str]:
    """PostgreSQL: the slugs of the newest `limit` public explains live at `now` matching `text`."""
    with connection.cursor() as cursor:
        if estimated_matches(cursor, text) > GIN_FIRST:
            found = _from_recent(cursor, text, now, limit)
            if len(found) == limit:
                return found
        return [slug for (slug,) in bitmap_scans_only(cursor, gin_matches(text, now, limit))]


def estimated_matches(cursor, text: str) -> float:
    """How many public explains the planner expects to match `text`."""
    cursor.execute(f"EXPLAIN (FORMAT JSON) SELECT 1 FROM pastebin_explain WHERE {MATCH}", [text])
    return cursor.fetchone()[0][0]["Plan"]["Plan Rows"]


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
    return [slug for (slug,) in cursor.fetchall()]


def gin_matches(text: str, now: datetime, limit: int) -> QuerySet:
    """The slugs of the newest `limit` of all the live matches."""
    match = RawSQL(MATCH, (text,), output_field=BooleanField())
    return Explain.objects.public(now).filter(match).order_by(*NEWEST).values_list("slug")[:limit]


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
