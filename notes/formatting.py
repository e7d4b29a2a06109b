"""The one number formatter used by the HTML tables, the SVG charts and the CSV downloads.

People read the tables and charts, with thousands separators (`19,543`); programs read the CSV
and the charts' data attributes, without them (`19543`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def format_number(value: float | int, decimals: int, grouped: bool = False) -> str:
    """Format `value` with exactly `decimals` digits after the point, grouped by thousands when asked.

    `format_number(274.4, 2) == "274.40"`, `format_number(19543, 0) == "19543"`,
    `format_number(19543, 0, grouped=True) == "19,543"`.
    Goes through `repr` and Decimal so binary float noise never shows (2.675 stays 2.675).
    """
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    quantum = Decimal(1).scaleb(-decimals)
    text = format(exact.quantize(quantum, rounding=ROUND_HALF_UP), ",f" if grouped else "f")
    return "0" + text[2:] if text.startswith("-0") and Decimal(text.replace(",", "")) == 0 else text


def format_x(value: float | int, grouped: bool = False) -> str:
    """An x-axis number (a client count): whole numbers without decimals, others trimmed."""
    if float(value).is_integer():
        return format_number(value, 0, grouped)
    return format_number(value, 6, grouped).rstrip("0").rstrip(".")
