"""Where the rate limits (pastebin/throttles.py) keep their state: the `throttle` cache.

A limit of N requests per period is kept as one time per client address, the "theoretical
arrival time" of the generic cell rate algorithm: each request let through moves it one step of
period/N later (from now, if it lay in the past), and a request is refused while it lies more
than the period less one step ahead. N requests may so come at once, then one per step; a
refused client is told exactly when the next one fits, never later than one period.

Checking and moving the time is one atomic operation: one statement in the database
(`ThrottleDatabaseCache`, Django's database cache, whose table the pastebin migrations create:
an upsert that writes only when the request fits, and returns the row only then), one script in
Redis. Expired rows are deleted every CULL_EVERY requests per process. The times are stored as
plain numbers, not pickled, so only these functions read them.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router

from config import prepared

CULL_EVERY = 64
SECONDS = "CAST({} AS DOUBLE PRECISION)"
REDIS_TAKE = """
local due = tonumber(redis.call('GET', KEYS[1]) or '0')
local now, step, ahead = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if due < now then due = now end
if due - now > ahead then return tostring(due - ahead - now) end
redis.call('SET', KEYS[1], tostring(due + step), 'EX', ARGV[4])
return ''
"""


class ThrottleDatabaseCache(DatabaseCache):
    """Django's database cache, plus `take`, one statement per request let through."""

    def __init__(self, table: str, params: dict) -> None:
        super().__init__(table, params)
        self._taken = itertools.count()

    def take(self, key: str, now: float, step: float, ahead: float, seconds: int) -> float | None:
        """Let one request through under `key` (None), or the seconds it must wait: see `take`."""
        connection = connections[router.db_for_write(self.cache_model_class)]
        key = self.make_and_validate_key(key)
        table = connection.ops.quote_name(self._table)
        due = SECONDS.format(f"{table}.value")
        moment = datetime.fromtimestamp(now, UTC)
        expires = connection.ops.adapt_datetimefield_value((moment + timedelta(seconds=seconds)).replace(microsecond=0))
        if next(self._taken) % CULL_EVERY == 0:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"DELETE FROM {table} WHERE expires < %s", [connection.ops.adapt_datetimefield_value(moment)]
                )
        taken = prepared.rows(
            f"INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s) ON CONFLICT (cache_key) "
            f"DO UPDATE SET value = CAST(CASE WHEN {due} > %s THEN {due} ELSE %s END + %s AS TEXT), "
            f"expires = EXCLUDED.expires WHERE {due} - %s <= %s RETURNING 1",
            [key, repr(now + step), expires, now, now, step, now, ahead],
            connection,
        )
        if taken:
            return None
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT value FROM {table} WHERE cache_key = %s", [key])
            row = cursor.fetchone()
        return float(row[0]) - ahead - now if row else None


def take(cache: BaseCache, key: str, limit: int, period: int, now: float) -> float | None:
    """One request under `key` at `now` (seconds since the epoch), limited to `limit` (at least
    1) per `period` seconds: None when it may go (and it is counted), else the seconds until one
    fits (and nothing changes)."""
    step = period / limit
    ahead = period - step
    if isinstance(cache, ThrottleDatabaseCache):
        return cache.take(key, now, step, ahead, 2 * period)
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(key, write=True)
        wait = client.eval(REDIS_TAKE, 1, cache.make_and_validate_key(key), now, step, ahead, 2 * period)
        return float(wait) if wait else None
    due = max(float(cache.get(key) or 0), now)  # any other cache (one process's memory): not atomic
    if due - now > ahead:
        return due - ahead - now
    cache.set(key, due + step, 2 * period)
    return None
