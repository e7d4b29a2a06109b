"""Search of public explains by the words of their title, query and table names.

On PostgreSQL it is full-text search in the `simple` configuration (no stemming, so table names
match as written), with the web-search syntax (`"two words"`, `-word`, `or`), on the stored
`search_vector` column, through a GIN index of the words of public explains (see migration 0006).

"The newest matches" can be found three ways. Walking the recent-public index and testing each
explain costs as many explains as it takes to meet enough matches: little for frequent words, a
walk through every public explain for words in none (or never in the same one). The GIN index
finds every match, but at a cost that grows with how many explains hold each word: it reads the
whole list of explains of each word of the search (at a million explains, 10 ms for three words
each in a quarter of all titles), then reads each match (its creation time, to sort them). So
besides its words, an explain's `search_vector` holds each word again dated with the day it was
created (`slow 20417`: UTC days since 1970, migration 0014), whose lists in the index are one
day's explains long, and the search goes:

1. With more matches expected (the planner's estimate, from the index's statistics of public
   explains' words) than `GIN_FIRST`: the newest `WINDOW` public explains are tested in order,
   through the recent-public index, stopping at the `limit`-th match.
2. With at least `WINDOW_FROM` matches expected (fewer cost less to read than a window does),
   the matches among the explains created since a cutoff, taken from the planner's statistics
   of creation times (no explain is read to find it): the newest fraction of all explains
   expected to hold `SPARE` times `limit` matches (at least `NEWEST_FRACTION`), then ten
   times that fraction, each only while it holds at most `MAX_WINDOW_SHARE` of all explains and
   spans at most `MAX_DAYS` days. The search is rewritten to ask for each word on each of those days
   (`pastebin_search_days`), so the index reads only those days' lists. A window holding fewer
   than a tenth of `limit` matches is the last tried: the next would hold fewer than `limit`.
3. With fewer than `limit` matches in those, or few expected at all: every match the GIN index
   gives, the newest first.

Each step's answer is exact when it has `limit` matches: every match it left out is older than
them. Each statement is planned with bitmap scans only (the planner may use nothing else). After
a cursor (the last explain of the page before), the same is done among the explains older than it.

Elsewhere (SQLite) every word must be a case-insensitive substring of `search_text`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import connection, transaction
from django.db.models import BooleanField, QuerySet, TextField
from django.db.models.expressions import RawSQL

from config import prepared
from pastebin import clock, listing
from pastebin.listing import Listed
from pastebin.models import Explain

NEWEST = ("-created_at", "-slug")
GIN_FIRST = 5_000
WINDOW = 20_000
SPARE = 4
NEWEST_FRACTION = 0.01
MAX_DAYS = 366
# A window's words of each day are read together, item by item (none of them is required), so a
# wide window costs more than reading every match: at a million explains over 115 days, for two
# or three frequent words, 4 to 7 ms for the newest 14%, 12 to 21 ms for 28%, 31 to 53 ms for
# half, against 8 to 27 ms for every match.
MAX_WINDOW_SHARE = 0.15
# With fewer matches expected, reading every one (a page read each) costs less than finding a
# window (the statistics, then the window's days in the index): about a millisecond.
WINDOW_FROM = 1_000
# A search whose words could be longer than the dated words stored (pastebin_search_words dates
# words of up to 2,000 bytes) never looks by day: no word of it is left out.
MAX_DATED_TEXT_BYTES = 1_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The indexed expression: the words of public explains, NULL for the others.
PUBLIC_WORDS = '(CASE WHEN "pastebin_explain"."visibility" = \'public\' THEN "pastebin_explain"."search_vector" END)'
MATCH = f"{PUBLIC_WORDS} @@ websearch_to_tsquery('simple', %s)"
MATCH_DAYS = f"{PUBLIC_WORDS} @@ pastebin_search_days(websearch_to_tsquery('simple', %s), %s, %s)"
# A window's start, tested on each match read: written so that the planner cannot use the
# creation-time index for it (reading that index's part for a whole window costs far more than
# reading the window's days in the GIN index: 30 ms for a third of a million explains).
SINCE = '("pastebin_explain"."created_at" >= %s) IS TRUE'
# The planner's statistics of creation times (about a hundred, each 1% of explains apart), as
# seconds since 1970 (psycopg takes longer to read a hundred timestamps than the statement takes),
# and the UTC day of the newest explain (from the end of the creation-time index).
CREATION_TIMES = (
    "SELECT (SELECT ARRAY(SELECT extract(epoch FROM bound)::float8 "
    "FROM unnest(histogram_bounds::text::timestamptz[]) AS bound) FROM pg_stats "
    "WHERE schemaname = current_schema() AND tablename = 'pastebin_explain' AND attname = 'created_at'), "
    "(SELECT floor(extract(epoch FROM max(created_at)) / 86400)::bigint FROM pastebin_explain)"
)
# The explains a step found (the statement selecting their slugs, in the braces), as lists show them.
LISTING = f"SELECT {listing.COLUMNS} FROM pastebin_explain WHERE slug IN ({{}}) ORDER BY created_at DESC, slug DESC"
Position = tuple[datetime, str]


@dataclass(frozen=True)
class Window:
    """The explains created since `since` (and before the cursor, if any), whose dated words are
    those of the days `first_day` to `last_day`."""

    since: datetime
    first_day: int
    last_day: int


def search_public(text: str, limit: int, before: Position | None = None) -> list[Listed]:
    """The newest `limit` public explains whose title, query or table names match `text` (of those
    after `before` in newest-first order, when given), as lists show them."""
    if connection.vendor != "postgresql":
        explains = Explain.objects.public().order_by(*NEWEST)
        for word in text.split():
            explains = explains.filter(search_text__icontains=word)
        return listing.from_queryset(explains.before(before)[:limit])
    return newest_matches(text, limit, clock.now(), before)


def newest_matches(text: str, limit: int, now: datetime, before: Position | None = None) -> list[Listed]:
    """PostgreSQL: the newest `limit` public explains live at `now` matching `text` (after
    `before`, when given), as lists show them: each step finds them and reads them in one statement."""
    with connection.cursor() as cursor:
        expected = estimated_matches(cursor, text)
        if expected > GIN_FIRST:
            found = _from_recent(cursor, text, now, limit, before)
            if len(found) == limit:
                return found
        dated = expected >= WINDOW_FROM and len(text.encode()) <= MAX_DATED_TEXT_BYTES
        windows = recent_windows(expected, limit, now, before) if dated else []
        with bitmap_scans_only(cursor):
            for window in windows:
                found = listed(cursor, gin_matches(text, now, limit, before, window))
                if len(found) == limit:
                    return found
                if len(found) * 10 < limit:  # nor would the next window, ten times as wide
                    break
            return listed(cursor, gin_matches(text, now, limit, before))


def estimated_matches(cursor, text: str) -> float:
    """How many public explains the planner expects to match `text`."""
    cursor.execute(f"EXPLAIN (FORMAT JSON) SELECT 1 FROM pastebin_explain WHERE {MATCH}", [text])
    return cursor.fetchone()[0][0]["Plan"]["Plan Rows"]


def day(moment: datetime) -> int:
    """The UTC day of `moment`, counted from 1970-01-01 (as `pastebin_search_words` dates words)."""
    return (moment - EPOCH) // timedelta(days=1)


def recent_windows(expected: float, limit: int, now: datetime, before: Position | None = None) -> list[Window]:
    """The windows of newest explains (after `before`) expected to hold `SPARE` times `limit` of
    the `expected` matches (at least the newest `NEWEST_FRACTION` of all), then ten times as many
    explains, from the planner's statistics; only those holding at most `MAX_WINDOW_SHARE` of all
    explains and spanning at most `MAX_DAYS` days. Their days run to the cursor's, or to the day after the
    newest explain's or today's, whichever is later (an explain saved meanwhile, past midnight,
    is in them). The statement is prepared: planning the `pg_stats` view costs more than reading it."""
    first = max(SPARE * limit / max(expected, 1), NEWEST_FRACTION)
    if first > MAX_WINDOW_SHARE:
        return []
    [(times, newest_day)] = prepared.rows(CREATION_TIMES, [])
    if not times or newest_day is None:
        return []
    last = len(times) - 1
    skipped = 0.0 if before is None else sum(when > before[0].timestamp() for when in times) / last
    last_day = day(before[0]) if before is not None else max(newest_day, day(now)) + 1
    windows = []
    for share in (first, first * 10):
        if share > MAX_WINDOW_SHARE or skipped + share >= 1:
            break
        since = datetime.fromtimestamp(times[int((1 - skipped - share) * last)], UTC)
        if last_day - day(since) >= MAX_DAYS:
            break
        windows.append(Window(since, day(since), last_day))
    return windows


def _from_recent(cursor, text: str, now: datetime, limit: int, before: Position | None) -> list[Listed]:
    """Matches among the newest `WINDOW` public explains (after `before`), newest first."""
    vector = RawSQL('"pastebin_explain"."search_vector"', (), output_field=TextField())
    recent = Explain.objects.public(now).before(before).order_by(*NEWEST).annotate(vector=vector)
    inner, params = recent.values("slug", "created_at", "vector")[:WINDOW].query.sql_with_params()
    cursor.execute(
        LISTING.format(
            f"SELECT slug FROM ({inner}) AS recent WHERE vector @@ websearch_to_tsquery('simple', %s) "
            "ORDER BY created_at DESC, slug DESC LIMIT %s"
        ),
        [*params, text, limit],
    )
    return listing.from_sql(cursor.fetchall())


def gin_matches(
    text: str, now: datetime, limit: int, before: Position | None = None, window: Window | None = None
) -> QuerySet:
    """The slugs of the newest `limit` of the live matches (after `before`; in `window`, if given,
    found by the words dated with its days)."""
    matches = Explain.objects.public(now).before(before)
    if window is None:
        match = RawSQL(MATCH, (text,), output_field=BooleanField())
    else:
        match = RawSQL(MATCH_DAYS, (text, window.first_day, window.last_day), output_field=BooleanField())
        matches = matches.filter(RawSQL(SINCE, (window.since,), output_field=BooleanField()))
    return matches.filter(match).order_by(*NEWEST).values_list("slug")[:limit]


def listed(cursor, matches: QuerySet) -> list[Listed]:
    """The explains whose slugs `matches` (of `values_list("slug")`) selects, newest first, read in
    the same statement on `cursor`."""
    inner, params = matches.query.sql_with_params()
    cursor.execute(LISTING.format(inner), params)
    return listing.from_sql(cursor.fetchall())


@contextmanager
def bitmap_scans_only(cursor) -> Iterator[None]:
    """Statements run on `cursor` in the block are planned with bitmap scans only (the planner
    may use nothing else), in a transaction (the caller's, if any), the settings put back after
    it. Not by rolling back a savepoint: psycopg forgets every prepared statement of the
    connection on a rollback (`config/prepared.py`), so the next permalink would be planned again."""
    with transaction.atomic(savepoint=False):
        cursor.execute(
            "SELECT current_setting('enable_seqscan'), current_setting('enable_indexscan'), "
            "set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)"
        )
        seqscan, indexscan, _, _ = cursor.fetchone()
        yield
        cursor.execute(
            "SELECT set_config('enable_seqscan', %s, true), set_config('enable_indexscan', %s, true)",
            [seqscan, indexscan],
        )
