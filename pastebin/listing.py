"""What lists of explains (recent, search) show of each: the rows read for them, and the items
`_list.html` shows, worked out in Python (the template engine's lookups and filters, item by item,
cost twice as much)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import NamedTuple

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.text import Truncator

# The columns of a listed explain, and of its analysis only the tables: PostgreSQL reads the whole
# analysis (out of line and compressed) for each key picked out of it.
COLUMNS = (
    '"pastebin_explain"."slug", "pastebin_explain"."title", "pastebin_explain"."query", '
    '"pastebin_explain"."created_at", "pastebin_explain"."analysis" -> \'tables\''
)
QUERY_SHOWN = 160


class Listed(NamedTuple):
    slug: str
    title: str
    query: str
    created_at: datetime
    tables: list[str] | None


def from_sql(rows: list[tuple]) -> list[Listed]:
    """Rows selected as `COLUMNS` (the tables as JSON text, or NULL)."""
    return [
        Listed(slug, title, query, created, json.loads(tables) if tables else None)
        for slug, title, query, created, tables in rows
    ]


def from_queryset(explains: QuerySet) -> list[Listed]:
    """The listed explains of `explains`, in its order."""
    return [Listed(*row) for row in explains.values_list("slug", "title", "query", "created_at", "analysis__tables")]


def items(explains: list[Listed]) -> list[dict[str, object]]:
    """What `_list.html` shows of each of `explains`: its link, title, creation time (local),
    tables and the start of its query."""
    head, tail = reverse("pastebin:detail", args=["_"]).rsplit("_", 1)  # reversed once, not per explain
    shown = []
    for explain in explains:
        created = timezone.localtime(explain.created_at)
        query = explain.query
        shown.append(
            {
                "url": f"{head}{explain.slug}{tail}",
                "title": explain.title or "Untitled explain",
                "created_iso": created.isoformat(),
                "created": created.strftime("%Y-%m-%d %H:%M"),
                "tables": explain.tables if isinstance(explain.tables, list) else None,
                "query": query if len(query) <= QUERY_SHOWN else Truncator(query).chars(QUERY_SHOWN),
            }
        )
    return shown
