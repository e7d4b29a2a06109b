"""What the values of each EXPLAIN column look like, and rows placed into columns by those shapes.

`cell_shapes` scores how well a cell fits a column, to align the cells of hand-padded grid copies;
here a cell fits a column or not, and rows are read only where that leaves one way.

`fits(column, cell)` tells whether a printed cell could stand in a column: id an integer,
select_type one of the server's words, type an access type, key_len and rows numbers, filtered a
percentage, possible_keys, key and ref names (`const`, `db.t.col`, `func`), never a bare number,
Extra text starting with a word; NULL, an empty cell as GUI clients show NULL, and `#` (the mark
mysqltest prints for a value it replaced, `--replace_column`) fit every column but select_type.

`place(columns, line)` splits a row whose cells are separated by single spaces (batch output whose
tabs were collapsed) into the columns: each cell takes the words that fit it (two for `DEPENDENT
SUBQUERY` or `4 (15%)`, the rest of the line for Extra), ref and Extra may be left out (an empty
field lost with its tabs), and of the ways that fit, the one with the fewest empty cells is taken
when it is the only one.

`ORDERS` are the column orders a row without a header can be read in, by its number of fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from analyzer.lazy import lazy_regex
from analyzer.readers.shapes.cell_shapes import access_type
from analyzer.readers.vocabulary import MASKED, SELECT_TYPES
from analyzer.structs import dataclass

_INTEGER_RE = lazy_regex(r"\d{1,20}")
_LENGTHS_RE = lazy_regex(r"\d{1,20}(?:[,|]\d{1,20})*")  # `4`, `4,4` (index merge), `4|1` (rowid filter)
_ROWS_RE = lazy_regex(r"\d{1,20}(?: \(\d{1,3}(?:\.\d{1,6})?%\))?")  # MariaDB: `4 (15%)`
_DECIMAL_RE = lazy_regex(r"\d{1,20}(?:\.\d{1,20})?")
_COMMA_RE = lazy_regex(r",")
_KEY_SEPARATOR_RE = lazy_regex(r"[,|]")
# The fewest and most words a cell takes, when not one exactly; Extra takes what is left (maybe
# none). When the tabs of batch output are collapsed, an empty field vanishes: the server prints
# NULL as `NULL`, but leaves Extra empty, and ref too before MySQL 4.1.
_TAKES = {"ref": (0, 1), "select_type": (1, 2), "rows": (1, 2)}
_RESERVED = frozenset({"ALL", "index", "range", "fulltext"})
_LOWER_EXTRA = ("const row", "unique row", "no matching row")
_MAX_WORDS = 3  # words read per column: more than any cell but Extra takes (`DEPENDENT SUBQUERY`, `4 (15%)`)
_MAX_EMPTY = 2  # cells a row placed by shape may leave empty
_SHORT = 64  # characters of a cell whose fit is remembered
_SHORT_ROW = 400  # characters of a row whose placement is remembered


def _word(cell: str) -> bool:
    """One word: no space in it."""
    return cell.split(maxsplit=1) == [cell]


def _names(separator: re.Pattern[str]) -> Callable[[str], bool]:
    """The shape of a list of names (`PRIMARY,idx_a`, `db.t.col,const`): words, none a bare number
    nor an access type that is a reserved word (no index or partition is named `ALL`)."""
    return lambda cell: (
        _word(cell) and all(part and not part.isdigit() and part not in _RESERVED for part in separator.split(cell))
    )


def _extra(cell: str) -> bool:
    """Extra items start with a capital (`Using where`, `Range checked …`, `FirstMatch(t1)`; a few
    with a small letter: `const row not found`) and are separated by `; `, never by a run of spaces."""
    return (cell[0].isupper() or cell.startswith(_LOWER_EXTRA)) and "  " not in cell and not cell.startswith("NULL ")


def _percentage(cell: str) -> bool:
    """A decimal from 0 to 100 (`100.00`, `33.33`; a GUI may print `100`)."""
    return _DECIMAL_RE.fullmatch(cell) is not None and float(cell) <= 100


_SHAPES: dict[str, Callable[[str], bool]] = {
    "id": lambda cell: _INTEGER_RE.fullmatch(cell) is not None,
    "select_type": lambda cell: cell in SELECT_TYPES,
    "table": _word,
    "partitions": _names(_COMMA_RE),
    "type": lambda cell: access_type(cell) is not None,
    "possible_keys": _names(_COMMA_RE),
    "key": _names(_KEY_SEPARATOR_RE),
    "key_len": lambda cell: _LENGTHS_RE.fullmatch(cell) is not None,
    "ref": _names(_COMMA_RE),
    "rows": lambda cell: _ROWS_RE.fullmatch(cell) is not None,
    "r_rows": lambda cell: _DECIMAL_RE.fullmatch(cell) is not None,
    "filtered": _percentage,
    "r_filtered": _percentage,
    "extra": _extra,
}

_CLASSIC = ("id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra")


@dataclass(frozen=True, slots=True)
class Order:
    """A column order EXPLAIN prints, and how a notice names it."""

    columns: tuple[str, ...]
    name: str


# The orders of header-less rows by their number of fields, the likeliest first; `PREFERRED` is
# all of them, the likeliest first (MySQL 5.7 and later print the 12 columns).
ORDERS: dict[int, tuple[Order, ...]] = {
    10: (Order(_CLASSIC, "the 10 EXPLAIN columns of MySQL 5.x and MariaDB"),),
    11: (
        Order((*_CLASSIC[:9], "filtered", "extra"), "the 11 columns of EXPLAIN EXTENDED (with filtered)"),
        Order((*_CLASSIC[:3], "partitions", *_CLASSIC[3:]), "the 11 columns of EXPLAIN PARTITIONS"),
    ),
    12: (Order((*_CLASSIC[:3], "partitions", *_CLASSIC[3:9], "filtered", "extra"), "the 12 standard EXPLAIN columns"),),
    13: (Order((*_CLASSIC[:9], "r_rows", "filtered", "r_filtered", "extra"), "the 13 columns of MariaDB's ANALYZE"),),
}


PREFERRED = (*ORDERS[12], *ORDERS[10], *ORDERS[11], *ORDERS[13])


def fits(column: str, cell: str) -> bool:
    """True when a printed cell (stripped) could be a value of the EXPLAIN column `column`."""
    if cell in ("", "NULL", MASKED):
        return column != "select_type"
    # The cells of a plan repeat (PRIMARY, SIMPLE, 4): short ones are remembered.
    return _fits_short(column, cell) if len(cell) <= _SHORT else _fits(column, cell)


@lru_cache(maxsize=4096)
def _fits_short(column: str, cell: str) -> bool:
    """`_fits`, remembered."""
    return _fits(column, cell)


def _fits(column: str, cell: str) -> bool:
    """True when a cell other than NULL has the shape of the column's values."""
    shape = _SHAPES.get(column)
    return shape is not None and shape(" ".join(cell.split()) if column == "select_type" else cell)


def misfit(columns: tuple[str, ...], cells: list[str]) -> int | None:
    """Index of the first of `cells` (one per column) that does not fit its column, or of one that
    does not agree with the others (`_disagrees`); None when they all fit."""
    for k, column in enumerate(columns):
        if not fits(column, cells[k]):
            return k
    return _disagrees(columns, cells)


def _disagrees(columns: tuple[str, ...], cells: list[str] | tuple[str, ...]) -> int | None:
    """Index of a cell that cannot go with the others in one row: a key is printed with its length
    (and a length only with a key), and a row without an access type reads no key."""
    at = _places(columns)
    empty = [name in at and cells[at[name]] in ("", "NULL") for name in ("key", "key_len", "type", "ref")]
    if "key" in at and "key_len" in at and empty[0] != empty[1]:
        return at["key_len"]
    if "type" in at and empty[2]:
        return next(
            (at[name] for name, blank in (("key", empty[0]), ("ref", empty[3])) if name in at and not blank), None
        )
    return None


@lru_cache(maxsize=64)
def _places(columns: tuple[str, ...]) -> dict[str, int]:
    """The index of each column."""
    return {name: k for k, name in enumerate(columns)}


def _word_spans(line: str, limit: int) -> list[tuple[int, int]]:
    """Where the words of `line` are (start, end), at most `limit`; the last one reaches the line's end."""
    spans: list[tuple[int, int]] = []
    for word in re.finditer(r"\S+", line):
        if len(spans) == limit - 1:
            spans.append((word.start(), len(line.rstrip())))
            break
        spans.append(word.span())
    return spans


def place(columns: list[str], line: str) -> tuple[list[str] | None, int]:
    """The cells of a row whose words are separated by single spaces, placed by their shapes; and
    how many ways fit with the fewest empty cells (0, 1, or 2 for two or more). The cells are None
    unless exactly one way fits best, leaving at most two cells empty, and its cells agree."""
    if len(line) > _SHORT_ROW:
        return _place(tuple(columns), line)
    cells, ways = _place_short(tuple(columns), line)  # rows repeat in a paste: short ones are remembered
    return (list(cells) if cells is not None else None), ways


@lru_cache(maxsize=1024)
def _place_short(columns: tuple[str, ...], line: str) -> tuple[tuple[str, ...] | None, int]:
    """`_place`, remembered (its cells as a tuple, which cannot be changed)."""
    cells, ways = _place(columns, line)
    return (tuple(cells) if cells is not None else None), ways


def _place(columns: tuple[str, ...], line: str) -> tuple[list[str] | None, int]:
    """`place` for `columns` as a tuple."""
    spans = _word_spans(line, _MAX_WORDS * len(columns) + 1)
    steps = _steps(columns, line, spans)
    end = steps[-1].get(len(spans)) if steps else None
    if end is None:
        return None, 0
    if end[1] > 1:
        return None, end[1]
    cells = [""] * len(columns)
    at = len(spans)
    for column in reversed(range(len(columns))):
        before = steps[column][at][2]
        if before < at:
            cells[column] = line[spans[before][0] : spans[at - 1][1]]
        at = before
    return (None, 0) if _disagrees(columns, cells) is not None else (cells, 1)


# How the words up to some point were best placed: the cells left empty, how many ways do so
# (2 means two or more), and where the last cell's words start.
_Step = tuple[int, int, int]


def _steps(columns: tuple[str, ...], line: str, spans: list[tuple[int, int]]) -> list[dict[int, _Step]]:
    """Column by column, where the words placed so far can end (the index of the next word) and
    the best way there; empty when some column takes no way. A cell that does not fit ends a way
    at once, and so do more empty cells than a row may leave."""
    words = len(spans)
    last = len(columns) - 1
    steps: list[dict[int, _Step]] = []
    frontier: dict[int, _Step] = {0: (0, 1, 0)}
    for column, name in enumerate(columns):
        low, high = _TAKES.get(name, (1, 1))
        rest = name == "extra"  # Extra takes what is left (maybe nothing), the last column all of it
        reached: dict[int, _Step] = {}
        for at, (empty, count, _) in frontier.items():
            left = words - at
            if rest:
                takes = range(left, left + 1) if column == last else range(left + 1)
            else:
                takes = range(low, (high if high < left else left) + 1)
            for take in takes:
                if take and not fits(name, line[spans[at][0] : spans[at + take - 1][1]]):
                    continue
                cost = empty + (take == 0)
                known = reached.get(at + take)
                if cost > _MAX_EMPTY or (known is not None and known[0] < cost):
                    continue
                reached[at + take] = (cost, count if known is None or known[0] > cost else 2, at)
        if not reached:
            return []
        steps.append(reached)
        frontier = reached
    return steps
