"""Put back together one long line that a terminal or a mail client wrapped into pieces.

Used for output the client prints on a single line (batch-escaped JSON, `mysql --html`), where
every line break inside it is damage.
"""

from __future__ import annotations

from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, expand_tabs, width


def rejoin(pieces: list[str], margins: list[int]) -> tuple[str, int | None]:
    """The line the `pieces` came from, and the terminal width when a terminal cut it (None
    when a mail client wrapped it). `margins[k]` is the width of the quoting taken off piece k
    after the wrap: the terminal counted it. A tab counts up to the next 8-column stop, as a
    terminal shows it (every piece starts at the terminal's first column).

    A terminal cut the pieces at its width (all but the last are that wide, or lost trailing
    spaces): they join as they are, padded back to that width. A mail client broke them at a
    space and may have dropped it: one goes back.
    """
    if len(pieces) < 2:
        return "".join(pieces), None
    cut = [_shown_width(piece) + margins[k] for k, piece in enumerate(pieces[:-1])]
    widest = max(cut)
    at_edge = cut.count(widest)
    # A mail client fills a line with whole words and breaks at a space; a terminal cuts at its
    # edge, inside words and space runs alike (the piece is as wide as the others, the next one
    # starts with spaces, or its first word would have fitted on the line).
    by_terminal = 0
    for k, piece in enumerate(pieces[1:]):
        first_word = piece.split(" ", 1)[0]
        by_terminal += (
            (cut[k] == widest and at_edge > 1)
            or (piece[:1] == " " and pieces[k][-1:] != " ")
            or cut[k] + 1 + width(first_word) <= widest
        )
    terminal = by_terminal >= 0.75 * len(cut) or (len(cut) == 1 and widest in USUAL_TERMINAL_WIDTHS)
    out = [pieces[0]]
    for k, piece in enumerate(pieces[1:]):
        if terminal:
            out.append(" " * (widest - cut[k]))
        elif not (pieces[k].endswith(" ") or piece.startswith(" ")):
            out.append(" ")
        out.append(piece)
    return "".join(out), widest if terminal else None


def _shown_width(piece: str) -> int:
    return width(expand_tabs(piece)) if "\t" in piece else width(piece)


def describe(count: int, terminal_width: int | None) -> str:
    """`3 lines hard-wrapped at 80 columns`, `3 lines wrapped at word boundaries (…)`."""
    lines = f"{count} line" if count == 1 else f"{count} lines"
    if terminal_width:
        return f"{lines} hard-wrapped at {terminal_width} columns"
    return f"{lines} wrapped at word boundaries (as mail clients do)"
