"""Vertical output (`\\G`, `mysql -E`): a `*** N. row ***` line, then right-aligned `name: value` lines.

Names are right-aligned, so every field of a row has its colon in the same column; a line
without a colon there continues the previous value (a wrapped long value). A value may be
empty, and `Extra:` may have lost its trailing space.
"""

from __future__ import annotations

import re

from analyzer.readers.resultset import CUT, EXPLAIN_COLUMNS, WARNING_COLUMNS, ResultSet, value
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, expand_tabs, screen_width, width
from analyzer.wording import describe_lines, plural

# The stars after `N. row` may have been wrapped onto the next line, or cut off with the line.
ROW_RE = re.compile(r"(\*{5,}) *(\d+)(?:\.(?: (?:row|ro|r)?)?)? *(\**)\s*$")
ROW_MARK = "*** N. row ***"
_FIELD_RE = re.compile(r"^( *)([A-Za-z_][\w$#]{0,63}):(?: (.*)|$)")


def row_marker(line: str) -> re.Match | None:
    """The `*** N. row ***` marker in `line`, also after chat text typed on the same line."""
    at = line.find("*****")
    return None if at < 0 else ROW_RE.match(line, at)


def starts_vertical(line: str) -> bool:
    return row_marker(line) is not None


def parse_vertical(
    lines: list[str], numbers: list[int], start: int, terminal_width: int | None = None
) -> tuple[ResultSet | None, int]:
    """Read consecutive `\\G` records from `lines[start]`; a `1. row` after the first starts a new result set.

    `terminal_width` is the width a terminal wrapped the paste at, when the cleanup saw it.
    """
    n = len(lines)
    records: list[list[list]] = []  # per record: [name, value, width of its line, wrapped lines...]
    record_lines: list[int] = []
    widths: dict[int, int] = {}  # how many lines have each width
    cut_width = None  # lines were cut at this width, as a star line shows
    cut_marker = None  # line of a row marker the paste stops inside
    notices: list[str] = []
    tabbed = 0
    wrapped_markers = 0
    colon = None
    last_number = None  # the number of the last row marker
    j = start
    while j < n:
        line = lines[j]
        if "\t" in line:
            line = expand_tabs(line)  # padding turned into tabs by an editor (`unexpand`)
            tabbed += 1
        marker = row_marker(line) if "*****" in line else None
        if marker:
            if marker.start() and line[: marker.start()].strip():
                lead = line[: marker.start()].strip()
                notices.append(f"Ignored the text '{lead[:40]}' before the row marker on line {numbers[j]}.")
            if records and not records[-1] and marker.group(2) == last_number:
                # The same row marker twice in a row (a terminal repeated the line while scrolling).
                notices.append(f"Skipped a repeated '{ROW_MARK}' line (line {numbers[j]}).")
                j += 1
                continue
            if records and marker.group(2) == "1":
                break
            last_number = marker.group(2)
            records.append([])
            record_lines.append(numbers[j])
            marker_width = screen_width(line)
            widths[marker_width] = widths.get(marker_width, 0) + 1
            colon = None
            j += 1
            if j < n and lines[j].strip() and not lines[j].strip().strip("*"):
                j += 1  # the rest of the stars, wrapped
                wrapped_markers += 1
            elif len(marker.group(3)) < len(marker.group(1)):
                # Fewer stars after `row` than before, and no more on the next line: cut at this width.
                cut_width = min(cut_width or marker_width, marker_width)
            continue
        if records and line.strip() and not line.strip().strip("*"):
            # Only stars: the paste stops inside the marker of a further row.
            cut_marker = numbers[j]
            j += 1
            break
        if not line.strip():
            # A blank line ends the records unless another record follows it.
            k = j + 1
            while k < n and not lines[k].strip():
                k += 1
            if k < n and starts_vertical(lines[k]) and row_marker(lines[k]).group(2) != "1":
                j = k
                continue
            resume = _resume_after_remark(lines, k, colon) if records and records[-1] else None
            if resume is not None:
                # A reply's comment typed inside a record: the record goes on after it.
                remark = [numbers[i] for i in range(k, resume) if lines[i].strip()]
                notices.append(
                    f"Ignored {plural(len(remark), 'line')} of other text inside the vertical output "
                    f"({describe_lines(remark)})."
                )
                j = resume
                continue
            break
        line_width = screen_width(line)
        widths[line_width] = widths.get(line_width, 0) + 1
        field = _FIELD_RE.match(line)
        # A field has its colon where the others have it, or (spaces collapsed) a known name.
        if field and (
            colon is None
            or len(field.group(1)) + len(field.group(2)) == colon
            or field.group(2).lower() in EXPLAIN_COLUMNS
            or field.group(2).lower() in WARNING_COLUMNS
        ):
            colon = len(field.group(1)) + len(field.group(2))
            records[-1].append([field.group(2), field.group(3) or "", line_width])
        elif records[-1]:
            records[-1][-1].append(line)
        else:
            break
        j += 1

    if not records or not any(records):
        return None, max(j, start + 1)
    widest = max(widths)
    joined = 0
    cut_rows = []
    for index, record in enumerate(records):
        for item in record:
            last_width = width(item[-1]) if len(item) > 3 else item[2]
            if len(item) > 3:
                joined += len(item) - 3
                terminal = terminal_width or (widest if widths[widest] > 1 else None)
                item[1] = _unwrap(item[1], item[2], item[3:], terminal)
            if cut_width and last_width >= cut_width:
                item[1] = item[1].rstrip(" ") + CUT
                if not cut_rows or cut_rows[-1] != index:
                    cut_rows.append(index)
    columns: list[str] = []
    for record in records:
        for item in record:
            if item[0].lower() not in columns:
                columns.append(item[0].lower())
    rows = []
    missing = []
    for index, record in enumerate(records):
        row = {item[0].lower(): value(item[1].rstrip(" ")) for item in record}
        if len(row) < len(columns):
            missing.append(index)
            row = {c: row.get(c, CUT) for c in columns}
        else:
            row = {c: row[c] for c in columns}
        rows.append(row)
    result = ResultSet(
        "vertical", columns, rows, numbers[start], notices=notices, affected_rows=sorted({*cut_rows, *missing})
    )
    if cut_marker is not None:
        result.truncated = True
        result.notices.append(
            f"The paste stops inside a '{ROW_MARK}' line (line {cut_marker}): it was truncated and at least "
            "one more row is missing."
        )
    if wrapped_markers:
        result.notices.append(f"Rejoined {plural(wrapped_markers, 'wrapped row marker line')} ('{ROW_MARK}').")
    if tabbed:
        result.notices.append(f"Turned tabs back into spaces in {plural(tabbed, 'line')} of the vertical output.")
    if joined:
        result.notices.append(f"Rejoined {plural(joined, 'wrapped line')} of long values in the vertical output.")
    if cut_rows:
        result.truncated = True
        result.notices.append(
            f"The vertical output was truncated at {cut_width} columns (the '{ROW_MARK}' lines are cut short): "
            f"values reaching that width end with '{CUT}' and may be incomplete."
        )
    elif cut_width:
        result.truncated = True
        result.notices.append(
            f"The vertical output was truncated at {cut_width} columns (the '{ROW_MARK}' lines are cut short); "
            "no value reaches that width, so the values shown are complete."
        )
    if missing:
        result.truncated = True
        result.notices.append(
            f"The vertical output looks truncated: the {'records' if len(missing) > 1 else 'record'} starting on "
            f"{describe_lines([record_lines[i] for i in missing])} {'lack' if len(missing) > 1 else 'lacks'} "
            f"fields the others have; missing values are shown as '{CUT}'."
        )
    return result, j


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
    field = _FIELD_RE.match(line)
    return (
        bool(field) and len(field.group(1)) + len(field.group(2)) == colon and field.group(2).lower() in EXPLAIN_COLUMNS
    )


def _unwrap(text: str, first_width: int, pieces: list[str], terminal: int | None) -> str:
    """Rejoin a value wrapped over several lines (its line was `first_width` wide).

    A mail client breaks only at a space and may drop it; a terminal cuts anywhere at its width
    (`terminal`, or a usual terminal width). So where neither side of a break has a space, it is
    a terminal cut when the line before fills that width, else a dropped space.
    """
    previous_width = first_width
    for piece in pieces:
        # A value that went whole to the next line (`name:` alone): the space the mail client
        # dropped was the one after the colon.
        spaced = not text or text.endswith(" ") or piece.startswith(" ")
        # A wide character that did not fit in the last column went whole to the next line.
        reach = previous_width + (screen_width(piece[:1]) == 2)
        cut = reach == terminal or reach in USUAL_TERMINAL_WIDTHS
        text += piece if (spaced or cut) else " " + piece
        previous_width = screen_width(piece)
    return text
