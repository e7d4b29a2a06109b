"""Command line: `python -m analyzer [FILE…]` prints the clean table, findings and index advice.

Reads standard input when no file is given; `--json` prints the analyze API's JSON
instead. Needs no Django settings. Exit status: 0 when every input parsed, 1 when one
did not (its error goes to stderr), 2 for usage errors. `check`, `explain` and `mcp` as the first
word run a subcommand (`analyzer/cli/`).
"""

from __future__ import annotations

import argparse
import json
import sys

from analyzer.cli import read_text
from analyzer.model import ParseError
from analyzer.pipeline import DEFAULT_MAX_BYTES, analyze
from analyzer.render.text import format_report

SUBCOMMANDS = {"check": "analyzer.cli.check", "explain": "analyzer.cli.explain", "mcp": "analyzer.cli.mcp_server"}


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] in SUBCOMMANDS:
        import importlib

        return int(importlib.import_module(SUBCOMMANDS[words[0]]).main(words[1:]))
    return analyze_files(words)


def analyze_files(argv: list[str]) -> int:
    """`python -m analyzer [--json] [FILE…]`: each file's report (or JSON)."""
    parser = argparse.ArgumentParser(
        prog="python -m analyzer",
        description="Analyze MySQL/MariaDB EXPLAIN output.",
        epilog="Subcommands: check (findings as an exit status), explain (ask a live server), mcp (an MCP "
        "server). `python -m analyzer SUBCOMMAND --help` for each; a file named like one is given as ./NAME.",
    )
    parser.add_argument("files", nargs="*", default=["-"], help="files holding a pasted EXPLAIN (default: stdin)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument("--query", help="the SQL statement the explain is for")
    parser.add_argument("--schema", metavar="FILE", help="SHOW CREATE TABLE output for the tables, for index advice")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs")
    args = parser.parse_args(argv)
    try:
        schema = read_text(args.schema) if args.schema else None
    except OSError as exc:
        print(f"{args.schema}: {exc.strerror or exc}", file=sys.stderr)
        return 2

    status = 0
    for number, path in enumerate(args.files):
        label = "<stdin>" if path == "-" else path
        try:
            analysis = analyze(read_text(path), query=args.query, max_bytes=args.max_bytes, schema=schema)
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
