"""A result set written out as people paste it: the `mariadb` client's table box, its `\\G` output.

Both are the client's own layout (checked against `mariadb -t` and `\\G` of MariaDB 10.11): a cell
is as wide as its longest value counted in characters, newlines included (a multi-line
`Create Table` cell is printed as it is and breaks the box), numbers are aligned right, NULL is
`NULL`.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any


def _text(value: Any) -> str:
    return "NULL" if value is None else str(value)


def box(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """`mariadb -t` / interactive output of a result set."""
    numeric = [
        any(isinstance(row[i], int | float | Decimal) for row in rows) for i in range(len(columns))
    ]
    widths = [max([len(name), *(len(_text(row[i])) for row in rows)]) for i, name in enumerate(columns)]
    border = "+" + "+".join("-" * (width + 2) for width in widths) + "+"

    def line(cells: Sequence[str], right: Sequence[bool]) -> str:
        padded = (cell.rjust(width) if r else cell.ljust(width) for cell, width, r in zip(cells, widths, right, strict=True))
        return "| " + " | ".join(padded) + " |"

    body = [line([_text(value) for value in row], numeric) for row in rows]
    return "\n".join([border, line(columns, [False] * len(columns)), border, *body, border])


def vertical(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """`\\G` output of a result set."""
    width = max(len(name) for name in columns)
    out = []
    for number, row in enumerate(rows, 1):
        out.append(f"{'*' * 27} {number}. row {'*' * 27}")
        out.extend(f"{name.rjust(width)}: {_text(value)}" for name, value in zip(columns, row, strict=True))
    return "\n".join(out)


def statements(texts: Sequence[str]) -> str:
    """SQL statements as a script: each ended by `;`, a blank line between them."""
    return "\n\n".join(text.rstrip().rstrip(";") + ";" for text in texts)
