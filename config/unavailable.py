"""A database that is down, frozen or timing out is answered 503 with `Retry-After`, in the
shape the client reads (JSON on the API, plain text on the raw view, a short HTML page
elsewhere), and logged as one line, not as a traceback per request."""

from __future__ import annotations

import json
import logging
import re
import threading
import time

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from redis.exceptions import RedisError

RETRY_AFTER_SECONDS = 5
MESSAGE = (
    "The database is not answering right now. Try again in a few seconds "
    "(a save sent with an Idempotency-Key header is safe to send again)."
)
TIMEOUT_MESSAGE = (
    "The server could not answer in time: the database is slow or not answering. Try again in a few "
    "seconds (a save sent with an Idempotency-Key header is safe to send again)."
)
_PLAIN_PATH_RE = re.compile(r"^/e/[^/]+/raw/$")
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Try again in a moment · Explain Analyzer</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Try again in a moment</h1><p>{message}</p><p><a href="/">Back to the paste form</a>
(reading an explain without saving it still works).</p></main></body></html>
"""

logger = logging.getLogger("config.unavailable")


CACHE_MESSAGE = "The site's cache (Redis) is not answering right now. Try again in a few seconds."


def is_database_failure(exc: BaseException) -> bool:
    """A failure of the database or cache connection, or a statement timeout, as opposed to a bug."""
    return isinstance(exc, OperationalError | InterfaceError | RedisError)


def body_for(path: str, accept: str, message: str = MESSAGE) -> tuple[str, bytes]:
    """The content type and body of the 503 for a request to `path` with this `Accept` header."""
    if path.startswith("/api/") or "application/json" in accept:
        return "application/json", json.dumps({"error": message}).encode()
    if _PLAIN_PATH_RE.match(path) or accept.startswith("text/plain"):
        return "text/plain; charset=utf-8", (message + "\n").encode()
    return "text/html; charset=utf-8", _PAGE.format(message=message).encode()


def unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """The 503 answer to `request`, which failed with the database failure `exc` (logged once)."""
    failures.record(f"{request.method} {request.path}", exc)
    message = CACHE_MESSAGE if isinstance(exc, RedisError) else MESSAGE
    content_type, body = body_for(request.path, request.headers.get("Accept", ""), message)
    response = HttpResponse(body, status=503, content_type=content_type)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class FailureLog:
    """One warning line per failure, and under a flood at most one line per `interval` seconds,
    which counts the failures it stands for (a 30 s outage under load logs about 30 lines)."""

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._last = -interval
        self._unlogged = 0

    def record(self, where: str, exc: BaseException) -> None:
        with self._lock:
            now = time.monotonic()
            if now - self._last < self.interval:
                self._unlogged += 1
                return
            self._last, unlogged, self._unlogged = now, self._unlogged, 0
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        more = f" (and {unlogged} more since the last line)" if unlogged else ""
        logger.warning("database unavailable, answered 503: %s: %s: %s%s", where, type(exc).__name__, reason, more)


failures = FailureLog()


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turns a database failure raised by a view into the 503 answer above."""

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        return unavailable_response(request, exc) if is_database_failure(exc) else None
