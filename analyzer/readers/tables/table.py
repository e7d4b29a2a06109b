"""The client's boxed table (`mysql -t`, interactive mode), also without its borders.

Cells are cut at the display columns of the border's `+` signs, never on every `|`: MariaDB
prints `ref|filter` and `idx_a|idx_b` inside cells, and pads CJK text by display width.

Wrapped lines are rejoined using the border: its full width says how long every line must
be, its `+` positions say where each joined line must hold ` | `. A terminal wraps at a fixed
width and may drop the trailing spaces of each piece; a mail client wraps at a space and may
drop that space. Lines that stay short of the border width (or a border without its closing
`+`) mean the paste was cut: the cut cell keeps its visible start followed by `CUT` (`…`),
missing cells are `CUT` alone, and the rows are reported as truncated.
The rejoining itself is `analyzer.repair.unwrap.boxed`'s.

Without a first border (a partial selection) the border under the header is the frame;
without any border the header's `|` signs are (its wrap width found by trying); a table
whose spaces were collapsed, or a markdown table, is split at the `|` signs that have a
space beside them.
"""

from __future__ import annotations

import itertools

from analyzer.readers.resultset import CUT, ResultSet, is_explain_header, unique_names, value
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, Columns, width
from analyzer.repair.unwrap.boxed import (
    MAX_COLUMNS,
    Frame,
    HeaderPieces,
    Joins,
    Wrapped,
    aligned,
    assemble,
    border_end,
    header_frame,
    in_place,
    is_border,
    is_border_piece,
    join_border,
)
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


def has_box_drawing(lines: list[str]) -> bool:
    if "".join(lines).isascii():
        return False
    return any(line.lstrip()[:1] in "┌├└╔╠╚╒╞╘╓╟╙┏┣┗│║┃" and line.strip() for line in lines)


def _elisions(border: str) -> list[tuple[int, int]]:
    """Where a border shows `...` between two `+` signs instead of dashes (`+----+...+---+`):
    the start and end of each such gap; none for a line that is not such a border."""
    s = border.rstrip()
    if "+" not in s or s.lstrip()[:1] != "+" or s[-1:] != "+" or s.strip().strip("+-."):
        return []
    gaps = []
    begin = s.index("+")
    for end in range(begin + 1, len(s)):
        if s[end] == "+":
            gap = s[begin + 1 : end]
            if len(gap) >= 3 and not gap.strip("."):
                gaps.append((begin + 1, end))
            begin = end
    return gaps


def spread_elisions(lines: list[str]) -> tuple[list[str], list[int]]:
    """Draw the columns an author left out of a boxed table as `...` (`+----+...+---+` over
    `| id |...| Extra |`) as a column of their own: `+-----+` in the borders and `| ... |` in the
    lines under such a border whose `|...|` stands at its gaps. Returns a copy of `lines` so
    rewritten and the indexes of the lines rewritten."""
    out = list(lines)
    rewritten: list[int] = []
    gaps: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        found = _elisions(line)
        if found:
            gaps = found
            out[i] = _spread(line, gaps, "-")
            rewritten.append(i)
        elif gaps and all(line[a - 1 : a] == line[b : b + 1] == "|" and not line[a:b].strip(".") for a, b in gaps):
            out[i] = _spread(line, gaps, " ")
            rewritten.append(i)
        elif line.lstrip()[:1] != "|":
            gaps = []
    return out, rewritten


def _spread(line: str, gaps: list[tuple[int, int]], pad: str) -> str:
    """`line` with each gap widened by `pad` on both sides (a border's gap made of dashes)."""
    out = []
    at = 0
    for a, b in gaps:
        gap = "-" * (b - a) if pad == "-" else line[a:b]
        out += [line[at:a], pad, gap, pad]
        at = b
    return "".join(out) + line[at:]


def _is_markdown_rule(line: str) -> bool:
    s = line.strip()
    return len(s) >= 3 and "-" in s and not s.strip("|-: ")


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
    joins: Joins = field(default_factory=Joins)
    notices: list[str] = field(default_factory=list)
    # The logical lines read (each with the index of its first piece), in sections between borders.
    sections: list[list[tuple[str, int]]] = field(default_factory=lambda: [[]])
    copied: bool = False  # `lines` is a copy of the caller's list
    squeezed: bool | None = None  # the first line does not line up with the border: spaces were collapsed
    markdown: bool = False  # a `|---|---|` rule under the header: a Markdown table
    collapsed: bool = False  # the header does not line up with the border either: spaces were collapsed
    loose: int = 0  # lines split at their `|` signs instead of the border's columns
    overflows: list[int] = field(default_factory=list)  # numbers of the rows whose last cell runs past the border
    shifted: list[int] = field(default_factory=list)  # numbers of the rows a cell wider than its column pushed right
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

    `margins` holds, per line, the width of the quoting the cleanup removed (see `assemble`);
    `wrapped` is shared by the calls on the same `lines` (see `Wrapped`).
    """
    first = lines[start]
    top = is_border(first)
    if top and start and is_border_piece(lines[start - 1]) and not is_border(lines[start - 1]):
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
    if table.top and (found := _frame_of_header(table, frame, j)) is not None:
        frame, j = found
    if frame.cells == 1:
        return _one_column(table, j)
    j = _gather(table, frame, j)
    physical = [item for section in table.sections for item in section]
    if not physical:
        return None, max(j, start + 1)
    return _result(table, frame, physical), j


def _find_frame(table: _Table) -> tuple[Frame, int] | None:
    """The table's frame and the index of its header line (after the top border, if any): the frame
    is drawn by the top border, else by the border under the header, else by the header's `|` signs."""
    lines, start = table.lines, table.start
    if table.top:
        return _border_frame(table, start, table.joins)
    below = table.wrapped.border_below(start, table.indent)
    if below is not None:
        # A table whose first border was lost (or only partly selected) takes the one below the header.
        found = _border_frame(table, below, Joins())
        return None if found is None else (found[0], start)
    frame = _borderless_wrapped_frame(lines, start, table.indent, table.margins, table.wrapped)
    if frame is None:
        return None
    table.notices.append(
        f"The table starting on line {table.numbers[start]} has no '+---+' borders; read it by its '|' lines."
    )
    return frame, start


def _border_frame(table: _Table, at: int, joins: Joins) -> tuple[Frame, int] | None:
    """The frame of the border at `lines[at]` (with the pieces a terminal wrapped it into) and the
    index after it; None for a border with more separators than any EXPLAIN has columns, or a
    wrapped one once the paste's attempts have used up their budget of lines (`Wrapped`)."""
    wrapped = table.wrapped
    j = wrapped.border_end(at)
    if wrapped.count("+", at, j) > MAX_COLUMNS or (j > at + 1 and not wrapped.spend(j - at)):
        return None
    border = join_border(table.lines, at, j, joins)
    closed = border.endswith("+")
    seps = [k for k, c in enumerate(border) if c == "+"]
    wrap = width(table.lines[at].rstrip()) + table.margins[at] if j - at > 1 else None
    if not closed:
        table.notices.append(
            f"The table border on line {table.numbers[at]} stops at column {width(border)} without its closing '+': "
            "the lines were truncated."
        )
    return Frame(seps, width(border) if closed else None, wrap, right_open=not closed, cut_edge=not closed), j


def _without_cells(table: _Table, j: int) -> tuple[ResultSet, int]:
    """Lines of bare `|` and borders without a cell: nothing to read, skip them in one go."""
    lines = table.lines
    if lines is table.wrapped.lines:
        # The first line that is blank, or holds more than `|`, `+` and `-` between its blanks.
        j = max(j, table.wrapped.first_line(j, r"^[^\S\n]*+(?:$|[|+-]*+(?:[^|+\-\s]|[^\S\n]+\S))"))
    while j < len(lines) and lines[j].strip() and not lines[j].strip().strip("|+-"):
        j += 1
    return ResultSet("table", [], [], table.numbers[table.start], notices=table.notices), max(j, table.start + 1)


def _frame_of_header(table: _Table, border: Frame, j: int) -> tuple[Frame, int] | None:
    """The frame of a table whose borders have fewer columns than its header (typed by hand, or
    spaces collapsed: `+----+` over `| id | select_type | ...`): drawn by the header's `|` signs
    when the header is EXPLAIN's. None otherwise."""
    lines, indent = table.lines, table.indent
    header = lines[j] if j < len(lines) else ""
    names = [c.strip().lower() for c in header.strip().strip("|").split("|")]
    if header[indent : indent + 1] != "|" or len(names) <= border.cells or not is_explain_header(names):
        return None
    frame = header_frame(header, indent)
    if frame is None or frame.cells != len(names):
        return None
    frame.total = None
    table.collapsed = True  # the rows may not line up with the header either
    table.notices.append(
        f"The table's borders (line {table.numbers[table.start]}) are shorter than its header; "
        "read it by its '|' lines."
    )
    return frame, j


def _one_column(table: _Table, j: int) -> tuple[ResultSet, int]:
    """One column is no EXPLAIN table (a one-cell JSON or tree plan has its own reader): keep the
    header's name for the error message and skip the rest in one go."""
    lines, n = table.lines, len(table.lines)
    k = next((k for k in range(j, min(n, j + 3)) if not is_border(lines[k])), j)
    name = lines[k].strip().strip("|").strip().lower() if k < n else ""
    while j < n and lines[j].strip():
        j += 1
    return ResultSet("table", [name], [], table.numbers[table.start], notices=table.notices), max(j, table.start + 1)


def _gather(table: _Table, frame: Frame, j: int) -> int:
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
        elif _is_header_rule(table, frame, s):
            # mycli's `|----+----|` under the header: the border there.
            table.borders += 1
            table.sections.append([])
            j += 1
        else:
            j = _read_row(table, frame, j, s)
    return j


def _is_header_rule(table: _Table, frame: Frame, line: str) -> bool:
    """Whether `line` (the line after the header) is a rule of `-` signs between `|` signs with a
    `+` at each inner column of the frame: `|----+-------|`, mycli's line under the header."""
    sections, indent = table.sections, table.indent
    if len(sections) != 1 or len(sections[0]) != 1 or frame.left_open or frame.right_open:
        return False
    rule = line[indent:]
    inner = rule[1:-1]
    if rule[:1] != "|" or rule[-1:] != "|" or "-" not in inner or inner.strip("+-"):
        return False
    return [indent + k for k, char in enumerate(rule) if char in "+|"] == frame.seps


def _after_gap(table: _Table, frame: Frame, j: int) -> int | None:
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


def _read_border(table: _Table, frame: Frame, j: int) -> tuple[int, bool]:
    """Take in the border at `lines[j]`; return the index to go on from and whether the table goes on."""
    k = border_end(table.lines, j)
    border = join_border(table.lines, j, k, table.joins)
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


def _row_follows(table: _Table, frame: Frame, k: int) -> bool:
    """Whether a row of the table follows the border ending before `lines[k]`: a line at the
    table's indentation whose `|` signs stand at the border's columns, which is not its header
    again. Some programs print a border after every row, not just under the header."""
    if k >= len(table.lines) or frame.total is None or not table.sections[0]:
        return False
    line = table.lines[k].rstrip()
    if line[table.indent : table.indent + 1] != "|" or width(line) != frame.total or not aligned(line, 0, frame.seps):
        return False
    return _cells(line) != _cells(table.sections[0][0][0])


def _cells(text: str) -> list[str]:
    return [cell.strip().lower() for cell in text.strip().strip("|").split("|")]


def _read_row(table: _Table, frame: Frame, j: int, s: str) -> int:
    """Take in the row at `lines[j]` (`s`, without trailing spaces) with its wrapped pieces; return the index after it."""
    cut = _remark_start(s, frame)
    if cut is not None:
        _take_off_remark(table, j, s, cut)
    row_text, k = assemble(table.lines, j, frame, table.joins, table.margins, table.wrapped)
    if table.squeezed is None:
        table.squeezed = (
            frame.total is not None and not aligned(row_text, 0, frame.seps) and _overflowing(row_text, frame) is None
        )
    if table.squeezed:
        row_text, k = _join_squeezed(table, frame, row_text, k)
    table.sections[-1].append((row_text, j))
    return k


def _take_off_remark(table: _Table, j: int, s: str, cut: int) -> None:
    """Drop a remark typed after the row's closing `|` (at `s[cut:]`) from `lines[j]`."""
    _keep_start(table, j, s, cut, "Ignored the text after the table's right border")


def _keep_start(table: _Table, j: int, s: str, cut: int, what: str) -> None:
    """Keep `s[:cut]` as `lines[j]`, in a copy of the lines, saying `what` was done with the rest."""
    table.notices.append(f"{what} on line {table.numbers[j]} ('{s[cut:].strip()[:40]}').")
    if not table.copied:
        table.lines = list(table.lines)
        table.copied = True
    table.lines[j] = s[:cut]


def _overflowing(text: str, frame: Frame) -> list[str] | None:
    """The cells of a row whose last cell runs past the right border (longer than the border's
    column) but ends with the row's closing `|`: every separator but the last is in place, and no
    `|` with a space beside it comes between the last one and the closing `|`. None otherwise."""
    total, seps = frame.total, frame.seps
    s = text.rstrip()
    if total is None or frame.left_open or len(seps) < 2 or not s.endswith("|") or width(s) <= total:
        return None
    columns = Columns(s)
    if not in_place(columns.char, seps[-1], 0, seps[:-1]):
        return None
    last = s[columns.index(seps[-2]) + 1 : -1]
    if " |" in last or "| " in last or last[:1] != " " or last[-1:] != " ":
        return None
    return [s[columns.index(a) + 1 : columns.index(b)].strip() for a, b in itertools.pairwise(seps[:-1])] + [
        last.strip()
    ]


def _shifted(text: str, frame: Frame) -> list[str] | None:
    """The cells of a row in which one cell is wider than its column and pushes every `|` after
    it right by one amount (MySQL 5's client printed a UNION RESULT row's NULL id so, wider than
    a 2-character id column): its `|` signs with a space beside them are exactly as many as the
    border's `+` signs, those before the wide cell at the border's columns and all those after it
    shifted by the same amount, and the wide cell holds its value with one space on each side.
    None otherwise."""
    total, seps = frame.total, frame.seps
    s = text.rstrip()
    if total is None or frame.left_open or frame.right_open or not s.endswith("|") or width(s) <= total:
        return None
    columns = Columns(s)
    bars = [
        columns.column(index)
        for index, char in enumerate(s)
        if char == "|" and (s[index - 1 : index] in (" ", "") or s[index + 1 : index + 2] in (" ", ""))
    ]
    if len(bars) != len(seps) or bars[0] != seps[0]:
        return None
    wide = next(k for k, (bar, sep) in enumerate(zip(bars, seps, strict=True)) if bar != sep)
    shift = bars[wide] - seps[wide]
    if shift <= 0 or any(bar - sep != shift for bar, sep in zip(bars[wide:], seps[wide:], strict=True)):
        return None
    cells = [s[columns.index(a) + 1 : columns.index(b)] for a, b in itertools.pairwise(bars)]
    padded = cells[wide - 1]
    if padded[:1] != " " or padded[-1:] != " " or padded[1:2] == " " or padded[-2:-1] == " ":
        return None
    return [cell.strip() for cell in cells]


def _glued_border_end(line: str, frame: Frame, indent: int) -> int | None:
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
    """Part the border at `lines[j]` (`s`) from the text glued after it at `s[cut:]`."""
    _keep_start(table, j, s, cut, "Ignored the text glued after the table's border")


def _join_squeezed(table: _Table, frame: Frame, row_text: str, k: int) -> tuple[str, int]:
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


def _result(table: _Table, frame: Frame, physical: list[tuple[str, int]]) -> ResultSet:
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
    if table.shifted:
        result.notices.append(
            f"Read {describe_lines(table.shifted)} at {'its' if len(table.shifted) == 1 else 'their'} '|' signs: "
            "a cell wider than its column pushed the '|' signs after it to the right."
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


def _read_header(table: _Table, frame: Frame, text: str) -> tuple[list[str], bool]:
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
    table: _Table, frame: Frame, result: ResultSet, data: list[tuple[str, int]], header_cells: list[str]
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
        if not ok and (shifted := _shifted(text, frame)) is not None:
            cells, ok = shifted, True
            table.shifted.append(table.numbers[at])
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


def _report_joins(joins: Joins, notices: list[str], wrap: int | None) -> None:
    if joins.terminal:
        notices.append(f"Rejoined {plural(joins.terminal, 'line')} hard-wrapped at {joins.wrap or wrap} columns.")
    if joins.word:
        restored = f"; put back {plural(joins.spaces, 'lost space')}" if joins.spaces else ""
        notices.append(
            f"Rejoined {plural(joins.word, 'line')} wrapped at word boundaries (as mail clients do){restored}."
        )


def _remark_start(line: str, frame: Frame) -> int | None:
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
    return at + 1 if aligned(line[: at + 1], 0, frame.seps) else None


def _resume_after_remark(lines: list[str], j: int, frame: Frame, indent: int) -> int | None:
    """Index of the row (or bottom border) that goes on with an open table after a short remark
    (other text between empty lines) starting at `lines[j]`, or None."""
    if frame.total is None:
        return None
    text = 0
    for k in range(j, min(len(lines), j + 10)):
        line = lines[k].rstrip()
        if not line.strip():
            continue
        row = line[indent : indent + 1] == "|" and aligned(line, 0, frame.seps)
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


def _borderless_wrapped_frame(
    lines: list[str], start: int, indent: int, margins: list[int], wrapped: Wrapped
) -> Frame | None:
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
        return header_frame(lines[start], indent)  # not wrapped
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
    pieces = HeaderPieces(lines, start, end)
    scored = []
    for wrap in [*range(first_width, first_width + 9), None]:
        frame = pieces.frame(wrap, indent, mail_gap)
        if frame is None:
            continue  # not wrapped at this width, or a `|` without its spaces: joined at the wrong width
        frame.wrap = wrap
        joins = Joins()
        bad = 0
        j = end
        while j < len(lines) and j < end + 12 and lines[j][indent : indent + 1] == "|":
            text, j = assemble(lines, j, frame, joins, margins, wrapped)
            bad += not _split(text, frame, False)[1]
        wrapped.spend(j - end)
        scored.append(((bad, joins.irregular, (wrap is None) == terminal_first), frame))
    if not scored:
        header = pieces.unwrapped(first_width)
        return None if header is None else header_frame(header, indent)
    return min(scored, key=lambda item: item[0])[1]


def _loose_cells(text: str, frame: Frame, markdown: bool = False) -> list[str] | None:
    """The cells of a whole line that does not line up with the columns, cut at each `|` that has
    a space beside it (a `|` inside a cell, as in `ref|filter`, has none), or at every `|` of a
    line a page stripped of all its spaces; None if not whole."""
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
    if " " not in s.replace("| ", "").replace(" |", "") and " |" not in s and "| " not in s:
        return [cell.strip() for cell in s.split("|")]  # no space left anywhere near a `|`
    cells = []
    begin = 0
    for index, char in enumerate(s):
        if char == "|" and (s[index - 1 : index] in (" ", "") or s[index + 1 : index + 2] in (" ", "")):
            cells.append(s[begin:index].strip())
            begin = index + 1
    cells.append(s[begin:].strip())
    return cells


def _split(text: str, frame: Frame, header: bool) -> tuple[list[str], bool]:
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
