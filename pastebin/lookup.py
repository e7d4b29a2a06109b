"""Finding a saved explain by slug, telling "never existed" (404) from "gone" (410)."""

from __future__ import annotations

from django.db import connection

from pastebin import clock
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
    plain SQL: building it with the ORM costs more than running it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT raw_explain FROM pastebin_explain WHERE slug = %s AND NOT hidden "
            "AND (expires_at IS NULL OR expires_at > %s)",
            [slug, clock.now()],
        )
        row = cursor.fetchone()
    return row[0] if row else None
