"""A small HTTP client for the reliability tests: every answer with its status, headers, body and
the time it took; connection failures are answers too (status 0)."""

from __future__ import annotations

import http.client
import time
import urllib.parse
from dataclasses import dataclass, field


@dataclass
class Answer:
    status: int  # 0: the connection failed
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    started: float = 0.0
    seconds: float = 0.0
    error: str = ""


def request(url: str, method: str = "GET", body: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 30, chunked: bool = False) -> Answer:
    parts = urllib.parse.urlsplit(url)
    started = time.monotonic()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        content = iter([body[i : i + 65536] for i in range(0, len(body), 65536)]) if chunked and body else body
        connection.request(method, path, body=content, headers=headers or {}, encode_chunked=chunked)
        response = connection.getresponse()
        data = response.read()
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        return Answer(response.status, answer_headers, data, started, time.monotonic() - started)
    except (OSError, http.client.HTTPException) as exc:
        return Answer(0, started=started, seconds=time.monotonic() - started, error=f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def explain(number: int, rows: int = 1) -> str:
    """A tab-separated EXPLAIN told apart from every other by `number` (about 60 bytes a row)."""
    head = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
    body = "".join(f"1\tSIMPLE\tt{number}_{row}\tALL\tNULL\tNULL\tNULL\tNULL\t{number + row}\tUsing where\n" for row in range(rows))
    return head + body
