"""Tables whose borders, alignment or header are gone, read where no other reader found an EXPLAIN.

`shaped_result_sets(lines, numbers)` (the fallback of `readers.dispatch`) finds two shapes:

- A header line of EXPLAIN column names separated by spaces (the MySQL manual's hand-laid-out
  columns, batch output whose tabs were collapsed to single spaces, a header aligned by hand off
  the tab stops, the old header without id and select_type), then rows whose cells are separated
  by runs of spaces. A row's cells are read by position where its words line up under the
  header's names, else by the shapes of its values (`shapes.place`), which is a guess: the result
  is flagged `uncertain`. A line starting under a later column continues the row above (the
  manual wraps long cells so): each piece joins the cell it starts under; a line that fits no
  cell but reads as Extra items becomes the row's Extra, also flagged.
- A run of rows without a header: 10 to 13 fields separated by tabs, runs of two or more spaces
  or `|`, starting with an id and a select_type, read in the column order EXPLAIN prints with that
  many fields (`shapes.ORDERS`) when the values fit it; flagged when more than one order fits.

Lines that look like one of these but do not fit are refused with a `ParseError` naming the line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from analyzer.model import ParseError
from analyzer.readers.resultset import EXPLAIN_COLUMNS, ResultSet, value
from analyzer.readers.shapes import ORDERS, SELECT_TYPES, fits, misfit, place
from analyzer.readers.table import is_border
from analyzer.repair.textwidth import expand_tabs, width
from analyzer.wording import describe_lines, plural

_HEADER_RE = re.compile(
    r"\s*(?:id|select_type|table|partitions|type|possible_keys|key|key_len|ref|rows|r_rows|filtered|r_filtered|extra)"
    r"\s",
    re.IGNORECASE,
)
# What a line starts with when a table starts on it: a column name (a header), or an id and a
# select_type (a header-less row).
_START_RE = re.compile(
    r"[ \t|]*+(?:(?:id|select_type|table|partitions|type|possible_keys|key|key_len|ref|rows|r_rows|filtered"
    r"|r_filtered|extra)\s|\d++(?:\t| {2,}+| *+\| *+)(?:SIMPLE|PRIMARY|UNION|DEPENDENT|SUBQUERY|DERIVED|MATERIALIZED"
    r"|UNCACHEABLE|LATERAL|INTERSECT|EXCEPT|UNIT|PUSHED|INSERT|UPDATE|DELETE|REPLACE)\b)",
    re.IGNORECASE,
)
# A word found on every such line: the header names type (or select_type), a row has a select_type.
# (Literal alternatives only: the scan then skips to their first letters.)
_MARK_RE = re.compile(
    r"type|Type|TYPE|SIMPLE|PRIMARY|UNION|DEPENDENT|SUBQUERY|DERIVED|MATERIALIZED|UNCACHEABLE|LATERAL|INTERSECT|EXCEPT"
    r"|UNIT|PUSHED|INSERT|UPDATE|DELETE|REPLACE"
)
_MAX_HEADER = 400  # characters: a header holds at most 14 names
_WORD_RE = re.compile(r"\S+")
_RULE_RE = re.compile(r"\s*[-=+ ]*-[-=+ ]*$")  # dashes under a header
_SPACES_RE = re.compile(r" {2,}")
_SPACED_PIPE_RE = re.compile(r" +\| *|\| +")
# How the Extra items a server prints start: text wrapped onto a line of its own reads as Extra.
_EXTRA_ITEM_RE = re.compile(
    r"(?:Using |Range checked|Distinct|Not exists|Impossible |No tables|No matching|Select tables|Full scan"
    r"|Start temporary|End temporary|FirstMatch|LooseScan|Backward index|Zero limit|const row|unique row"
    r"|Scanned|Rematerialize|Recursive|Skip_open_table|Open_)"
)
_MAX_CONTINUED = 20  # continuation lines of one row (the manual wraps a cell over three)
_LIST_COLUMNS = frozenset({"partitions", "possible_keys", "key", "key_len", "ref"})
_ALWAYS_SHOWN = frozenset({"id", "select_type", "table", "type"})  # never blank in a row (NULL at least)
_SEPARATORS = {"\t": "tab", "|": "'|'", "  ": "run of spaces"}

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
    """Indexes of the lines a table may start on: a header naming type, or a row with nine
    separators or more. Found from the words they hold in one pass over the text, as most lines
    of a big paste are no candidate."""
    text = "\n".join(lines)
    starts = []
    index = at = 0
    for match in _MARK_RE.finditer(text):
        if match.start() < at:
            continue  # a line already looked at
        index += text.count("\n", at, match.start())
        at = text.find("\n", match.start()) + 1 or len(text)
        line = lines[index]
        if _START_RE.match(line) and (
            "type" in line.lower() or line.count("\t") >= 9 or line.count("|") >= 9 or line.count("  ") >= 9
        ):
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
    split = _row_start(line)
    if split is None:
        return None, i, i + 1
    start = i - 1 if i and is_border(lines[i - 1]) else i
    result, end = _read_headerless(lines, numbers, start, i, split)
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
    placed: list[int] = field(default_factory=list)  # numbers of the lines whose cells were placed by shape
    rejoined: list[int] = field(default_factory=list)  # numbers of the continuation lines joined to their row
    as_extra: list[int] = field(default_factory=list)  # numbers of the continuation lines taken as Extra
    continued: int = 0  # continuation lines of the last row so far
    unsettled: list[int] = field(default_factory=list)  # indexes of the rows to check once whole


def _read_spaced(grid: _Grid) -> Read:
    """Read the rows under a space-separated header; a line that is no row and continues none ends them."""
    lines = grid.lines
    j = grid.start + 1
    if j < len(lines) and _RULE_RE.match(lines[j]):
        j += 1
    while j < len(lines) and lines[j].strip():
        read = _read_line(grid, j)
        if isinstance(read, ParseError):
            return read, j + 1
        if not read:
            break
        j += 1
    result = _spaced_result(grid)
    if isinstance(result, ResultSet) and grid.rows:
        _check_what_follows(result, lines, grid.numbers, j)
    return result, j


def _check_what_follows(result: ResultSet, lines: list[str], numbers: list[int], end: int) -> None:
    """Flag rows followed right away by a line that does not fit them: text, or part of a row that
    was wrapped or damaged, which would then be missing."""
    if end < len(lines) and lines[end].strip():
        result.uncertain = True
        result.notices.append(
            f"Line {numbers[end]} follows the rows with no empty line between but does not fit them: if it is "
            "part of a row (wrapped or damaged), that part is not read. Check the rows against the paste."
        )


def _read_line(grid: _Grid, j: int) -> bool | ParseError:
    """Read `lines[j]` as a row, or as more of the row above; False when it is neither, a
    `ParseError` when it starts like a row but fits the columns neither by position nor by shape."""
    line = expand_tabs(grid.lines[j])
    spans = _screen_spans(line)
    columns = grid.header.columns
    number = grid.numbers[j]
    if grid.rows and spans[0][0] >= grid.header.starts[1]:
        return _continue_row(grid, line, spans, number)
    cells = _by_position(grid.header, line, spans)
    if cells is None or not _complete(columns, cells):
        cells = _by_separators(columns, grid.lines[j])
    if cells is None:
        if not _row_like(columns, line):
            return False
        cells, ways = place(columns, line)
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
    elif "extra" in columns and not row[columns.index("extra")] and _EXTRA_ITEM_RE.match(text):
        joined = [text if column == "extra" else cell for column, cell in zip(columns, row, strict=True)]
        grid.as_extra.append(number)
    else:
        return False
    grid.rows[-1] = joined
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
    result.uncertain = bool(grid.placed or grid.as_extra)
    return result


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
    if grid.as_extra:
        notices.append(
            f"The text on {describe_lines(grid.as_extra)} fits no column it starts under; it was read as the "
            "Extra of the row above: check it."
        )
    return notices


def _fields(line: str) -> tuple[str, list[str]] | None:
    """How a header-less row's fields are separated (a tab, `|` or a run of spaces) and its fields,
    stripped; None when it has too few separators to be an EXPLAIN row."""
    if line.count("\t") >= 9:
        return "\t", [cell.strip(" ") for cell in line.strip(" ").split("\t")]
    if line.count("|") >= 9:
        inner = line.strip()
        if inner.startswith("|"):
            inner = inner[1:-1] if inner.endswith("|") and len(inner) > 1 else inner[1:]
        # A `|` with a space beside it separates cells; MariaDB prints `ref|filter` and `4|1` without.
        spaced = _SPACED_PIPE_RE.split(inner)
        cells = spaced if len(spaced) in ORDERS else inner.split("|")
        return "|", [cell.strip() for cell in cells]
    if line.count("  ") >= 9:
        return "  ", _SPACES_RE.split(line.strip())
    return None


def _row_start(line: str) -> tuple[str, list[str]] | None:
    """The separator and fields of `line` when it can start a run of header-less rows: as many
    fields as an EXPLAIN prints, an id and a select_type first."""
    split = _fields(line)
    if split is None or len(split[1]) not in ORDERS:
        return None
    cells = split[1]
    return split if cells[0].isdigit() and cells[1] in SELECT_TYPES else None


def _read_headerless(
    lines: list[str], numbers: list[int], start: int, first: int, split: tuple[str, list[str]]
) -> Read:
    """Read the run of header-less rows from `lines[first]` (split into `split`: its separator and
    fields); `lines[start]` is their top border, if any."""
    separator, count = split[0], len(split[1])
    if _has_header(lines, start, separator, count):
        return None, first + 1
    rows, at, end = _run(lines, first, separator, count)
    orders = [order for order in ORDERS[count] if all(misfit(order.columns, row) is None for row in rows)]
    span = _span([numbers[k] for k in at])
    if not orders:
        return _headerless_refusal(rows, [numbers[k] for k in at], separator), end
    order = orders[0]
    table = [{name: value(cell) for name, cell in zip(order.columns, row, strict=True)} for row in rows]
    result = ResultSet("table" if separator == "|" else "tsv", list(order.columns), table, numbers[first])
    have, their = ("have", "their") if len(rows) > 1 else ("has", "its")
    result.notices.append(f"{span} {have} no header; read as {order.name} because {their} values fit them.")
    if len(orders) > 1:
        result.uncertain = True
        result.notices.append(f"They fit {orders[1].name} as well: which columns they are is a guess.")
    _check_what_follows(result, lines, numbers, end)
    return result, end


def _has_header(lines: list[str], start: int, separator: str, count: int) -> bool:
    """True when the line above the rows (above their top border, if any) has as many fields: the
    rows have a header of their own, which is not EXPLAIN's."""
    above = start - 1
    if separator == "|" and above >= 0 and is_border(lines[above]):
        above -= 1
    if above < 0 or not lines[above].strip():
        return False
    split = _fields(lines[above])
    return split is not None and split[0] == separator and len(split[1]) == count


def _run(lines: list[str], first: int, separator: str, count: int) -> tuple[list[list[str]], list[int], int]:
    """The fields of the rows from `lines[first]` on that have this separator and count, the
    indexes of their lines, and the index of the line after them (and after their bottom border)."""
    rows: list[list[str]] = []
    at: list[int] = []
    j = first
    while j < len(lines):
        if separator == "|" and is_border(lines[j]):
            if j + 1 < len(lines) and lines[j + 1].strip() and _same_run(lines[j + 1], separator, count) is None:
                break  # the border of something else
            j += 1
            continue
        cells = _same_run(lines[j], separator, count)
        if cells is None:
            break
        rows.append(cells)
        at.append(j)
        j += 1
    return rows, at, j


def _same_run(line: str, separator: str, count: int) -> list[str] | None:
    """The fields of `line` when it has this separator and count of fields, else None."""
    split = _fields(line)
    return split[1] if split is not None and split[0] == separator and len(split[1]) == count else None


def _headerless_refusal(rows: list[list[str]], numbers: list[int], separator: str) -> ParseError:
    """Why header-less rows that start like EXPLAIN rows are refused: the first value that fits
    no column order, in the order they fit longest."""
    count = len(rows[0])
    misfits = []
    for order in ORDERS[count]:
        index = next(r for r, row in enumerate(rows) if misfit(order.columns, row) is not None)
        column = misfit(order.columns, rows[index])
        assert column is not None
        misfits.append((index, column, order))
    index, column, order = max(misfits, key=lambda m: (m[0], m[1]))
    look, rows_, their = ("look", "EXPLAIN rows", "their") if len(numbers) > 1 else ("looks", "an EXPLAIN row", "its")
    return ParseError(
        f"{_span(numbers)} {look} like {rows_} without a header ({count} fields separated by a "
        f"{_SEPARATORS[separator]}, an id and a select_type first), but {their} values do not fit EXPLAIN's "
        f"columns: on line {numbers[index]}, '{rows[index][column]}' cannot be {order.columns[column]}.",
        line=numbers[index],
    )


def _span(numbers: list[int]) -> str:
    """`Line 4` or `Lines 4-6`: where a run of lines is."""
    return f"Lines {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"Line {numbers[0]}"
