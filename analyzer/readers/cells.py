"""Printed cells read as typed values for the plan model: numbers, key lists, Extra items.

A cell that does not hold what its column should ("4 (15%)" is read as 4; "n/a" as None) gives
None or an empty list, never a guess. A cell the paste cut short (it ends in "…", see
`resultset.CUT`) gives no number: "12…" may have been 12,345.
"""

from __future__ import annotations

import math

from analyzer.lazy import lazy_regex
from analyzer.readers.resultset import CUT

_NUMBER = lazy_regex(r"\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
_INTEGER = lazy_regex(r"\s*\d{1,18}\s*$")
# Extra items that name the buffer a table is joined through, and the algorithm they stand for.
_JOIN_BUFFERS = (
    ("hash join", "hash"),
    ("bnlh", "hash"),
    ("batched key access", "batched_key_access"),
    ("bka", "batched_key_access"),
    ("block nested loop", "block_nested_loop"),
    ("bnl", "block_nested_loop"),
)


def number(value: object) -> float | None:
    """The leading number of a cell ("4 (15%)" -> 4, "1.5e+06", "100.00"), or None if there is none."""
    if value is None:
        return None
    if type(value) is str:
        if value.isdigit() and value.isascii():
            return float(value)  # the usual cell, "161": no pattern needed
        return _leading_number(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    result = float(value)
    return result if math.isfinite(result) else None


def _leading_number(value: str) -> float | None:
    if value.rstrip().endswith(CUT):
        return None
    found = _NUMBER.match(value)
    if found is None:
        return None
    try:
        result = float(found.group(1))
    except (ValueError, OverflowError):
        return None
    return result if math.isfinite(result) else None


def integer(value: object) -> int | None:
    """A cell holding one whole number ("4"), else None ("4,4" of an index merge, "…")."""
    if value is None:
        return None
    if type(value) is str:
        if value.isdigit() and value.isascii() and len(value) <= 18 or _INTEGER.match(value):
            return int(value.strip())  # int() takes fewer characters for blanks than `\s` (U+001F)
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def text(value: object) -> str | None:
    """A cell as stripped text; None for NULL, an empty cell or a value that is not text. A missing
    cell stays `…`: unknown is not the same as NULL."""
    if value is None:
        return None
    if type(value) is str:
        return value.strip() or None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def items(value: object, separator: str = ",") -> list[str]:
    """A list cell ("a,b", a JSON list) as its stripped, non-empty items."""
    if value is None:
        return []
    if isinstance(value, list):
        return [item.strip() for item in value if isinstance(item, str) and item.strip()]
    if not isinstance(value, str) or value.strip().upper() == "NULL":
        return []
    return [item.strip() for item in value.split(separator) if item.strip()]


def extra_items(extra: object) -> list[str]:
    """The items of an Extra cell, split on ";", stripped, empty ones left out."""
    if not isinstance(extra, str) or not extra:
        return []
    return [item.strip() for item in extra.split(";") if item and not item.isspace()]


def join_buffer_algorithm(extra: list[str]) -> str | None:
    """The join algorithm an Extra item `Using join buffer (…)` names, or None when there is none."""
    for item in extra:
        lowered = item.lower()
        if not lowered.startswith("using join buffer"):
            continue
        for mark, algorithm in _JOIN_BUFFERS:
            if mark in lowered:
                return algorithm
        return "block_nested_loop"
    return None
