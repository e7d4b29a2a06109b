"""Save EXPLAIN output from a terminal or a CI job and print its permalink.

    python -m pastebin.cli plan.txt                  # one permalink per file
    mysql -e "EXPLAIN SELECT …" | python -m pastebin.cli --title "slow report"
    python -m pastebin.cli --json --expires 1w --public plan.txt

Standard library only, no Django. The server comes from --server, else $EXPLAIN_SERVER,
else http://127.0.0.1:8000. Exit status: 0 when every paste was saved, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

DEFAULT_SERVER = "http://127.0.0.1:8000"
EXPIRY_VALUES = ("1h", "1d", "1w", "1m", "1y", "never")
TIMEOUT = 60


class UploadError(Exception):
    pass


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
    return parser


def upload(server: str, text: str, options: dict[str, str]) -> dict[str, Any]:
    """POST the paste as text/plain; return the JSON answer or raise UploadError with the server's message."""
    params = urllib.parse.urlencode({key: value for key, value in options.items() if value})
    url = server.rstrip("/") + "/api/v1/explains/" + (f"?{params}" if params else "")
    request = urllib.request.Request(
        url,
        data=text.encode("utf-8"),
        method="POST",
        headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        body = exc.read().decode("utf-8", "replace")
        try:
            message = json.loads(body)["error"]
        except (ValueError, KeyError, TypeError):
            message = body.strip()[:500] or exc.reason
        raise UploadError(f"HTTP {exc.code}: {message}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise UploadError(f"cannot reach {server}: {getattr(exc, 'reason', exc)}") from exc


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
        try:
            data = upload(args.server, read_input(name), options)
        except (UploadError, OSError, UnicodeDecodeError) as exc:
            label = "stdin" if name == "-" else name
            print(f"error: {label}: {exc}", file=sys.stderr)
            status = 1
            continue
        print(json.dumps(data, ensure_ascii=False) if args.json else data["url"])
    return status


if __name__ == "__main__":
    sys.exit(main())
