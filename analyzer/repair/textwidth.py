"""Display width of text as the mysql/mariadb client counts it: East Asian wide characters
take two columns, every other character one (combining marks included).

The client pads table cells by this width, so cell boundaries of a table holding CJK text
sit at display columns, not at string indexes.
"""

from __future__ import annotations

import unicodedata

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
    return sum(_char_width(c) for c in text)


def screen_width(text: str) -> int:
    """Columns `text` takes on a terminal, which draws a combining mark over the letter before
    it: the width a terminal wraps lines at."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else _char_width(c) for c in text)


def column_starts(text: str) -> list[int]:
    """For each display column of `text`, the index of the character that starts there, or -1.

    A wide character covers two columns; its second column maps to -1.
    """
    if text.isascii():
        return list(range(len(text)))
    starts: list[int] = []
    for index, char in enumerate(text):
        starts.append(index)
        if _char_width(char) == 2:
            starts.append(-1)
    return starts


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
