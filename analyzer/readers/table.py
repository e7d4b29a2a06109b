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
from bisect import bisect_left
from dataclasses import dataclass, field

from analyzer.readers.resultset import CUT, ResultSet, is_explain_header, unique_names, value
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, column_starts, width
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


def has_box_drawing(lines: list[str]) -> bool:
    if "".join(lines).isascii():
        return False
    return any(line.lstrip()[:1] in "┌├└╔╠╚╒╞╘╓╟╙┏┣┗│║┃" and line.strip() for line in lines)


def is_border(line: str) -> bool:
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
    joins: _Joins = field(default_factory=_Joins)
    notices: list[str] = field(default_factory=list)
    # The logical lines read (each with the index of its first piece), in sections between borders.
    sections: list[list[tuple[str, int]]] = field(default_factory=lambda: [[]])
    copied: bool = False  # `lines` is a copy of the caller's list
    squeezed: bool | None = None  # the first line does not line up with the border: spaces were collapsed
    markdown: bool = False  # a `|---|---|` rule under the header: a Markdown table
    collapsed: bool = False  # the header does not line up with the border either: spaces were collapsed
    loose: int = 0  # lines split at their `|` signs instead of the border's columns
    skipped: list[int] = field(default_factory=list)  # indexes of the remarks' lines


def parse_table(
    lines: list[str], numbers: list[int], start: int, margins: list[int] | None = None
) -> tuple[ResultSet | None, int]:
    """Read the table starting at `lines[start]`; return it (or None) and the index after it.

    `margins` holds, per line, the width of the quoting the cleanup removed (see `_assemble`).
    """
    first = lines[start]
    top = is_border(first)
    if top and start and _is_border_piece(lines[start - 1]) and not is_border(lines[start - 1]):
        return None, start + 1  # the rest of a first border that was only partly selected
    indent = len(first) - len(first.lstrip())
    table = _Table(lines, numbers, start, margins or [0] * len(lines), indent, top, borders=int(top))
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
    below = _border_below(lines, start, table.indent)
    if below is not None:
        # A table whose first border was lost (or only partly selected) takes the one below the header.
        return _border_frame(table, below, _Joins())[0], start
    frame = _borderless_wrapped_frame(lines, start, table.indent, table.margins)
    if frame is None:
        return None
    table.notices.append(
        f"The table starting on line {table.numbers[start]} has no '+---+' borders; read it by its '|' lines."
    )
    return frame, start


def _border_frame(table: _Table, at: int, joins: _Joins) -> tuple[_Frame, int]:
    """The frame of the border at `lines[at]` (with the pieces a terminal wrapped it into) and the index after it."""
    border, j = _join_border(table.lines, at, joins)
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
    border, k = _join_border(table.lines, j, table.joins)
    if frame.total is not None and width(border) != frame.total:
        return j, False
    sections = table.sections
    if table.borders and not sections[-1] and (len(sections) == 1 or table.borders == 2):
        # The same border twice in a row (a terminal repeated a line while scrolling).
        table.notices.append(f"Skipped a border line repeated right after itself (line {table.numbers[k - 1]}).")
        return k, True
    table.borders += 1
    if table.borders >= 3 and sections[-1]:
        return k, False
    if sections[-1]:
        sections.append([])
    return k, True


def _read_row(table: _Table, frame: _Frame, j: int, s: str) -> int:
    """Take in the row at `lines[j]` (`s`, without trailing spaces) with its wrapped pieces; return the index after it."""
    cut = _remark_start(s, frame)
    if cut is not None:
        _take_off_remark(table, j, s, cut)
    row_text, k = _assemble(table.lines, j, frame, table.joins, table.margins)
    if table.squeezed is None:
        table.squeezed = frame.total is not None and not _aligned(row_text, 0, frame.seps)
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
    if table.loose:
        result.notices.append(
            f"Split {plural(table.loose, 'line')} that {'does' if table.loose == 1 else 'do'} not line up with the "
            "table's columns at their '|' signs (spaces were collapsed or the table was typed by hand)."
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
    starts = column_starts(line)
    at = starts[frame.total - 1]
    after = starts[frame.total] if frame.total < len(starts) else -1
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


def _border_below(lines: list[str], start: int, indent: int) -> int | None:
    """Index of the border under a header line starting at `lines[start]` (within its wrapped
    pieces), at the same indentation; None if the table has no borders."""
    for k in range(start + 1, min(len(lines), start + 12)):
        line = lines[k]
        if is_border(line):
            return k if len(line) - len(line.lstrip()) == indent else None
        if not line.strip():
            return None
    return None


def _borderless_wrapped_frame(lines: list[str], start: int, indent: int, margins: list[int]) -> _Frame | None:
    """The frame of a table without `+---+` lines, from its header, which a terminal or a mail
    client may have cut into pieces. The terminal's width is not known (pieces may have lost
    trailing spaces), so the widths from the widest first piece's up are tried, and a mail wrap
    (one space dropped at each break, None): the right one lines up the header and joins the
    first rows without other gaps. When both readings fit, a usual terminal width or pieces all
    of one width speak for the terminal."""
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
    scored = []
    for wrap in [*range(first_width, first_width + 9), None]:
        header, after = _unwrapped_header(lines, start, indent, wrap, mail_gap)
        frame = _borderless_frame(header, indent)
        if frame is None or after == start + 1:
            return frame  # not wrapped
        if not _aligned(header, 0, frame.seps):
            continue  # a `|` without its spaces: the pieces were joined at the wrong width
        frame.wrap = wrap
        joins = _Joins()
        bad = 0
        j = after
        while j < len(lines) and j < after + 12 and lines[j][indent : indent + 1] == "|":
            text, j = _assemble(lines, j, frame, joins, margins)
            bad += not _split(text, frame, False)[1]
        scored.append(((bad, joins.irregular, (wrap is None) == terminal_first), frame))
    if not scored:
        return _borderless_frame(_unwrapped_header(lines, start, indent, first_width)[0], indent)
    return min(scored, key=lambda item: item[0])[1]


def _unwrapped_header(
    lines: list[str], start: int, indent: int, wrap: int | None, mail_gap: int = 1
) -> tuple[str, int]:
    """A `|` header line with the pieces a terminal cut off it at `wrap` columns (or a mail
    client at a space, when None: `mail_gap` spaces go back), and the index after them. A piece
    follows while the header has not reached its closing `|` or the next line does not start
    with one."""
    header = lines[start]
    k = start + 1
    if header[indent : indent + 1] != "|":
        return header.rstrip(), k  # no outer border: rows do not start with `|` either
    while (
        k < len(lines)
        and (lines[k].strip() or lines[k] and not header.rstrip().endswith("|"))  # a piece of spaces
        and (lines[k][indent : indent + 1] != "|" or not header.rstrip().endswith("|"))
        and not is_border(lines[k])
    ):
        if wrap is None:
            header += " " * mail_gap + lines[k]
        else:
            header = header.rstrip()
            header += " " * ((-width(header)) % wrap) + lines[k]
        k += 1
    return header.rstrip(), k


def _borderless_frame(header: str, indent: int) -> _Frame | None:
    s = header.rstrip()
    seps = [k for k, c in enumerate(column_starts(s)) if k >= 0 and c >= 0 and s[c] == "|"]
    if not seps:
        return None
    left_open = s[indent] != "|"
    right_open = not s.endswith("|")
    total = None if right_open else width(s)
    return _Frame(seps, total, None, left_open=left_open, right_open=right_open)


def _join_border(lines: list[str], start: int, joins: _Joins) -> tuple[str, int]:
    """A border line with the pieces a terminal wrapped it into; the index after the last piece."""
    border = lines[start].rstrip()
    j = start + 1
    # A piece that starts with '-' always continues; after a complete border, a '+' starts the next one.
    while j < len(lines) and _is_border_piece(lines[j]) and (not border.endswith("+") or lines[j][0] == "-"):
        if joins.wrap is None:
            joins.wrap = width(border)
        border += lines[j].rstrip()
        joins.terminal += 1
        j += 1
    return border, j


def _assemble(lines: list[str], start: int, frame: _Frame, joins: _Joins, margins: list[int]) -> tuple[str, int]:
    """A table line with the wrapped pieces that follow it; the index after the last piece.

    At each break several gaps may fit (a terminal's cut, a mail client's dropped space, the
    separators' columns); a piece without a separator cannot tell them apart, so the choices are
    searched until the line ends exactly at the border's width with its `|` in place (a few
    hundred steps at most). A line that cannot be completed that way takes the first choice at
    each break and is reported as damaged by the caller.

    `margins[k]` is how many columns of quoting were taken off line k: a terminal filled the
    line to its width with them, so a piece plus its margin is the wrap width.
    """
    total = frame.total
    if total is None:
        return lines[start], start + 1
    text = lines[start].rstrip()
    found = _search(lines, frame, total, margins, text, width(text), start, start + 1, [300])
    if found is None:
        found = _first_fits(lines, frame, total, margins, text, width(text), start, start + 1)
    text, j, gaps = found
    for gap, pad, pieces in gaps:
        if gap in pad:
            joins.terminal += pieces
        else:
            joins.word += pieces
            joins.spaces += gap
            joins.irregular += bool(pad) or gap != 1
    return text, j


# A gap chosen at a break: its spaces, the gaps a terminal wrap implied there, and the lines it joined.
_Gap = tuple[int, tuple[int, ...], int]


def _search(
    lines: list[str],
    frame: _Frame,
    total: int,
    margins: list[int],
    text: str,
    used: int,
    last: int,
    j: int,
    budget: list[int],
) -> tuple[str, int, list[_Gap]] | None:
    """Extend `text` (ending with line `last`, `used` columns wide) with the pieces from line `j`
    until it is `total` columns wide.

    Returns the line, the index after it and the gaps chosen, or None when no choice of gaps
    reaches the border's width within `budget[0]` steps.
    """
    if used >= total or j >= len(lines):
        return (text, j, []) if used == total else None
    budget[0] -= 1
    if budget[0] < 0:
        return None
    found = _next_piece(lines, frame, margins, used, last, j)
    if found is None:
        return None
    k, piece, pads = found
    for gap in _gaps(text, used, piece, frame, total, pads, blanks=k > j):
        joined = text + " " * gap + piece
        rest = _search(lines, frame, total, margins, joined, used + gap + width(piece), k, k + 1, budget)
        if rest is not None:
            return rest[0], rest[1], [(gap, pads, 1 + k - j), *rest[2]]
    return None


def _first_fits(
    lines: list[str], frame: _Frame, total: int, margins: list[int], text: str, used: int, last: int, j: int
) -> tuple[str, int, list[_Gap]]:
    """Extend `text` like `_search`, but with the first gap that fits at each break, stopping where none fits."""
    chosen: list[_Gap] = []
    while used < total and j < len(lines):
        found = _next_piece(lines, frame, margins, used, last, j)
        if found is None:
            break
        k, piece, pads = found
        gaps = _gaps(text, used, piece, frame, total, pads, blanks=k > j)
        if not gaps:
            break
        text += " " * gaps[0] + piece
        used += gaps[0] + width(piece)
        chosen.append((gaps[0], pads, 1 + k - j))
        last, j = k, k + 1
    return text, j, chosen


def _next_piece(
    lines: list[str], frame: _Frame, margins: list[int], used: int, last: int, j: int
) -> tuple[int, str, tuple[int, ...]] | None:
    """The piece that follows line `last` from line `j` on (past pieces that were only spaces,
    which show up as blank lines): its index, its text and the gaps a terminal wrap implies
    before it; None at a border or the end."""
    k = j
    while k < len(lines) and not lines[k].strip() and k - j < 50:
        k += 1
    if k == len(lines) or is_border(lines[k]):
        return None
    pads: tuple[int, ...] = ()
    if frame.wrap:
        blank = sum(frame.wrap - margins[b] for b in range(j, k))
        # The piece's own width (a terminal cut it), or the terminal's edge (a mail client cut it again).
        pads = (frame.wrap - margins[last] - width(lines[last].rstrip()) + blank, (-used) % frame.wrap + blank)
    return k, lines[k].rstrip(), pads


def _gaps(
    text: str, used: int, piece: str, frame: _Frame, total: int, pads: tuple[int, ...], blanks: bool
) -> list[int]:
    """The gaps that could have been lost between `text` and the wrapped `piece`, most likely
    first, each leaving every separator column in place and the line within `total` columns.

    `pads` are the gaps a terminal wrap implies; `blanks` says blank lines (pieces of spaces) came between.
    """
    limit = total - used - width(piece)
    if limit < 0:
        return []
    candidates = list(pads)
    bar = _first_separator(piece)
    if bar is not None:
        at = bisect_left(frame.seps, used + bar)
        if at < len(frame.seps):
            candidates.append(frame.seps[at] - used - bar)
    if not blanks:
        candidates += [0, 1] if piece[0] == " " else [1, 0]
    fitting = []
    for gap in candidates:
        if 0 <= gap <= limit and gap not in fitting and _aligned(text + " " * gap + piece, used, frame.seps):
            fitting.append(gap)
    return fitting


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
    starts = column_starts(text)
    end = len(starts)
    last = seps[-1]
    first = seps[0]
    for p in seps[bisect_left(seps, since - 1) :]:
        if p >= end:
            break
        c = starts[p]
        if c < 0 or text[c] != "|":
            return False
        if p > first and (starts[p - 1] < 0 or text[starts[p - 1]] != " "):
            return False
        if p < last and p + 1 < end and (starts[p + 1] < 0 or text[starts[p + 1]] != " "):
            return False
    return True


def _aligned_ascii(text: str, since: int, seps: list[int]) -> bool:
    """`_aligned` for ASCII text, where columns are string indexes."""
    end = len(text)
    first, last = seps[0], seps[-1]
    for p in seps[bisect_left(seps, since - 1) :]:
        if p >= end:
            break
        if text[p] != "|" or (p > first and text[p - 1] != " ") or (p < last and p + 1 < end and text[p + 1] != " "):
            return False
    return True


def _split(text: str, frame: _Frame, header: bool) -> tuple[list[str], bool]:
    """The cells of a logical line, and whether it was complete. Cut cells are marked with CUT."""
    seps = frame.seps
    if len(text) == frame.total and text.isascii() and not frame.left_open and all(text[p] == "|" for p in seps):
        return [text[a + 1 : b].strip() for a, b in itertools.pairwise(seps)], True
    starts = column_starts(text)
    end = len(starts)
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
        elif a >= 0 and (a >= end or starts[a] < 0 or text[starts[a]] != "|"):
            complete = False
            cells.append(CUT)
        elif b is None:
            cell = text[starts[a] + 1 if a >= 0 else 0 :]
            if not frame.cut_edge:
                cells.append(cell.strip())
            elif header and cell.strip() and cell.endswith(" "):
                # Column names hold no spaces: one followed by padding was not cut.
                cells.append(cell.strip())
            else:
                cells.append(cell.strip() + CUT)
                complete = False
        else:
            begin = starts[a] + 1 if a >= 0 else 0
            if b < end and starts[b] >= 0 and text[starts[b]] == "|":
                cells.append(text[begin : starts[b]].strip())
            else:
                complete = False
                cells.append(text[begin:].strip() + CUT if b >= end else CUT)
    if frame.total is not None and width(text) != frame.total:
        complete = False
    return cells, complete
