"""Placeholder: EXPLAIN FORMAT=JSON reader, being written."""

from __future__ import annotations

from analyzer.plan import Plan


def parse_json(text: str) -> Plan | None:
    """A Plan when `text` holds an EXPLAIN FORMAT=JSON document, else None."""
    return None
