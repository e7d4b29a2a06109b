"""Search of public explains by the words of their title, query and table names.

On PostgreSQL it is full-text search in the `simple` configuration (no stemming, so table names
match as written), with the web-search syntax (`"two words"`, `-word`, `or`), on the stored
`search_vector` column, through a GIN index of the words of public explains (see migration 0006).

"The newest matches" can be found three ways. Walking the recent-public index and testing each
explain costs as many explains as it takes to meet enough matches: little for frequent words, a
walk through every public explain for words in none (or never in the same one). The GIN index
finds every match, but at a cost that grows with how many explains hold each word: it reads the
whole list of explains of each word of the search (at a million explains, 12 ms for three words
each in a tenth to a quarter of all titles), then reads each match (its creation time, to sort
them). So besides its words, an explain's `search_vector` holds each word again dated with the
day it was created (`slow 20417`: UTC days since 1970, migration 0014), whose lists in the index
are one day's explains long, and the search goes:

1. When the planner's estimates (from the index's statistics of public explains' words, and of
   visibilities) say that `limit` matches are among the newest `RECENT_ROWS` public explains:
   the newest `WINDOW` public explains are tested in order, through the recent-public index,
   stopping at the `limit`-th match.
2. With at least `DAYS_FROM` matches expected (fewer cost less to read than a day's lists do),
   when the search requires a word: day by day, newest first, the matches of each day, found by
   the search's words dated with that day (`pastebin_search_day`, migration 0017: one index scan
   a day, in which every word of the search is required, so the index skips through the lists of
   frequent words), stopping at the `limit`-th match or after `MAX_DAYS` days. The days start at
   the later of today and the newest explain's day (an explain saved by a server whose clock is
   ahead is in them); after a cursor, at the cursor's day. A search requiring no word (`-slow`)
   would read the whole index each day.
3. With fewer than `limit` matches in those days, or few expected at all: every match the GIN
   index gives, the newest first.

Each step's answer is exact when it has `limit` matches: every match it left out is older than
them. Each statement is planned with bitmap scans only (the planner may use nothing else) but
the first step's. After a cursor (the last explain of the page before), the same is done among
the explains older than it.

Elsewhere (SQLite) every word must be a case-insensitive substring of `search_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.db import connection
from django.db.models import BooleanField, QuerySet, TextField
from django.db.models.expressions import RawSQL

from pastebin import clock, listing
from pastebin.listing import Listed
from pastebin.models import Explain

NEWEST = ("-created_at", "-slug")
# The newest explains are walked first when the estimates say that `limit` matches are among the
# newest `RECENT_ROWS` public explains (0.002 ms an explain; looking day by day costs about 0.3 ms
# more than that walk for a word in a quarter of all titles, 0.3 to 1 ms less for those in a tenth
# or fewer), and never more than `WINDOW` of them.
RECENT_ROWS = 300
WINDOW = 20_000
# With fewer matches expected, reading every one (a page read each) costs less than looking for
# them day by day: about a millisecond.
DAYS_FROM = 1_000
# Days looked through, one index scan each (at a million explains, 0.05 to 0.1 ms a day for two or
# three frequent words), before every match is read instead.
MAX_DAYS = 31
# A search whose words could be longer than the dated words stored (pastebin_search_words dates
# words of up to 2,000 bytes) never looks by day: no word of it is left out.
MAX_DATED_TEXT_BYTES = 1_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The indexed expression: the words of public explains, NULL for the others.
PUBLIC_WORDS = '(CASE WHEN "pastebin_explain"."visibility" = \'public\' THEN "pastebin_explain"."search_vector" END)'
MATCH = f"{PUBLIC_WORDS} @@ websearch_to_tsquery('simple', %s)"
# The UTC day of the newest explain (from the end of the creation-time index) and whether the
# index can find a text's matches (`querytree` gives `T` when it cannot); how many public explains
# the planner expects to match it, and how many public explains there are: three statements.
SURVEY = (
    "SELECT (SELECT floor(extract(epoch FROM max(created_at)) / 86400)::bigint FROM pastebin_explain), "
    "querytree(websearch_to_tsquery('simple', %s)) <> 'T'; "
    f"EXPLAIN (FORMAT JSON) SELECT 1 FROM pastebin_explain WHERE {MATCH}; "
    "EXPLAIN (FORMAT JSON) SELECT 1 FROM pastebin_explain WHERE visibility = 'public'"
)
# A day's matches: those of the day `walk.day` of the statement walking the days (below), created
# that day (a search requiring no word, `-slow`, matches the dated words of every other day too).
MATCH_DAY = (
    f"{PUBLIC_WORDS} @@ pastebin_search_day(websearch_to_tsquery('simple', %s), walk.day) "
    'AND floor(extract(epoch FROM "pastebin_explain"."created_at") / 86400)::bigint = walk.day'
)
# The newest `limit` (last parameter) of each day's matches (the statement in the braces), the
# days from the first parameter down to the second: the statement stops at the `limit`-th row.
DAY_BY_DAY = (
    "SELECT matches.slug FROM generate_series(%s::bigint, %s::bigint, -1) AS walk (day) "
    "CROSS JOIN LATERAL ({}) AS matches LIMIT %s"
)
# The explains a step found (the statement selecting their slugs, in the braces), as lists show them.
LISTING = f"SELECT {listing.COLUMNS} FROM pastebin_explain WHERE slug IN ({{}}) ORDER BY created_at DESC, slug DESC"
# A statement (in the braces) planned with bitmap scans only and without parallel workers (whose
# rows come in no set order), sent with the settings in one message: PostgreSQL runs the
# statements of a message in a transaction of their own, unless the caller's is open, in which the
# settings go back to the connection's own values after the statement.
BITMAP_SCANS_ONLY = (
    "SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SET LOCAL max_parallel_workers_per_gather = 0; "
    "{}; RESET enable_seqscan; RESET enable_indexscan; RESET max_parallel_workers_per_gather"
)
SETTINGS = BITMAP_SCANS_ONLY.split("{}")[0].count(";")  # the statements before the one asked for
Position = tuple[datetime, str]


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
        seen = survey(cursor, text)
        if limit * seen.public <= RECENT_ROWS * seen.expected:
            found = _from_recent(cursor, text, now, limit, before)
            if len(found) == limit:
                return found
        if seen.newest_day is not None and seen.by_day(text):
            first_day = day(before[0]) if before is not None else max(seen.newest_day, day(now))
            found = listed(cursor, *day_by_day(text, now, limit, first_day, first_day - MAX_DAYS + 1, before))
            if len(found) == limit:
                return found
        return listed(cursor, *sql(gin_matches(text, now, limit, before)))


class Survey(NamedTuple):
    """What the search of a text goes by: the UTC day of the newest explain (None without any),
    whether an index scan can find the text's matches (a search requiring no word, `-slow`, reads
    the whole index), and the planner's estimates of the public explains matching it and of all
    public explains."""

    newest_day: int | None
    indexable: bool
    expected: float
    public: float

    def by_day(self, text: str) -> bool:
        """Whether to look for the matches of `text` day by day."""
        return self.indexable and self.expected >= DAYS_FROM and len(text.encode()) <= MAX_DATED_TEXT_BYTES


def survey(cursor, text: str) -> Survey:
    """The survey of `text`: three statements sent together."""
    cursor.execute(SURVEY, [text, text])
    newest_day, indexable = cursor.fetchone()
    estimates = []
    for _ in range(2):
        cursor.nextset()
        estimates.append(cursor.fetchone()[0][0]["Plan"]["Plan Rows"])
    return Survey(newest_day, indexable, *estimates)


def day(moment: datetime) -> int:
    """The UTC day of `moment`, counted from 1970-01-01 (as `pastebin_search_words` dates words)."""
    return (moment - EPOCH) // timedelta(days=1)


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


def gin_matches(text: str, now: datetime, limit: int, before: Position | None = None) -> QuerySet:
    """The slugs of the newest `limit` of the live matches (after `before`), from the GIN index."""
    return _newest_slugs(RawSQL(MATCH, (text,), output_field=BooleanField()), now, limit, before)


def _newest_slugs(match: RawSQL, now: datetime, limit: int, before: Position | None) -> QuerySet:
    """The slugs of the newest `limit` public explains live at `now` (after `before`) that `match` holds for."""
    return Explain.objects.public(now).before(before).filter(match).order_by(*NEWEST).values_list("slug")[:limit]


def day_by_day(
    text: str, now: datetime, limit: int, first_day: int, last_day: int, before: Position | None = None
) -> tuple[str, list[object]]:
    """The statement selecting the slugs of the newest `limit` live matches (after `before`)
    created from day `first_day` back to day `last_day`, and its parameters: the days newest
    first, each day's matches found by the words dated with it, newest first."""
    inner, params = sql(_newest_slugs(RawSQL(MATCH_DAY, (text,), output_field=BooleanField()), now, limit, before))
    return DAY_BY_DAY.format(inner), [first_day, last_day, *params, limit]


def sql(matches: QuerySet) -> tuple[str, list[object]]:
    """The statement of `matches` and its parameters."""
    statement, params = matches.query.sql_with_params()
    return statement, list(params)


def listed(cursor, matches: str, params: Sequence[object]) -> list[Listed]:
    """The explains whose slugs the statement `matches` selects (with `params`), newest first,
    read in the same statement on `cursor`, planned with bitmap scans only."""
    return listing.from_sql(bitmap_scans_only(cursor, LISTING.format(matches), params))


def bitmap_scans_only(cursor, statement: str, params: Sequence[object]) -> list[tuple]:
    """The rows of `statement` with `params`, planned with bitmap scans only (the planner may use
    nothing else): one round trip, the settings lasting for the statement alone. Not in a savepoint
    rolled back after: psycopg forgets every prepared statement of the connection on a rollback
    (`config/prepared.py`), so the next permalink would be planned again."""
    cursor.execute(BITMAP_SCANS_ONLY.format(statement), params)
    for _ in range(SETTINGS):
        cursor.nextset()
    return cursor.fetchall()
