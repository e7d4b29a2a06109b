"""How a pooled PostgreSQL connection is checked before a request uses it.

A request that may write (any method but GET and HEAD) gets a connection proven alive by a round
trip to the server, as psycopg's pool checks it: a save never runs on a dead connection. A read
gets one whose socket has nothing to say: a server that restarted, crashed or ended the session
has closed the socket (or sent its farewell), which makes it readable, and only such a connection
pays for the round trip (and is dropped when it fails it). A read that still meets a connection
that died unseen fails like any database failure (503, see config/unavailable.py).
"""

from __future__ import annotations

import select
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING

import psycopg
from psycopg_pool import ConnectionPool

if TYPE_CHECKING:  # imported by the settings: nothing of Django's at run time
    from django.http import HttpRequest, HttpResponse

_round_trip = ContextVar("pooled_connection_round_trip", default=True)
READ_ONLY_METHODS = frozenset({"GET", "HEAD"})


def check_connection(connection: psycopg.Connection) -> None:
    """The pool's `check`: raise when the connection is not fit for use (the pool drops it)."""
    if _round_trip.get() or _socket_has_news(connection):
        ConnectionPool.check_connection(connection)


def _socket_has_news(connection: psycopg.Connection) -> bool:
    """Whether an idle connection's socket is readable (closed, or the server sent something)."""
    try:
        readable, _, _ = select.select([connection.pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):  # closed or broken: let the round trip say so
        return True
    return bool(readable)


def read_only_checks(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: GET and HEAD requests check their pooled connection without a round trip."""

    def middleware(request: HttpRequest) -> HttpResponse:
        token = _round_trip.set(request.method not in READ_ONLY_METHODS)
        try:
            return get_response(request)
        finally:
            _round_trip.reset(token)

    return middleware
