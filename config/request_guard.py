"""ASGI middleware between the server and Django: every request body is read in full before
Django sees it (bounded, 413 beyond; chunked bodies get their length), and a request that has no
answer within a deadline is answered 503 so a frozen database cannot hold a client for minutes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from config.unavailable import RETRY_AFTER_SECONDS, TIMEOUT_MESSAGE, body_for, failures

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

# Requests given up on (answered 503) whose Django thread is still running: kept referenced
# until they end, so the event loop does not lose them.
_abandoned: set[asyncio.Future[None]] = set()


class TooLarge(Exception):
    """The body is over the limit."""


class RequestGuard:
    def __init__(self, app: App, max_body_bytes: int, answer_within: float) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.answer_within = answer_within

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        try:
            body = await self._read_body(scope, receive)
        except TooLarge:
            return await _answer(send, 413, *_too_large(scope, self.max_body_bytes))
        if body is None:
            return None  # the client went away before sending its body
        scope = {**scope, "headers": _with_length(scope["headers"], len(body))}
        reply = _Reply(send)
        task = asyncio.ensure_future(self.app(scope, _replay(body, receive), reply.send))
        done, _ = await asyncio.wait({task}, timeout=self.answer_within)
        if task in done or reply.started:
            return await task
        reply.closed = True
        _abandoned.add(task)
        task.add_done_callback(_forget)
        failures.record(f"{scope['method']} {scope['path']}", TimeoutError(f"no answer within {self.answer_within:g} s"))
        content_type, text = body_for(scope["path"], _header(scope, b"accept"), TIMEOUT_MESSAGE)
        await _answer(send, 503, content_type, text, [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())])

    async def _read_body(self, scope: MutableMapping[str, Any], receive: Receive) -> bytes | None:
        """The whole body, or None when the client disconnects; TooLarge past the limit, at once
        when the declared length says so."""
        declared = _header(scope, b"content-length")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            raise TooLarge
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _Reply:
    """The server's `send`, silenced once the guard has answered in the app's place."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False
        self.closed = False

    async def send(self, message: Message) -> None:
        if self.closed:
            return
        self.started = True
        await self._send(message)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read ahead as one message, then waits on the server's."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


def _with_length(headers: list[tuple[bytes, bytes]], length: int) -> list[tuple[bytes, bytes]]:
    kept = [(name, value) for name, value in headers if name.lower() not in (b"content-length", b"transfer-encoding")]
    return [*kept, (b"content-length", str(length).encode())]


def _header(scope: MutableMapping[str, Any], name: bytes) -> str:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return value.decode("latin-1").strip()
    return ""


def _too_large(scope: MutableMapping[str, Any], limit: int) -> tuple[str, bytes]:
    message = f"The request body is larger than the limit of {limit} bytes."
    if scope["path"].startswith("/api/"):
        return "application/json", json.dumps({"error": message}).encode()
    return "text/plain; charset=utf-8", (message + "\n").encode()


async def _answer(
    send: Send, status: int, content_type: str, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
    headers += [(b"cache-control", b"no-store"), (b"connection", b"close"), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _forget(task: asyncio.Future[None]) -> None:
    _abandoned.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved, so an error after the 503 is not reported as never retrieved
