"""The rows of a hot statement, planned once per PostgreSQL connection.

Django binds parameters on the client and never prepares statements, so PostgreSQL plans every
query it gets anew; for the short lookups of the busiest pages (a permalink, its raw text) the
planning costs the server several times the reading, and the insert of a save and its rate
limit's upsert pay it on every save (with the escaping of every value on the client, kilobytes
of paste and analysis: 0.4 ms of a save's insert). `rows()` runs such a statement as a
prepared one with server-side parameters (psycopg names it and keeps it for the connection's
life; PgBouncer passes protocol-level prepared statements on from version 1.21), through Django's
cursor wrapper all the same, so errors become Django's. While queries are logged (DEBUG, tests
counting them) and on other databases it is an ordinary query, logged as any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper


class _PreparedCursor(psycopg.Cursor):
    """A server-side binding cursor whose statements are all prepared."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(query, params, prepare=True, binary=binary)


def rows(sql: str, params: Sequence[object], using: BaseDatabaseWrapper | None = None) -> list[tuple]:
    """Every row of the statement `sql` (`%s` placeholders) with `params`, on the connection `using`
    (by default the default one)."""
    db = using or connection
    if db.vendor != "postgresql" or db.queries_logged:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        raw = _PreparedCursor(db.connection)
    with db.make_cursor(raw) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
