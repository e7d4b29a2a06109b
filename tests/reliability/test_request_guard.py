"""The ASGI guard in front of Django and the sampled failure log, without a server."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor

from config.request_guard import RequestGuard
from config.unavailable import FailureLog


def _run(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def _scope(path: str = "/api/v1/analyze", headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {"type": "http", "method": "POST", "path": path, "headers": headers or []}


async def _call(guard: RequestGuard, scope: dict, chunks: list[bytes]) -> list[dict]:
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    sent: list[dict] = []

    async def receive() -> dict:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    await guard(scope, receive, send)
    return sent


def _echo_app(seen: list):
    async def app(scope, receive, send):
        message = await receive()
        seen.append((dict(scope["headers"]), message["body"], message["more_body"]))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


def test_a_chunked_body_reaches_the_app_whole_with_its_length():
    seen: list = []
    guard = RequestGuard(_echo_app(seen), max_body_bytes=100, answer_within=5)
    scope = _scope(headers=[(b"transfer-encoding", b"chunked")])
    sent = _run(_call(guard, scope, [b"abc", b"def", b""]))
    headers, body, more = seen[0]
    assert (body, more) == (b"abcdef", False)
    assert headers[b"content-length"] == b"6" and b"transfer-encoding" not in headers
    assert sent[0]["status"] == 200


def test_bodies_over_the_cap_are_413_declared_or_not():
    seen: list = []
    guard = RequestGuard(_echo_app(seen), max_body_bytes=5, answer_within=5)
    declared = _run(_call(guard, _scope(headers=[(b"content-length", b"6")]), [b"abcdef"]))
    streamed = _run(_call(guard, _scope(path="/e/x/raw/"), [b"abc", b"def"]))
    assert seen == []
    assert declared[0]["status"] == streamed[0]["status"] == 413
    assert "limit of 5 bytes" in json.loads(declared[1]["body"])["error"]
    assert streamed[1]["body"].startswith(b"The request body is larger")


def test_no_answer_in_time_is_a_503_and_late_output_is_dropped():
    late: list = []

    async def stuck(scope, receive, send):
        await receive()
        await asyncio.sleep(0.3)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        late.append("sent")

    async def run() -> list[dict]:
        sent = await _call(RequestGuard(stuck, max_body_bytes=10, answer_within=0.05), _scope(), [b""])
        await asyncio.sleep(0.5)  # the abandoned app finishes; its output must not reach the client
        return sent

    sent = _run(run())
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 503 and (b"retry-after", b"5") in sent[0]["headers"]
    assert late == ["sent"]


def test_a_started_response_is_never_cut_by_the_deadline():
    async def slow_body(scope, receive, send):
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(0.2)
        await send({"type": "http.response.body", "body": b"done"})

    sent = _run(_call(RequestGuard(slow_body, max_body_bytes=10, answer_within=0.05), _scope(), [b""]))
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"done"


def test_a_flood_of_failures_logs_about_one_line_a_second(caplog):
    log = FailureLog(interval=60)
    with caplog.at_level(logging.WARNING, logger="config.unavailable"):
        for number in range(500):
            log.record(f"GET /e/{number}/", OSError("connection refused"))
        log.interval = 0
        log.record("GET /last/", OSError("connection refused"))
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert "GET /e/0/" in lines[0] and "connection refused" in lines[0]
    assert "and 499 more since the last line" in lines[1]
