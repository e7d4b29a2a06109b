"""The command line's subcommands: `check` (findings as an exit status, for CI pipelines),
`explain` (ask a live server for the plan and the tables, then analyze) and `mcp` (the analyzer as
tools for AI assistants). `python -m analyzer` dispatches to them (`analyzer/__main__.py`)."""

from __future__ import annotations


def read_text(path: str) -> str:
    """A file's text (`-` for standard input), undecodable bytes replaced."""
    import sys

    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8", errors="replace")
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")
