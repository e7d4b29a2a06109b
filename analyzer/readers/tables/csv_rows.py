"""Comma-separated rows: a GUI client's row copy with names (MySQL Workbench prints `# id,
select_type, …` over `'1', 'SIMPLE', …` with bare `NULL`s, or over a grid's tab-separated rows) and
CSV exports (`"id","select_type",…`).

A header of EXPLAIN column names separated by commas starts them, each row has as many cells.
Comment marks around the copy (`/*`, `*/`, `-- `, `// `, `# `) are not cells. The standard
library's `csv` module splits the cells, with the quote the rows use.
"""

from __future__ import annotations

import csv

from analyzer.lazy import lazy_regex
from analyzer.model import Row
from analyzer.readers.resultset import CUT, ResultSet, fits_columns, is_explain_header, unique_names, value

# Comment marks (and Workbench's `#` before the header) before a line's cells, and after them.
_LEAD_RE = lazy_regex(r"^\s*(?:/\*+|--|//|#)?\s*#?\s*")
_TAIL_RE = lazy_regex(r"\s*(?:\*+/)?\s*$")
_QUOTES = "'\""


def starts_csv(line: str) -> bool:
    """True when `line` is a comma-separated header of EXPLAIN column names."""
    if line.count(",") < 4 or "\t" in line or "|" in line:
        return False
    return is_explain_header(_names(line))


def parse_csv(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    """The result set whose header is `lines[start]`, and the index of the line after its rows."""
    if start + 1 < len(lines) and "\t" in lines[start + 1]:
        return _tab_rows(lines, numbers, start)
    columns = unique_names(_names(lines[start]))
    result = ResultSet("csv", columns, [], numbers[start])
    j = start + 1
    damaged: list[int] = []
    while j < len(lines):
        cells = _cells(lines[j])
        if cells is None or len(cells) > len(columns) or not fits_columns(columns, [c for c, _ in cells]):
            break
        if len(cells) < len(columns) or any(cut for _, cut in cells):
            damaged.append(numbers[j])
            result.affected_rows.append(len(result.rows))
        result.rows.append(_row(columns, cells))
        j += 1
    if damaged:
        result.truncated = True
        result.notices.append(
            f"{'Line' if len(damaged) == 1 else 'Lines'} {', '.join(map(str, damaged))} of the comma-separated "
            f"rows {'is' if len(damaged) == 1 else 'are'} cut short; missing cells are shown as '{CUT}'."
        )
    return result, j


def _tab_rows(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    """A comma-separated header over tab-separated rows (MySQL Workbench's `# id, select_type, …`
    over a grid's rows), read by the batch reader with the header's names parted by tabs."""
    from analyzer.readers.tables.tsv import parse_tsv

    named = list(lines)
    named[start] = "\t".join(_names(lines[start]))
    result, end = parse_tsv(named, numbers, start)
    if result is not None:
        result.notices.insert(0, f"Read the comma-separated header on line {numbers[start]} over tab-separated rows.")
    return result, end


def _names(line: str) -> list[str]:
    body = _body(line)
    return [name.strip().strip(_QUOTES + "`").lower() for name in next(csv.reader([body]))]


def _body(line: str) -> str:
    return _TAIL_RE.sub("", _LEAD_RE.sub("", line, count=1), count=1)


def _cells(line: str) -> list[tuple[str, bool]] | None:
    """The cells of a row, each with whether it was cut short (an opening quote without its
    closing one); None when the line is no row (fewer than three cells)."""
    body = _body(line)
    if body.count(",") < 2:
        return None
    quote = body[0] if body[:1] in _QUOTES else '"'
    pieces = [piece.strip() for piece in body.split(",")]
    cells = next(csv.reader([body], quotechar=quote, skipinitialspace=True))
    if len(cells) != len(pieces):
        return [(cell, False) for cell in cells]  # a quoted cell holds a comma
    return [
        (cell, piece[:1] == quote and (len(piece) < 2 or piece[-1] != quote))
        for cell, piece in zip(cells, pieces, strict=True)
    ]


def _row(columns: list[str], cells: list[tuple[str, bool]]) -> Row:
    texts = [cell + CUT if cut else cell for cell, cut in cells]
    texts += [CUT] * (len(columns) - len(texts))
    return {name: value(text) for name, text in zip(columns, texts, strict=True)}
