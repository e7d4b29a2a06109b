"""Search of public explains by the words of their title, query and table names.

On PostgreSQL it is full-text search in the `simple` configuration (no stemming, so table names
match as written), with the web-search syntax (`"two words"`, `-word`, `or`), on the stored
`search_vector` column and its GIN index of public explains (see migration 0006). Left to itself
the planner answers "the newest matches" either by walking the recent-public index and testing
every row, which is quick for words in many explains and a walk through every public explain for
words in none (or never in the same one), or from the GIN index, which reads every match: slow for
words in a quarter of all explains. It guesses which from statistics that cannot see words that
are each common but never together. So the search takes both ways, each bounded:

1. The newest `WINDOW` public explains are tested in order, through the recent-public index,
   stopping at the `limit`-th match: frequent words end here.
2. Fewer matches than that: the words are rare (or rare lately), so every match is read through the
   GIN index (the planner may use nothing else) and the newest are kept.

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
WINDOW = 5_000


def full_text_match(text: str) -> RawSQL:
    """PostgreSQL: the explain's stored words match the web-search style query `text`."""
    return RawSQL(
        '"pastebin_explain"."search_vector" @@ websearch_to_tsquery(\'simple\', %s)',
        (text,),
        output_field=BooleanField(),
    )


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
        found = _from_recent(cursor, text, now, limit)
        if len(found) < limit:
            found = [slug for (slug,) in bitmap_scans_only(cursor, gin_matches(text, now, limit))]
    return found


def _from_recent(cursor, text: str, now: datetime, limit: int) -> list[str]:
    """Step 1: matches among the newest `WINDOW` public explains, newest first."""
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
    """Step 2: the slugs of the newest `limit` of all the matches."""
    return Explain.objects.public(now).filter(full_text_match(text)).order_by(*NEWEST).values_list("slug")[:limit]


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
