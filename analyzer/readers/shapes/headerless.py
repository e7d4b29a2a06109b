"""Rows of EXPLAIN output without a header line, read in a column order EXPLAIN prints.

A GUI client copies the grid without its header (`1<TAB>SIMPLE<TAB>t<TAB>…`), people type a row
out with single spaces or leave the header off a table. A run of lines that each start with an id
and a select_type is read when its values fit one of the column orders EXPLAIN prints
(`shapes.ORDERS`, 10 to 13 columns), and a notice says so; it is flagged `uncertain` when more than
one order fits, or when the cells had to be placed by their shapes.

- Fields separated by tabs, runs of two or more spaces or `|` (a `|` beside a space, when MariaDB's
  `ref|filter` is among them) give the number of columns; a tab ending every row (phpMyAdmin's
  copy) is taken as its end rather than an empty cell when the rows then fit.
- Fields separated by commas (a GUI's copy of rows as CSV, quoted or not) are read the same way,
  an empty field as NULL (as a GUI copies it); such rows are always flagged `uncertain`, since a
  list of keys or refs copied without quotes holds commas too.
- Words separated by single spaces are placed into each order by their shapes (`shapes.place`).
- A code comment's marker before every row (`#`, `--`, `//`) comes off.

Rows that start like EXPLAIN rows but fit no order are refused with the line and the reason.
"""

from __future__ import annotations

import csv

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import ParseError
from analyzer.readers.resultset import CUT, ResultSet, flag_cut_rows, value
from analyzer.readers.shapes.by_value import ORDERS, PREFERRED, Order, misfit, place
from analyzer.readers.shapes.cell_shapes import stops_inside
from analyzer.readers.vocabulary import SELECT_TYPES
from analyzer.repair.unwrap.boxed import is_border
from analyzer.structs import dataclass, field, replace
from analyzer.wording import describe_lines

# An id (NULL for the row of a union's result), then a select_type, at the start of a line (behind a
# comment's marker, maybe).
ROW_START_RE = lazy_regex(
    r"[ \t|]*+(?:(?:#|--|//) *+)?(?:(?:\d++|NULL)(?:\t| ++| *+\| *+)|[\"']?\d++[\"']? *+,[ \"']*+)(?:SIMPLE|PRIMARY|UNION|DEPENDENT|SUBQUERY|DERIVED"
    r"|MATERIALIZED|UNCACHEABLE|LATERAL|INTERSECT|EXCEPT|UNIT|PUSHED|INSERT|UPDATE|DELETE|REPLACE)\b"
)
_COMMENT_RE = lazy_regex(r"\s*(#|--|//) *")
_SPACES_RE = lazy_regex(r" {2,}")
_SPACED_PIPE_RE = lazy_regex(r" +\| *|\| +")
# A comma after the id: the fields are separated by commas (a GUI's copy of rows as CSV).
_COMMA_ROW_RE = lazy_regex(r"\s*[\"']?\d+[\"']? *,")
_SEPARATED_BY = {"\t": "tabs", "|": "'|'", ",": "commas", "  ": "runs of spaces", " ": "single spaces"}
_FORMATS = {"|": "table", ",": "csv"}  # the format of rows by their separator; tsv otherwise
_SAMPLE = 20  # rows the column order of rows with single spaces is chosen on

Read = tuple[ResultSet | ParseError | None, int]


@dataclass(slots=True)
class _Run:
    """Header-less rows being read: how they are written, and their texts."""

    lines: list[str]
    numbers: list[int]
    prefix: str  # the comment marker before every row, or ''
    separator: str  # "\t", "|", ",", "  " or " "
    texts: list[str] = field(default_factory=list)  # each row, without the comment marker
    rows: list[list[str]] = field(default_factory=list)  # each row's fields (not for single spaces)
    at: list[int] = field(default_factory=list)  # index of each row's first line
    end: int = 0  # index of the line after the run


def starts_row(line: str) -> bool:
    """True when a run of header-less rows may start on `line`: an id and a select_type first."""
    return _start(line) is not None


@dataclass(frozen=True, slots=True)
class _Start:
    """A line that starts like an EXPLAIN row: its comment marker, the rest, the separator, and the
    fields (none when separated by single spaces)."""

    prefix: str
    body: str
    separator: str
    cells: list[str]


def _start(line: str) -> _Start | None:
    """How a line that starts like an EXPLAIN row (an id, then a select_type) is written, else None."""
    if not ROW_START_RE.match(line):
        return None
    comment = _COMMENT_RE.match(line)
    prefix, body = (comment.group(1), line[comment.end() :]) if comment else ("", line)
    separator = _separator(body)
    if separator == " ":
        words = body.split(maxsplit=3)
        if len(words) < 2:
            return None  # a few `|` signs without spaces around them (`|1|SIMPLE|t|`): not enough to split at
        cells, first, second = [], words[0], [words[1], " ".join(words[1:3])]
    else:
        cells = _cells(body, separator)
        first, second = cells[0], cells[1:2]
    if first == "NULL":
        second = [s for s in second if s.endswith(" RESULT")]  # only the row of a union's result has no id
    elif not first.isdigit():
        return None
    return _Start(prefix, body, separator, cells) if any(s in SELECT_TYPES for s in second) else None


def _separator(body: str) -> str:
    """How the fields of a row are separated: a tab, `|`, a comma, a run of spaces, or a single space."""
    if _COMMA_ROW_RE.match(body) and "\t" not in body:
        return ","
    if "\t" in body:
        return "\t"
    if body.count("|") >= 9:
        return "|"
    return "  " if body.count("  ") >= 9 else " "


def _cells(body: str, separator: str) -> list[str]:
    """The stripped fields of a row whose fields are separated by `separator` (not single spaces)."""
    if separator == "\t":
        return [cell.strip(" ") for cell in body.strip(" ").split("\t")]
    if separator == "  ":
        return _SPACES_RE.split(body.strip())
    if separator == ",":
        return _comma_cells(body.strip())
    inner = body.strip()
    if inner.startswith("|"):
        inner = inner[1:-1] if inner.endswith("|") and len(inner) > 1 else inner[1:]
    # A `|` with a space beside it separates cells; MariaDB prints `ref|filter` and `4|1` without.
    spaced = _SPACED_PIPE_RE.split(inner)
    return [cell.strip() for cell in (spaced if len(spaced) in ORDERS else inner.split("|"))]


def _comma_cells(body: str) -> list[str]:
    """The fields of a comma-separated row, unquoted (the quote the row's first field opens with,
    else `"`, may enclose a field that holds a comma)."""
    quote = body[0] if body[:1] in "'\"" else '"'
    return [cell.strip() for cell in next(csv.reader([body], quotechar=quote, skipinitialspace=True))]


def read_headerless(lines: list[str], numbers: list[int], start: int, first: int) -> Read:
    """Read the run of header-less rows from `lines[first]`; `lines[start]` is their top border, if any."""
    started = _start(lines[first])
    if started is None:
        return None, first + 1
    if started.separator != " " and _has_header(lines, start, started):
        return None, first + 1
    run = _Run(lines, numbers, started.prefix, started.separator)
    _collect(run, first, started)
    fitting, whole = _fitting(run)
    if not fitting or not (whole or _cut_short(run)):
        return _refusal(run), run.end
    if whole:
        result = _result(run, fitting)
    else:
        result = _result(replace(run, texts=run.texts[:-1], rows=run.rows[:-1], at=run.at[:-1]), fitting)
        _add_cut_row(result, run)
    if start == first and run.separator == "|" and is_border(lines[run.end - 1]):
        _starts_mid_table(result, run)
    return result, run.end


def _starts_mid_table(result: ResultSet, run: _Run) -> None:
    """Flag `|` rows that close with a table's bottom border but open with neither a header nor a
    top border: the table started above them (a page or a selection began in its middle)."""
    result.truncated = True
    result.notices.append(
        f"The rows from line {run.numbers[run.at[0]]} end with a table's bottom border but have no header or top "
        "border above them: the table starts before the paste, and its header and maybe rows of it are missing."
    )


def _add_cut_row(result: ResultSet, run: _Run) -> None:
    """Flag the rows read as missing their last, which is cut short: its fields go into the first
    columns, the last cut (`…`) and the rest missing; words separated by single spaces are left out."""
    result.truncated = True
    number = run.numbers[run.at[-1]]
    if run.separator == " ":
        result.notices.append(
            f"The last row (line {number}) fits no column order with the others: it looks truncated, and is left out."
        )
        return
    fields = run.rows[-1]
    cells = [*fields[:-1], fields[-1] + CUT] + [CUT] * (len(result.columns) - len(fields))
    result.rows.append({name: value(cell) for name, cell in zip(result.columns, cells, strict=True)})
    result.affected_rows.append(len(result.rows) - 1)
    result.notices.append(
        f"The last row (line {number}) has fewer fields than the others: it looks truncated. Its fields are read "
        f"in order; the last ends in '{CUT}' and the missing ones are '{CUT}'."
    )


def flag_cut_values(result: ResultSet, numbers: list[int]) -> None:
    """Flag the rows (on lines `numbers`) whose last value visibly stops inside a word or an item
    (`cell_shapes.stops_inside`: `Using whe`, `Using join buffer (flat, BNL`): the lines were cut."""
    cut: list[int] = []
    for index, row in enumerate(result.rows):
        column = next((name for name in reversed(result.columns) if row.get(name)), None)
        text = row[column] if column is not None else None
        if (
            column is not None
            and text is not None
            and not text.endswith(CUT)
            and stops_inside(column, text, result.columns)
        ):
            row[column] = text + CUT
            cut.append(index)
    if not cut:
        return
    flag_cut_rows(
        result,
        cut,
        f"The values at the end of {describe_lines([numbers[index] for index in cut])} stop inside a word or an item: "
        f"the lines look truncated. A cut value ends in '{CUT}'.",
    )


def _cut_short(run: _Run) -> bool:
    """True when the last row looks cut short: fewer fields than the first, or words that end the paste."""
    if run.separator != " ":
        return len(run.rows[-1]) < len(run.rows[0])
    return not any(line.strip() for line in run.lines[run.end :])


def _has_header(lines: list[str], start: int, started: _Start) -> bool:
    """True when the line above the rows (above their top border, if any) has as many fields: the
    rows have a header of their own, which is not EXPLAIN's."""
    above = start - 1
    if started.separator == "|" and above >= 0 and is_border(lines[above]):
        above -= 1
    if above < 0 or not lines[above].strip() or _separator(lines[above]) != started.separator:
        return False
    return len(_cells(lines[above], started.separator)) == len(started.cells)


def _collect(run: _Run, first: int, started: _Start | None) -> None:
    """The rows from `lines[first]` (which starts as `started`) on: lines that start rows with the
    same marker and separator, and the borders around them."""
    lines = run.lines
    j = first
    while j < len(lines):
        check_deadline()
        following = _start(lines[j + 1]) if j + 1 < len(lines) else None
        if run.separator == "|" and is_border(lines[j]):
            if j + 1 < len(lines) and lines[j + 1].strip() and not _same(run, following):
                break  # the border of something else
        elif started is not None and _same(run, started):
            run.at.append(j)
            run.texts.append(started.body)
            run.rows.append(started.cells)
        else:
            break
        j, started = j + 1, following
    run.end = j


def _same(run: _Run, started: _Start | None) -> bool:
    """True when a line that starts as `started` starts a row of this run."""
    return started is not None and started.prefix == run.prefix and started.separator == run.separator


Fit = tuple[Order, list[list[str]]]  # a column order the rows fit, and their cells in it


def _fitting(run: _Run) -> tuple[list[Fit], bool]:
    """The column orders the rows fit, the likeliest first, and whether all of them fit (else all
    but the last, which a cut paste leaves short)."""
    if run.separator == " ":
        return _placed(run)
    fitting = _orders_fitting(run.rows)
    if fitting or len(run.rows) < 2:
        return fitting, True
    return _orders_fitting(run.rows[:-1]), False


def _orders_fitting(rows: list[list[str]]) -> list[Fit]:
    """The column orders these rows of fields fit, with their cells."""
    fitting = []
    for drop in (False, True):
        # A tab that ends every row is the row's end (phpMyAdmin), or an empty last cell.
        if drop and not all(len(row) > 1 and row[-1] == "" for row in rows):
            continue
        cut = [row[:-1] if drop else row for row in rows]
        count = len(cut[0])
        if count in ORDERS and all(len(row) == count for row in cut):
            orders = ORDERS[count]
            fitting += [(order, cut) for order in orders if all(misfit(order.columns, row) is None for row in cut)]
    return fitting


def _placed(run: _Run) -> tuple[list[Fit], bool]:
    """The column orders rows of words separated by single spaces can be placed in (`shapes.place`),
    the one taken first with the cells of every row, and whether all rows fit (else all but the
    last). The orders are chosen on the first rows; the rest go into the first that takes them
    (but maybe the last)."""
    texts = run.texts
    if len(texts) <= _SAMPLE:
        fitting = _orders_placing(texts)
        if fitting or len(texts) < 2:
            return fitting, True
        return _orders_placing(texts[:-1]), False
    sample = _orders_placing(texts[:_SAMPLE])
    for index, (order, rows) in enumerate(sample):
        rest = _place_all(order, texts[_SAMPLE:])
        if len(rest) >= len(texts) - _SAMPLE - 1:
            return [(order, rows + rest), *sample[:index], *sample[index + 1 :]], len(rest) == len(texts) - _SAMPLE
    return [], True


def _orders_placing(texts: list[str]) -> list[Fit]:
    """The orders every row goes into, with their cells: those leaving fewer cells empty first,
    then the likelier."""
    fitting = [(order, rows) for order in PREFERRED if len(rows := _place_all(order, texts)) == len(texts)]
    return sorted(fitting, key=lambda fit: sum(cell == "" for row in fit[1] for cell in row))


def _place_all(order: Order, texts: list[str]) -> list[list[str]]:
    """The cells of the rows placed in `order`, up to the first that does not go into it."""
    rows = []
    for text in texts:
        cells, _ = place(list(order.columns), text)
        if cells is None:
            break
        rows.append(cells)
    return rows


def _result(run: _Run, fitting: list[Fit]) -> ResultSet:
    """The rows in the first order that fits, with notices on how they were read."""
    order, rows = fitting[0]
    comma = run.separator == ","
    table = [
        {name: None if comma and cell == "" else value(cell) for name, cell in zip(order.columns, row, strict=True)}
        for row in rows
    ]
    numbers = run.numbers
    result = ResultSet(_FORMATS.get(run.separator, "tsv"), list(order.columns), table, numbers[run.at[0]])
    span = _span([numbers[run.at[0]], numbers[run.end - 1]])
    have, their = ("have", "their") if len(rows) > 1 else ("has", "its")
    result.notices.append(f"{span} {have} no header; read as {order.name} because {their} values fit them.")
    if run.prefix:
        result.notices.append(f"Took the comment marker '{run.prefix}' off {span[0].lower()}{span[1:]}.")
    if run.separator == " ":
        result.uncertain = True
        result.notices.append(
            f"{their.capitalize()} values are separated by single spaces: they were placed into the columns by "
            "their shapes (id a number, type an access type, …). Check them."
        )
    if comma:
        result.uncertain = True
        result.notices.append(
            f"{their.capitalize()} values are separated by commas, as a GUI copies rows as CSV (an empty field is "
            "read as NULL): a list of keys or refs printed without quotes would hold commas too. Check them."
        )
    if len(fitting) > 1:
        result.uncertain = True
        result.notices.append(f"They fit {fitting[1][0].name} as well: which columns they are is a guess.")
    flag_cut_values(result, [numbers[k] for k in run.at])
    check_what_follows(result, run.lines, numbers, run.end)
    return result


def check_what_follows(result: ResultSet, lines: list[str], numbers: list[int], end: int) -> None:
    """Flag rows followed right away by a line that does not fit them: text, or part of a row that
    was wrapped or damaged, which would then be missing."""
    if end < len(lines) and lines[end].strip():
        result.uncertain = True
        result.notices.append(
            f"Line {numbers[end]} follows the rows with no empty line between but does not fit them: if it is "
            "part of a row (wrapped or damaged), that part is not read. Check the rows against the paste."
        )


def _refusal(run: _Run) -> ParseError:
    """Why rows that start like EXPLAIN rows are refused: the first value that fits no column
    order (in the order they fit longest), or their number of fields."""
    numbers = [run.numbers[k] for k in run.at]
    many = len(numbers) > 1
    their = "their" if many else "its"
    what = (
        f"{_span(numbers)} {'look' if many else 'looks'} like {'EXPLAIN rows' if many else 'an EXPLAIN row'} "
        f"without a header (an id and a select_type first, then values separated by {_SEPARATED_BY[run.separator]})"
    )
    if run.separator == " ":
        return ParseError(f"{what}, but no column order EXPLAIN prints fits {their} values.", line=numbers[0])
    rows = run.rows
    other = next((index for index, row in enumerate(rows) if len(row) != len(rows[0])), None)
    if other is not None:
        return ParseError(
            f"{what}, but line {numbers[other]} has {len(rows[other])} fields where line {numbers[0]} has "
            f"{len(rows[0])}: a row is damaged or wrapped.",
            line=numbers[other],
        )
    variants = [rows, [row[:-1] for row in rows]] if all(row[-1] == "" for row in rows) else [rows]
    misfits = [
        (index, column, order, variant)
        for variant in variants
        for order in ORDERS.get(len(variant[0]), ())
        if (index_column := _first_misfit(order, variant)) is not None
        for index, column in [index_column]
    ]
    if not misfits:
        counts = " or ".join(str(count) for count in sorted({len(row) for row in rows}))
        return ParseError(f"{what}, but {their} {counts} fields are not the columns of EXPLAIN.", line=numbers[0])
    index, column, order, variant = max(misfits, key=lambda m: (m[0], m[1]))
    return ParseError(
        f"{what}, but {their} values do not fit EXPLAIN's columns: on line {numbers[index]}, "
        f"'{variant[index][column]}' cannot be {order.columns[column]}.",
        line=numbers[index],
    )


def _first_misfit(order: Order, rows: list[list[str]]) -> tuple[int, int] | None:
    """The row and column of the first value that does not fit `order` (rows of its length)."""
    for index, row in enumerate(rows):
        column = misfit(order.columns, row)
        if column is not None:
            return index, column
    return None


def _span(numbers: list[int]) -> str:
    """`Line 4` or `Lines 4-6`: where a run of lines is."""
    return f"Lines {numbers[0]}-{numbers[-1]}" if numbers[-1] != numbers[0] else f"Line {numbers[0]}"
