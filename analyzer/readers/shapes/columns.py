"""Tables whose borders, alignment or header are gone, read where no other reader found an EXPLAIN.

`shaped_result_sets(lines, numbers)` (the fallback of `readers.dispatch`) finds two shapes:

- A header line of EXPLAIN column names separated by spaces (the MySQL manual's hand-laid-out
  columns, batch output whose tabs were collapsed to single spaces, a header aligned by hand off
  the tab stops, the old header without id and select_type), then rows whose cells are separated
  by runs of spaces. A row's cells are read by position where its words line up under the
  header's names, else by the shapes of its values (`shapes.place`), which is a guess: the result
  is flagged `uncertain`. A line starting under a later column continues the row above (the
  manual wraps long cells so): each piece joins the cell it starts under; a line that fits no
  cell but reads as Extra items becomes the row's Extra, also flagged. Where the words line up with
  nothing (a PDF's text), a list wrapped after its comma (`AssignedPC,`) is placed by shape too,
  and the lines after its row give their words, in the columns' order, to the cells that go on:
  one to each list ending in a comma, the rest to Extra; flagged as well.
  A row with as many cells as names between tabs or runs of spaces is read so. Rows whose line
  ends short of the last column at the width the lines were cut at (`_flag_cut_width`) are flagged.
- A run of rows without a header, each starting with an id and a select_type
  (`readers.shapes.headerless`), read in a column order EXPLAIN prints when the values fit it.

Lines that look like one of these but do not fit are refused with a `ParseError` naming the line.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import ParseError
from analyzer.readers.resultset import CUT, EXPLAIN_COLUMNS, ResultSet, flag_cut_rows, value
from analyzer.readers.shapes.by_value import fits, misfit, place
from analyzer.readers.shapes.cell_shapes import starts_extra_item
from analyzer.readers.shapes.headerless import (
    ROW_START_RE,
    check_what_follows,
    flag_cut_values,
    read_headerless,
    starts_row,
)
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, expand_tabs, width
from analyzer.repair.unwrap.boxed import is_border
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

_HEADER_RE = lazy_regex(
    r"[ \t|]*+(?:id|select_type|table|partitions|type|possible_keys|key|key_len|ref|rows|r_rows|filtered|r_filtered|extra)"
    r"\s",
    re.IGNORECASE,
)
# A word found on every line a table starts on: the header names type (or select_type), a row
# has a select_type. (Literal alternatives only: the scan then skips to their first letters.)
_MARK_RE = lazy_regex(
    r"type|Type|TYPE|SIMPLE|PRIMARY|UNION|DEPENDENT|SUBQUERY|DERIVED|MATERIALIZED|UNCACHEABLE|LATERAL|INTERSECT"
    r"|EXCEPT|UNIT|PUSHED|INSERT|UPDATE|DELETE|REPLACE"
)
_MAX_HEADER = 400  # characters: a header holds at most 14 names
_WORD_RE = lazy_regex(r"\S+")
# Dashes under a header: blanks, then `-`, `=`, `+` and spaces with a `-` among them, each taken once.
_RULE_RE = lazy_regex(r"\s*+(?=[-=+ ]*-)[-=+ ]*+$")
_SPACES_RE = lazy_regex(r" {2,}")
_MAX_CONTINUED = 20  # continuation lines of one row (the manual wraps a cell over three)
_LIST_COLUMNS = frozenset({"partitions", "possible_keys", "key", "key_len", "ref"})
_ALWAYS_SHOWN = frozenset({"id", "select_type", "table", "type"})  # never blank in a row (NULL at least)

Read = tuple[ResultSet | ParseError | None, int]


def shaped_result_sets(lines: list[str], numbers: list[int]) -> list[ResultSet]:
    """Every table without borders, tabs or header in the cleaned lines, in order. When none is
    found but something that looked like one did not fit, raises the `ParseError` saying why."""
    found: list[ResultSet] = []
    refused: list[ParseError] = []
    end = 0
    for i in _starts(lines):
        if i < end:
            continue
        check_deadline()
        result, start, end = _read_at(lines, numbers, i)
        if isinstance(result, ParseError):
            refused.append(result)
        elif result is not None:
            result.start, result.end = start, end
            found.append(result)
    if refused and not found:
        raise refused[0]
    return found


def _starts(lines: list[str]) -> list[int]:
    """Indexes of the lines a table may start on: a header naming type, or an id and a select_type
    (`headerless.ROW_START_RE`). Found from the words they hold in one pass over the text, as most
    lines of a big paste are no candidate."""
    text = "\n".join(lines)
    starts = []
    index = at = 0
    for match in _MARK_RE.finditer(text):
        if match.start() < at:
            continue  # a line already looked at
        index += text.count("\n", at, match.start())
        at = text.find("\n", match.start()) + 1 or len(text)
        line = lines[index]
        if ROW_START_RE.match(line) or (_HEADER_RE.match(line) and "type" in line.lower()):
            starts.append(index)
    return starts


def _read_at(lines: list[str], numbers: list[int], i: int) -> tuple[ResultSet | ParseError | None, int, int]:
    """What starts on `lines[i]`, the index of its first line (a border above header-less rows
    is theirs) and of the line after it."""
    line = lines[i]
    if len(line) <= _MAX_HEADER and _HEADER_RE.match(line):
        header = _header(line)
        if header is not None:
            result, end = _read_spaced(_Grid(lines, numbers, i, header))
            return result, i, end
    if not starts_row(line):
        return None, i, i + 1
    start = i - 1 if i and is_border(lines[i - 1]) else i
    result, end = read_headerless(lines, numbers, start, i)
    return result, start, end


@dataclass(slots=True)
class _Header:
    """The names of a space-separated header and the screen column each starts at."""

    columns: list[str]
    starts: list[int]


def _header(line: str) -> _Header | None:
    """The header of EXPLAIN column names separated by spaces on `line` (each name once, five or
    more, type or select_type among them), else None."""
    if "\t" in line or not line.isascii():
        return None
    words = list(_WORD_RE.finditer(line))
    names = [word.group().lower() for word in words]
    if len(names) < 5 or len(set(names)) < len(names) or not EXPLAIN_COLUMNS.issuperset(names):
        return None
    if "type" not in names and "select_type" not in names:
        return None
    return _Header(names, [word.start() for word in words])


@dataclass(slots=True)
class _Grid:
    """A space-separated table being read: its header and what was read under it."""

    lines: list[str]
    numbers: list[int]
    start: int  # index of the header line
    header: _Header
    rows: list[list[str]] = field(default_factory=list)  # the cells, in the header's order
    row_lines: list[int] = field(default_factory=list)  # the number of each row's (first) line
    row_ends: list[int] = field(default_factory=list)  # the index of each row's last line
    placed: list[int] = field(default_factory=list)  # numbers of the lines whose cells were placed by shape
    rejoined: list[int] = field(default_factory=list)  # numbers of the continuation lines joined to their row
    as_extra: list[int] = field(default_factory=list)  # numbers of the continuation lines taken as Extra
    rejoined_by_shape: list[int] = field(default_factory=list)  # continuation lines dealt to cells by shape
    continued: int = 0  # continuation lines of the last row so far
    unsettled: list[int] = field(default_factory=list)  # indexes of the rows to check once whole


def _read_spaced(grid: _Grid) -> Read:
    """Read the rows under a space-separated header; a line that is no row and continues none ends them."""
    lines = grid.lines
    j = grid.start + 1
    if j < len(lines) and _RULE_RE.match(lines[j]):
        j += 1
    while j < len(lines) and lines[j].strip():
        check_deadline()
        read = _read_line(grid, j)
        if isinstance(read, ParseError):
            return read, j + 1
        if not read:
            break
        if len(grid.row_ends) < len(grid.rows):
            grid.row_ends.append(j)
        else:
            grid.row_ends[-1] = j  # a line that continues the row above
        j += 1
    result = _spaced_result(grid)
    if isinstance(result, ResultSet) and grid.rows:
        check_what_follows(result, lines, grid.numbers, j)
    return result, j


def _read_line(grid: _Grid, j: int) -> bool | ParseError:
    """Read `lines[j]` as a row, or as more of the row above; False when it is neither, a
    `ParseError` when it starts like a row but fits the columns neither by position nor by shape."""
    line = expand_tabs(grid.lines[j])
    spans = _screen_spans(line)
    columns = grid.header.columns
    number = grid.numbers[j]
    if grid.rows and spans[0][0] >= grid.header.starts[1]:
        return _continue_row(grid, line, spans, number)
    if grid.rows and grid.placed and _wraps(columns, grid.rows[-1]) and not _row_like(columns, line):
        return _continue_by_shape(grid, line, number)
    cells = _by_position(grid.header, line, spans)
    if cells is None or not _complete(columns, cells):
        cells = _by_separators(columns, grid.lines[j])
    if cells is None:
        if not _row_like(columns, line):
            return False
        cells, ways = place(columns, line)
        if cells is None and not ways:
            cells = _place_wrapped(columns, line)
        if cells is None:
            return ParseError(
                f"Line {number}, under the EXPLAIN header on line {grid.numbers[grid.start]}, does not fit its "
                f"columns: its values {'fit them more than one way' if ways else 'do not fit them'}, "
                "by position or by their shapes.",
                line=number,
            )
        grid.placed.append(number)
    if any(cell.endswith(",") for column, cell in zip(columns, cells, strict=True) if column in _LIST_COLUMNS):
        grid.unsettled.append(len(grid.rows))  # a list that goes on: checked once the row is whole
    grid.rows.append(cells)
    grid.row_lines.append(number)
    grid.continued = 0
    return True


def _place_wrapped(columns: list[str], line: str) -> list[str] | None:
    """The cells of a row placed by their shapes whose lists were wrapped after a comma (a PDF's
    column: `AssignedPC,` on this line, the rest of the list on the next): placed without the
    commas ending words, each of which must then end a list's cell, which gets it back."""
    words = line.split()
    ending = [len(word) > 1 and word.endswith(",") for word in words]
    if not any(ending):
        return None
    cells, _ = place(columns, " ".join(word[:-1] if cut else word for word, cut in zip(words, ending, strict=True)))
    if cells is None:
        return None
    out = list(cells)
    at = 0  # the index of the first word of each cell
    for k, cell in enumerate(cells):
        count = len(cell.split())
        if any(ending[at : at + count - 1]) or (count and ending[at + count - 1] and columns[k] not in _LIST_COLUMNS):
            return None  # a comma inside a cell, or ending one that is no list
        if count and ending[at + count - 1]:
            out[k] += ","
        at += count
    return out


def _by_separators(columns: list[str], line: str) -> list[str] | None:
    """The cells of a row separated by tabs or by runs of two or more spaces, when there are as
    many as columns and they fit them."""
    line = line.strip(" ")
    cells = [cell.strip(" ") for cell in line.split("\t")] if "\t" in line else _SPACES_RE.split(line)
    return cells if len(cells) == len(columns) and _complete(columns, cells) else None


def _screen_spans(line: str) -> list[tuple[int, int, int, int]]:
    """Each word of `line`: the screen columns it starts and ends at (a wide character takes two),
    and its start and end in the string."""
    if line.isascii():
        return [(a, b, a, b) for a, b in (word.span() for word in _WORD_RE.finditer(line))]
    spans = []
    column = at = 0
    for word in _WORD_RE.finditer(line):
        a, b = word.span()
        start = column + width(line[at:a])
        column = start + width(line[a:b])
        at = b
        spans.append((start, column, a, b))
    return spans


def _by_position(header: _Header, line: str, spans: list[tuple[int, int, int, int]]) -> list[str] | None:
    """The cells of `line` by the header name each word starts under, or None when a word runs
    into the next column (the words do not line up)."""
    starts = header.starts
    count = len(starts)
    first = [-1] * count
    last = [-1] * count
    for start, end, a, b in spans:
        k = max(bisect_right(starts, start) - 1, 0)
        if k + 1 < count and end >= starts[k + 1]:
            return None
        if first[k] < 0:
            first[k] = a
        last[k] = b
    return [line[first[k] : last[k]] if first[k] >= 0 else "" for k in range(count)]


def _complete(columns: list[str], cells: list[str]) -> bool:
    """True when every cell fits its column and those never left blank are not. A list ending in
    a comma may go on on the next line: it is checked once the row is whole."""
    pairs = list(zip(columns, cells, strict=True))
    settled = [cell[:-1] if column in _LIST_COLUMNS and cell.endswith(",") else cell for column, cell in pairs]
    return misfit(tuple(columns), settled) is None and all(cell for column, cell in pairs if column in _ALWAYS_SHOWN)


def _row_like(columns: list[str], line: str) -> bool:
    """True when `line` starts as a row of these columns would: its first two values fit them."""
    words = line.split(maxsplit=3)
    if len(words) < 2:
        return False
    return fits(columns[0], words[0]) and (fits(columns[1], words[1]) or fits(columns[1], " ".join(words[1:3])))


def _continue_row(grid: _Grid, line: str, spans: list[tuple[int, int, int, int]], number: int) -> bool:
    """Add a continuation line to the row above: each piece to the cell it starts under (a cell
    wrapped there), or, when that does not fit, the whole line as the row's Extra if it reads as
    Extra items and the row has none. False when it is neither."""
    columns = grid.header.columns
    row = grid.rows[-1]
    if grid.continued == _MAX_CONTINUED:
        return False
    pieces = _by_position(grid.header, line, spans)
    joined = _joined(columns, row, pieces) if pieces is not None else None
    text = line.strip()
    if joined is not None:
        grid.rejoined.append(number)
    elif "extra" in columns and not row[columns.index("extra")] and starts_extra_item(text):
        joined = [text if column == "extra" else cell for column, cell in zip(columns, row, strict=True)]
        grid.as_extra.append(number)
    else:
        return False
    grid.rows[-1] = joined
    if not grid.unsettled or grid.unsettled[-1] != len(grid.rows) - 1:
        grid.unsettled.append(len(grid.rows) - 1)
    grid.continued += 1
    return True


def _wraps(columns: list[str], row: list[str]) -> bool:
    """Whether a row has a list that goes on (ending in a comma)."""
    return any(cell.endswith(",") for column, cell in zip(columns, row, strict=True) if column in _LIST_COLUMNS)


def _continue_by_shape(grid: _Grid, line: str, number: int) -> bool:
    """Add a continuation line whose words do not line up (a PDF's text) to the row above, whose
    cells were placed by shape and which has a list that goes on: its words go, in the columns'
    order, to the cells that can go on, one word to each list ending in a comma and the rest to
    a non-empty Extra while it reads as Extra. False when a word goes nowhere."""
    columns = grid.header.columns
    if grid.continued == _MAX_CONTINUED:
        return False
    row = list(grid.rows[-1])
    words = line.split()
    k = 0
    for at, column in enumerate(columns):
        if k == len(words):
            break
        if column in _LIST_COLUMNS and row[at].endswith(","):
            if not fits(column, words[k].rstrip(",")):
                return False
            row[at] += words[k]
            k += 1
        elif column == "extra" and row[at]:
            joined = " ".join([row[at], *words[k:]])
            if not fits("extra", joined):
                return False
            row[at], k = joined, len(words)
    if k < len(words):
        return False
    grid.rows[-1] = row
    grid.rejoined_by_shape.append(number)
    if not grid.unsettled or grid.unsettled[-1] != len(grid.rows) - 1:
        grid.unsettled.append(len(grid.rows) - 1)
    grid.continued += 1
    return True


def _joined(columns: list[str], row: list[str], pieces: list[str]) -> list[str] | None:
    """The cells of `row` with the pieces of a continuation line joined on, or None when a piece
    cannot continue its cell: a list (`PRIMARY,`) goes on after a comma, other text after a space,
    and the cell must still fit its column (a list is checked once the row is whole)."""
    out = list(row)
    for k, piece in enumerate(pieces):
        if not piece:
            continue
        column, cell = columns[k], out[k]
        if column in _LIST_COLUMNS:
            if cell and not (cell.endswith(",") or piece.startswith(",")):
                return None
            out[k] = cell + piece
        else:
            out[k] = f"{cell} {piece}" if cell else piece
            if not fits(column, out[k]):
                return None
    return out


def _spaced_result(grid: _Grid) -> ResultSet | ParseError:
    """The result set of the rows read (or why a row does not fit once its continuations are on)."""
    columns = grid.header.columns
    header_line = grid.numbers[grid.start]
    for index in grid.unsettled:
        row, number = grid.rows[index], grid.row_lines[index]
        bad = misfit(tuple(columns), row)
        if bad is not None:
            return ParseError(
                f"Line {number}, under the EXPLAIN header on line {header_line}, does not fit its columns: "
                f"'{row[bad]}' cannot be {columns[bad]}.",
                line=number,
            )
    rows = [{name: value(cell) for name, cell in zip(columns, row, strict=True)} for row in grid.rows]
    result = ResultSet("tsv", list(columns), rows, header_line, notices=_spaced_notices(grid))
    result.uncertain = bool(grid.placed or grid.as_extra or grid.rejoined_by_shape)
    flag_cut_values(result, grid.row_lines)
    _flag_cut_width(result, grid)
    return result


def _flag_cut_width(result: ResultSet, grid: _Grid) -> None:
    """Flag the rows whose last line ends at the width the lines were cut at, short of their last
    column: the widest of the header's and the rows' lines, when two or more rows end there (the
    header ends where its last name does, cut or not) or it is a usual terminal width. The last value such a row shows was cut (it ends in `…`), the empty
    columns after it are missing (`…`)."""
    lines = grid.lines
    sizes = [width(expand_tabs(lines[k].rstrip())) for k in [grid.start, *grid.row_ends]]
    widest = max(sizes)
    if sizes[1:].count(widest) < 2 and widest not in USUAL_TERMINAL_WIDTHS:
        return
    columns = result.columns
    cut: list[int] = []
    for index, size in enumerate(sizes[1:]):
        row = result.rows[index]
        last = max((k for k, name in enumerate(columns) if row[name] != ""), default=0)
        shown = row[columns[last]]
        if size != widest or last == len(columns) - 1 or (shown or "").endswith(CUT):
            continue
        row[columns[last]] = ("NULL" if shown is None else shown) + CUT
        row.update(dict.fromkeys(columns[last + 1 :], CUT))
        cut.append(index)
    if not cut:
        return
    flag_cut_rows(
        result,
        cut,
        f"{describe_lines([grid.row_lines[index] for index in cut]).capitalize()} "
        f"{'ends' if len(cut) == 1 else 'end'} at {widest} columns before the last column: the lines look "
        f"truncated at that width. The last value shown ends in '{CUT}' and the columns after it are '{CUT}'.",
    )


def _spaced_notices(grid: _Grid) -> list[str]:
    """What was done to read a space-separated table, and which lines are a guess."""
    notices = [
        f"Read a table without borders whose header (line {grid.numbers[grid.start]}) has its column names "
        "separated by spaces."
    ]
    if grid.rejoined:
        notices.append(
            f"Rejoined {plural(len(grid.rejoined), 'continuation line')} ({describe_lines(grid.rejoined)}) "
            "to the cells they continue."
        )
    if grid.placed:
        notices.append(
            f"The values on {describe_lines(grid.placed)} do not line up under the header's names; they were "
            "placed into the columns by their shapes (id a number, type an access type, …): check those rows."
        )
    if grid.rejoined_by_shape:
        notices.append(
            f"The words on {describe_lines(grid.rejoined_by_shape)} do not line up under the header's names; they "
            "were read as the rest of the cells of the row above that go on (a list after its comma, Extra): "
            "check them."
        )
    if grid.as_extra:
        notices.append(
            f"The text on {describe_lines(grid.as_extra)} fits no column it starts under; it was read as the "
            "Extra of the row above: check it."
        )
    return notices
