"""Finding the few lines of a paste that a repair or a reader has to look at, with one search of
the whole text instead of a test per line: a paste of 1 MiB may hold half a million lines, and
most passes concern none or a handful of them.

The patterns are compiled with `re.MULTILINE` and must not match across a line break (a class
such as `[^\\S\\n]` stands for the blanks of one line: `str.strip()` and `\\s` both count every
Unicode space, and a line never holds a line break).
"""

from __future__ import annotations

import itertools
import re
from functools import cache


@cache
def pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """`source` compiled with `re.MULTILINE` (and `flags`), once."""
    return re.compile(source, re.MULTILINE | flags)


def line_indexes(text: str, found: re.Pattern[str], start: int = 0) -> list[int]:
    """Indexes (from `start`) of the lines of `text` (split at line breaks) where `found` finds a
    match, each line once, in order."""
    indexes: list[int] = []
    index = start
    at = 0
    for match in found.finditer(text):
        where = match.start()
        index += text.count("\n", at, where)
        at = where
        if not indexes or indexes[-1] != index:
            indexes.append(index)
    return indexes


# Once this many of the first lines match, the rest are tested one by one (see `matching_lines`).
_DENSE = 2048


def matching_lines(lines: list[str], source: str, flags: int = 0) -> list[int]:
    """Indexes of the `lines` where the pattern `source` finds a match (see `line_indexes`).

    Where nearly every line matches, the rest of the lines are searched one by one, which costs
    less than counting the line breaks before each match of one search."""
    found = pattern(source, flags)
    text = "\n".join(lines)
    indexes: list[int] = []
    index = at = 0
    for match in found.finditer(text):
        where = match.start()
        index += text.count("\n", at, where)
        at = where
        if indexes and indexes[-1] == index:
            continue
        indexes.append(index)
        if len(indexes) == _DENSE and index < 2 * _DENSE:
            rest = range(index + 1, len(lines))
            return indexes + list(itertools.compress(rest, map(found.search, itertools.islice(lines, index + 1, None))))
    return indexes


# Fewer lines than this are matched one by one (`starting_lines`): a search of the joined text
# tries every position of it, a match of one line only its start.
_FEW = 256


def starting_lines(lines: list[str], source: str, flags: int = 0) -> list[int]:
    """Indexes of the `lines` that the pattern `source` (written without `^`) matches at their start."""
    if len(lines) < _FEW:
        match = pattern(source, flags).match
        return [i for i, line in enumerate(lines) if match(line)]
    return matching_lines(lines, "^(?:" + source + ")", flags)


def any_line(lines: list[str], source: str, flags: int = 0) -> bool:
    """Whether the pattern `source` finds a match in one of the `lines`."""
    return pattern(source, flags).search("\n".join(lines)) is not None


def blank_count(lines: list[str]) -> int:
    """How many of the `lines` are empty or hold only blanks."""
    if len(lines) < _FEW:
        return sum(1 for line in lines if not line.strip())
    return len(pattern(r"^[^\S\n]*$").findall("\n".join(lines)))
