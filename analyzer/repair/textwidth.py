"""Display width of text as the mysql/mariadb client counts it: East Asian wide characters
take two columns, every other character one (combining marks included).

The client pads table cells by this width, so cell boundaries of a table holding CJK text
sit at display columns, not at string indexes.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right

from analyzer.lazy import lazy_regex

_NON_ASCII_RE = lazy_regex(r"[^\x00-\x7f]")

# Terminal widths people use: a line exactly this wide was probably cut by the terminal.
USUAL_TERMINAL_WIDTHS = (80, 100, 120, 132, 160, 200, 250)


def _char_width(char: str) -> int:
    # Combining marks count one column, as the mysql/mariadb client pads them (a terminal would
    # show them on the letter before): table cells line up by the client's count.
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def width(text: str) -> int:
    """Columns `text` takes on a terminal."""
    if text.isascii():
        return len(text)
    return len(text) + sum(_char_width(c) - 1 for c in _NON_ASCII_RE.findall(text))


def screen_width(text: str) -> int:
    """Columns `text` takes on a terminal, which draws a combining mark over the letter before
    it: the width a terminal wraps lines at."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else _char_width(c) for c in text)


class Columns:
    """The display columns of `text`: its width, and which character starts at a column.

    Only the wide characters are looked at (between them columns follow the string's indexes),
    so a long line with few of them costs about what an ASCII line does.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # The indexes of the wide characters, and the columns they start at.
        wide = [] if text.isascii() else [m.start() for m in _NON_ASCII_RE.finditer(text) if _char_width(m[0]) == 2]
        self._wide = wide
        self._wide_columns = [index + n for n, index in enumerate(self._wide)]
        self.width = len(text) + len(self._wide)

    def index(self, column: int) -> int:
        """The index of the character that starts at `column` (below `width`), or -1 in the second
        column of a wide character."""
        n = bisect_right(self._wide_columns, column)  # wide characters starting at or before `column`
        if not n:
            return column
        last = self._wide_columns[n - 1]
        if last == column - 1:
            return -1
        return column - n + 1 if last == column else column - n

    def char(self, column: int) -> str | None:
        """The character that starts at `column` (below `width`); None in the second column of a wide one."""
        index = self.index(column)
        return self.text[index] if index >= 0 else None

    def column(self, index: int) -> int:
        """The column the character at `index` starts at."""
        return index + bisect_left(self._wide, index)


def cut(text: str, columns: int) -> tuple[str, str]:
    """Split `text` after `columns` display columns (a wide character that straddles goes right)."""
    if text.isascii():
        return text[:columns], text[columns:]
    used = 0
    for index, char in enumerate(text):
        w = _char_width(char)
        if used + w > columns:
            return text[:index], text[index:]
        used += w
    return text, ""


def expand_tabs(text: str, size: int = 8) -> str:
    """`str.expandtabs` counting display columns, as a terminal or editor lays tabs out."""
    if text.isascii():
        return text.expandtabs(size)
    out = []
    column = 0
    for char in text:
        if char == "\t":
            spaces = size - column % size
            out.append(" " * spaces)
            column += spaces
        else:
            out.append(char)
            column += _char_width(char)
    return "".join(out)
