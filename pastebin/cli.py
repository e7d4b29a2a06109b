"""Save EXPLAIN output from a terminal or a CI job and print its permalink.

    python -m pastebin.cli plan.txt                  # one permalink per file
    mysql -e "EXPLAIN SELECT …" | python -m pastebin.cli --title "slow report"
    python -m pastebin.cli --json --expires 1w --public plan.txt

Standard library only, no Django. The server comes from --server, else $EXPLAIN_SERVER,
else http://127.0.0.1:8000. Exit status: 0 when every paste was saved, 1 otherwise.

Each paste is sent with an `Idempotency-Key` of its own, so it can be sent again without being
saved twice: a refused, reset or timed-out connection and a 503 are retried (--retries times, after
the server's Retry-After or an exponential backoff with jitter); other errors are not.
"""

from __future__ import annotations

import argparse
import email.utils
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid
from typing import Any

DEFAULT_SERVER = "http://127.0.0.1:8000"
EXPIRY_VALUES = ("1h", "1d", "1w", "1m", "1y", "never")
TIMEOUT = 60
DEFAULT_RETRIES = 4
BACKOFF_BASE = 0.5  # seconds before the first retry (half to all of it, with jitter), doubling each time
MAX_DELAY = 30.0  # longest wait before a retry, even when the server's Retry-After asks for more


class UploadError(Exception):
    """A failed upload. `transient` when sending it again may succeed; `retry_after` is the
    server's Retry-After in seconds, when it gave one."""

    def __init__(self, message: str, *, transient: bool = False, retry_after: float | None = None):
        super().__init__(message)
        self.transient = transient
        self.retry_after = retry_after


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pastebin.cli", description="Save EXPLAIN output to Explain Analyzer and print its link."
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="Files with EXPLAIN output (default: stdin).")
    parser.add_argument("--server", default=os.environ.get("EXPLAIN_SERVER") or DEFAULT_SERVER, help="Site URL.")
    parser.add_argument("--title", default="", help="A title for the saved explain.")
    parser.add_argument("--query", default="", help="The SQL statement that was explained.")
    parser.add_argument("--expires", choices=EXPIRY_VALUES, help="Delete after this long (server default: 1m).")
    parser.add_argument("--public", action="store_true", help="List it in Recent and Search (default: unlisted).")
    parser.add_argument("--anonymize", action="store_true", help="Replace table, index and column names first.")
    parser.add_argument("--improves-on", default="", metavar="SLUG", help="Slug of the explain this one improves on.")
    parser.add_argument(
        "--json", action="store_true", help="Print the server's JSON answer (one line per paste) instead of the link."
    )
    parser.add_argument(
        "--retries",
        type=retry_count,
        default=DEFAULT_RETRIES,
        metavar="N",
        help=f"Send a paste again up to N times after a connection error or a 503 (default {DEFAULT_RETRIES}).",
    )
    return parser


def is_count(value: str) -> bool:
    return value.isascii() and value.isdigit()


def retry_count(value: str) -> int:
    if not is_count(value):
        raise argparse.ArgumentTypeError(f"not a number of retries: {value!r}")
    return int(value)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date (None when absent or unreadable)."""
    value = (value or "").strip()
    if is_count(value):
        return float(value)
    when = email.utils.parsedate_tz(value)
    return None if when is None else max(0.0, email.utils.mktime_tz(when) - time.time())


def retry_delay(retry: int, retry_after: float | None) -> float:
    """Seconds to wait before retry number `retry` (from 0): the server's Retry-After when given,
    else exponential backoff with jitter; never more than MAX_DELAY."""
    if retry_after is not None:
        return min(retry_after, MAX_DELAY)
    ceiling = min(BACKOFF_BASE * 2**retry, MAX_DELAY)
    return random.uniform(ceiling / 2, ceiling)


def upload(server: str, text: str, options: dict[str, str], key: str) -> dict[str, Any]:
    """POST the paste and its options as JSON; return the JSON answer or raise UploadError with the
    server's message."""
    body = {"explain": text, **{name: value for name, value in options.items() if value}}
    request = urllib.request.Request(
        server.rstrip("/") + "/api/v1/explains/",
        data=json.dumps(body, ensure_ascii=False).encode("utf-8"),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": key},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            answer: dict[str, Any] = json.loads(response.read().decode("utf-8"))
            return answer
    except urllib.error.HTTPError as exc:
        raise http_error(exc) from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        transient = isinstance(reason, (ConnectionError, TimeoutError))
        raise UploadError(f"cannot reach {server}: {reason}", transient=transient) from exc


def http_error(exc: urllib.error.HTTPError) -> UploadError:
    """The server's error message; a 503 is transient."""
    body = exc.read().decode("utf-8", "replace")
    try:
        message = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        message = body.strip()[:500] or exc.reason
    retry_after = parse_retry_after(exc.headers.get("Retry-After"))
    return UploadError(f"HTTP {exc.code}: {message}", transient=exc.code == 503, retry_after=retry_after)


def upload_with_retries(server: str, text: str, options: dict[str, str], retries: int, label: str) -> dict[str, Any]:
    """`upload` under one new Idempotency-Key, sent again after transient errors, saying so on stderr."""
    key = str(uuid.uuid4())
    retry = 0
    while True:
        try:
            return upload(server, text, options, key)
        except UploadError as exc:
            if not exc.transient or retry >= retries:
                raise
            delay = retry_delay(retry, exc.retry_after)
            retry += 1
            print(f"{label}: {exc} (retry {retry}/{retries} in {delay:.1f}s)", file=sys.stderr)
            time.sleep(delay)


def read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8", newline="") as handle:
        return handle.read()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    options = {
        "title": args.title,
        "query": args.query,
        "expires": args.expires or "",
        "visibility": "public" if args.public else "",
        "anonymize": "true" if args.anonymize else "",
        "improves_on": args.improves_on,
    }
    status = 0
    for name in args.files or ["-"]:
        label = "stdin" if name == "-" else name
        try:
            data = upload_with_retries(args.server, read_input(name), options, args.retries, label)
        except (UploadError, OSError, UnicodeDecodeError) as exc:
            print(f"error: {label}: {exc}", file=sys.stderr)
            status = 1
            continue
        print(json.dumps(data, ensure_ascii=False) if args.json else data["url"])
    return status


if __name__ == "__main__":
    sys.exit(main())
