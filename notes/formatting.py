"""The one number formatter used by the HTML tables, the SVG charts and the CSV downloads."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def format_number(value: float | int, decimals: int) -> str:
    """Format `value` with exactly `decimals` digits after the point, without grouping.

    `format_number(274.4, 2) == "274.40"`, `format_number(19543, 0) == "19543"`.
    Goes through `repr` and Decimal so binary float noise never shows (2.675 stays 2.675).
    """
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    quantum = Decimal(1).scaleb(-decimals)
    text = format(exact.quantize(quantum, rounding=ROUND_HALF_UP), "f")
    return "0" + text[2:] if text.startswith("-0") and Decimal(text) == 0 else text


def format_x(value: float | int) -> str:
    """An x-axis number (a client count): whole numbers without decimals, others trimmed."""
    if float(value).is_integer():
        return format_number(value, 0)
    return format_number(value, 6).rstrip("0").rstrip(".")
