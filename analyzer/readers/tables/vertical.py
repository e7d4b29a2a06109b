"""Vertical output (`\\G`, `mysql -E`): a `*** N. row ***` line, then right-aligned `name: value` lines.

Names are right-aligned, so every field of a row has its colon in the same column; a line
without a colon there continues the previous value (a wrapped long value). A value may be
empty, and `Extra:` may have lost its trailing space.

A row is also read without its `*** N. row ***` line, by what EXPLAIN prints: a run of fields
labelled with at least four of its columns (`repair.labels`), however indented or aligned,
and the next row starts where a label comes again. A comment typed after a value (`-- `, `#`,
`//`) is left out where the column's values cannot hold it. A page may have dropped the space
after a column's name (`Id:1`) and the leading stars of the row's line (`1. Row *****`).
"""

from __future__ import annotations

import re

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import EXPLAIN_COLUMN_ORDER, Row
from analyzer.readers.resultset import CUT, EXPLAIN_COLUMNS, WARNING_COLUMNS, ResultSet, value
from analyzer.readers.shapes.cell_shapes import ends_inside_name, known_extra, may_go_on, stops_inside
from analyzer.repair.labels import label, starts_run
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, expand_tabs, screen_width, width
from analyzer.repair.unwrap.fields import unwrap_value
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

# The stars after `N. row` may have been wrapped onto the next line, or cut off with the line.
ROW_RE = lazy_regex(r"(\*{5,}) *(\d+)(?:\.(?: (?:row|ro|r)?)?)? *(\**)\s*$")
# The same line without its leading stars (a page or a converter took them for markup), `Row` maybe
# capitalised; the first group, the leading stars, is empty.
_BARE_ROW_RE = lazy_regex(r" *()(\d+)\. ?[Rr][Oo][Ww] *(\*{5,})\s*$")
ROW_MARK = "*** N. row ***"
_CLIENT_STARS = 27  # the stars the client prints on each side of `N. row`
_LONGEST_NUMBER = 12  # digits of the longest row number told apart from others (no result set has more rows)
# No terminal or mail client wraps lines narrower than this.
_NARROWEST_WRAP = 40
# A field line: its indentation (with the `- ` of a YAML or Markdown list item), name and value.
# A value right after the colon (`Id:1`, a page dropped the space) is taken for a column's name only.
_FIELD_RE = lazy_regex(r"^( *(?:[-*] +)?)([A-Za-z_][\w$#]{0,63}):(?: (.*)|$|(\S.*))")
# A comment typed after a value: `-- ` (or `--` ending the line), `#` or `//`, after a space.
_COMMENT_RE = lazy_regex(r" (?:--(?: |$)|#|//)")
# The columns whose values never hold a space followed by a comment's marker: numbers, words,
# names and lists of names (Extra is told by its items, `_without_comment`).
_NO_COMMENT_INSIDE = EXPLAIN_COLUMNS - {"extra"}


def row_marker(line: str) -> re.Match[str] | None:
    """The `*** N. row ***` marker in `line`, also after chat text typed on the same line, or
    without its leading stars (`1. Row *****`) alone on its line."""
    at = line.find("*****")
    if at < 0:
        return None
    return ROW_RE.match(line, at) or _BARE_ROW_RE.match(line)


def starts_vertical(line: str) -> bool:
    return row_marker(line) is not None


@dataclass(slots=True)
class _Field:
    """A `name: value` line of a record."""

    name: str
    text: str
    width: int  # screen width of its line
    pieces: list[str]  # the lines its value was wrapped onto
    line: int  # the number of its line
    commented: bool = False  # a comment followed the value: the value does not end with its line


@dataclass(slots=True)
class _Records:
    """The `\\G` records being read, and what the steps found so far."""

    lines: list[str]
    numbers: list[int]
    records: list[list[_Field]] = field(default_factory=list)
    record_lines: list[int] = field(default_factory=list)  # the line number of each record's marker or first field
    names: set[str] = field(default_factory=set)  # the EXPLAIN columns the current record has
    unmarked: list[int] = field(default_factory=list)  # the first lines of the records without a marker
    cut_lines: list[int] = field(default_factory=list)  # the lines of the values cut at the cut width
    commented: list[int] = field(default_factory=list)  # the lines whose value a comment followed
    widths: dict[int, int] = field(default_factory=dict)  # how many lines have each width
    cut_width: int | None = None  # lines were cut at this width, as a star line shows
    cut_by: str | None = None  # what shows the cut width when no star line does
    cut_marker: int | None = None  # line of a row marker the paste stops inside
    notices: list[str] = field(default_factory=list)
    tabbed: int = 0
    wrapped_markers: int = 0
    colon: int | None = None  # where the fields of the current record have their colon
    last_number: str | None = None  # the number of the last row marker
    marks: list[tuple[int, int, int]] = field(default_factory=list)  # each marker's record index, row number, line
    skipped: list[int] = field(default_factory=list)  # indexes of the remarks' lines


def parse_vertical(
    lines: list[str], numbers: list[int], start: int, terminal_width: int | None = None, tail: int | None = None
) -> tuple[ResultSet | None, int]:
    """Read consecutive `\\G` records from `lines[start]`; a `1. row` after the first starts a new result set.

    `terminal_width` is the width a terminal wrapped the paste at, when the cleanup saw it.
    `tail` is the index of the first field before the row marker on `lines[start]` that ends an
    earlier row (`tail_start`): those fields are read as a row of their own.
    """
    scan = _Records(lines, numbers)
    for k in range(start if tail is None else tail, start):
        if lines[k].strip():
            _read_field(scan, k, expand_tabs(lines[k]) if "\t" in lines[k] else lines[k])
    end = _read_records(scan, start)
    if not scan.records or not any(scan.records):
        return None, max(end, start + 1)
    joined, cut_rows = _join_values(scan, terminal_width)
    in_row = _starts_in_row(scan)
    columns, rows, missing = _table(scan.records, 1 if in_row else 0)
    result = ResultSet(
        "vertical", columns, rows, numbers[start], notices=scan.notices, affected_rows=sorted({*cut_rows, *missing})
    )
    result.skipped = scan.skipped
    if scan.cut_marker is not None:
        result.truncated = True
        result.notices.append(
            f"The paste stops inside a '{ROW_MARK}' line (line {scan.cut_marker}): it was truncated and at least "
            "one more row is missing."
        )
    _report_gaps(scan, result, in_row)
    _report_repairs(scan, joined)
    _report_cuts(scan, result, cut_rows, missing)
    return result, end


def tail_start(lines: list[str], i: int, floor: int) -> int:
    """Index of the first of the fields before the row marker on `lines[i]` that end an earlier
    row the paste starts inside (`rows: 3`, `Extra:`): EXPLAIN's columns after `id`, in their
    order, blank lines between them allowed, none before `lines[floor]`; `i` when there are
    none, when an `id` comes before them (a row's start), or when the marker is the first row's
    (then what comes before is not one of its rows)."""
    marker = row_marker(lines[i])
    if marker is None or marker.group(2) == "1":
        return i
    start, after = i, len(EXPLAIN_COLUMN_ORDER)
    for k in range(i - 1, floor - 1, -1):
        check_deadline()
        if not lines[k].strip():
            continue
        name = label(lines[k])
        if name == "id":
            return i  # the start of a row, not the end of one
        if name is None or EXPLAIN_COLUMN_ORDER.index(name) >= after:
            break
        start, after = k, EXPLAIN_COLUMN_ORDER.index(name)
    return start


def _starts_in_row(scan: _Records) -> bool:
    """Whether the records start with the end of a row: fields without an `id` before the first
    row marker."""
    return bool(scan.marks) and scan.marks[0][0] == 1 and all(item.name.lower() != "id" for item in scan.records[0])


def _report_gaps(scan: _Records, result: ResultSet, in_row: bool) -> None:
    """Truncated where the row numbers show rows missing. The client numbers the rows of a result
    set from 1, one after another: a first marker above the rows read before it, or a number
    that skips, means rows were not pasted. A number seen before is a row shown again, not a
    gap. With `in_row`, the fields before the first marker are the end of the row before it."""
    if not scan.marks:
        return
    seen = scan.marks[0][1] - 1 if in_row else scan.marks[0][0]
    missing = [(1, seen - 1)] if in_row and seen > 1 else []  # runs of missing row numbers
    after: list[int] = []  # the lines of the markers that skip numbers
    for _, number, line in scan.marks:
        if number > seen + 1:
            missing.append((seen + 1, number - 1))
            after.append(line)
        seen = max(seen, number)
    several = sum(last - first for first, last in missing) > 0 or len(missing) > 1
    if in_row:
        result.truncated = True
        fields = [item.line for item in scan.records[0]]
        scan.unmarked = [n for n in scan.unmarked if n != fields[0]]
        before = f", and {_row_numbers(missing)} before it {'are' if several else 'is'} missing" if missing else ""
        scan.notices.append(
            f"The paste starts inside a row of the vertical output: {describe_lines(fields)} hold only the last "
            f"fields of row {scan.marks[0][1] - 1}{before}."
        )
    elif missing:
        result.truncated = True
        scan.notices.append(
            f"The vertical output lacks {_row_numbers(missing)}: the client numbers the rows from 1, one after "
            f"another, and the '{ROW_MARK}' {'lines skip' if len(after) > 1 else 'line skips'} "
            f"{'them' if several else 'it'} ({describe_lines(after)})."
        )


def _row_numbers(runs: list[tuple[int, int]]) -> str:
    """`row 2`, `rows 1 and 2`, `rows 1 to 5 and 9`: the runs of row numbers (first, last), those
    of three or more as ranges."""
    parts: list[str] = []
    for first, last in runs:
        parts += [f"{first} to {last}"] if last - first > 1 else [str(n) for n in range(first, last + 1)]
    said = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return f"{'row' if len(parts) == 1 and runs[0][0] == runs[0][1] else 'rows'} {said}"


def _read_records(scan: _Records, j: int) -> int:
    """Read the records from `lines[j]` on; returns the index of the line after them."""
    lines = scan.lines
    while j < len(lines):
        check_deadline()
        line = lines[j]
        if "\t" in line:
            line = expand_tabs(line)  # padding turned into tabs by an editor (`unexpand`)
            scan.tabbed += 1
        marker = row_marker(line) if "*****" in line else None
        if marker:
            resume = _read_marker(scan, j, line, marker)
        elif scan.records and line.strip() and not line.strip().strip("*"):
            # Only stars: the paste stops inside the marker of a further row.
            scan.cut_marker = scan.numbers[j]
            return j + 1
        elif not line.strip():
            resume = _after_blank(scan, j)
        else:
            resume = j + 1 if _read_field(scan, j, line) else None
        if resume is None:
            break
        j = resume
    return j


def _read_marker(scan: _Records, j: int, line: str, marker: re.Match[str]) -> int | None:
    """Start a record at the row marker on `lines[j]` (`line`); returns the index to go on from,
    or None at the `1. row` of a further result set."""
    lead = line[: marker.start()].strip()
    if lead:
        scan.notices.append(f"Ignored the text '{lead[:40]}' before the row marker on line {scan.numbers[j]}.")
    if scan.records and not scan.records[-1] and marker.group(2) == scan.last_number:
        # The same row marker twice in a row (a terminal repeated the line while scrolling).
        scan.notices.append(f"Skipped a repeated '{ROW_MARK}' line (line {scan.numbers[j]}).")
        return j + 1
    if scan.records and marker.group(2) == "1":
        return None
    scan.last_number = marker.group(2)
    _start_record(scan, j)
    if len(marker.group(2)) <= _LONGEST_NUMBER:
        scan.marks.append((len(scan.records) - 1, int(marker.group(2)), scan.numbers[j]))
    marker_width = screen_width(line)
    scan.widths[marker_width] = scan.widths.get(marker_width, 0) + 1
    j += 1
    if j < len(scan.lines) and scan.lines[j].strip() and not scan.lines[j].strip().strip("*"):
        scan.wrapped_markers += 1
        return j + 1  # the rest of the stars, wrapped
    if len(marker.group(3)) < len(marker.group(1)) == _CLIENT_STARS:
        # Fewer stars after `row` than before, and no more on the next line: cut at this width.
        # (A line with another number of stars before the row was retyped or restyled, not cut.)
        scan.cut_width = min(scan.cut_width or marker_width, marker_width)
    return j


def _after_blank(scan: _Records, j: int) -> int | None:
    """Where the records go on after the blank line `lines[j]` (another record, or the rest of a
    record after a remark), or None when they end there."""
    lines, numbers = scan.lines, scan.numbers
    k = j + 1
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k < len(lines) and (marker := row_marker(lines[k])) is not None and marker.group(2) != "1":
        return k
    if k < len(lines) and scan.records and ":" in lines[k] and starts_run(lines, k):
        return k  # the next row, without its marker
    if k < len(lines) and scan.records and _goes_on(scan.records[-1], lines[k]):
        return k  # the record's fields in blocks apart by empty lines (a slide, a page's layout)
    resume = _resume_after_remark(lines, k, scan.colon) if scan.records and scan.records[-1] else None
    if resume is not None:
        # A reply's comment typed inside a record: the record goes on after it.
        remark = [numbers[i] for i in range(k, resume) if lines[i].strip()]
        scan.skipped += range(k, resume)
        scan.notices.append(
            f"Ignored {plural(len(remark), 'line')} of other text inside the vertical output "
            f"({describe_lines(remark)})."
        )
    return resume


def _goes_on(record: list[_Field], line: str) -> bool:
    """Whether `line` is a field of `record` after an empty line: an EXPLAIN column that the client
    prints after the record's last field (any, right after the record's marker)."""
    name = label(line)
    if name is None or not record:
        return name is not None
    last = record[-1].name.lower()
    return last in EXPLAIN_COLUMN_ORDER and EXPLAIN_COLUMN_ORDER.index(name) > EXPLAIN_COLUMN_ORDER.index(last)


def _start_record(scan: _Records, j: int) -> None:
    """Start a record at `lines[j]` (its marker, or its first field)."""
    scan.records.append([])
    scan.record_lines.append(scan.numbers[j])
    scan.names = set()
    scan.colon = None


def _read_field(scan: _Records, j: int, line: str) -> bool:
    """Add `lines[j]` (`line`) to the current record, as a field or the rest of the last value;
    False when it is neither. An EXPLAIN column the record already has starts the next record."""
    line_width = screen_width(line)
    scan.widths[line_width] = scan.widths.get(line_width, 0) + 1
    match = _FIELD_RE.match(line)
    name = match.group(2).lower() if match else ""
    if match and match.group(4) is not None and name not in EXPLAIN_COLUMNS and name not in WARNING_COLUMNS:
        match, name = None, ""
    if name in EXPLAIN_COLUMNS and (not scan.records or name in scan.names):
        _start_record(scan, j)
        scan.unmarked.append(scan.numbers[j])
    if not scan.records:
        return False
    # A field has its colon where the others have it, or (spaces collapsed, or not aligned) a known name.
    if match and (
        scan.colon is None
        or len(match.group(1)) + len(match.group(2)) == scan.colon
        or name in EXPLAIN_COLUMNS
        or name in WARNING_COLUMNS
    ):
        scan.colon = len(match.group(1)) + len(match.group(2))
        if name in EXPLAIN_COLUMNS:
            scan.names.add(name)
        text = match.group(3) or match.group(4) or ""
        kept = _without_comment(name, text)
        if kept is not None:
            scan.commented.append(scan.numbers[j])
        item = _Field(match.group(2), text if kept is None else kept, line_width, [], scan.numbers[j], kept is not None)
        scan.records[-1].append(item)
    elif scan.records[-1] and _may_wrap(scan.records[-1][-1], line):
        scan.records[-1][-1].pieces.append(line)
    else:
        return False
    return True


def _without_comment(name: str, text: str) -> str | None:
    """The value `text` of the column `name` without the comment typed after it, or None when
    none is there: a comment's marker after a space, where the column's values cannot hold it
    (for Extra, when every item before it is one the servers print)."""
    match = _COMMENT_RE.search(text) if name in EXPLAIN_COLUMNS else None
    if match is None:
        return None
    kept = text[: match.start()].rstrip(" ")
    if not kept or (name not in _NO_COMMENT_INSIDE and not known_extra(kept)):
        return None
    return kept


def _may_wrap(item: _Field, line: str) -> bool:
    """Whether `line` may go on with `item`'s value: a terminal or a mail client wraps a line
    only where its next word would not fit its width. A short `Extra: Using index` followed by
    `...` or a backquote (closing a heredoc or a string) was not wrapped."""
    last = screen_width(item.pieces[-1]) if item.pieces else item.width
    words = line.split(None, 1)
    return last + 1 + screen_width(words[0] if words else line) > _NARROWEST_WRAP


def _join_values(scan: _Records, terminal_width: int | None) -> tuple[int, list[int]]:
    """Rejoin the values wrapped over several lines and mark those that reach the cut width;
    returns how many lines were rejoined and the indexes of the records with a cut value."""
    widest = max(scan.widths)
    terminal = terminal_width or (widest if scan.widths[widest] > 1 else None)
    joined = 0
    ends: list[tuple[int, _Field, int]] = []  # each value's record, and the width of its last line
    for index, record in enumerate(scan.records):
        for item in record:
            # (A value followed by a comment does not end where its line does.)
            last_width = -1 if item.commented else width(item.pieces[-1]) if item.pieces else item.width
            ends.append((index, item, last_width))
            if item.pieces:
                joined += len(item.pieces)
                item.text = unwrap_value(item.text, item.width, item.pieces, terminal)
    if scan.cut_width is None and len(scan.widths) > 1:
        # (A console pads every line to one width: then no value ends there.)
        scan.cut_by = _values_cut(scan.records, ends, widest)
        scan.cut_width = widest if scan.cut_by else None
    cut_rows: list[int] = []
    for index, item, last_width in ends:
        if scan.cut_width and _reaches(item, last_width, scan.cut_width):
            item.text = item.text.rstrip(" ") + CUT
            scan.cut_lines.append(item.line)
            if not cut_rows or cut_rows[-1] != index:
                cut_rows.append(index)
    return joined, cut_rows


def _reaches(item: _Field, last_width: int, cut_width: int) -> bool:
    """Whether a value whose last line is `last_width` wide was cut at `cut_width`: its line
    reaches it, or stops one column short where the cut fell on a space (dropped with the
    line's trailing blanks) and the value visibly stops inside something."""
    return last_width >= cut_width or (last_width == cut_width - 1 and stops_inside(item.name.lower(), item.text))


def _values_cut(records: list[list[_Field]], ends: list[tuple[int, _Field, int]], widest: int) -> str | None:
    """What shows that the lines were cut at the widest width, or None: a value that ends there
    visibly stops inside something or after a space (`_stops_visibly`); a list of index names
    ends there with the start of a name its row prints in full; or, at a usual terminal width,
    several values end there and one may go on (an Extra item a longer one starts with,
    possible_keys without the row's key), or one ends there in an Extra item that ends with a name
    (`Using secondary engine RAPID`). Whole values may end at any width, several of them too: only a
    usual one makes the last two of these a sign."""
    at = [(index, item) for index, item, last_width in ends if last_width == widest]
    if any(_stops_visibly(item, last_width, widest) for _, item, last_width in ends):
        return "a value stops there inside an Extra item, a parenthesis or between two words"
    if any(
        item.name.lower() in ("possible_keys", "key") and ends_inside_name(item.text, _index_names(records[index]))
        for index, item in at
    ):
        return "a list of index names stops there inside a name its row prints in full"
    if (
        widest in USUAL_TERMINAL_WIDTHS
        and len({item.text for _, item in at}) > 1
        and any(_may_go_on(item, records[index]) for index, item in at)
    ):
        return "several values end there, a usual terminal width, and one may go on"
    if widest in USUAL_TERMINAL_WIDTHS and any(_open_ended(item) for _, item in at):
        return "an Extra item whose name runs on to the end of the item ends there, a usual terminal width"
    return None


# The Extra items that end with a name of any length (an engine, a condition, a function).
_OPEN_ENDED = ("using secondary engine ", "using pushed condition ", "table function: ", "ft_hints: ")


def _open_ended(item: _Field) -> bool:
    """Whether the last Extra item of a value ends with a name of any length, which a cut at the
    end of the line would leave looking whole."""
    last = item.text.rsplit(";", 1)[-1].strip().casefold()
    return item.name.lower() == "extra" and last.startswith(_OPEN_ENDED)


def _stops_visibly(item: _Field, last_width: int, widest: int) -> bool:
    """Whether a value visibly stops at the widest width: inside an Extra item or a parenthesis,
    after a separator (also one column short of it, see `_reaches`), or after a space."""
    if last_width == widest - 1:
        return _reaches(item, last_width, widest)
    text = item.text
    return last_width == widest and (
        stops_inside(item.name.lower(), text) or (text.endswith(" ") and text.strip() != "")
    )


def _index_names(record: list[_Field]) -> set[str]:
    """The index names a record's key and possible_keys print."""
    return {name for item in record if item.name.lower() in ("possible_keys", "key") for name in item.text.split(",")}


def _may_go_on(item: _Field, record: list[_Field]) -> bool:
    """Whether a value looks whole but may go on past its line: an Extra item that a longer one
    starts with, or possible_keys without the key its row uses."""
    name = item.name.lower()
    if name == "extra":
        return may_go_on(item.text)
    if name != "possible_keys" or item.text == "NULL":
        return False
    keys = {part for other in record if other.name.lower() == "key" for part in other.text.split(",")}
    return bool(keys - {"NULL", ""} - set(item.text.split(",")))


def _table(records: list[list[_Field]], tail: int) -> tuple[list[str], list[Row], list[int]]:
    """The columns (each name once, in order of appearance after the first `tail` records, which
    hold the end of a row) and rows of the records, and the indexes of the records that lack
    some of the columns."""
    columns: list[str] = []
    for record in records[tail:] + records[:tail]:
        for item in record:
            if item.name.lower() not in columns:
                columns.append(item.name.lower())
    rows: list[Row] = []
    missing: list[int] = []
    for index, record in enumerate(records):
        row: Row = {item.name.lower(): value(item.text.rstrip(" ")) for item in record}
        if len(row) < len(columns):
            missing.append(index)
            row = {c: row.get(c, CUT) for c in columns}
        else:
            row = {c: row[c] for c in columns}
        rows.append(row)
    return columns, rows, missing


def _report_repairs(scan: _Records, joined: int) -> None:
    """Notices on the row markers and values rejoined, and the tabs turned back into spaces."""
    if scan.wrapped_markers:
        scan.notices.append(f"Rejoined {plural(scan.wrapped_markers, 'wrapped row marker line')} ('{ROW_MARK}').")
    if scan.tabbed:
        scan.notices.append(f"Turned tabs back into spaces in {plural(scan.tabbed, 'line')} of the vertical output.")
    if joined:
        scan.notices.append(f"Rejoined {plural(joined, 'wrapped line')} of long values in the vertical output.")
    if scan.unmarked:
        scan.notices.append(
            f"Read {plural(len(scan.unmarked), 'row')} of the vertical output that had no '{ROW_MARK}' line "
            f"(starting on {describe_lines(scan.unmarked)}), by the labels of EXPLAIN's columns."
        )
    if scan.commented:
        several = len(scan.commented) > 1
        scan.notices.append(
            f"Removed the comment{'s' if several else ''} typed after the value{'s' if several else ''} of "
            f"{plural(len(scan.commented), 'cell')} of the vertical output ({describe_lines(scan.commented)})."
        )


def _report_cuts(scan: _Records, result: ResultSet, cut_rows: list[int], missing: list[int]) -> None:
    """Notices on values cut at the width of the lines, and on records that lack fields."""
    if cut_rows:
        result.truncated = True
        result.notices.append(
            f"The vertical output was truncated at {scan.cut_width} columns ({_cut_shown(scan)}): "
            f"values reaching that width end with '{CUT}' and may be incomplete ({_rows_and_lines(cut_rows, scan.cut_lines)})."
        )
    elif scan.cut_width:
        result.truncated = True
        result.notices.append(
            f"The vertical output was truncated at {scan.cut_width} columns (the '{ROW_MARK}' lines are cut short); "
            "no value reaches that width, so the values shown are complete."
        )
    if missing:
        result.truncated = True
        result.notices.append(
            f"The vertical output looks truncated: the {'records' if len(missing) > 1 else 'record'} starting on "
            f"{describe_lines([scan.record_lines[i] for i in missing])} {'lack' if len(missing) > 1 else 'lacks'} "
            f"fields the others have; missing values are shown as '{CUT}'."
        )


def _rows_and_lines(rows: list[int], lines: list[int]) -> str:
    """`row 2, line 9` or `rows 1 and 2, lines 7, 9 and 20`: the rows (indexes) and lines named."""
    numbers = [index + 1 for index in rows]
    shown = describe_lines(numbers).replace("line", "row", 1)
    return f"{shown}, {describe_lines(lines)}"


def _cut_shown(scan: _Records) -> str:
    """What shows that the lines were cut at `scan.cut_width`."""
    return scan.cut_by or f"the '{ROW_MARK}' lines are cut short"


def _resume_after_remark(lines: list[str], k: int, colon: int | None) -> int | None:
    """Index of the field line (its colon where the record's are) that goes on with a record
    after a short remark starting at `lines[k]` and followed by an empty line, or None."""
    if colon is None or k >= len(lines) or not lines[k].strip() or _continues_record(lines[k], colon):
        return None
    for i in range(k + 1, min(len(lines), k + 8)):
        if not lines[i].strip():
            continue
        if not lines[i - 1].strip() and _continues_record(lines[i], colon):
            return i
        if _continues_record(lines[i], colon) or row_marker(lines[i]):
            return None
    return None


def _continues_record(line: str, colon: int) -> bool:
    match = _FIELD_RE.match(line)
    return (
        match is not None
        and len(match.group(1)) + len(match.group(2)) == colon
        and match.group(2).lower() in EXPLAIN_COLUMNS
    )
