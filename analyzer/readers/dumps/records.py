"""What the readers of program dumps share: EXPLAIN rows printed by a program as records of
`key: value` pairs (a PHP array, a Python dict, a Go struct, a JSON object) become a result set.

A dump reader finds the records and says how sure the dump's own structure makes it (`Dump`);
`dump_result` names the columns as the client would (`SelectType`, `KeyLen` and `Extra` become
`select_type`, `key_len` and `extra`), prints each value as the server would (an integer as its
digits, `filtered` with two decimals, NULL/null/nil/None as None) and reports what was read.
"""

from __future__ import annotations

import functools
import math

from analyzer.model import Row
from analyzer.readers.resultset import CUT, EXPLAIN_COLUMNS, STANDARD_ORDER, ResultSet
from analyzer.structs import dataclass, field
from analyzer.wording import plural

# The name of every EXPLAIN column without `_`, as a program may spell it (`SelectType`,
# `KeyLen`, `RRows`), and the singular a Go struct often gives `possible_keys`.
_COLUMNS = {name.replace("_", ""): name for name in STANDARD_ORDER} | {"possiblekey": "possible_keys"}
_ORDER = {name: k for k, name in enumerate(STANDARD_ORDER)}
# Columns the server prints with two decimals (FLOAT columns of the result set).
_TWO_DECIMALS = frozenset({"filtered", "r_filtered", "r_rows"})
# What a dump prints for NULL when it prints it as a word.
_NULL_WORDS = frozenset({"NULL", "null", "nil", "<nil>", "None", "undefined"})

Scalar = str | int | float | bool | None
Record = list[tuple[str, Scalar]]


@dataclass
class Dump:
    """The EXPLAIN records a dump reader found, and what its structure says about them.

    `problems` are the reasons the dump visibly lacks part of its content (unclosed brackets,
    fewer elements than it declares, `...` elisions): each makes the result truncated. `whole` is
    True when a record cannot lose a field with a line of the paste (it prints on one line, or in
    one literal), so a column the records lack was never printed; a dump of one line per field
    (PHP's) is not. `notes` are other notices (how empty values were read)."""

    records: list[Record]
    source: str  # what printed them: `a PHP print_r dump`
    start: int  # index of the dump's first line
    end: int  # index of the line after it
    format: str = "vertical"  # `json` for JSON; the other dumps are records of `name: value` fields
    whole: bool = True
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    query: str | None = None


@functools.lru_cache(maxsize=4096)
def column_name(key: str) -> str:
    """The EXPLAIN column a dump's key stands for (`SelectType` -> `select_type`); other keys
    lower-cased, as the readers name a header's columns."""
    lowered = key.strip().lower()
    return _COLUMNS.get(lowered.replace("_", "").replace("-", ""), lowered)


def is_explain_record(keys: list[str]) -> bool:
    """True when a record's keys (as printed) are those of an EXPLAIN row: `select_type` and four
    more of its columns (a dump names every key, so a record of EXPLAIN has them all)."""
    known = EXPLAIN_COLUMNS.intersection(column_name(key) for key in keys)
    return "select_type" in known and len(known) >= 5


def is_partial_record(keys: list[str]) -> bool:
    """True when every key of a record is an EXPLAIN column: the start of a row a paste cuts off."""
    return all(column_name(key) in EXPLAIN_COLUMNS for key in keys)


def cell(column: str, value: Scalar) -> str | None:
    """A dumped value as the server prints it in `column`: 1 -> "1", 100.0 -> "100" (or "100.00"
    in `filtered`), NULL -> None; strings as dumped."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float) and column in _TWO_DECIMALS and math.isfinite(value):
        return f"{value:.2f}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    return None if value in _NULL_WORDS else value


def dump_result(dump: Dump, numbers: list[int]) -> ResultSet | None:
    """The result set of a dump's records (None when they are not EXPLAIN rows), with a notice
    saying what was read and where, and the dump's problems as truncation."""
    columns: list[str] = []
    rows: list[Row] = []
    for record in dump.records:
        row: Row = {}
        for key, value in record:
            name = column_name(key)
            if name not in row:
                row[name] = cell(name, value)
                if name not in columns:
                    columns.append(name)
        rows.append(row)
    if not rows or not is_explain_record(columns):
        return None
    columns = _server_order(columns)
    first, last = numbers[dump.start], numbers[max(dump.start, dump.end - 1)]
    where = f"line {first}" if first == last else f"lines {first}-{last}"
    result = ResultSet(dump.format, columns, [], first, start=dump.start, end=dump.end, query=dump.query)
    result.notices.append(f"Read {plural(len(rows), 'EXPLAIN row')} from {dump.source} ({where}).")
    result.notices += dump.notes
    _fill_absent(result, dump, rows)
    result.whole = dump.whole
    cut = [k for k, row in enumerate(result.rows) if any(v is not None and v.endswith(CUT) for v in row.values())]
    if dump.problems or cut:
        result.truncated = True
        result.affected_rows = cut
        result.notices += dump.problems
    if cut:
        result.notices.append(f"Values the dump cut short end with '{CUT}'.")
    return result


def _server_order(columns: list[str]) -> list[str]:
    """The columns in the order the server prints them when a dump sorted its keys (Python's
    pprint, Go's maps, PHP's ksort); unknown keys then come after them."""
    known = [name for name in columns if name in _ORDER]
    if known == sorted(known, key=_ORDER.__getitem__):
        return columns
    return sorted(known, key=_ORDER.__getitem__) + [name for name in columns if name not in _ORDER]


def _fill_absent(result: ResultSet, dump: Dump, rows: list[Row]) -> None:
    """The rows with a cell for every column. A key some rows lack (others have it: rows of one
    result have the same columns) was lost with the rest of a dump cut short or with a line of
    it, shown as `…`; in a dump whose rows print on one line each, a program may have left a NULL
    out: read as NULL, and the reading is a guess."""
    lost = bool(dump.problems) or not dump.whole
    result.rows = [{name: row.get(name, CUT if lost else None) for name in result.columns} for row in rows]
    lacking = [k for k, row in enumerate(rows) if len(row) < len(result.columns)]
    if not lacking or dump.problems:
        return
    one = len(lacking) == 1
    which = f"{'Row' if one else 'Rows'} {', '.join(str(k + 1) for k in lacking[:5])}{'' if len(lacking) <= 5 else ' and more'}"
    lack = f"{which} of the dump lack{'s' if one else ''} keys the other rows have"
    if lost:
        result.notices.append(f"{lack}: lines of the dump are missing; missing cells are shown as '{CUT}'.")
    else:
        result.uncertain = True
        result.notices.append(f"{lack}; read as NULL (a program may leave NULL values out): check those rows.")
