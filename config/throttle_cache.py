"""The database cache that holds the rate-limit counts when there is no Redis (settings.caches()).

Django's DatabaseCache stores a value in five statements: it counts the table's rows (to cull it
past MAX_ENTRIES), then, in a transaction, reads the key's row and updates or inserts it. A
throttle stores its count on every request it lets through, so here a `set` is one statement, an
upsert of the key's row, and only one `set` in CULL_EVERY (per process) goes Django's way, which
counts and culls. The table may so hold up to CULL_EVERY - 1 entries more than MAX_ENTRIES per
worker process between two culls; every read and the counts themselves are Django's.
"""

from __future__ import annotations

import base64
import itertools
import pickle
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, router, transaction

CULL_EVERY = 16


class UpsertDatabaseCache(DatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets = itertools.count()

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        if next(self._sets) % CULL_EVERY == 0:
            return super().set(key, value, timeout, version)
        key = self.make_and_validate_key(key, version=version)
        expires_at = self.get_backend_timeout(timeout)
        connection = connections[router.db_for_write(self.cache_model_class)]
        expires = datetime.max if expires_at is None else datetime.fromtimestamp(expires_at, tz=UTC if settings.USE_TZ else None)
        expires = connection.ops.adapt_datetimefield_value(expires.replace(microsecond=0))
        encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        name = connection.ops.quote_name
        sql = (
            f"INSERT INTO {name(self._table)} ({name('cache_key')}, {name('value')}, {name('expires')}) "
            f"VALUES (%s, %s, %s) ON CONFLICT ({name('cache_key')}) "
            f"DO UPDATE SET {name('value')} = EXCLUDED.{name('value')}, {name('expires')} = EXCLUDED.{name('expires')}"
        )
        try:  # in a transaction, a failure must not end it: as in Django's, a store may fail silently
            guard = transaction.atomic(using=connection.alias) if connection.in_atomic_block else nullcontext()
            with guard, connection.cursor() as cursor:
                cursor.execute(sql, [key, encoded, expires])
        except DatabaseError:
            return None
        return None
