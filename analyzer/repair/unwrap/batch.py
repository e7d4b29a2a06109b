"""Un-wrap batch output (`mysql -B`, tab-separated, also with its tabs expanded to spaces): find the
width a terminal cut its lines at, and put back together a header or a row that a terminal cut
there or a mail client broke at a space.

A terminal's cut keeps the tab stops (the pieces join as they are); a mail client broke the line
at a space it may have dropped (the piece goes on at the next tab stop, or after one space). What
a header or a row is, the reader says (`BatchMarks`).
"""

from __future__ import annotations

from collections.abc import Callable

from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, expand_tabs, width
from analyzer.structs import dataclass

# The tab stops a terminal and the client's batch output use.
TAB = 8


@dataclass(frozen=True, slots=True)
class BatchMarks:
    """What the reader of batch output tells the un-wrapping about its lines: whether a line
    starts a result set (a header), whether it starts a row, whether a header with a piece
    joined holds EXPLAIN column names, each once, and whether a row's last value (before, then
    with a piece joined) can go on with that piece."""

    starts_result: Callable[[str], bool]
    starts_row: Callable[[str], bool]
    whole_header: Callable[[str], bool]
    goes_on: Callable[[str, str], bool]


def shared_width(lines: list[str], start: int, marks: BatchMarks) -> int | None:
    """The widest line of the block from `start` to the next blank line, when two or more lines
    are that wide: the width a terminal cut them at."""
    widths = [width(lines[start])]
    for line in lines[start + 1 : start + 10_000]:
        if not line.strip() or marks.starts_result(line):
            break
        widths.append(width(line))
    widest = max(widths)
    return widest if widths.count(widest) > 1 and widest >= 40 else None


def wrap_width(lines: list[str], start: int, marks: BatchMarks) -> int | None:
    """The width a terminal wrapped tab-separated lines at, from the block from `start` to the
    next blank line or result set: the widest line (tabs up to 8-column stops, as a terminal shows
    them), when two or more lines that are that wide go on on the next line (which starts no row)."""
    end = min(len(lines), start + 10_000)
    k = min(start + 2, end)  # (the line after the header may be a piece of it)
    while k < end and lines[k].strip() and not marks.starts_result(lines[k]):
        k += 1
    widths = [shown_width(line) for line in lines[start:k]]
    widest = max(widths)
    if widest < 40:
        return None
    pieces = range(start + 1, k)
    wrapped = [at for at in pieces if widths[at - 1 - start] == widest and not marks.starts_row(lines[at])]
    return widest if len(wrapped) > 1 else None


def cut_by_terminal(line: str, terminal_width: int | None) -> bool:
    """True when `line` (tabs up to 8-column stops) ends at the terminal's width, or a usual one."""
    cut_at = shown_width(line)
    return cut_at == terminal_width or cut_at in USUAL_TERMINAL_WIDTHS


def shown_width(line: str) -> int:
    return width(expand_tabs(line)) if "\t" in line else width(line)


def to_tab_stop(text: str, tab: int) -> str:
    """`text` without its trailing spaces, padded to the next tab stop (a tab always moves on)."""
    text = text.rstrip(" ")
    return text + " " * (tab - width(text) % tab)


def unwrap_expanded_header(
    lines: list[str], start: int, terminal_width: int | None, marks: BatchMarks
) -> tuple[str, int, bool]:
    """An expanded header with the pieces a terminal cut or a mail client wrapped off it; returns
    it, the index of the line after it, and whether a mail client wrapped it."""
    header = lines[start]
    j = start + 1
    mailed = False
    while j < len(lines) and lines[j].strip() and "\t" not in lines[j]:
        # A terminal cut keeps the tab stops; a mail client broke it at a space it may have dropped.
        tries = [header + lines[j]] if cut_by_terminal(lines[j - 1], terminal_width) else []
        tries.append(to_tab_stop(header, TAB) + lines[j].lstrip(" "))
        joined = next((t for t in tries if marks.whole_header(t)), None)
        if joined is None:
            break
        mailed = mailed or joined == tries[-1]
        header = joined
        j += 1
    return header, j, mailed


def unwrap_tabbed_header(
    lines: list[str], start: int, terminal_width: int | None, marks: BatchMarks
) -> tuple[str, int]:
    """A tab-separated header with the pieces a terminal cut off it at its width (joined as they
    are: the cut inserted nothing); returns it and the index of the line after it."""
    header = lines[start]
    j = start + 1
    while j < len(lines) and lines[j].strip() and cut_by_terminal(lines[j - 1], terminal_width):
        joined = header + lines[j]
        if not marks.whole_header(joined) or marks.starts_row(lines[j]):
            break
        header = joined
        j += 1
    return header, j


def unwrap_row(
    lines: list[str], start: int, count: int, terminal_width: int | None, marks: BatchMarks
) -> tuple[str, int]:
    """A batch row with the lines wrapped off it; returns it and the index of its last line.

    A terminal cut the line at its width; a mail client broke it at a space and dropped it.
    """
    text = lines[start]
    tabs = text.count("\t")
    k = start + 1
    while k < len(lines) and lines[k].strip() and not marks.starts_result(lines[k]):
        piece = lines[k]
        more = piece.count("\t")
        if tabs + more > count - 1 or (tabs == count - 1 and (more or width(lines[k - 1]) < 40)):
            break
        if more and marks.starts_row(piece):
            break  # a row of its own after a row cut short, not the rest of a wrapped one
        # A usual terminal width alone proves little: a break after an Extra item's `;` lost its space.
        if cut_by_terminal(lines[k - 1], terminal_width) and (terminal_width or not text.endswith(";")):
            joined = text + piece
        else:
            joined = text.rstrip(" ") + " " + piece.lstrip(" ")
        if tabs == count - 1 and not marks.goes_on(text.rsplit("\t", 1)[-1], joined.rsplit("\t", 1)[-1]):
            break  # other text after a whole row, not the rest of its last value
        text = joined
        tabs += more
        k += 1
    return text, k - 1


def unwrap_expanded_row(
    lines: list[str], start: int, terminal_width: int | None, partial: Callable[[str], bool], marks: BatchMarks
) -> tuple[str, int]:
    """A row whose tabs became spaces, with the pieces a terminal cut off it (at its full width,
    so the tab stops stay in place); `partial` tells a piece from a whole row. Returns the row
    and the index of its last line."""
    text = lines[start]
    k = start + 1
    while (
        k < len(lines)
        and lines[k].strip()
        and "\t" not in lines[k]
        and cut_by_terminal(lines[k - 1], terminal_width)
        and not marks.starts_result(lines[k])
        and partial(lines[k])
        and not marks.starts_row(lines[k])
    ):
        text += lines[k]
        k += 1
    return text, k - 1
