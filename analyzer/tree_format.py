"""Placeholder: MySQL 8 FORMAT=TREE / EXPLAIN ANALYZE reader, being written."""

from __future__ import annotations

from analyzer.plan import Plan


def parse_tree(text: str) -> Plan | None:
    """A Plan when `text` holds `-> …` tree output, else None."""
    return None
