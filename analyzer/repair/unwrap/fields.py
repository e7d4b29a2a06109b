r"""Un-wrap `\G` output (`mysql --vertical`): put back together a field's value that a terminal cut
at its width or a mail client broke at a space over several lines."""

from __future__ import annotations

from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, screen_width


def unwrap_value(text: str, first_width: int, pieces: list[str], terminal: int | None) -> str:
    """Rejoin a value wrapped over several lines (its line was `first_width` wide).

    A mail client breaks only at a space and may drop it; a terminal cuts anywhere at its width
    (`terminal`, or a usual terminal width). So where neither side of a break has a space, it is
    a terminal cut when the line before fills that width, else a dropped space.
    """
    previous_width = first_width
    for piece in pieces:
        # A value that went whole to the next line (`name:` alone): the space the mail client
        # dropped was the one after the colon.
        spaced = not text or text.endswith(" ") or piece.startswith(" ")
        # A wide character that did not fit in the last column went whole to the next line.
        reach = previous_width + (screen_width(piece[:1]) == 2)
        cut = reach == terminal or reach in USUAL_TERMINAL_WIDTHS
        text += piece if (spaced or cut) else " " + piece
        previous_width = screen_width(piece)
    return text
