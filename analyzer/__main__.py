"""Command line: `python -m analyzer [FILE…]` prints the clean table and findings.

Reads standard input when no file is given; `--json` prints the analyze API's JSON
instead. Needs no Django settings. Exit status: 0 when every input parsed, 1 when one
did not (its error goes to stderr), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys

from analyzer.model import ParseError
from analyzer.pipeline import DEFAULT_MAX_BYTES, analyze
from analyzer.render.text import format_report


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8", errors="replace")
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer", description="Analyze MySQL/MariaDB EXPLAIN output.")
    parser.add_argument("files", nargs="*", default=["-"], help="files holding a pasted EXPLAIN (default: stdin)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument("--query", help="the SQL statement the explain is for")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs")
    args = parser.parse_args(argv)

    status = 0
    for number, path in enumerate(args.files):
        label = "<stdin>" if path == "-" else path
        try:
            analysis = analyze(_read(path), query=args.query, max_bytes=args.max_bytes)
        except OSError as exc:
            print(f"{label}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
            continue
        except ParseError as exc:
            print(f"{label}: {exc.message}", file=sys.stderr)
            status = 1
            continue
        if args.json:
            print(json.dumps(analysis.to_dict(), ensure_ascii=False, indent=2))
        else:
            if len(args.files) > 1:
                print(("\n" if number else "") + f"== {label}")
            sys.stdout.write(format_report(analysis))
    return status


if __name__ == "__main__":
    sys.exit(main())
