"""Command line: `python -m analyzer [FILE…]` prints the clean table, findings and index advice.

Reads standard input when no file is given; `--json` prints the analyze API's JSON
instead. Needs no Django settings. Exit status: 0 when every input parsed, 1 when one
did not (its error goes to stderr), 2 for usage errors. `check`, `explain` and `mcp` as the first
word run a subcommand (`analyzer/cli/`).
"""

from __future__ import annotations

import gc
import sys

from analyzer.cli import read_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


class _Arguments:
    """The command line as `argparse` reads it: `files`, `json`, `query`, `schema`, `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.files = ["-"]
        self.json = False
        self.query: str | None = None
        self.schema: str | None = None
        self.max_bytes = max_bytes


def _parse_arguments(argv: list[str] | None) -> _Arguments | argparse.Namespace:
    """The command line's options and files. A plain one (whole options, one run of files) is read
    here; any other (`--help`, `--query=…`, a shortened or unknown option, a mistake) by `argparse`,
    which costs more to import than analyzing a short paste."""
    from analyzer.pipeline import DEFAULT_MAX_BYTES

    args = sys.argv[1:] if argv is None else argv
    plain = _plain_arguments(args, DEFAULT_MAX_BYTES)
    if plain is not None:
        return plain
    import argparse

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
    return parser.parse_args(args)


def _plain_arguments(args: list[str], max_bytes: int) -> _Arguments | None:
    """`args` read as `argparse` would, or None when they are not plain (see `_parse_arguments`);
    `max_bytes` is the default."""
    read = _Arguments(max_bytes)
    files: list[str] = []
    after_file = False
    i = 0
    while i < len(args):
        arg = args[i]
        value = args[i + 1] if i + 1 < len(args) else "-"
        is_file = arg == "-" or not arg.startswith("-")
        if is_file and files and not after_file:
            return None  # files again after an option: argparse refuses them
        if is_file:
            files.append(arg)
        elif arg == "--json":
            read.json = True
        elif arg == "--query" and not value.startswith("-"):
            read.query, i = value, i + 1
        elif arg == "--schema" and not value.startswith("-"):
            read.schema, i = value, i + 1
        elif arg == "--max-bytes" and value.isascii() and value.isdigit():
            read.max_bytes, i = int(value), i + 1
        else:
            return None
        after_file = is_file
        i += 1
    read.files = files or read.files
    return read


SUBCOMMANDS = {"check": "analyzer.cli.check", "explain": "analyzer.cli.explain", "mcp": "analyzer.cli.mcp_server"}


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] in SUBCOMMANDS:
        import importlib

        return int(importlib.import_module(SUBCOMMANDS[words[0]]).main(words[1:]))
    return analyze_files(words)


def analyze_files(argv: list[str]) -> int:
    """`python -m analyzer [--json] [FILE…]`: each file's report (or JSON)."""
    from analyzer.model import ParseError
    from analyzer.pipeline import analyze

    args = _parse_arguments(argv)
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
            import json

            print(json.dumps(analysis.to_dict(), ensure_ascii=False, indent=2))
        else:
            if len(args.files) > 1:
                print(("\n" if number else "") + f"== {label}")
            from analyzer.render.text import format_report

            sys.stdout.write(format_report(analysis))
    return status


if __name__ == "__main__":
    # A short-lived process: the system takes its memory back at exit, so collecting cycles only
    # costs time, while the engine is imported and reads (each collection looks over the objects
    # the imports made) and at exit, where the collector leaves frozen objects alone.
    gc.disable()
    status = main()
    gc.freeze()
    sys.exit(status)
