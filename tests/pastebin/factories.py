"""Test pastes and small helpers for the pastebin tests."""

from __future__ import annotations

import unicodedata
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]


def fixture(name: str) -> str:
    """A real paste copied from the shared samples, read byte for byte (newline="" keeps CRs)."""
    with open(FIXTURES / name, encoding="utf-8", newline="") as handle:
        return handle.read()


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def explain_table(
    table: str = "employees",
    rows: str = "300024",
    key: str | None = None,
    extra: str = "Using where",
    newline: str = "\n",
) -> str:
    """A clean `mysql -t` style box for one table, padded by display width like the client."""
    values = [
        "1",
        "SIMPLE",
        table,
        "ALL" if key is None else "ref",
        key or "NULL",
        key or "NULL",
        "4" if key else "NULL",
        "const" if key else "NULL",
        rows,
        extra,
    ]
    widths = [max(_width(c), _width(v)) for c, v in zip(COLUMNS, values, strict=True)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(_pad(c, w) for c, w in zip(cells, widths, strict=True)) + " |"

    return newline.join([border, line(COLUMNS), border, line(values), border]) + newline


def create_via_api(client, text: str, **params) -> dict:
    """POST a paste to the API (text/plain, options as query parameters); the 201 answer's JSON."""
    response = client.post(
        "/api/v1/explains/",
        text,
        content_type="text/plain; charset=utf-8",
        query_params=params,
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 201, response.content[:2000]
    return response.json()
