"""What each worker process remembers of live explains between reads, and how it learns they changed.

A permalink page and a raw view need one row each, but on a busy site the round trip to PostgreSQL
costs a request more than everything else it does (the worker's threads wait on it, hand the
interpreter over and back, and PostgreSQL's own processes share the machine's cores). So each
worker process remembers the rows of live explains it read, up to `LIVE_MEMO_BYTES`, and reads
them again only once they may have changed:

- PostgreSQL announces every change (migration 0013): after every UPDATE, DELETE or TRUNCATE of
  saved explains, whatever ran it, a notice to forget everything; after an insert of an explain
  that improves on another, a notice naming that one. A notice is sent when its transaction
  commits.
- Each process listens on a connection of its own, in a thread (`Listener`). Every few seconds it
  sends itself a notice and waits for it to come back: what is remembered is used only while the
  listener is connected and has heard its own notice lately, so a connection that died silently,
  or a pooler that does not pass notices on, turns the memory off, not wrong.
- A request uses what is remembered only when the listener's socket holds nothing unread (a notice
  that arrived and is not handled yet sends the request to the database), and a row is remembered
  only if no notice was handled while it was read, so a read that raced a change never outlives it.
- Only live explains are remembered, with the time they stop being live (their expiry, or that of
  an improvement their page lists), checked on every use.
- This process forgets everything at once when it changes an explain itself (`forget_all`).

On SQLite, or with `LIVE_MEMO_BYTES=0`, nothing is remembered and every request reads the database.
"""

from __future__ import annotations

import logging
import os
import secrets
import select
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import psycopg
from django.conf import settings
from django.db import connection

from pastebin import clock

CHANNEL = "explain_changes"  # as migration 0013 names it
HEARTBEAT_SECONDS = 5.0  # how often the listener sends itself a notice
HEARD_WITHIN = 3 * HEARTBEAT_SECONDS  # beyond this without its own notice back, nothing is used
RECONNECT_SECONDS = 1.0
KINDS = ("raw", "page")  # what is remembered of an explain (the key's first part)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rows:
    """Rows read from the database, and when they stop being true (None: not by time)."""

    rows: list[tuple]
    until: datetime | None
    size: int


class Memo:
    """Rows under (kind, slug) keys, the least recently used dropped first beyond the byte budget;
    `generation` counts what was forgotten."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation = 0
        self._kept: OrderedDict[tuple[str, str], Rows] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[str, str], now: datetime) -> Rows | None:
        with self.lock:
            found = self._kept.get(key)
            if found is None:
                return None
            if found.until is not None and found.until <= now:
                self._drop(key)
                return None
            self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], rows: Rows, generation: int, budget: int) -> None:
        """Keep `rows`, unless something was forgotten since `generation` (they may be stale)."""
        if rows.size > budget // 16:
            return
        with self.lock:
            if generation != self.generation:
                return
            self._drop(key)
            self._kept[key] = rows
            self._size += rows.size
            while self._size > budget:
                self._drop(next(iter(self._kept)))

    def forget(self, slug: str | None) -> None:
        """Forget what is kept of the explain `slug`, or everything (None)."""
        with self.lock:
            self.generation += 1
            if slug is None:
                self._kept.clear()
                self._size = 0
                return
            for kind in KINDS:
                self._drop((kind, slug))

    def _drop(self, key: tuple[str, str]) -> None:
        dropped = self._kept.pop(key, None)
        if dropped is not None:
            self._size -= dropped.size


class Listener:
    """A thread holding a connection that listens on CHANNEL and makes `memo` forget what changed."""

    def __init__(self, memo: Memo) -> None:
        self.memo = memo
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._socket = -1  # the listening connection's socket, -1 while not listening
        self._heard = 0.0  # when the listener's own last notice came back (monotonic)
        self._ping = ""
        self._backend = 0  # the listening connection's server process
        self._stop = threading.Event()  # set to end the current thread

    def trusted(self) -> bool:
        """Whether what is remembered may be used now (starting the listener on first call)."""
        if self._pid != os.getpid():
            self._start()
            return False
        fd = self._socket
        if fd < 0 or time.monotonic() - self._heard > HEARD_WITHIN:
            return False
        try:
            readable, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()  # a forked worker starts its own listener
            self._socket = -1
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(connection_params(), self._stop), name="explain-changes", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """End the listener (its connection ended by the server), for a database about to go away."""
        thread, self._thread, self._pid = self._thread, None, 0
        if thread is None:
            return
        self._stop.set()
        while thread.is_alive():
            if self._backend:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [self._backend])
            thread.join(0.1)

    def _run(self, params: dict, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self._listen(params, stop)
            except (psycopg.Error, OSError) as exc:
                if not stop.is_set():
                    logger.warning("Not listening for explain changes (%s); retrying in %s s.", exc, RECONNECT_SECONDS)
            self.memo.forget(None)  # notices may have been missed
            stop.wait(RECONNECT_SECONDS)

    def _listen(self, params: dict, stop: threading.Event) -> None:
        with psycopg.connect(**params, autocommit=True, application_name="explain-changes") as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.memo.forget(None)  # changes made before LISTEN went unannounced
            self._backend, self._socket = conn.info.backend_pid, conn.pgconn.socket
            try:
                while not stop.is_set():
                    self._ping = f"ping:{secrets.token_hex(8)}"
                    conn.execute("SELECT pg_notify(%s, %s)", [CHANNEL, self._ping])
                    for notice in conn.notifies(timeout=HEARTBEAT_SECONDS):
                        self._handle(notice.payload)
            finally:
                self._socket, self._backend = -1, 0

    def _handle(self, payload: str) -> None:
        if payload == self._ping:
            self._heard = time.monotonic()
        elif not payload.startswith("ping:"):  # other processes' pings change nothing
            self.memo.forget(payload or None)


def connection_params() -> dict:
    """How Django connects to the default database (the test database under the tests)."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return params


memo = Memo()
listener = Listener(memo)


def enabled() -> bool:
    return connection.vendor == "postgresql" and settings.LIVE_MEMO_BYTES > 0


def rows(kind: str, slug: str, read: Callable[[], Rows | None]) -> list[tuple] | None:
    """The rows of the live explain `slug` as `read` reads them (None: not live), remembered under
    (kind, slug) while nothing says they changed."""
    if not enabled() or not listener.trusted():
        found = read()
        return found.rows if found else None
    key = (kind, slug)
    kept = memo.get(key, clock.now())
    if kept is not None:
        return kept.rows
    generation = memo.generation
    found = read()
    if found is None:
        return None
    memo.put(key, found, generation, settings.LIVE_MEMO_BYTES)
    return found.rows


def forget_all() -> None:
    """Forget everything remembered by this process: it changed an explain (the notice will follow)."""
    memo.forget(None)
