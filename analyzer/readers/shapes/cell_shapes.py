"""What the cells of each EXPLAIN column look like.

Two readers' questions are answered from the values alone:

- Which column does a cell belong to, when the tabs of a copied grid were padded by hand
  (`align_cells`): an id is a whole number, a select_type and an access type are words of a
  short list, key_len and rows are numbers, filtered a decimal, ref a qualified column, `const`
  or `func`, and the access type rules out or demands a key.
- Does a value that ends where a line was cut end there (`stops_inside`): an Extra item is one of
  the few the servers print, so `Using join buff` or `Using union(a,b` is visibly cut short.
"""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.readers.vocabulary import ACCESS_TYPES, EXTRA_HEADS, EXTRA_ITEMS, EXTRA_PATTERNS, SELECT_TYPES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

# An Extra item only servers before MySQL 5.6 and MariaDB 5.3 print without the kind after it.
_BARE_JOIN_BUFFER = "using join buffer"
# A join buffer's kind named after it, and the select types only servers that name it print.
_NAMED_JOIN_BUFFER = "using join buffer ("
_NAMING_SELECT_TYPES = frozenset({"MATERIALIZED", "LATERAL DERIVED", "DEPENDENT DERIVED"})
# Access types that read no index (so key, key_len and ref are NULL), and those that always name one.
_NO_KEY = frozenset({"ALL", "system", "hash_ALL"})
_KEYED = ACCESS_TYPES - _NO_KEY

# What a cell that fits a column scores: a value only that column holds, one it may hold, any text.
STRONG, FITS, ANY = 4, 2, 1
_INTEGER = lazy_regex(r"\d+")
_DECIMAL = lazy_regex(r"\d+\.\d+")
_NUMBERS = lazy_regex(r"\d+(?:[,|]\d+)*")
_NAMES = lazy_regex(r"[^\s,]+(?:,[^\s,]+)*")
_REF = lazy_regex(r"(?:const|func|NULL|[^\s,.]+(?:\.[^\s,.]+)+)(?:,(?:const|func|NULL|[^\s,.]+(?:\.[^\s,.]+)+))*")
_DERIVED = lazy_regex(r"<[a-z_]+[\d,]*>")
_WORDS = lazy_regex(r"[A-Z][A-Z ]*")
# What leaving a column empty costs (a GUI shows NULL as nothing): columns that are rarely NULL.
_EMPTY_COST = {"id": 6, "select_type": 6, "table": 3, "type": 3, "rows": 3, "filtered": 2}


def access_type(cell: str) -> str | None:
    """The access type a cell names (MariaDB's `ref|filter` counts as `ref`), else None."""
    base = cell.split("|", 1)[0] if cell.endswith("|filter") else cell
    return base if base in ACCESS_TYPES else None


def cell_fit(column: str, cell: str, access: str | None) -> int | None:
    """How well `cell` fits `column` in a row read with `access` (STRONG, FITS, ANY), or None
    when the column never holds such a value."""
    if cell == "NULL":
        return None if column in ("id", "select_type") else ANY
    if column in ("key", "key_len", "ref") and access in _NO_KEY:
        return None
    return _FITS.get(column, _any)(cell)


def _id(cell: str) -> int | None:
    return STRONG if _INTEGER.fullmatch(cell) else None


def _select_type(cell: str) -> int | None:
    return STRONG if cell in SELECT_TYPES else ANY if _WORDS.fullmatch(cell) else None


def _table(cell: str) -> int | None:
    if _DERIVED.fullmatch(cell):
        return STRONG
    return None if _INTEGER.fullmatch(cell) or not _NAMES.fullmatch(cell) else FITS


def _names(cell: str) -> int | None:
    return None if _INTEGER.fullmatch(cell) or not _NAMES.fullmatch(cell) else ANY


def _key(cell: str) -> int | None:
    return None if _INTEGER.fullmatch(cell) or not _NAMES.fullmatch(cell) else FITS


def _type(cell: str) -> int | None:
    return STRONG if access_type(cell) else None


def _numbers(cell: str) -> int | None:
    return FITS if _NUMBERS.fullmatch(cell) else None


def _ref(cell: str) -> int | None:
    return FITS if _REF.fullmatch(cell) else None


def _integer(cell: str) -> int | None:
    return FITS if _INTEGER.fullmatch(cell) else None


def _decimal(cell: str) -> int | None:
    return STRONG if _DECIMAL.fullmatch(cell) else FITS if _INTEGER.fullmatch(cell) else None


def _any(cell: str) -> int | None:
    return ANY


_FITS = {
    "id": _id,
    "select_type": _select_type,
    "table": _table,
    "partitions": _names,
    "type": _type,
    "possible_keys": _key,
    "key": _key,
    "key_len": _numbers,
    "ref": _ref,
    "rows": _integer,
    "r_rows": _decimal,
    "filtered": _decimal,
    "r_filtered": _decimal,
}


def empty_cost(column: str, access: str | None) -> int:
    """What leaving `column` without a cell costs in a row read with `access`."""
    if column in ("key", "key_len") and access in _KEYED:
        return 5
    return _EMPTY_COST.get(column, 0)


def align_cells(cells: list[str], columns: list[str]) -> list[int] | None:
    """The column of each of `cells` (the non-empty cells of a row, in order), placing them in
    `columns` in order so that every cell fits its column and the fits score best; None when
    they cannot be placed. Linear in the row: at most len(cells) * len(columns) steps."""
    count = len(columns)
    if not cells or len(cells) > count:
        return None
    access = next((a for cell in cells[1:] if (a := access_type(cell))), None)
    fits = [[cell_fit(column, cell, access) for column in columns] for cell in cells]
    skip = [empty_cost(column, access) for column in columns]
    lowest = -(10**9)
    # best[i][j]: the best score of the first i cells placed in the first j columns.
    best = [[lowest] * (count + 1) for _ in range(len(cells) + 1)]
    best[0][0] = 0
    for j in range(1, count + 1):
        best[0][j] = best[0][j - 1] - skip[j - 1]
        for i in range(1, min(j, len(cells)) + 1):
            fit = fits[i - 1][j - 1]
            placed = best[i - 1][j - 1] + fit if fit is not None and best[i - 1][j - 1] > lowest else lowest
            left = best[i][j - 1] - skip[j - 1] if best[i][j - 1] > lowest else lowest
            best[i][j] = max(placed, left)
    if best[len(cells)][count] <= lowest:
        return None
    return _placement(best, fits, skip, len(cells))


def _placement(best: list[list[int]], fits: list[list[int | None]], skip: list[int], cells: int) -> list[int]:
    """Walk the table of `align_cells` back: the column of each cell."""
    placed: list[int] = []
    i, j = cells, len(skip)
    while i:
        fit = fits[i - 1][j - 1]
        if fit is not None and best[i][j] == best[i - 1][j - 1] + fit:
            placed.append(j - 1)
            i -= 1
        j -= 1
    return placed[::-1]


_KNOWN_STARTS = tuple(EXTRA_ITEMS) + EXTRA_HEADS


def starts_extra_item(text: str) -> bool:
    """True when `text` starts with one of the Extra items the servers print (`Using where`,
    `Range checked for each record (index map: 0x1)`), not NULL."""
    folded = text.casefold()
    return not folded.startswith("null") and folded.startswith(_KNOWN_STARTS)


def stops_inside(column: str, value: str, columns: Collection[str] = (), named: bool = False) -> bool:
    """True when a value that ends where its line ends visibly stops inside something: an unclosed
    parenthesis, after a separator, or (Extra) in an item, where it is the start of a longer one
    and no item itself (`Using join buff`, `Using in`) or no item the server that printed the
    `columns` prints whole (`names_join_buffer`; `named`: the rows show such a server)."""
    text = value.rstrip()
    if text.count("(") > text.count(")") or text.endswith((",", ";", "(", "|")):
        return True
    if column != "extra" or not text:
        return False
    item = text.rsplit(";", 1)[-1].strip().casefold()
    if item == _BARE_JOIN_BUFFER and (named or names_join_buffer(columns)):
        return True
    if item in EXTRA_ITEMS or EXTRA_PATTERNS.fullmatch(item):
        return False
    return any(start.startswith(item) and start != item for start in _KNOWN_STARTS)


def names_join_buffer(columns: Collection[str]) -> bool:
    """Whether output with these columns comes from a server that names the join buffer's kind
    (`Using join buffer (Block Nested Loop)`, `(flat, BNL join)`), never printing it bare as MySQL
    5.5 and MariaDB 5.2 did: MariaDB's ANALYZE (`r_rows`, 10.1 on), or MySQL's `partitions` with
    `filtered` (5.7 on; before, EXPLAIN printed one or the other)."""
    names = set(columns)
    return "r_rows" in names or {"partitions", "filtered"} <= names


def rows_name_join_buffer(select_types: Iterable[str | None], extras: Iterable[str | None]) -> bool:
    """Whether rows come from a server that names the join buffer's kind: one of them names it,
    or has a select_type only such servers print (`MATERIALIZED`, MySQL 5.6 and MariaDB 5.3 on)."""
    if any(_NAMED_JOIN_BUFFER in (extra or "").casefold() for extra in extras):
        return True
    return any((select_type or "").upper() in _NAMING_SELECT_TYPES for select_type in select_types)


def known_extra(value: str) -> bool:
    """True when every `;`-separated item of an Extra value is one the servers print."""
    items = [item.strip().casefold() for item in value.split(";")]
    return all(item in EXTRA_ITEMS or EXTRA_PATTERNS.fullmatch(item) for item in items)


def may_go_on(value: str) -> bool:
    """True when an Extra value ends with an item that a longer one starts with (`Using index`,
    `Using join buffer`): cut at that width, it would look whole."""
    item = value.rsplit(";", 1)[-1].strip().casefold()
    return item in EXTRA_ITEMS and any(start.startswith(item) and start != item for start in _KNOWN_STARTS)


def ends_inside_name(value: str, names: set[str]) -> bool:
    """True when a list of index names (possible_keys, key) ends with a name cut short: the
    start of one of `names` (the other index names its row prints) that the list lacks."""
    listed = value.rstrip().split(",")
    last = listed[-1]
    return bool(last) and any(name.startswith(last) and name != last and name not in listed for name in names)
