"""Wording shared by every room: counts with their noun, lists of line numbers."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """`1 line`, `3 lines`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe_lines(numbers: list[int]) -> str:
    """`line 4`, `lines 4 and 6`, `lines 4, 6, 8 and 3 more`."""
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    shown = [str(n) for n in numbers[:5]]
    more = len(numbers) - len(shown)
    if more:
        return f"lines {', '.join(shown)} and {more} more"
    return f"lines {', '.join(shown[:-1])} and {shown[-1]}"
