"""One result set read from a paste (an EXPLAIN, a SHOW WARNINGS, or something else), and
what the format readers share: how NULL and cut cells are represented, and which column
headers make a result set an EXPLAIN.
"""

from __future__ import annotations

from analyzer.model import EXPLAIN_COLUMN_ORDER, Row
from analyzer.readers.vocabulary import ACCESS_TYPES
from analyzer.structs import dataclass, field

# A cell the paste cut short ends with this mark (its visible start comes first); a cell
# that is missing altogether is this mark alone. No printed EXPLAIN value contains it.
CUT = "\u2026"

WARNING_COLUMNS = ("level", "code", "message")
STANDARD_ORDER = EXPLAIN_COLUMN_ORDER
EXPLAIN_COLUMNS = frozenset(STANDARD_ORDER)

# The column a client prints a JSON or tree plan under (lower-cased).
PLAN_COLUMNS = frozenset({"explain", "analyze", "show explain", "show analyze"})

# The columns of every tabular EXPLAIN (MySQL 5.x to 8, MariaDB); the others depend on the statement.
ALWAYS_PRINTED = ("id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra")

# What two copies of the same result set have in common: the column names and the rows' cells.
ResultKey = tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]


@dataclass
class ResultSet:
    format: str
    columns: list[str]
    rows: list[Row]
    first_line: int
    notices: list[str] = field(default_factory=list)
    truncated: bool = False
    uncertain: bool = False  # read completely, but how cells fall into columns is a guess
    closed: bool = False  # every line keeps its right edge (a table's closing `|`): none was cut
    affected_rows: list[int] = field(default_factory=list)
    start: int = 0  # index of its first cleaned line
    end: int = 0  # index of the first cleaned line after it
    query: str | None = None  # the statement the output itself names (`mysql --xml`)
    skipped: list[int] = field(default_factory=list)  # indexes of lines in it left out (a remark typed inside)
    whole: bool = False  # a program's dump whose structure shows every column it has: none was lost

    @property
    def is_explain(self) -> bool:
        return is_explain_header(self.columns) or is_elided_explain_header(self.columns)

    @property
    def is_warnings(self) -> bool:
        return tuple(self.columns[:3]) == WARNING_COLUMNS

    def key(self) -> ResultKey:
        """What two copies of the same result set have in common."""
        return (tuple(self.columns), tuple(tuple(row.get(c) for c in self.columns) for row in self.rows))


def is_explain_header(names: list[str]) -> bool:
    """True when column names (lower-case) are those of a tabular EXPLAIN or ANALYZE."""
    known = EXPLAIN_COLUMNS.intersection(names)
    return "select_type" in known or len(known) >= 5


def is_elision(name: str) -> bool:
    """A header cell that stands for columns an author left out: `...` (made unique as `..._2`).
    A `…` is not one: the readers mark a header cell cut off so."""
    base = name.rsplit("_", 1)[0] if name[-1:].isdigit() else name
    return len(base) >= 3 and not base.strip(".")


def is_elided_explain_header(names: list[str]) -> bool:
    """True for a header in which an author replaced some columns of EXPLAIN by `...`: every
    other name is an EXPLAIN column, at least two, in the order a server prints them."""
    shown = [name for name in names if not is_elision(name)]
    if len(shown) == len(names) or len(shown) < 2 or not EXPLAIN_COLUMNS.issuperset(shown):
        return False
    places = [STANDARD_ORDER.index(name) for name in shown]
    return places == sorted(set(places))


def flag_cut_rows(result: ResultSet, cut: list[int], notice: str) -> None:
    """Mark `result` truncated for its rows at the indexes `cut`, saying why in `notice`."""
    result.truncated = True
    result.affected_rows = sorted({*result.affected_rows, *cut})
    result.notices.append(notice)


def missing_tail(columns: list[str]) -> list[str]:
    """The always-present EXPLAIN columns (`rows`, `extra`) missing after the header's last known
    column: a header that stops early was cut off with its line."""
    known = [c for c in columns if c in STANDARD_ORDER]
    if not known or "extra" in columns or not is_explain_header(columns) or columns[-1].endswith(CUT):
        return []
    last = max(STANDARD_ORDER.index(c) for c in known)
    return [c for c in ("rows", "extra") if c not in columns and STANDARD_ORDER.index(c) > last]


def fits_columns(columns: list[str], cells: list[str]) -> bool:
    """Whether the cells look like they are in their columns: an `id` is a number, a `type` an
    access type (either may be NULL or empty)."""
    for name, cell in zip(columns, cells, strict=False):
        text = cell.strip()
        if text in ("", "NULL", "(NULL)") or text.endswith(CUT):
            continue
        if (name == "id" and not text.isdigit()) or (name == "type" and text not in ACCESS_TYPES):
            return False
    return True


def unique_names(names: list[str]) -> list[str]:
    """Header names made unique (`key`, `key_2`) so that every cell keeps its own key."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        out.append(name if count == 1 else f"{name}_{count}")
    return out


def value(cell: str) -> str | None:
    """A printed cell as the plan stores it: `NULL` becomes None."""
    return None if cell == "NULL" else cell
