"""Un-wrap the client's boxed table (`mysql -t`): put back together the lines of a `+---+` /
`| ... |` table that a terminal cut at its width or a mail client broke at a space.

The border's full width says how long every line must be, its `+` positions where each joined line
must hold ` | `: `assemble` joins a row with the pieces that follow it, searching the gaps each
break may have lost (a terminal's cut, a mail client's dropped space, the separators' columns)
until the line ends at the border's width with every `|` in place. `border_end` and `join_border`
rejoin a wrapped border; `HeaderPieces` rejoins the `|` header of a table without borders at a
width tried. `Wrapped` is what the attempts on one paste share: where wrapped borders and headers
end (scanned once) and the budgets that keep the unwrapping linear in the paste.

`Frame` (where a table's separators sit) and `Joins` (the counts of rejoined pieces, for the
reader's notices) are what the reader of the table hands in and reads back.
"""

from __future__ import annotations

import itertools
import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import cached_property

from analyzer.deadline import check_deadline
from analyzer.repair.scan import pattern, starting_lines
from analyzer.repair.textwidth import Columns, width
from analyzer.structs import dataclass

# More separators than any EXPLAIN has columns: not an EXPLAIN table.
MAX_COLUMNS = 200
# Lines the attempts to unwrap the header of a table without borders may go over in one paste
# (besides one in 64 of its lines; see `Wrapped`).
UNWRAP_LINES = 3_000
# How many breaks `_search` may try for one line, and for all the lines of a paste (besides two a
# line of the paste): a paste whose every line is a damaged row makes each search fail after
# trying every choice it has.
_SEARCH_STEPS = 300
_SEARCH_BUDGET = 20_000
# An ASCII piece this wide or less is joined to the line to see whether it lines up (`_lines_up`).
_SHORT_PIECE = 512


def is_border(line: str) -> bool:
    """True for a border line of a boxed table: `+` then `+` and `-` signs only (at least one `-`)."""
    if "+" not in line:
        return False  # most lines, told without a copy
    s = line.strip()
    return len(s) >= 2 and s[0] == "+" and "-" in s and not s.strip("+-")


def is_border_piece(line: str) -> bool:
    """True for a piece of a border a terminal cut: only `+` and `-` signs, from the first column."""
    s = line.rstrip()
    return bool(s) and s[0] in "+-" and not s.strip("+-")


@dataclass
class Frame:
    """Where the cell separators of a table sit (display columns) and how wide its lines are."""

    seps: list[int]
    total: int | None  # width of a complete line; None when unknown (border cut short)
    wrap: int | None  # width a terminal wrapped the lines at, when the border shows it
    left_open: bool = False  # no `|` before the first cell
    right_open: bool = False  # no `|` after the last cell (the line was cut, or borders lost)
    cut_edge: bool = False  # the right edge is missing because lines were cut short

    @property
    def cells(self) -> int:
        """How many cells a line of the table holds."""
        return len(self.seps) - 1 + self.left_open + self.right_open


class Joins:
    """Counts of rejoined pieces, for the notices."""

    def __init__(self) -> None:
        self.wrap: int | None = None
        self.terminal = 0  # pieces of lines a terminal cut at `wrap` columns
        self.word = 0  # pieces of lines wrapped at a space
        self.spaces = 0  # spaces put back where a wrap dropped them
        self.irregular = 0  # joins that fit neither a terminal cut nor a single dropped space


class Wrapped:
    """What the attempts to read a table at the lines of one paste share about the lines a
    terminal or a mail client may have cut into pieces (borders, and the headers of tables without
    borders): where such a line's pieces end, how many `|` or `+` signs lines hold, how many more
    lines the attempts may go over, and how many more breaks the searches for the gaps of wrapped
    rows may try (`_search`).

    Every line the pieces of a border or header go over ends it where it ends for its first line
    (a piece follows by what the last piece ends with and what the next line starts with), so one
    scan serves the attempts at all the lines it went over (for headers, at the same indentation).

    A paste reads each of its borders and headers once or twice, but one whose lines start table
    after table that each end at once (junk made of `|`, `+` and `-`) would go over the same
    pieces again and again, ten widths at a time for a header: the attempts of a paste may go over
    `UNWRAP_LINES` lines, and one in 64 of its lines, in all.
    """

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._headers: dict[int, tuple[int, int]] = {}  # per indentation: the last header scanned, (start, end)
        # Per indentation: the lines between (first, last) a header refused for its count also
        # refuses, while the header scan kept is the third item (`_refuse`).
        self._refused: dict[int, tuple[int, int, tuple[int, int]]] = {}
        self._border = (-1, -1)  # the last border scanned
        self._counts: dict[str, list[int]] = {}  # per sign: how many the lines before each line hold
        self._text = ""  # the lines joined, and where each starts in it (`_open_end`), once needed
        self._offsets: list[int] | None = None
        self._stops: list[int] | None = None  # per line, the first border or empty line from it on
        self._left = UNWRAP_LINES + len(lines) // 64
        self._steps = _SEARCH_BUDGET + 2 * len(lines)

    def spend(self, count: int) -> bool:
        """Take `count` lines from the budget; False when it was spent already."""
        left = self._left
        self._left -= count
        return left > 0

    def steps(self) -> int:
        """How many breaks the next search for a wrapped line's gaps may try (`_search`)."""
        return max(0, min(_SEARCH_STEPS, self._steps))

    def searched(self, steps: int) -> None:
        """Count the breaks a search tried."""
        self._steps -= steps

    def header_end(self, start: int, indent: int) -> int:
        """Index after the pieces of the header line `lines[start]` (see `_header_end`)."""
        if self.lines[start][indent : indent + 1] != "|":
            return start + 1  # no outer border: rows do not start with `|` either
        first, end = self._headers.get(indent, (-1, -1))
        if not first < start < end:
            end = _header_end(self.lines, start, indent, self._open_end)
            self._headers[indent] = (start, end)
        return end

    def _open_end(self, start: int) -> int:
        """Index of the first line from `lines[start]` on that is empty, a border or ends with `|`
        (where a header still open may stop: `_header_end`), or the number of lines."""
        return self.first_line(start, r"^$|\|[^\S\n]*$|^[^\S\n]*\+[+-]*-[+-]*[^\S\n]*$")

    def first_line(self, start: int, source: str) -> int:
        """Index of the first line from `lines[start]` on where the pattern `source` (see
        `analyzer.repair.scan`) finds a match, found in one search of the lines joined once; or
        the number of lines."""
        if self._offsets is None:
            self._text = "\n".join(self.lines)
            self._offsets = list(itertools.accumulate((len(line) + 1 for line in self.lines), initial=0))
        if start >= len(self.lines):
            return len(self.lines)
        found = pattern(source).search(self._text, self._offsets[start])
        return len(self.lines) if found is None else bisect_right(self._offsets, found.start()) - 1

    def border_end(self, start: int) -> int:
        """Index after the pieces of the border line `lines[start]` (see `border_end`)."""
        first, end = self._border
        if not first < start < end:
            end = border_end(self.lines, start)
            self._border = (start, end)
        return end

    def refuses_header(self, start: int, indent: int) -> bool:
        """Whether the `|` header at `lines[start]`, without a border under it, is no table's: it
        holds more separators than any EXPLAIN has columns (its pieces counted: `header_end`), or
        it is wrapped and the budget of lines for unwrapping headers is spent."""
        if self.refused_again(start, indent):
            return True
        if self.border_below(start, indent) is not None:
            return False
        end = self.header_end(start, indent)
        if self.count("|", start, end) > MAX_COLUMNS:
            # So do its later lines while the signs from them to the end are more than the limit.
            counts = self._counts["|"]
            self._refuse(start, end, indent, bisect_left(counts, counts[end] - MAX_COLUMNS, start, end))
            return True
        if end > start + 1 and self._left <= 0:
            self._refuse(start, end, indent, end - 1)  # the budget is never given back
            return True
        return False

    def refused_again(self, start: int, indent: int) -> bool:
        """Whether the line `lines[start]`, indented by `indent`, is a later `|` line of a header
        refused for its count of `|`, and so refused too (see `_refuse`)."""
        refused = self._refused.get(indent)
        return (
            refused is not None
            and refused[0] < start < refused[1]
            and self._headers.get(indent) == refused[2]
            and self.lines[start][indent : indent + 1] == "|"
        )

    def _refuse(self, start: int, end: int, indent: int, last: int) -> None:
        """Note that the `|` lines after `start` and before `last`, at the same indentation, are
        refused as the header `lines[start]` (ending at `end`) was: each is a header with the same
        end (`header_end`, while that scan is the one kept), refused for the same reason up to `last`.
        None of those pieces is a border, so a border under one is at `end` or later: the lines
        more than eleven lines before it have none (`border_below`)."""
        scan = self._headers.get(indent)
        if scan is None or scan[1] != end:
            return  # not a scan kept (a line without `|` at the indentation is its own header)
        border = next((k for k in range(end, min(len(self.lines), end + 11)) if is_border(self.lines[k])), None)
        if border is not None:
            last = min(last, border - 11)
        self._refused[indent] = (start, last, scan)

    def border_below(self, start: int, indent: int) -> int | None:
        """Index of the border under a header line starting at `lines[start]` (within its wrapped
        pieces, eleven lines at most), at the same indentation; None if the table has no borders."""
        if self._stops is None:
            self._stops = _stops(self.lines)
        k = self._stops[start + 1]
        if k >= min(len(self.lines), start + 12) or not is_border(self.lines[k]):
            return None
        line = self.lines[k]
        return k if len(line) - len(line.lstrip()) == indent else None

    def count(self, sign: str, start: int, end: int) -> int:
        """How many `sign`s `lines[start:end]` hold."""
        if sign not in self._counts:
            self._counts[sign] = list(itertools.accumulate((line.count(sign) for line in self.lines), initial=0))
        return self._counts[sign][end] - self._counts[sign][start]


def _stops(lines: list[str]) -> list[int]:
    """Per line (and one past the last), the index of the first border or empty line from it on,
    or the number of lines when none follows."""
    stops = [len(lines)] * (len(lines) + 1)
    # The blank lines and the borders (`is_border`), found in one search.
    after = 0
    for k in starting_lines(lines, r"[^\S\n]*(?:\+[+-]*-[+-]*[^\S\n]*)?$"):
        stops[after : k + 1] = [k] * (k + 1 - after)
        after = k + 1
    return stops


def _header_end(lines: list[str], start: int, indent: int, open_end: Callable[[int], int] | None = None) -> int:
    """Index after the pieces a terminal or a mail client cut off the `|` header line
    `lines[start]`: a piece follows while the header has not reached its closing `|` or the next
    line does not start with one; an empty line or a border ends it, and so does a line of spaces
    after the closing `|`. `open_end(k)` finds the first line from k on where an open header may
    stop (`Wrapped._open_end`): the lines before it go on with it."""
    closed = lines[start].rstrip().endswith("|")
    k = start + 1
    while k < len(lines):
        if not closed and open_end is not None:
            k = open_end(k)  # every line before it goes on with the open header, and leaves it open
            if k >= len(lines):
                break
        line = lines[k]
        if not (line.strip() or (line and not closed)) or (closed and line[indent : indent + 1] == "|"):
            break
        if is_border(line):
            break
        if line.strip():
            closed = line.rstrip().endswith("|")
        k += 1
    return k


class HeaderPieces:
    """The `|` header line `lines[start]` with the pieces up to `end` (`_header_end`) a terminal or
    a mail client cut off it, measured once for all the widths tried."""

    def __init__(self, lines: list[str], start: int, end: int) -> None:
        self.first = lines[start]
        self.rest = lines[start + 1 : end]
        self.first_width = width(self.first.rstrip())
        # Without their trailing spaces; pieces of spaces lose them before the next piece anyway.
        self.pieces = [(piece, width(piece)) for line in self.rest if (piece := line.rstrip())]
        widths = [piece_width for _, piece_width in self.pieces]
        self.widest = max(widths, default=0)
        self.narrowest = min(widths, default=1)
        # Per piece, five times the width of the text up to its end less its own width (`frame`).
        texts = itertools.accumulate(widths, initial=self.first_width)
        next(texts)
        self.limits = list(map(operator.sub, map((5).__mul__, texts), widths))
        # The pieces holding a `|` (numbered from 1), with the columns of their `|` signs.
        self.bars = [(n, bar_columns(piece)) for n, (piece, _) in enumerate(self.pieces, 1) if "|" in piece]

    def frame(self, wrap: int | None, indent: int, mail_gap: int = 1) -> Frame | None:
        """The frame of the header `unwrapped` at `wrap`; None where it was not wrapped at that
        width, or a `|` in it lacks the spaces around it (the pieces were joined at the wrong width).

        Where every piece of a terminal's cut fits in `wrap` columns, piece n starts at column
        n * wrap: the frame comes from the pieces holding a `|`, without joining them all."""
        first = self.first.rstrip()
        if wrap is None or max(self.first_width, self.widest) > wrap or self.narrowest < 1 or indent >= len(first):
            header = self.unwrapped(wrap, mail_gap)
            if header is None:
                return None
            frame = header_frame(header, indent)
            return frame if frame is not None and aligned(header, 0, frame.seps) else None
        count = len(self.pieces)
        # Too many spaces put back (`unwrapped`): after piece n, n * wrap + its width less the text
        # so far is over four times the text and a wrap.
        if any(map(operator.gt, range(-3 * wrap, (count - 3) * wrap, wrap), self.limits)):
            return None
        seps = bar_columns(first) + [n * wrap + column for n, columns in self.bars for column in columns]
        if not seps:
            return None
        last, last_width = self.pieces[-1] if count else (first, self.first_width)
        end = count * wrap + last_width if count else last_width
        if not in_place(self._char_at(wrap), end, 0, seps):
            return None
        right_open = not last.endswith("|")
        return Frame(seps, None if right_open else end, None, left_open=first[indent] != "|", right_open=right_open)

    def _char_at(self, wrap: int) -> Callable[[int], str | None]:
        """The character at a column of the header unwrapped at `wrap`, every piece fitting in it
        (None in the second column of a wide one)."""
        first = (self.first.rstrip(), self.first_width)

        def char_at(column: int) -> str | None:
            n, at = divmod(column, wrap)
            text, text_width = self.pieces[n - 1] if n else first
            if at >= text_width:
                return " "
            return text[at] if text.isascii() else Columns(text).char(at)

        return char_at

    def unwrapped(self, wrap: int | None, mail_gap: int = 1) -> str | None:
        """The header with its pieces put back. A terminal cut them at `wrap` columns and dropped
        the spaces at their ends, which go back up to the next multiple of `wrap`; a mail client
        cut them at a space (when `wrap` is None), and `mail_gap` spaces go back.

        None where the spaces put back would come to more than four times the text and a wrap: the
        pieces were not cut at that width (a long line followed by short ones, each padded to it)."""
        if wrap is None:
            gap = " " * mail_gap
            return (self.first + "".join(gap + line for line in self.rest)).rstrip()
        parts = [self.first.rstrip()]
        used = text = self.first_width
        for piece, piece_width in self.pieces:
            pad = -used % wrap
            used += pad + piece_width
            text += piece_width
            if used - text > 4 * (text + wrap):
                return None
            parts.append(" " * pad + piece)
        return "".join(parts)


def header_frame(header: str, indent: int) -> Frame | None:
    s = header.rstrip()
    seps = bar_columns(s)
    if not seps:
        return None
    left_open = s[indent] != "|"
    right_open = not s.endswith("|")
    total = None if right_open else width(s)
    return Frame(seps, total, None, left_open=left_open, right_open=right_open)


def bar_columns(text: str) -> list[int]:
    """The display columns of the `|` signs in `text`."""
    columns = Columns(text)
    found: list[int] = []
    index = text.find("|")
    while index != -1:
        found.append(columns.column(index))
        index = text.find("|", index + 1)
    return found


def border_end(lines: list[str], start: int) -> int:
    """Index after the pieces a terminal wrapped the border line `lines[start]` into: a piece (a
    line of `+` and `-`) that starts with `-` always continues it; after a complete border (one
    ending with `+`), a `+` starts the next one."""
    closed = lines[start].rstrip().endswith("+")
    j = start + 1
    while j < len(lines) and is_border_piece(lines[j]) and (not closed or lines[j][0] == "-"):
        closed = lines[j].rstrip().endswith("+")
        j += 1
    return j


def join_border(lines: list[str], start: int, end: int, joins: Joins) -> str:
    """The border line `lines[start]` with its pieces up to `end` (`border_end`), counted in `joins`."""
    pieces = [line.rstrip() for line in lines[start:end]]
    if len(pieces) > 1 and joins.wrap is None:
        joins.wrap = width(pieces[0])
    joins.terminal += len(pieces) - 1
    return "".join(pieces)


def assemble(
    lines: list[str], start: int, frame: Frame, joins: Joins, margins: list[int], wrapped: Wrapped
) -> tuple[str, int]:
    """A table line with the wrapped pieces that follow it; the index after the last piece.

    At each break several gaps may fit (a terminal's cut, a mail client's dropped space, the
    separators' columns); a piece without a separator cannot tell them apart, so the choices are
    searched until the line ends exactly at the border's width with its `|` in place (a few
    hundred steps at most, and fewer once the paste's searches have taken their share: see
    `Wrapped.steps`). A line that cannot be completed that way takes the first choice at each
    break and is reported as damaged by the caller.

    `margins[k]` is how many columns of quoting were taken off line k: a terminal filled the
    line to its width with them, so a piece plus its margin is the wrap width.
    """
    total = frame.total
    if total is None:
        return lines[start], start + 1
    pieces = _Pieces(lines, frame, margins, start)
    found = _search(pieces, total, wrapped) or _first_fits(pieces, total)
    text, j, gaps = found
    for gap, pad, count in gaps:
        if gap in pad:
            joins.terminal += count
        else:
            joins.word += count
            joins.spaces += gap
            joins.irregular += bool(pad) or gap != 1
    return text, j


# A gap chosen at a break: its spaces, the gaps a terminal wrap implied there, and the lines it joined.
_Gap = tuple[int, tuple[int, ...], int]


class _Piece:
    """A piece of a wrapped table line (line `k`, without its trailing spaces) and what the search
    asks of it at every gap it tries: whether it is ASCII, its width, the column of its first
    separator, and (looked up only for pieces too long or not ASCII) its columns."""

    def __init__(self, k: int, text: str) -> None:
        self.k = k
        self.text = text
        self.ascii = text.isascii()
        self.width = len(text) if self.ascii else width(text)
        self.bar = _first_separator(text)

    @cached_property
    def columns(self) -> Columns:
        return Columns(self.text)


class _Pieces:
    """The pieces that may follow the table line `lines[start]`, each measured once however many
    ways of joining them the search tries."""

    def __init__(self, lines: list[str], frame: Frame, margins: list[int], start: int) -> None:
        self.lines = lines
        self.frame = frame
        self.margins = margins
        self.first = _Piece(start, lines[start].rstrip())
        self._made: dict[int, _Piece] = {}

    def after(self, last: _Piece, used: int, j: int) -> tuple[_Piece, tuple[int, ...], bool] | None:
        """The piece that follows `last` from line `j` on (past pieces that were only spaces, which
        show up as blank lines), the gaps a terminal wrap implies before it (the line so far is
        `used` columns wide) and whether blank lines came between; None at a border or the end."""
        lines, margins, wrap = self.lines, self.margins, self.frame.wrap
        k = j
        while k < len(lines) and not lines[k].strip() and k - j < 50:
            k += 1
        if k == len(lines) or is_border(lines[k]):
            return None
        pads: tuple[int, ...] = ()
        if wrap:
            blank = sum(wrap - margins[b] for b in range(j, k))
            # The piece's own width (a terminal cut it), or the terminal's edge (a mail client cut it again).
            pads = (wrap - margins[last.k] - last.width + blank, (-used) % wrap + blank)
        if k not in self._made:
            self._made[k] = _Piece(k, lines[k].rstrip())
        return self._made[k], pads, k > j


@dataclass
class _Break:
    """A break between pieces the search went past: the line before it (`used` columns wide,
    ending with `tail`), the first line looked at for the piece after it (`j`), that piece, the
    gaps a terminal wrap implies there (`pads`), the gaps that may have been lost there, most
    likely first (`_candidates`), how many of them were tried, and the one taken, which lines the
    piece up with the separators `seps`."""

    used: int
    tail: str
    j: int
    piece: _Piece
    pads: tuple[int, ...]
    candidates: list[int]
    seps: list[int]
    tried: int = 0
    taken: int = 0

    def take_next(self) -> bool:
        """Take the next gap that lines the piece up; False when none is left."""
        while self.tried < len(self.candidates):
            self.taken = self.candidates[self.tried]
            self.tried += 1
            if _lines_up(self.tail, self.used, self.taken, self.piece, self.seps):
                return True
        return False

    def joined(self) -> tuple[int, str]:
        """The width of the line with the piece joined at the gap taken, and its last two characters."""
        return self.used + self.taken + self.piece.width, _tail(self.tail, self.taken, self.piece)

    def gap(self) -> _Gap:
        return self.taken, self.pads, 1 + self.piece.k - self.j


def _tail(tail: str, gap: int, piece: _Piece) -> str:
    """The last two characters of a line ending with `tail` once `piece` is joined to it by `gap` spaces."""
    return (tail + " " * gap + piece.text[-2:])[-2:]


def _search(pieces: _Pieces, total: int, wrapped: Wrapped) -> tuple[str, int, list[_Gap]] | None:
    """Extend the first line of `pieces` with the pieces that follow until it is `total` columns
    wide, trying the gaps that fit at each break, most likely first, and going back to the last
    break with another gap left where a choice leads nowhere.

    Returns the line, the index after it and the gaps chosen, or None when no choice of gaps
    reaches the border's width within the breaks `wrapped` allows.
    """
    path: list[_Break] = []
    last, used, tail = pieces.first, pieces.first.width, pieces.first.text[-2:]
    steps = allowed = wrapped.steps()
    while True:
        check_deadline()
        j = last.k + 1
        if used >= total or j >= len(pieces.lines):
            if used == total:
                wrapped.searched(allowed - max(steps, 0))
                text = pieces.first.text + "".join(" " * b.taken + b.piece.text for b in path)
                return text, j, [b.gap() for b in path]
        elif (steps := steps - 1) >= 0 and (found := pieces.after(last, used, j)) is not None:
            piece, pads, blanks = found
            candidates = _candidates(used, piece, pieces.frame, total, pads, blanks)
            path.append(_Break(used, tail, j, piece, pads, candidates, pieces.frame.seps))
        while path and not path[-1].take_next():
            path.pop()
        if not path:
            wrapped.searched(allowed - max(steps, 0))
            return None
        last = path[-1].piece
        used, tail = path[-1].joined()


def _first_fits(pieces: _Pieces, total: int) -> tuple[str, int, list[_Gap]]:
    """Extend the first line of `pieces` like `_search`, but with the first gap that fits at each
    break, stopping where none fits."""
    last = pieces.first
    parts = [last.text]
    used, tail, j = last.width, last.text[-2:], last.k + 1
    chosen: list[_Gap] = []
    while used < total and j < len(pieces.lines):
        check_deadline()
        found = pieces.after(last, used, j)
        if found is None:
            break
        piece, pads, blanks = found
        for gap in _candidates(used, piece, pieces.frame, total, pads, blanks):
            if _lines_up(tail, used, gap, piece, pieces.frame.seps):
                break
        else:
            break
        parts.append(" " * gap + piece.text)
        used += gap + piece.width
        tail = _tail(tail, gap, piece)
        chosen.append((gap, pads, 1 + piece.k - j))
        last, j = piece, piece.k + 1
    return "".join(parts), j, chosen


def _candidates(used: int, piece: _Piece, frame: Frame, total: int, pads: tuple[int, ...], blanks: bool) -> list[int]:
    """The gaps that could have been lost between a line `used` columns wide and the wrapped
    `piece`, most likely first, each leaving the line within `total` columns; those that also
    leave every separator column in place (`_lines_up`) fit.

    `pads` are the gaps a terminal wrap implies; `blanks` says blank lines (pieces of spaces) came between.
    """
    limit = total - used - piece.width
    if limit < 0:
        return []
    candidates = list(pads)
    if piece.bar is not None:
        at = bisect_left(frame.seps, used + piece.bar)
        if at < len(frame.seps):
            candidates.append(frame.seps[at] - used - piece.bar)
    if not blanks:
        candidates += [0, 1] if piece.text[0] == " " else [1, 0]
    return list(dict.fromkeys(gap for gap in candidates if 0 <= gap <= limit))


def _lines_up(tail: str, used: int, gap: int, piece: _Piece, seps: list[int]) -> bool:
    """`aligned` of a line `used` columns wide that ends with `tail` (two characters), joined to
    `piece` by `gap` spaces, from column `used - 1` on, without joining them (but for a short
    ASCII piece, whose join costs less than looking its characters up one by one)."""
    at = bisect_left(seps, used - 1)
    if at == len(seps) or seps[at] >= used + gap + piece.width:
        return True  # no separator column from `used - 1` to the end of the piece
    if piece.ascii and tail.isascii() and piece.width <= _SHORT_PIECE:
        return _aligned_ascii(tail + " " * gap + piece.text, used, seps, used - len(tail))
    tail_columns = Columns(tail)
    tail_at = used - tail_columns.width
    piece_at = used + gap

    def char_at(column: int) -> str | None:
        if column >= piece_at:
            return piece.columns.char(column - piece_at)
        return " " if column >= used else tail_columns.char(column - tail_at)

    return in_place(char_at, piece_at + piece.width, used, seps)


def _first_separator(piece: str) -> int | None:
    """Display column of the first `|` in `piece` that looks like a cell border (spaces around it)."""
    index = piece.find("|")
    while index != -1:
        before = index == 0 or piece[index - 1] == " "
        after = index == len(piece) - 1 or piece[index + 1] == " "
        if before and after:
            return width(piece[:index])
        index = piece.find("|", index + 1)
    return None


def aligned(text: str, since: int, seps: list[int]) -> bool:
    """True when every separator column from `since - 1` on holds a `|` with spaces around it."""
    if text.isascii():
        return _aligned_ascii(text, since, seps)
    columns = Columns(text)
    return in_place(columns.char, columns.width, since, seps)


def in_place(char_at: Callable[[int], str | None], end: int, since: int, seps: list[int]) -> bool:
    """`aligned` of a line `end` columns wide whose character at a column is `char_at(column)`
    (None in the second column of a wide one)."""
    first, last = seps[0], seps[-1]
    for p in seps[bisect_left(seps, since - 1) :]:
        if p >= end:
            break
        if char_at(p) != "|" or (p > first and char_at(p - 1) != " "):
            return False
        if p < last and p + 1 < end and char_at(p + 1) != " ":
            return False
    return True


def _aligned_ascii(text: str, since: int, seps: list[int], offset: int = 0) -> bool:
    """`aligned` for ASCII text, where columns are string indexes (from `offset`, the column of `text[0]`)."""
    end = offset + len(text)
    first, last = seps[0], seps[-1]
    for p in seps[bisect_left(seps, since - 1) :]:
        if p >= end:
            break
        i = p - offset
        if text[i] != "|" or (p > first and text[i - 1] != " ") or (p < last and p + 1 < end and text[i + 1] != " "):
            return False
    return True
