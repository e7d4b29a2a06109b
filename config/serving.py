"""How `make serve` runs the site: gunicorn supervises worker processes, each an asyncio (uvicorn)
server that reads whole requests before Django sees them, so idle or slow clients cost a socket,
never a worker. See the README's "Serving" section."""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

# A request must finish sending its headers within this many seconds of its first byte.
HEADER_SECONDS = 10


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with two deadlines it lacks: a new connection that sends nothing is
    closed after the keep-alive timeout, like an idle kept-alive one, and headers sent a byte at a
    time are cut off after HEADER_SECONDS."""

    _headers_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._stop_headers_deadline()
        self._headers_deadline = self.loop.call_later(HEADER_SECONDS, self._headers_too_slow)

    def on_headers_complete(self) -> None:
        self._stop_headers_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_headers_deadline()
        super().connection_lost(exc)

    def _stop_headers_deadline(self) -> None:
        if self._headers_deadline is not None:
            self._headers_deadline.cancel()
            self._headers_deadline = None

    def _headers_too_slow(self) -> None:
        self._headers_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class Worker(UvicornWorker):
    """gunicorn's worker class for `make serve` (`-k config.serving.Worker`)."""

    CONFIG_KWARGS = {"loop": "auto", "http": GuardedHttpToolsProtocol, "lifespan": "off"}
