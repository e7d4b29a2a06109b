"""Recent analyses, kept per worker process as the analyze API's answers.

An analysis depends only on the paste, the query, the table definitions, the parser version and
the size and time limits, so the same request gets the same answer. Scripts and editor
integrations send the same plan again and again (on every save, on every CI run), a client
retrying after a timeout sends it twice, and a script analyzes a paste, then saves it. The answer
is kept as the bytes sent (saving reads the JSON one back and sends it on: `pastebin.saving.analysis_data`), under
a SHA-256 digest of everything it depends on, most recently used first, up to
`ANALYZE_CACHE_BYTES` in all (0 keeps nothing); an answer over a sixteenth of that is not kept.
Refusals are never kept.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from django.conf import settings

import analyzer


def digest(*parts: str | None) -> bytes:
    """A digest of `parts` and the parser version; None and "" differ, and no two lists of parts
    run together into the same bytes (each is preceded by its length)."""
    hashed = hashlib.sha256(analyzer.PARSER_VERSION.encode())
    for part in parts:
        data = b"\xff" if part is None else part.encode("utf-8", "surrogatepass")
        hashed.update(len(data).to_bytes(8, "big"))
        hashed.update(data)
    return hashed.digest()


def limits() -> str:
    """The settings an analysis depends on besides its input: what it may refuse."""
    return f"{settings.EXPLAIN_MAX_BYTES}/{settings.EXPLAIN_DEADLINE_MS}/{settings.SCHEMA_MAX_BYTES}"


def json_key(text: str, query: str | None, schema: str | None) -> bytes:
    """The key of an analysis's JSON answer (as the API sends it without an Accept header)."""
    return digest(text, query, schema, "json", "application/json", limits())


class Answers:
    """Bytes under digests, the least recently used dropped first beyond the byte budget."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[bytes, bytes] = OrderedDict()
        self._size = 0

    def get(self, key: bytes) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._size = 0

    def put(self, key: bytes, body: bytes) -> None:
        budget = settings.ANALYZE_CACHE_BYTES
        if len(body) > budget // 16:
            return
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = body
            self._size += len(body)
            while self._size > budget:
                _, dropped = self._kept.popitem(last=False)
                self._size -= len(dropped)


answers = Answers()
