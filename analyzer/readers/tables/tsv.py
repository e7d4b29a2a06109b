"""Batch output (`mysql -B`): a header line, then one line per row, fields separated by tabs.

Also reads it after an editor or a terminal expanded the tabs into spaces (tab stops every 8
columns, or 4): a field then starts at a tab stop right after spaces, and the header's field
count tells how many fields each row has, so values with single spaces (`Using index
condition`) survive. Rows a mail client wrapped (at a space it dropped) or a terminal cut
(at its width) are rejoined. mysql-test `.result` files add `Warnings:` followed by
`Note<TAB>1003<TAB>…` lines; `mysql -B` prints a following result set (SHOW WARNINGS) right
after the rows, header first.

GUI grid copies (MySQL Workbench, Navicat, phpMyAdmin) show NULL as nothing, and people line
their columns up with extra tabs or trim the header by hand: where a row has more fields than
the header, or the header holds runs of tabs, each cell is placed in the column its value fits
(`cell_shapes.align_cells`) and the result is flagged uncertain. Lines cut at one width (a pager, a
terminal without wrapping, a tool) are flagged truncated when a value visibly stops there or
rows there lack fields; lines of equal length that end in whole values are no cut.
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import Row
from analyzer.readers.resultset import (
    CUT,
    EXPLAIN_COLUMNS,
    STANDARD_ORDER,
    ResultSet,
    fits_columns,
    is_explain_header,
    missing_tail,
    unique_names,
    value,
)
from analyzer.readers.shapes.cell_shapes import (
    access_type,
    align_cells,
    cell_fit,
    known_extra,
    rows_name_join_buffer,
    stops_inside,
)
from analyzer.readers.vocabulary import SELECT_TYPES
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, width
from analyzer.repair.unwrap.batch import (
    BatchMarks,
    shared_width,
    shown_width,
    to_tab_stop,
    unwrap_expanded_header,
    unwrap_expanded_row,
    unwrap_row,
    unwrap_tabbed_header,
    wrap_width,
)
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

TAB_SIZES = (8, 4)
_FILL = "\x00"
_WORD_RE = lazy_regex(r"\S+")
_SPACES_RE = lazy_regex(r" +")
_ROW_START_RE = lazy_regex(r"(?:\d+|NULL)(?: |$)")
_ID_RE = lazy_regex(r"(?:\d+|NULL)[\t ]+")


# Every EXPLAIN column name but `id` holds one of these words, and SHOW WARNINGS starts with `level`.
_HEADER_WORDS = ("type", "table", "partition", "key", "ref", "rows", "filter", "extra", "level")


def _header_names(line: str) -> list[str] | None:
    """The column names of a batch header line (tabs, or tabs expanded to spaces), else None."""
    if "\t" in line:
        lowered = line.lower()
        if not any(word in lowered for word in _HEADER_WORDS):
            return None  # not one known name but `id` (five are needed, or select_type), nor `level`
        names = [name.strip().lower() for name in line.split("\t")]
        words = names[0].split()
        if len(words) > 1 and words[-1] in EXPLAIN_COLUMNS:
            names[0] = words[-1]  # chat text typed before the header on the same line
    else:
        if _tab_size(line) is None:
            return None
        names = [w.lower() for w in line.split()]
    return names if is_explain_header(names) or names[:3] == ["level", "code", "message"] else None


def _tab_size(header: str) -> int | None:
    """The tab stops (8, or 4 as some editors set) a header with expanded tabs was laid out on."""
    indent = len(header) - len(header.lstrip(" "))
    starts = [w.start() - indent for w in _WORD_RE.finditer(header)]
    if len(starts) < 3:
        return None
    return next((size for size in TAB_SIZES if not any(start % size for start in starts)), None)


def starts_tsv(line: str) -> bool:
    if "\t" not in line and "select_type" not in line and "key_len" not in line:
        return line.strip() == "Warnings:"
    return _header_names(line) is not None


@dataclass(slots=True)
class _Batch:
    """A batch result set being read: its header, and what the steps found so far."""

    lines: list[str]
    numbers: list[int]
    start: int  # index of the header's (first) line
    header: str  # the header, with the pieces wrapped off it rejoined
    columns: list[str]
    expanded: bool  # the tabs were expanded to spaces
    tab: int  # tab size of the expanded output (8 when the tabs are kept)
    terminal_width: int | None
    mailed: bool  # the header was wrapped by a mail client (so lines of one width are no cut)
    wrapped: int  # lines rejoined so far
    blank: list[bool]  # per header field, whether it is empty (a run of tabs added by hand)
    count: int = field(init=False)  # how many columns
    names: list[str] = field(init=False)  # the header's names without the empty ones
    origin: int = field(init=False)  # the header's indentation: where every row starts
    notices: list[str] = field(default_factory=list)
    ambiguous: list[int] = field(default_factory=list)  # numbers of lines whose split was a guess
    placed: list[int] = field(default_factory=list)  # numbers of lines whose cells were placed by their values
    last_cell: dict[int, int] = field(default_factory=dict)  # per placed row (index), the column of its last cell
    raw: list[tuple[str, int, list[str]]] = field(default_factory=list)  # (line, its number, fields)
    skipped: list[int] = field(default_factory=list)  # indexes of the remarks' lines

    def __post_init__(self) -> None:
        self.count = len(self.columns)
        self.names = [name for name, blank in zip(self.columns, self.blank, strict=True) if not blank]
        self.origin = len(self.header) - len(self.header.lstrip(" "))

    @property
    def padded(self) -> bool:
        """The header holds runs of tabs: columns lined up by hand."""
        return len(self.names) < self.count


@dataclass(slots=True)
class _Row:
    """A row of expanded output being rejoined: its text, fields, and the index of its last line."""

    text: str
    fields: list[str]
    sure: bool  # the fields could be split only one way
    last: int


def parse_tsv(
    lines: list[str], numbers: list[int], start: int, terminal_width: int | None = None
) -> tuple[ResultSet | None, int]:
    """Read the batch result set whose header is `lines[start]` (`terminal_width`: the width a
    terminal wrapped the paste at, when known)."""
    if lines[start].strip() == "Warnings:":
        return _parse_warnings(lines, numbers, start)
    if _header_names(lines[start]) is None:
        return None, start + 1
    batch = _read_header(lines, numbers, start, terminal_width)
    end = _read_rows(batch, start + 1 + batch.wrapped)  # the rows start after the header's lines
    return _result(batch), end


def _read_header(lines: list[str], numbers: list[int], start: int, terminal_width: int | None) -> _Batch:
    """The batch whose header starts at `lines[start]`, with any pieces wrapped off the header."""
    expanded = "\t" not in lines[start]
    if not terminal_width:
        terminal_width = shared_width(lines, start, _MARKS) if expanded else wrap_width(lines, start, _MARKS)
    if expanded:
        header, end, mailed = unwrap_expanded_header(lines, start, terminal_width, _MARKS)
    else:
        header, end, mailed = *unwrap_tabbed_header(lines, start, terminal_width, _MARKS), False
    # A rejoined header passed `_header_names`, which found its tab stops.
    tab = (_tab_size(header) or TAB_SIZES[0]) if expanded else 8
    names, renamed = _known_names(_header_names(header) or [])
    batch = _Batch(
        lines, numbers, start, header, unique_names(names), expanded, tab, terminal_width, mailed, end - start - 1,
        [not name for name in names],
    )  # fmt: skip
    batch.notices += [f"Read the header's '{old}' as {new} (line {numbers[start]})." for old, new in renamed]
    return batch


def _known_names(names: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The header's names with a shortened one (`select`) read as the only missing EXPLAIN column
    it starts, and the (old, new) names so read."""
    renamed = []
    out = list(names)
    for k, name in enumerate(names[:-1]):  # (the last name may have been cut with its line)
        if len(name) < 3 or name in EXPLAIN_COLUMNS:
            continue
        whole = [c for c in STANDARD_ORDER if c.startswith(name) and c not in names]
        if len(whole) == 1:
            out[k] = whole[0]
            renamed.append((name, whole[0]))
    return out, renamed


def _read_rows(batch: _Batch, j: int) -> int:
    """Read the rows from `lines[j]` on into `batch.raw`; returns the index of the line after them."""
    lines = batch.lines
    while j < len(lines):
        check_deadline()
        line = lines[j]
        if not line.strip():
            resume = _after_blank(batch, j)
            if resume is None:
                break
            j = resume
            continue
        has_tab = "\t" in line
        if line.strip() == "Warnings:" or (has_tab if batch.expanded else not has_tab and batch.count > 1):
            resume = None if batch.expanded or has_tab or not batch.raw else _row_after_remark(batch, j)
            if resume is None:
                break
            j = _skip_remark(batch, j, resume)
            continue
        if line == lines[batch.start] and not batch.raw:
            # The header line twice (a terminal repeated it while scrolling).
            batch.notices.append(f"Skipped a repeat of the header line (line {batch.numbers[j]}).")
            j += 1
            continue
        if starts_tsv(line):
            break  # the header of the next result set (the client prints no empty line between)
        if batch.expanded and batch.raw and _other_text(batch, j):
            break
        j = _read_row(batch, j)
    return j


def _other_text(batch: _Batch, j: int) -> bool:
    """True when `lines[j]`, after an expanded row, is other text: no id first and no field after
    it, and no row in the next few lines (up to an empty one)."""
    lines = batch.lines
    if len(split_expanded(lines[j], batch.count, batch.tab)[0]) > 1:
        return False
    following = lines[j : min(len(lines), j + 10)]
    return not any(_ROW_START_RE.match(line.lstrip(" ")) for line in following[: _blank_at(following)])


def _blank_at(lines: list[str]) -> int:
    """Index of the first empty line of `lines`, or their count."""
    return next((k for k, line in enumerate(lines) if not line.strip()), len(lines))


def _after_blank(batch: _Batch, j: int) -> int | None:
    """Where the rows go on after the empty line `lines[j]`, or None when they end there."""
    lines, numbers = batch.lines, batch.numbers
    if not batch.raw and _row_follows(lines, j + 1, batch.count, batch.expanded):
        # An empty line between the header and the row (a double-spaced paste).
        batch.notices.append(f"Skipped the empty line between the header and the first row (line {numbers[j]}).")
        return j + 1
    if batch.raw and not batch.expanded and (resume := _resume_after_remark(lines, j, batch.count)):
        # A reply's comment typed between two rows: the rows go on after it.
        return _skip_remark(batch, j, resume)
    return None


def _skip_remark(batch: _Batch, j: int, resume: int) -> int:
    """Skip the remark on `lines[j:resume]`, between two rows, with a notice; returns `resume`."""
    remark = [batch.numbers[k] for k in range(j, resume) if batch.lines[k].strip()]
    batch.skipped += range(j, resume)
    batch.notices.append(
        f"Ignored {plural(len(remark), 'line')} of other text inside the batch output ({describe_lines(remark)})."
    )
    return resume


def _row_after_remark(batch: _Batch, j: int) -> int | None:
    """Index of the row that goes on after a remark without tabs from `lines[j]` (a few lines
    typed right after a whole row, where no piece of it goes on), or None."""
    lines, count = batch.lines, batch.count
    if len(batch.raw[-1][2]) != count:
        return None
    for k in range(j, min(len(lines), j + 10)):
        if "\t" in lines[k]:
            return k if lines[k].count("\t") == count - 1 and _starts_row(lines[k]) else None
    return None


def _read_row(batch: _Batch, j: int) -> int:
    """Read the row on `lines[j]`, with the lines wrapped off it; returns the index of the line after it."""
    if batch.expanded:
        row = _read_expanded_row(batch, j)
        if not row.sure:
            batch.ambiguous.append(batch.numbers[j])
        line, fields, last = row.text, row.fields, row.last
    else:
        # Hand-aligned rows (runs of tabs in the header) do not count tabs: each line is a row.
        line, last = (
            (batch.lines[j], j)
            if batch.padded
            else unwrap_row(batch.lines, j, batch.count, batch.terminal_width, _MARKS)
        )
        # The client never pads a field: leading spaces are indentation (of the header too,
        # or of every line but the first when a selection started at the header's text).
        line = line.lstrip(" ")
        fields = line.split("\t")
        # Spaces after the last field: a console copy padded the line to its width.
        fields[-1] = fields[-1].rstrip(" ")
        if len(fields) == batch.count + 1 and not fields[-1] and not batch.padded:
            fields.pop()  # a tab after the last field (a grid's copy ends each row with one)
    batch.wrapped += last - j
    batch.raw.append((line, batch.numbers[j], fields))
    return last + 1


def _split_row(batch: _Batch, text: str, last: int) -> _Row:
    """`text`, an expanded row whose last line is `lines[last]`, split into the header's fields."""
    fields, sure = split_expanded(text[batch.origin :], batch.count, batch.tab)
    return _Row(text, fields, sure, last)


def _read_expanded_row(batch: _Batch, j: int) -> _Row:
    """The expanded row on `lines[j]`, with what a terminal cut or a mail client wrapped off it."""
    count, tab = batch.count, batch.tab
    row = _split_row(batch, batch.lines[j], j)
    joined, last = unwrap_expanded_row(
        batch.lines, j, batch.terminal_width, lambda t: len(split_expanded(t, count, tab)[0]) < count, _MARKS
    )
    if last > j:
        more = _split_row(batch, joined, last)
        # A true continuation keeps the tab stops: no field then holds a run of spaces.
        if len(more.fields) <= count and not any("  " in cell for cell in more.fields):
            row = more
    row = _rejoin_mailed(batch, row)
    _rejoin_extra(batch, row)
    return row


def _rejoin_mailed(batch: _Batch, row: _Row) -> _Row:
    """`row` with the lines a mail client broke off it at a space: its next field starts at the next tab stop."""
    lines, count = batch.lines, batch.count
    # (Lines all cut at one width were truncated, not wrapped: a row there stays short.)
    short = len(row.fields) < count - 1 and (batch.mailed or width(lines[row.last]) != batch.terminal_width)
    while len(row.fields) < count and _continues_expanded(lines, row.last + 1, clearly_short=short):
        joined = to_tab_stop(row.text, batch.tab) + lines[row.last + 1].lstrip(" ")
        more = _split_row(batch, joined, row.last + 1)
        if len(more.fields) > count:
            break
        row = more
    return row


def _rejoin_extra(batch: _Batch, row: _Row) -> None:
    """Add to a whole `row` the lines its last value (Extra) was broken off at one of its spaces."""
    lines = batch.lines
    while (
        len(row.fields) == batch.count
        and width(lines[row.last]) >= 40
        and _continues_expanded(lines, row.last + 1, clearly_short=False)
        and "  " not in lines[row.last + 1].strip()
        and _goes_on(row.fields[-1], row.fields[-1] + " " + lines[row.last + 1].strip())
    ):
        piece = lines[row.last + 1].strip()
        row.text = row.text.rstrip(" ") + " " + piece
        row.fields[-1] = row.fields[-1] + " " + piece
        row.last += 1


def _result(batch: _Batch) -> ResultSet:
    """The result set of the rows read, with notices on what was repaired or is missing."""
    if not batch.expanded:
        _place_by_values(batch)
    cut = _cut_width(batch)
    rows, damaged, filled = _fill_rows(batch, cut)
    _report_repairs(batch, filled)
    result = ResultSet("tsv", batch.columns, rows, batch.numbers[batch.start], notices=batch.notices)
    result.skipped = batch.skipped
    result.uncertain = bool(batch.placed)
    if cut is not None:
        result.truncated = True
        batch.notices.append(
            f"The tab-separated lines were truncated at {cut.width} {cut.unit}: a field ending in '{CUT}' "
            f"was cut short and a field that is only '{CUT}' is missing."
        )
    if damaged:
        result.truncated = True
        result.affected_rows = damaged
        if cut is None:
            damaged_lines = [batch.raw[index][1] for index in damaged]
            batch.notices.append(
                f"{describe_lines(damaged_lines).capitalize()} {'does' if len(damaged_lines) == 1 else 'do'} "
                f"not have the header's {batch.count} fields: "
                f"the rows are truncated or damaged; missing cells are shown as '{CUT}'."
            )
    return result


def _place_by_values(batch: _Batch) -> None:
    """Hand-aligned grid copies: where a row has more tab-separated fields than the header, or the
    header holds runs of tabs, the row's cells are placed in the named columns by their values
    (`cell_shapes.align_cells`); a row whose cells fill every column in order needs no guess."""
    if not batch.padded and all(len(fields) <= batch.count for _, _, fields in batch.raw):
        return
    names, padded = batch.names, batch.padded
    collapsed: list[int] = []
    for index, (line, number, fields) in enumerate(batch.raw):
        if not batch.padded and len(fields) <= batch.count:
            continue
        cells = [cell.strip(" ") for cell in fields if cell.strip(" ")]
        placed: list[str] | None = None
        if len(fields) == len(names) and _fit(names, fields):
            placed = fields  # one field per name (the header alone has an empty field)
        elif len(cells) == len(names) and _fit(names, cells):
            placed = cells
            collapsed.append(number)
        else:
            placed = _placed_cells(cells, names)
            if placed is not None:
                batch.placed.append(number)
        if placed is None:
            placed = _projected(batch, fields)
        else:
            batch.last_cell[index] = max((k for k, cell in enumerate(placed) if cell), default=0)
        batch.raw[index] = (line, number, placed)
    batch.columns, batch.count = names, len(names)
    _report_placing(batch, collapsed, padded)


def _fit(names: list[str], cells: list[str]) -> bool:
    """True when every cell (an empty one is NULL as a grid shows it) fits its column."""
    return all(
        not cell.strip(" ") or cell_fit(name, cell.strip(" "), None) is not None
        for name, cell in zip(names, cells, strict=True)
    )


def _placed_cells(cells: list[str], names: list[str]) -> list[str] | None:
    """`cells` placed in the columns `names` by their values (empty where no cell goes), or None.
    A type and a key joined by a space (`eq_ref PRIMARY`) are parted when nothing else is a type."""
    columns = align_cells(cells, names)
    if columns is None and not any(access_type(cell) for cell in cells):
        for k, cell in enumerate(cells):
            head, _, rest = cell.partition(" ")
            if access_type(head) and rest and " " not in rest:
                cells = [*cells[:k], head, rest, *cells[k + 1 :]]
                columns = align_cells(cells, names)
                break
    if columns is None:
        return None
    placed = [""] * len(names)
    for at, cell in zip(columns, cells, strict=True):
        placed[at] = cell
    return placed


def _projected(batch: _Batch, fields: list[str]) -> list[str]:
    """The fields of a row that lines up with a padded header, in its named columns (a row that
    cannot be placed keeps its fields and is reported as damaged)."""
    if len(fields) != len(batch.blank):
        return fields
    return [cell for cell, blank in zip(fields, batch.blank, strict=True) if not blank]


def _report_placing(batch: _Batch, collapsed: list[int], padded: bool) -> None:
    """Notices on the rows read with runs of tabs as one separator and those placed by their values
    (`padded`: the header holds runs of tabs)."""
    if collapsed:
        batch.notices.append(
            f"Read the runs of tabs on {describe_lines(collapsed)} as single separators (columns lined up by hand)."
        )
    if batch.placed:
        lines = describe_lines(batch.placed)
        have = "has" if len(batch.placed) == 1 else "have"
        why = (
            f"The header holds runs of tabs and {lines} {'does' if have == 'has' else 'do'} not line up with it"
            if padded
            else f"{lines.capitalize()} {have} more tab-separated fields than the header"
        )
        batch.notices.append(f"{why} (hand-added tabs?); cells were placed in columns by their values.")


@dataclass(frozen=True, slots=True)
class _Cut:
    """Where the lines of a batch result set were cut."""

    width: int
    unit: str  # "characters" (the text was cut) or "columns" (the line as a terminal shows it)
    rows: frozenset[int]  # indexes of the rows whose line reaches that width


def _cut_width(batch: _Batch) -> _Cut | None:
    """Where the lines were cut at one width, or None when they were not cut.

    Cut lines end at one width, the widest, counted in characters (a tool cut the text) or in
    columns with tabs expanded (a pager or terminal cut the line as shown). Either the header
    stops before Extra, or a line at that width ends visibly inside a value, or rows there lack
    fields and two or more lines end there (or it is a usual terminal width). Lines of equal
    length that end in whole values are no cut.
    """
    header_cut = bool(missing_tail(batch.columns))
    lines = _texts(batch)
    # Batch output keeps its tabs: one line alone ending in a space was cut between two words
    # (a console that padded the lines to its width padded every shorter one).
    spaced = not batch.expanded and sum(line.endswith(" ") for line, _, _ in batch.raw) == 1
    named = _names_join_buffer(batch)
    measures = (("characters", len), ("columns", shown_width))
    for unit, measure in measures[1:] if batch.expanded else measures:
        sizes = [measure(line) for line in lines]
        longest = max(sizes)
        at = frozenset(k - 1 for k, size in enumerate(sizes) if k and size == longest)
        lacking = sizes.count(longest) > 1 or longest in USUAL_TERMINAL_WIDTHS
        if header_cut or any(_ends_cut(batch, index, lacking, spaced, named) for index in at):
            return _Cut(longest, unit, at)
    return None


def _texts(batch: _Batch) -> list[str]:
    """The header's and rows' lines as far as their text goes: spaces a console padded every line
    with to its width are left out (batch output keeps its tabs, so spaces end no field there)."""
    lines = [batch.header, *(line for line, _, _ in batch.raw)]
    if not batch.expanded or len({len(line) for line in lines}) == 1:
        return [line.rstrip(" ") for line in lines]
    return lines


def _ends_cut(batch: _Batch, index: int, lacking: bool, spaced: bool, named: bool) -> bool:
    """True when row `index`, whose line reaches the widest width, ends as a cut line does: inside
    a value (`spaced`: in a space, the only line of the batch output to end in one; `named`: the
    rows show a server that names the join buffer's kind), or (`lacking`: that width is shared
    by two or more lines, or usual for terminals) short of fields."""
    line, _, fields = batch.raw[index]
    column = batch.last_cell.get(index, len(fields) - 1)
    # Short of fields, or (cells placed by their values) stopping before Extra without a tab.
    if lacking and (len(fields) < batch.count or (column < batch.count - 1 and not line.endswith("\t"))):
        return True
    if batch.expanded and line.endswith(" "):
        # Between two words of a value its spaces reach no tab stop; else they were tabs before empty fields.
        return shown_width(line) % batch.tab != 0
    if spaced and line.endswith(" ") and fields[column].strip(" "):
        return True  # no server ends a value with a space
    if line.endswith("\t"):
        return False  # it ends with a separator, not inside a value
    name = batch.columns[column] if column < batch.count else ""
    return stops_inside(name, fields[column], batch.columns, named)


def _names_join_buffer(batch: _Batch) -> bool:
    """Whether the rows read show a server that names the join buffer's kind."""
    columns = batch.columns
    kinds = columns.index("select_type") if "select_type" in columns else None
    extras = columns.index("extra") if "extra" in columns else None
    rows = [fields for _, _, fields in batch.raw]
    return rows_name_join_buffer(
        (fields[kinds] for fields in rows if kinds is not None and kinds < len(fields)),
        (fields[extras] for fields in rows if extras is not None and extras < len(fields)),
    )


def _fill_rows(batch: _Batch, cut: _Cut | None) -> tuple[list[Row], list[int], list[int]]:
    """The rows, a cell for each column (lines were `cut`, if not None); the indexes of the damaged
    ones, and the numbers of the lines whose missing last field was taken as empty."""
    count, columns = batch.count, batch.columns
    rows: list[Row] = []
    damaged: list[int] = []
    filled: list[int] = []
    for index, (_, number, fields) in enumerate(batch.raw):
        short = len(fields) < count
        last = batch.last_cell.get(index, len(fields) - 1)
        if cut is not None and (short or index in cut.rows):
            # The line was cut: its last field may go on (an empty one is lost), and so are those after it.
            fields[last] += CUT
            fields[last + 1 :] = [CUT] * (len(fields) - last - 1)
        elif len(fields) == count - 1 and columns[-1] == "extra" and fits_columns(columns, fields):
            fields.append("")
            filled.append(number)
        if len(fields) != count or fields[last].endswith(CUT):
            damaged.append(len(rows))
        fields = (fields + [CUT] * count)[:count]
        rows.append({name: value(cell.strip(" ")) for name, cell in zip(columns, fields, strict=True)})
    return rows, damaged, filled


def _report_repairs(batch: _Batch, filled: list[int]) -> None:
    """Notices on the lines rejoined, the tabs expanded, and the fields taken as empty or split by a guess."""
    if batch.wrapped:
        how = "cut by a terminal" if batch.expanded else "wrapped"
        batch.notices.append(f"Rejoined {plural(batch.wrapped, 'line')} of tab-separated output {how}.")
    if batch.expanded:
        batch.notices.append(
            f"Read tab-separated output whose tabs were expanded to spaces (tab stops every {batch.tab} columns)."
        )
    if filled:
        batch.notices.append(
            f"The last field on {describe_lines(filled)} was missing (a trailing tab was probably stripped); "
            "took it as empty."
        )
    if batch.ambiguous:
        batch.notices.append(
            f"Fields on {describe_lines(batch.ambiguous)} could be split more than one way after tab expansion; "
            "check those rows."
        )


def _joined_header(names: list[str] | None) -> bool:
    """True when a header with a wrapped piece joined holds EXPLAIN column names, each once."""
    return names is not None and EXPLAIN_COLUMNS.issuperset(names) and len(set(names)) == len(names)


def _continues_expanded(lines: list[str], index: int, clearly_short: bool) -> bool:
    """True when `lines[index]` is the rest of an expanded batch row, not a row of its own
    (which starts with its id, a number or NULL, at the margin). A row short of two or more
    fields goes on whatever the next line starts with."""
    if index >= len(lines) or not lines[index].strip() or "\t" in lines[index] or starts_tsv(lines[index]):
        return False
    return clearly_short or not _ROW_START_RE.match(lines[index])


def _resume_after_remark(lines: list[str], j: int, count: int) -> int | None:
    """Index of the batch row (the header's number of tabs) that goes on after a short remark
    between empty lines from `lines[j]`, or None."""
    text = 0
    for k in range(j, min(len(lines), j + 10)):
        line = lines[k]
        if not line.strip():
            continue
        if "\t" in line:
            fits = line.count("\t") in (count - 1, count - 2) and not starts_tsv(line) and not lines[k - 1].strip()
            return k if text and fits else None
        text += 1
    return None


def _row_follows(lines: list[str], index: int, count: int, expanded: bool) -> bool:
    """True when `lines[index]` looks like a batch row of this header (tabs expanded or not)."""
    if index >= len(lines) or not lines[index].strip() or starts_tsv(lines[index]):
        return False
    if expanded:
        return "\t" not in lines[index] and lines[index][:1] != " "
    return lines[index].count("\t") == count - 1


def _starts_row(line: str) -> bool:
    """True when a batch line starts as a row does: an id (or NULL), then a select_type (tabs
    or, expanded, spaces between)."""
    text = line.lstrip(" ")
    head = _ID_RE.match(text)
    if head is None:
        return False
    rest = text[head.end() :]
    return any(rest.startswith(name) and rest[len(name) : len(name) + 1] in ("", " ", "\t") for name in SELECT_TYPES)


def _parse_warnings(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet, int]:
    rows: list[Row] = []
    j = start + 1
    while j < len(lines) and lines[j].count("\t") >= 2:
        level, code, message = lines[j].split("\t", 2)
        rows.append({"level": level, "code": code, "message": message})
        j += 1
    return ResultSet("tsv", ["level", "code", "message"], rows, numbers[start]), j


def split_expanded(line: str, count: int, tab: int = 8) -> tuple[list[str], bool]:
    """Split a row whose tabs became spaces into `count` fields (fewer if it has fewer).

    A run of spaces is a separator when the text after it starts at a tab stop; it then
    stands for one tab per tab stop it crosses (more than one means empty fields between).
    Runs of two or more spaces are taken first; single spaces that end at a tab stop could be
    inside a value, so only as many of them as the count needs are used. The flag is False
    when that choice was a guess.
    """
    if not line.isascii():
        # Tab stops count display columns: give each wide character a placeholder second column.
        shadow = "".join(c + _FILL * (w - 1) for c, w in ((c, width(c)) for c in line))
        fields, sure = _split_columns(shadow, count, tab)
        return [f.replace(_FILL, "") for f in fields], sure
    return _split_columns(line, count, tab)


def _split_columns(line: str, count: int, tab: int) -> tuple[list[str], bool]:
    strong: list[tuple[int, int, int]] = []  # (start, end, tabs)
    weak: list[tuple[int, int, int]] = []
    trailing_tabs = 0
    for run in _SPACES_RE.finditer(line):
        a, b = run.start(), run.end()
        if a == 0:
            continue
        if b == len(line):
            # Spaces at the very end: tabs before empty trailing fields, if they reach a tab stop.
            trailing_tabs = (b // tab - a // tab) if b % tab == 0 else 0
            continue
        if b % tab:
            continue
        tabs = b // tab - a // tab
        (strong if b - a >= 2 or tabs > 1 else weak).append((a, b, tabs))
    need = count - 1 - trailing_tabs - sum(t for _, _, t in strong)
    sure = need <= 0 or need == len(weak)
    chosen = sorted(strong + weak[: max(need, 0)])
    fields: list[str] = []
    begin = 0
    for a, b, tabs in chosen:
        fields.append(line[begin:a])
        fields.extend([""] * (tabs - 1))
        begin = b
    fields.append(line[begin:].rstrip(" "))
    fields.extend([""] * trailing_tabs)
    return fields, sure


def _whole_header(header: str) -> bool:
    """True when `header`, with a wrapped piece joined, is a header of EXPLAIN column names, each once."""
    return _joined_header(_header_names(header))


def _goes_on(value: str, joined: str) -> bool:
    """Whether a line broken off a row can be the rest of its last value `value` (`joined` with
    it): unless the value is NULL or whole Extra items and the joined one is no Extra items."""
    value = value.strip(" ")
    whole = value == "NULL" or (known_extra(value) and not stops_inside("extra", value))
    return not whole or known_extra(joined.strip(" "))


# What the un-wrapping of batch lines asks of this reader.
_MARKS = BatchMarks(starts_tsv, _starts_row, _whole_header, _goes_on)
