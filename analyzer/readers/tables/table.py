"""The client's boxed table (`mysql -t`, interactive mode), also without its borders.

Cells are cut at the display columns of the border's `+` signs, never on every `|`: MariaDB
prints `ref|filter` and `idx_a|idx_b` inside cells, and pads CJK text by display width.

Wrapped lines are rejoined using the border: its full width says how long every line must
be, its `+` positions say where each joined line must hold ` | `. A terminal wraps at a fixed
width and may drop the trailing spaces of each piece; a mail client wraps at a space and may
drop that space. Lines that stay short of the border width (or a border without its closing
`+`) mean the paste was cut: the cut cell keeps its visible start followed by `CUT` (`…`),
missing cells are `CUT` alone, and the rows are reported as truncated.

Without a first border (a partial selection) the border under the header is the frame;
without any border the header's `|` signs are (its wrap width found by trying); a table
whose spaces were collapsed, or a markdown table, is split at the `|` signs that have a
space beside them.
"""

from __future__ import annotations

import itertools
import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import cached_property

from analyzer.deadline import check_deadline
from analyzer.readers.resultset import CUT, ResultSet, is_explain_header, unique_names, value
from analyzer.repair.scan import pattern, starting_lines
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, Columns, width
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

BOX_DRAWING = str.maketrans(
    {
        **dict.fromkeys("┌┬┐├┼┤└┴┘╔╦╗╠╬╣╚╩╝╒╤╕╞╪╡╘╧╛╓╥╖╟╫╢╙╨╜┏┳┓┣╋┫┗┻┛", "+"),
        **dict.fromkeys("─═━", "-"),
        **dict.fromkeys("│║┃", "|"),
    }
)


# How a remark after a row may start (`<derived2>` and other cells do not).
_REMARK_MARKS = ("<-", "<=", "--", "#", "//", "^", "\u2190", "\u21d0")

# More separators than any EXPLAIN has columns: not an EXPLAIN table.
MAX_COLUMNS = 200
# Lines the attempts to unwrap the header of a table without borders may go over in one paste
# (besides one in 64 of its lines; see `Wrapped`).
_UNWRAP_LINES = 3_000
# How many breaks `_search` may try for one line, and for all the lines of a paste (besides two a
# line of the paste): a paste whose every line is a damaged row makes each search fail after
# trying every choice it has.
_SEARCH_STEPS = 300
_SEARCH_BUDGET = 20_000
# An ASCII piece this wide or less is joined to the line to see whether it lines up (`_lines_up`).
_SHORT_PIECE = 512


def has_box_drawing(lines: list[str]) -> bool:
    if "".join(lines).isascii():
        return False
    return any(line.lstrip()[:1] in "┌├└╔╠╚╒╞╘╓╟╙┏┣┗│║┃" and line.strip() for line in lines)


def is_border(line: str) -> bool:
    if "+" not in line:
        return False  # most lines, told without a copy
    s = line.strip()
    return len(s) >= 2 and s[0] == "+" and "-" in s and not s.strip("+-")


def _is_border_piece(line: str) -> bool:
    s = line.rstrip()
    return bool(s) and s[0] in "+-" and not s.strip("+-")


def _is_markdown_rule(line: str) -> bool:
    s = line.strip()
    return len(s) >= 3 and "-" in s and not s.strip("|-: ")


@dataclass
class _Frame:
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


class _Joins:
    """Counts of rejoined pieces, for the notices."""

    def __init__(self) -> None:
        self.wrap: int | None = None
        self.terminal = 0  # pieces of lines a terminal cut at `wrap` columns
        self.word = 0  # pieces of lines wrapped at a space
        self.spaces = 0  # spaces put back where a wrap dropped them
        self.irregular = 0  # joins that fit neither a terminal cut nor a single dropped space


def starts_table(lines: list[str], i: int) -> bool:
    line = lines[i]
    s = line.lstrip()
    if is_border(line):
        return True
    if s.startswith("|"):
        return True
    return line.count(" | ") >= 4 and is_explain_header([c.strip().lower() for c in line.split("|")])


@dataclass
class _Table:
    """What the steps of `parse_table` share while they read one table."""

    lines: list[str]  # a copy once a remark was taken off a row (see `_take_off_remark`)
    numbers: list[int]
    start: int
    margins: list[int]
    indent: int
    top: bool  # the table starts with its top border
    borders: int  # borders read so far: top, under the header, bottom
    wrapped: Wrapped  # shared by the tables of the paste
    joins: _Joins = field(default_factory=_Joins)
    notices: list[str] = field(default_factory=list)
    # The logical lines read (each with the index of its first piece), in sections between borders.
    sections: list[list[tuple[str, int]]] = field(default_factory=lambda: [[]])
    copied: bool = False  # `lines` is a copy of the caller's list
    squeezed: bool | None = None  # the first line does not line up with the border: spaces were collapsed
    markdown: bool = False  # a `|---|---|` rule under the header: a Markdown table
    collapsed: bool = False  # the header does not line up with the border either: spaces were collapsed
    loose: int = 0  # lines split at their `|` signs instead of the border's columns
    overflows: list[int] = field(default_factory=list)  # numbers of the rows whose last cell runs past the border
    skipped: list[int] = field(default_factory=list)  # indexes of the remarks' lines
    rules: int = 0  # borders printed between rows (a border after every row)


def parse_table(
    lines: list[str],
    numbers: list[int],
    start: int,
    margins: list[int] | None = None,
    wrapped: Wrapped | None = None,
) -> tuple[ResultSet | None, int]:
    """Read the table starting at `lines[start]`; return it (or None) and the index after it.

    `margins` holds, per line, the width of the quoting the cleanup removed (see `_assemble`);
    `wrapped` is shared by the calls on the same `lines` (see `Wrapped`).
    """
    first = lines[start]
    top = is_border(first)
    if top and start and _is_border_piece(lines[start - 1]) and not is_border(lines[start - 1]):
        return None, start + 1  # the rest of a first border that was only partly selected
    indent = len(first) - len(first.lstrip())
    wrapped = wrapped or Wrapped(lines)
    if not top and wrapped.refuses_header(start, indent):
        return None, start + 1
    table = _Table(lines, numbers, start, margins or [0] * len(lines), indent, top, int(top), wrapped)
    found = _find_frame(table)
    if found is None or len(found[0].seps) > MAX_COLUMNS:
        return None, start + 1
    frame, j = found
    if frame.cells < 1:
        return _without_cells(table, j)
    if frame.cells == 1:
        return _one_column(table, j)
    j = _gather(table, frame, j)
    physical = [item for section in table.sections for item in section]
    if not physical:
        return None, max(j, start + 1)
    return _result(table, frame, physical), j


def _find_frame(table: _Table) -> tuple[_Frame, int] | None:
    """The table's frame and the index of its header line (after the top border, if any): the frame
    is drawn by the top border, else by the border under the header, else by the header's `|` signs."""
    lines, start = table.lines, table.start
    if table.top:
        return _border_frame(table, start, table.joins)
    below = table.wrapped.border_below(start, table.indent)
    if below is not None:
        # A table whose first border was lost (or only partly selected) takes the one below the header.
        found = _border_frame(table, below, _Joins())
        return None if found is None else (found[0], start)
    frame = _borderless_wrapped_frame(lines, start, table.indent, table.margins, table.wrapped)
    if frame is None:
        return None
    table.notices.append(
        f"The table starting on line {table.numbers[start]} has no '+---+' borders; read it by its '|' lines."
    )
    return frame, start


def _border_frame(table: _Table, at: int, joins: _Joins) -> tuple[_Frame, int] | None:
    """The frame of the border at `lines[at]` (with the pieces a terminal wrapped it into) and the
    index after it; None for a border with more separators than any EXPLAIN has columns, or a
    wrapped one once the paste's attempts have used up their budget of lines (`Wrapped`)."""
    wrapped = table.wrapped
    j = wrapped.border_end(at)
    if wrapped.count("+", at, j) > MAX_COLUMNS or (j > at + 1 and not wrapped.spend(j - at)):
        return None
    border = _join_border(table.lines, at, j, joins)
    closed = border.endswith("+")
    seps = [k for k, c in enumerate(border) if c == "+"]
    wrap = width(table.lines[at].rstrip()) + table.margins[at] if j - at > 1 else None
    if not closed:
        table.notices.append(
            f"The table border on line {table.numbers[at]} stops at column {width(border)} without its closing '+': "
            "the lines were truncated."
        )
    return _Frame(seps, width(border) if closed else None, wrap, right_open=not closed, cut_edge=not closed), j


def _without_cells(table: _Table, j: int) -> tuple[ResultSet, int]:
    """Lines of bare `|` and borders without a cell: nothing to read, skip them in one go."""
    lines = table.lines
    if lines is table.wrapped.lines:
        # The first line that is blank, or holds more than `|`, `+` and `-` between its blanks.
        j = max(j, table.wrapped.first_line(j, r"^[^\S\n]*+(?:$|[|+-]*+(?:[^|+\-\s]|[^\S\n]+\S))"))
    while j < len(lines) and lines[j].strip() and not lines[j].strip().strip("|+-"):
        j += 1
    return ResultSet("table", [], [], table.numbers[table.start], notices=table.notices), max(j, table.start + 1)


def _one_column(table: _Table, j: int) -> tuple[ResultSet, int]:
    """One column is no EXPLAIN table (a one-cell JSON or tree plan has its own reader): keep the
    header's name for the error message and skip the rest in one go."""
    lines, n = table.lines, len(table.lines)
    k = next((k for k in range(j, min(n, j + 3)) if not is_border(lines[k])), j)
    name = lines[k].strip().strip("|").strip().lower() if k < n else ""
    while j < n and lines[j].strip():
        j += 1
    return ResultSet("table", [name], [], table.numbers[table.start], notices=table.notices), max(j, table.start + 1)


def _gather(table: _Table, frame: _Frame, j: int) -> int:
    """Collect the table's logical lines from `lines[j]` into `table.sections` (a new section
    after each border or Markdown rule); return the index after the table."""
    while j < len(table.lines):
        s = table.lines[j].rstrip()
        if not s.strip():
            resume = _after_gap(table, frame, j)
            if resume is None:
                break
            j = resume
        elif len(s) - len(s.lstrip()) != table.indent and not frame.left_open:
            break
        elif is_border(s):
            j, goes_on = _read_border(table, frame, j)
            if not goes_on:
                break
        elif table.borders and (cut := _glued_border_end(s, frame, table.indent)) is not None:
            _take_off_glued_text(table, j, s, cut)
            j, _ = _read_border(table, frame, j)
            break
        elif table.borders == 0 and _is_markdown_rule(s):
            if table.sections[-1]:
                table.sections.append([])
            table.markdown = True
            j += 1
        elif (s.lstrip()[0] != "|" and not frame.left_open) or (frame.left_open and "|" not in s):
            break
        else:
            j = _read_row(table, frame, j, s)
    return j


def _after_gap(table: _Table, frame: _Frame, j: int) -> int | None:
    """Where the table goes on after the empty `lines[j]`; None where it ends there."""
    lines, sections = table.lines, table.sections
    if table.borders == 0 and len(sections) == 1 and len(sections[0]) == 1 and _row_after_gap(lines, j, table.indent):
        # One empty line between the header and the only row (a double-spaced paste).
        table.notices.append(f"Skipped the empty line between the header and the first row (line {table.numbers[j]}).")
        return j + 1
    if table.borders != 2 or len(sections) != 2 or not sections[-1]:
        return None
    resume = _resume_after_remark(lines, j, frame, table.indent)
    if resume is None:
        return None
    # A reply's comment typed between two rows: the table goes on after it.
    remark = [table.numbers[k] for k in range(j, resume) if lines[k].strip()]
    table.skipped += range(j, resume)
    table.notices.append(
        f"Ignored {plural(len(remark), 'line')} of other text inside the table ({describe_lines(remark)})."
    )
    return resume


def _read_border(table: _Table, frame: _Frame, j: int) -> tuple[int, bool]:
    """Take in the border at `lines[j]`; return the index to go on from and whether the table goes on."""
    k = _border_end(table.lines, j)
    border = _join_border(table.lines, j, k, table.joins)
    if frame.total is not None and width(border) != frame.total:
        return j, False
    sections = table.sections
    if table.borders and not sections[-1] and (len(sections) == 1 or table.borders == 2):
        # The same border twice in a row (a terminal repeated a line while scrolling).
        table.notices.append(f"Skipped a border line repeated right after itself (line {table.numbers[k - 1]}).")
        return k, True
    table.borders += 1
    if table.borders >= 3 and sections[-1]:
        if not _row_follows(table, frame, k):
            return k, False
        table.rules += 1
    if sections[-1]:
        sections.append([])
    return k, True


def _row_follows(table: _Table, frame: _Frame, k: int) -> bool:
    """Whether a row of the table follows the border ending before `lines[k]`: a line at the
    table's indentation whose `|` signs stand at the border's columns, which is not its header
    again. Some programs print a border after every row, not just under the header."""
    if k >= len(table.lines) or frame.total is None or not table.sections[0]:
        return False
    line = table.lines[k].rstrip()
    if line[table.indent : table.indent + 1] != "|" or width(line) != frame.total or not _aligned(line, 0, frame.seps):
        return False
    return _cells(line) != _cells(table.sections[0][0][0])


def _cells(text: str) -> list[str]:
    return [cell.strip().lower() for cell in text.strip().strip("|").split("|")]


def _read_row(table: _Table, frame: _Frame, j: int, s: str) -> int:
    """Take in the row at `lines[j]` (`s`, without trailing spaces) with its wrapped pieces; return the index after it."""
    cut = _remark_start(s, frame)
    if cut is not None:
        _take_off_remark(table, j, s, cut)
    row_text, k = _assemble(table.lines, j, frame, table.joins, table.margins, table.wrapped)
    if table.squeezed is None:
        table.squeezed = (
            frame.total is not None and not _aligned(row_text, 0, frame.seps) and _overflowing(row_text, frame) is None
        )
    if table.squeezed:
        row_text, k = _join_squeezed(table, frame, row_text, k)
    table.sections[-1].append((row_text, j))
    return k


def _take_off_remark(table: _Table, j: int, s: str, cut: int) -> None:
    """Drop a remark typed after the row's closing `|` (at `s[cut:]`) from `lines[j]`, in a copy of the lines."""
    table.notices.append(
        f"Ignored the text after the table's right border on line {table.numbers[j]} ('{s[cut:].strip()[:40]}')."
    )
    if not table.copied:
        table.lines = list(table.lines)
        table.copied = True
    table.lines[j] = s[:cut]


def _overflowing(text: str, frame: _Frame) -> list[str] | None:
    """The cells of a row whose last cell runs past the right border (longer than the border's
    column) but ends with the row's closing `|`: every separator but the last is in place, and no
    `|` with a space beside it comes between the last one and the closing `|`. None otherwise."""
    total, seps = frame.total, frame.seps
    s = text.rstrip()
    if total is None or frame.left_open or len(seps) < 2 or not s.endswith("|") or width(s) <= total:
        return None
    columns = Columns(s)
    if not _in_place(columns.char, seps[-1], 0, seps[:-1]):
        return None
    last = s[columns.index(seps[-2]) + 1 : -1]
    if " |" in last or "| " in last or last[:1] != " " or last[-1:] != " ":
        return None
    return [s[columns.index(a) + 1 : columns.index(b)].strip() for a, b in itertools.pairwise(seps[:-1])] + [
        last.strip()
    ]


def _glued_border_end(line: str, frame: _Frame, indent: int) -> int | None:
    """Where a border that other text was glued to (its line break lost) ends in `line`: its run of
    `+` and `-` from the table's indentation is exactly the table's width, with every `+` at a
    column of the frame's, and text that is neither `+` nor `-` follows. None otherwise."""
    end = frame.total
    if end is None or frame.left_open or line[indent : indent + 1] != "+" or len(line) <= end or line[end] in "+-":
        return None
    border = line[indent:end]
    if not border.isascii() or border.strip("+-") or not border.endswith("+"):
        return None
    return end if [k for k, char in enumerate(line[:end]) if char == "+"] == frame.seps else None


def _take_off_glued_text(table: _Table, j: int, s: str, cut: int) -> None:
    """Part the border at `lines[j]` (`s`) from the text glued after it at `s[cut:]`, in a copy of the lines."""
    table.notices.append(
        f"Ignored the text glued after the table's border on line {table.numbers[j]} ('{s[cut:].strip()[:40]}')."
    )
    if not table.copied:
        table.lines = list(table.lines)
        table.copied = True
    table.lines[j] = s[:cut]


def _join_squeezed(table: _Table, frame: _Frame, row_text: str, k: int) -> tuple[str, int]:
    """Rejoin a row whose spaces were collapsed, so the border cannot guide the rejoining: a line
    continues while it holds fewer cells than the border has columns (at the space a mail client
    dropped). Returns the row and the index after it."""
    lines = table.lines
    while k < len(lines) and lines[k].strip() and not is_border(lines[k]):
        cells = _loose_cells(row_text, frame)
        if cells is not None and len(cells) >= len(frame.seps) - 1:
            break
        row_text = row_text.rstrip() + " " + lines[k].strip()
        table.joins.word += 1
        k += 1
    return row_text, k


def _result(table: _Table, frame: _Frame, physical: list[tuple[str, int]]) -> ResultSet:
    """The result set of the table's logical lines (the header first), with its notices."""
    header_text, header_at = physical[0]
    header_cells, header_ok = _read_header(table, frame, header_text)
    columns = unique_names([c.lower() for c in header_cells])
    result = ResultSet("table", columns, [], table.numbers[table.start], notices=table.notices)
    # A box exactly as wide as a terminal may have been cut there at a column border.
    result.closed = frame.total is not None and frame.total not in USUAL_TERMINAL_WIDTHS
    result.skipped = table.skipped
    damaged_lines = _read_rows(table, frame, result, physical[1:], header_cells)
    _report_joins(table.joins, result.notices, frame.wrap)
    if table.markdown:
        result.notices.append("Read a Markdown table (a '|---|' rule under the header).")
    if table.rules:
        result.notices.append(f"Read the rows between the {plural(table.rules, 'border')} printed after each row.")
    if table.loose:
        result.notices.append(
            f"Split {plural(table.loose, 'line')} that {'does' if table.loose == 1 else 'do'} not line up with the "
            "table's columns at their '|' signs (spaces were collapsed or the table was typed by hand)."
        )
    if table.overflows:
        result.notices.append(
            f"The last cell on {describe_lines(table.overflows)} runs past the table's right border (edited by "
            "hand?); read it up to the row's closing '|'."
        )
    if table.top and table.borders < 3 and frame.total is not None:
        _truncated(
            result,
            f"The table starting on line {table.numbers[table.start]} has no bottom border: the paste looks "
            "truncated, and rows may be missing.",
        )
    if not header_ok:
        _truncated(
            result,
            f"The header on line {table.numbers[header_at]} is truncated; column names ending in '{CUT}' were cut.",
        )
    if result.affected_rows:
        _truncated(
            result,
            f"{_row_words(result.affected_rows)} truncated or damaged ({describe_lines(damaged_lines)}): "
            f"a cell ending in '{CUT}' was cut short and a cell that is only '{CUT}' is missing.",
        )
    return result


def _truncated(result: ResultSet, notice: str) -> None:
    """Mark `result` as truncated, saying why."""
    result.truncated = True
    result.notices.append(notice)


def _read_header(table: _Table, frame: _Frame, text: str) -> tuple[list[str], bool]:
    """The header's cells and whether it is whole; a header that is not but belongs to a table
    of known width is split at its `|` signs instead when that gives every column."""
    cells, ok = _split(text, frame, header=True)
    if not ok and frame.total is not None:
        parts = _loose_cells(text, frame)
        if parts is not None and len(parts) == frame.cells:
            table.collapsed = True
            table.loose += 1
            return parts, True
    return cells, ok


def _read_rows(
    table: _Table, frame: _Frame, result: ResultSet, data: list[tuple[str, int]], header_cells: list[str]
) -> list[int]:
    """Fill `result.rows` and `result.affected_rows` from the data lines; return the line numbers of the damaged rows."""
    names = [c.lower() for c in header_cells]
    damaged_lines: list[int] = []
    for text, at in data:
        cells, ok = _split(text, frame, header=False)
        if ok and [cell.lower() for cell in cells] == names:
            # The header line again (a terminal repeated it while scrolling): no row holds the names.
            table.notices.append(f"Skipped a repeat of the header line (line {table.numbers[at]}).")
            continue
        if not ok and (table.collapsed or table.borders == 0):
            # Whole rows that do not line up (a markdown table, or spaces collapsed by a chat or a
            # web page): split them at the `|` signs that have a space beside them. In a table
            # whose header lines up, a row that does not is damaged instead.
            parts = _loose_cells(text, frame, table.markdown)
            if parts is not None and len(parts) == len(result.columns):
                cells, ok = parts, True
                table.loose += 1
            elif table.markdown and parts is not None and len(parts) < len(result.columns):
                # A Markdown row may leave out its last cells: those it holds are in order, the rest missing.
                cells = parts + [CUT] * (len(result.columns) - len(parts))
                table.loose += 1
        if not ok and (overflowing := _overflowing(text, frame)) is not None:
            cells, ok = overflowing, True
            table.overflows.append(table.numbers[at])
        if not ok:
            result.affected_rows.append(len(result.rows))
            damaged_lines.append(table.numbers[at])
        if table.markdown:
            cells = [cell.replace("\\|", "|") for cell in cells]  # Markdown escapes a `|` in a cell
        result.rows.append({name: value(cell) for name, cell in zip(result.columns, cells, strict=False)})
    return damaged_lines


def _row_words(indices: list[int]) -> str:
    if len(indices) == 1:
        return f"Row {indices[0] + 1} is"
    return "Rows " + ", ".join(str(i + 1) for i in indices[:8]) + (" and more" if len(indices) > 8 else "") + " are"


def _report_joins(joins: _Joins, notices: list[str], wrap: int | None) -> None:
    if joins.terminal:
        notices.append(f"Rejoined {plural(joins.terminal, 'line')} hard-wrapped at {joins.wrap or wrap} columns.")
    if joins.word:
        restored = f"; put back {plural(joins.spaces, 'lost space')}" if joins.spaces else ""
        notices.append(
            f"Rejoined {plural(joins.word, 'line')} wrapped at word boundaries (as mail clients do){restored}."
        )


def _remark_start(line: str, frame: _Frame) -> int | None:
    """Where text typed after a complete row's closing `|` starts, if there is any."""
    if frame.total is None or frame.right_open or width(line) <= frame.total:
        return None
    columns = Columns(line)
    at = columns.index(frame.total - 1)
    after = columns.index(frame.total) if frame.total < columns.width else -1
    if at < 0 or line[at] != "|" or after < 0 or line[after] not in " \t":
        return None
    # One space then text is how the next cell of a wider table starts (a line cut at a `+` of
    # its border); a remark is set off further, or starts with an arrow or a comment mark.
    rest = line[after:]
    if not (rest.startswith(("  ", "\t")) or rest.lstrip().startswith(_REMARK_MARKS)):
        return None
    return at + 1 if _aligned(line[: at + 1], 0, frame.seps) else None


def _resume_after_remark(lines: list[str], j: int, frame: _Frame, indent: int) -> int | None:
    """Index of the row (or bottom border) that goes on with an open table after a short remark
    (other text between empty lines) starting at `lines[j]`, or None."""
    if frame.total is None:
        return None
    text = 0
    for k in range(j, min(len(lines), j + 10)):
        line = lines[k].rstrip()
        if not line.strip():
            continue
        row = line[indent : indent + 1] == "|" and _aligned(line, 0, frame.seps)
        if (row or is_border(line)) and width(line) == frame.total:
            return k if text else None  # a row, or the table's bottom border
        if line.lstrip()[:1] in ("|", "+"):
            return None
        text += 1
    return None


def _row_after_gap(lines: list[str], j: int, indent: int) -> bool:
    """True when the line after the empty `lines[j]` is a `|` row at the table's indentation,
    itself followed by nothing but empty lines or the end."""
    if j + 1 >= len(lines) or lines[j + 1][indent : indent + 1] != "|":
        return False
    return j + 2 >= len(lines) or not lines[j + 2].strip()


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
    `_UNWRAP_LINES` lines, and one in 64 of its lines, in all.
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
        self._left = _UNWRAP_LINES + len(lines) // 64
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
        """Index after the pieces of the border line `lines[start]` (see `_border_end`)."""
        first, end = self._border
        if not first < start < end:
            end = _border_end(self.lines, start)
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


def _borderless_wrapped_frame(
    lines: list[str], start: int, indent: int, margins: list[int], wrapped: Wrapped
) -> _Frame | None:
    """The frame of a table without `+---+` lines, from its header, which a terminal or a mail
    client may have cut into pieces. The terminal's width is not known (pieces may have lost
    trailing spaces), so the widths from the widest first piece's up are tried, and a mail wrap
    (one space dropped at each break, None): the right one lines up the header and joins the
    first rows without other gaps. When both readings fit, a usual terminal width or pieces all
    of one width speak for the terminal. None once the paste's attempts have used up `wrapped`'s
    budget of lines (a header with more separators than any EXPLAIN has columns is refused before:
    `Wrapped.refuses_header`)."""
    end = wrapped.header_end(start, indent)
    if end == start + 1:
        return _borderless_frame(lines[start], indent)  # not wrapped
    if not wrapped.spend(end - start):
        return None
    block = lines[start : start + 40]
    first_width = max((width(line) for line in block if line[indent : indent + 1] == "|"), default=width(lines[start]))
    cut = [
        line
        for line, nxt in itertools.pairwise(block)
        if nxt.strip() and (nxt[indent : indent + 1] != "|" or not line.rstrip().endswith("|"))
    ]
    terminal_first = first_width in USUAL_TERMINAL_WIDTHS or len({width(line) for line in cut}) <= 1
    # A mail client that keeps the space it broke at leaves it at the end of every piece.
    mail_gap = 0 if cut and all(line.endswith(" ") for line in cut) else 1
    pieces = _HeaderPieces(lines, start, end)
    scored = []
    for wrap in [*range(first_width, first_width + 9), None]:
        frame = pieces.frame(wrap, indent, mail_gap)
        if frame is None:
            continue  # not wrapped at this width, or a `|` without its spaces: joined at the wrong width
        frame.wrap = wrap
        joins = _Joins()
        bad = 0
        j = end
        while j < len(lines) and j < end + 12 and lines[j][indent : indent + 1] == "|":
            text, j = _assemble(lines, j, frame, joins, margins, wrapped)
            bad += not _split(text, frame, False)[1]
        wrapped.spend(j - end)
        scored.append(((bad, joins.irregular, (wrap is None) == terminal_first), frame))
    if not scored:
        header = pieces.unwrapped(first_width)
        return None if header is None else _borderless_frame(header, indent)
    return min(scored, key=lambda item: item[0])[1]


class _HeaderPieces:
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
        self.bars = [(n, _bar_columns(piece)) for n, (piece, _) in enumerate(self.pieces, 1) if "|" in piece]

    def frame(self, wrap: int | None, indent: int, mail_gap: int = 1) -> _Frame | None:
        """The frame of the header `unwrapped` at `wrap`; None where it was not wrapped at that
        width, or a `|` in it lacks the spaces around it (the pieces were joined at the wrong width).

        Where every piece of a terminal's cut fits in `wrap` columns, piece n starts at column
        n * wrap: the frame comes from the pieces holding a `|`, without joining them all."""
        first = self.first.rstrip()
        if wrap is None or max(self.first_width, self.widest) > wrap or self.narrowest < 1 or indent >= len(first):
            header = self.unwrapped(wrap, mail_gap)
            if header is None:
                return None
            frame = _borderless_frame(header, indent)
            return frame if frame is not None and _aligned(header, 0, frame.seps) else None
        count = len(self.pieces)
        # Too many spaces put back (`unwrapped`): after piece n, n * wrap + its width less the text
        # so far is over four times the text and a wrap.
        if any(map(operator.gt, range(-3 * wrap, (count - 3) * wrap, wrap), self.limits)):
            return None
        seps = _bar_columns(first) + [n * wrap + column for n, columns in self.bars for column in columns]
        if not seps:
            return None
        last, last_width = self.pieces[-1] if count else (first, self.first_width)
        end = count * wrap + last_width if count else last_width
        if not _in_place(self._char_at(wrap), end, 0, seps):
            return None
        right_open = not last.endswith("|")
        return _Frame(seps, None if right_open else end, None, left_open=first[indent] != "|", right_open=right_open)

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


def _borderless_frame(header: str, indent: int) -> _Frame | None:
    s = header.rstrip()
    seps = _bar_columns(s)
    if not seps:
        return None
    left_open = s[indent] != "|"
    right_open = not s.endswith("|")
    total = None if right_open else width(s)
    return _Frame(seps, total, None, left_open=left_open, right_open=right_open)


def _bar_columns(text: str) -> list[int]:
    """The display columns of the `|` signs in `text`."""
    columns = Columns(text)
    found: list[int] = []
    index = text.find("|")
    while index != -1:
        found.append(columns.column(index))
        index = text.find("|", index + 1)
    return found


def _border_end(lines: list[str], start: int) -> int:
    """Index after the pieces a terminal wrapped the border line `lines[start]` into: a piece (a
    line of `+` and `-`) that starts with `-` always continues it; after a complete border (one
    ending with `+`), a `+` starts the next one."""
    closed = lines[start].rstrip().endswith("+")
    j = start + 1
    while j < len(lines) and _is_border_piece(lines[j]) and (not closed or lines[j][0] == "-"):
        closed = lines[j].rstrip().endswith("+")
        j += 1
    return j


def _join_border(lines: list[str], start: int, end: int, joins: _Joins) -> str:
    """The border line `lines[start]` with its pieces up to `end` (`_border_end`), counted in `joins`."""
    pieces = [line.rstrip() for line in lines[start:end]]
    if len(pieces) > 1 and joins.wrap is None:
        joins.wrap = width(pieces[0])
    joins.terminal += len(pieces) - 1
    return "".join(pieces)


def _assemble(
    lines: list[str], start: int, frame: _Frame, joins: _Joins, margins: list[int], wrapped: Wrapped
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

    def __init__(self, lines: list[str], frame: _Frame, margins: list[int], start: int) -> None:
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


def _candidates(used: int, piece: _Piece, frame: _Frame, total: int, pads: tuple[int, ...], blanks: bool) -> list[int]:
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
    """`_aligned` of a line `used` columns wide that ends with `tail` (two characters), joined to
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

    return _in_place(char_at, piece_at + piece.width, used, seps)


def _loose_cells(text: str, frame: _Frame, markdown: bool = False) -> list[str] | None:
    """The cells of a whole line that does not line up with the columns, cut at each `|` that has
    a space beside it (a `|` inside a cell, as in `ref|filter`, has none); None if not whole."""
    s = text.strip()
    if not frame.left_open:
        if not s.startswith("|"):
            return None
        s = s[1:]
    if not frame.right_open:
        if s.endswith("|"):
            s = s[:-1]
        elif not markdown:
            return None  # a Markdown row may leave out its closing `|`; other rows were cut
    cells = []
    begin = 0
    for index, char in enumerate(s):
        if char == "|" and (s[index - 1 : index] in (" ", "") or s[index + 1 : index + 2] in (" ", "")):
            cells.append(s[begin:index].strip())
            begin = index + 1
    cells.append(s[begin:].strip())
    return cells


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


def _aligned(text: str, since: int, seps: list[int]) -> bool:
    """True when every separator column from `since - 1` on holds a `|` with spaces around it."""
    if text.isascii():
        return _aligned_ascii(text, since, seps)
    columns = Columns(text)
    return _in_place(columns.char, columns.width, since, seps)


def _in_place(char_at: Callable[[int], str | None], end: int, since: int, seps: list[int]) -> bool:
    """`_aligned` of a line `end` columns wide whose character at a column is `char_at(column)`
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
    """`_aligned` for ASCII text, where columns are string indexes (from `offset`, the column of `text[0]`)."""
    end = offset + len(text)
    first, last = seps[0], seps[-1]
    for p in seps[bisect_left(seps, since - 1) :]:
        if p >= end:
            break
        i = p - offset
        if text[i] != "|" or (p > first and text[i - 1] != " ") or (p < last and p + 1 < end and text[i + 1] != " "):
            return False
    return True


def _split(text: str, frame: _Frame, header: bool) -> tuple[list[str], bool]:
    """The cells of a logical line, and whether it was complete. Cut cells are marked with CUT."""
    seps = frame.seps
    if len(text) == frame.total and text.isascii() and not frame.left_open and all(text[p] == "|" for p in seps):
        return [text[a + 1 : b].strip() for a, b in itertools.pairwise(seps)], True
    columns = Columns(text)
    end = columns.width
    # Each cell lies between two separator columns: -1 when no `|` comes before the first cell,
    # None when none comes after the last.
    lefts = [-1, *seps] if frame.left_open else seps
    rights: list[int | None] = [*lefts[1:]]
    if frame.right_open:
        rights.append(None)
    cells: list[str] = []
    complete = True
    for a, b in zip(lefts, rights, strict=False):
        if not complete:
            cells.append(CUT)
        elif a >= 0 and (a >= end or columns.char(a) != "|"):
            complete = False
            cells.append(CUT)
        elif b is None:
            cell = text[columns.index(a) + 1 if a >= 0 else 0 :]
            if not frame.cut_edge:
                cells.append(cell.strip())
            elif header and cell.strip() and cell.endswith(" "):
                # Column names hold no spaces: one followed by padding was not cut.
                cells.append(cell.strip())
            else:
                cells.append(cell.strip() + CUT)
                complete = False
        else:
            begin = columns.index(a) + 1 if a >= 0 else 0
            if b < end and columns.char(b) == "|":
                cells.append(text[begin : columns.index(b)].strip())
            else:
                complete = False
                cells.append(text[begin:].strip() + CUT if b >= end else CUT)
    if frame.total is not None and end != frame.total:
        complete = False
    return cells, complete
