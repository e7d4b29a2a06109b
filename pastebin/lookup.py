"""Finding a saved explain by slug, telling "never existed" (404) from "gone" (410)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.utils.dateparse import parse_datetime

from config import prepared
from pastebin import clock, live
from pastebin.models import DeletedSlug, Explain

TOMBSTONE_MESSAGES = {
    "deleted": "This explain was deleted by its creator.",
    "expired": "This explain expired and was removed.",
    "moderated": "This explain was removed by the moderators.",
}


class Gone(Exception):
    """The explain existed but is expired, deleted or hidden by a moderator."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def gone_reason(explain: Explain | None, slug: str) -> str | None:
    """Why `slug` is gone, or None when it is live (or never existed)."""
    if explain is None:
        tombstone = DeletedSlug.objects.filter(slug=slug).first()
        if tombstone is None:
            return None
        return TOMBSTONE_MESSAGES.get(tombstone.reason, TOMBSTONE_MESSAGES["deleted"])
    if explain.hidden:
        return "This explain was removed by the moderators."
    if explain.is_expired(clock.now()):
        return f"This explain expired on {explain.expires_at:%Y-%m-%d %H:%M} UTC."
    return None


# The large columns: the paste, its analysis and the search text built from them.
HEAVY_FIELDS = ("raw_explain", "analysis", "search_text")


def find_explain(slug: str, defer: tuple[str, ...] = ()) -> Explain | None:
    """Any stored explain with this slug, live or not, with the title of the one it improves on;
    the `defer`red columns are read only if used."""
    explains = Explain.objects.select_related("improves_on").defer(
        *defer, *(f"improves_on__{name}" for name in (*HEAVY_FIELDS, "delete_token_hash"))
    )
    return explains.filter(slug=slug).first()


def get_live_explain(slug: str, defer: tuple[str, ...] = ()) -> Explain:
    """The live explain, or `Explain.DoesNotExist` (never existed) or `Gone` (expired, deleted, hidden)."""
    explain = find_explain(slug, defer)
    reason = gone_reason(explain, slug)
    if reason:
        raise Gone(reason)
    if explain is None:
        raise Explain.DoesNotExist(slug)
    return explain


def live_raw_text(slug: str) -> str | None:
    """The paste of a live explain, or None (never existed, or gone). The raw view's one read, in
    plain SQL, prepared (config/prepared.py): building it with the ORM costs more than running it;
    remembered by the worker process until it changes or expires (pastebin/live.py)."""

    def read() -> live.Rows | None:
        found = prepared.rows(
            "SELECT raw_explain, expires_at FROM pastebin_explain WHERE slug = %s AND NOT hidden "
            "AND (expires_at IS NULL OR expires_at > %s)",
            [slug, clock.now()],
        )
        return live.Rows(found, _aware(found[0][1]), len(found[0][0]) + 100) if found else None

    found = live.rows("raw", slug, read)
    return found[0][0] if found else None


# The permalink page's columns of the explain (none of the large ones) and of the explain it
# improves on, then one live explain that improves on it per row (none: NULLs).
_PAGE_FIELDS = (
    "slug",
    "title",
    "parser_version",
    "created_at",
    "expires_at",
    "visibility",
    "anonymized",
    "hidden",
    "updated_at",
)
_PAGE_SQL = (
    "SELECT {explain}, o.slug, o.title, n.slug, n.title, n.created_at, n.expires_at"
    " FROM pastebin_explain e"
    " LEFT JOIN pastebin_explain o ON o.slug = e.improves_on_id"
    " LEFT JOIN pastebin_explain n ON n.improves_on_id = e.slug AND NOT n.hidden"
    " AND (n.expires_at IS NULL OR n.expires_at > %s)"
    " WHERE e.slug = %s ORDER BY n.created_at DESC, n.slug DESC"
).format(explain=", ".join(f"e.{name}" for name in _PAGE_FIELDS))


def _aware(value: datetime | str | None) -> datetime | None:
    """A timestamp as the ORM gives it (SQLite's raw cursor returns it naive, or as text)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def _explain(names: tuple[str, ...], values: list) -> Explain:
    """A stored explain from some of its columns, the others deferred (read only if used)."""
    return Explain.from_db(connection.alias, list(names), values)


def page_explain(slug: str) -> tuple[Explain, list[Explain]] | None:
    """The explain of a permalink page (live or not: see `gone_reason`), with the explain it
    improves on and the live explains that improve on it, newest first; None when there is no
    such explain. One query, written in SQL and prepared (config/prepared.py): building it with the
    ORM costs more than running it. The rows of a live explain are remembered by the worker process
    until it or what its page shows changes or expires (pastebin/live.py)."""
    now = clock.now()
    read: list[tuple] = []

    def read_live() -> live.Rows | None:
        read.extend(prepared.rows(_PAGE_SQL, [now, slug]))
        return _live_page_rows(read, now)

    found = live.rows("page", slug, read_live)
    rows = read if found is None else found  # not live: what was read says why
    if not rows:
        return None
    count = len(_PAGE_FIELDS)
    first = list(rows[0][:count])
    first[3], first[4], first[8] = _aware(first[3]), _aware(first[4]), _aware(first[8])
    first[6], first[7] = bool(first[6]), bool(first[7])
    explain = _explain(_PAGE_FIELDS, first)
    older_slug, older_title = rows[0][count : count + 2]
    explain.improves_on = _explain(("slug", "title"), [older_slug, older_title]) if older_slug is not None else None
    improvements = [
        _explain(("slug", "title", "created_at"), [newer_slug, title, _aware(created)])
        for *_, newer_slug, title, created, _expires in rows
        if newer_slug is not None
    ]
    return explain, improvements


def _live_page_rows(rows: list[tuple], now: datetime) -> live.Rows | None:
    """The page's rows to remember, with the first time they stop being true (the explain or an
    improvement expires); None when the explain is not live (its page says why, read anew)."""
    if not rows or rows[0][_PAGE_FIELDS.index("hidden")]:
        return None
    expiries = [_aware(rows[0][_PAGE_FIELDS.index("expires_at")]), *(_aware(row[-1]) for row in rows)]
    until = min((moment for moment in expiries if moment is not None), default=None)
    if until is not None and until <= now:
        return None
    return live.Rows(rows, until, 400 + sum(len(str(value)) for row in rows for value in row))
