"""Cells held against their column's domain.

`clean_cells` removes what is not part of a printed value and says so: HTML entities around a
select's name (`&lt;derived2&gt;`),
Markdown escapes (`c1\\_0`) and emphasis (`**ALL**`), quotes a program or a writer put around a
value (`'const'`, `‘range’`; a row whose terms are quoted has every quoted cell unquoted), and a
comment typed after a value (`ref   -- equality lookup`, `ALL  <-- slow`), and reads a client's
NULL marker (`<null>`, `(NULL)`, `[NULL]`) as NULL where the rows print every NULL so; and it puts back the
server's spelling of terms a page's styling upper- or lower-cased (`RANGE`, `simple`, `null`:
`restore_case`). `judge_cells` then flags
the reading `uncertain` when a cell is still outside what its column can hold: an `id` that is not a
number, a `select_type` or access `type` no server prints, figures that are not numbers, a `key_len`
that is not a list of lengths, an Extra item with words after it that no item has. A `#` that
mysqltest printed for a value it replaced is no misreading: a notice says that value is unknown.
"""

from __future__ import annotations

from collections.abc import Callable

from analyzer.lazy import lazy_regex
from analyzer.model import Plan, Row
from analyzer.readers.resultset import CUT
from analyzer.readers.vocabulary import ACCESS_TYPES, EXTRA_ITEMS, EXTRA_PATTERNS, MASKED, SELECT_TYPES
from analyzer.wording import plural

_UPPER_SELECT_TYPES = frozenset(name.upper() for name in SELECT_TYPES)
_QUOTES: tuple[tuple[str, str], ...] = (("'", "'"), ('"', '"'), ("\u2018", "\u2019"), ("\u201c", "\u201d"))
_QUOTES += (("\u201e", "\u201c"), ("`", "`"), ("\u00ab", "\u00bb"), ("\u2019", "\u2019"), ("\u201d", "\u201d"))
_EMPHASIS = (("**", "**"), ("__", "__"), ("~~", "~~"))
_LIGHT_EMPHASIS = (("*", "*"), ("_", "_"))
_ENTITY = lazy_regex(r"&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ESCAPE = lazy_regex(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
# A comment after a value: a marker after a space, then a space or the end.
_COMMENT = lazy_regex(r"^(?P<value>\S.*?)\s+(?:--|#|//|<-+|<=+|\u2190|/\*.*\*/\s*$)(?:\s.*)?$")
_NUMBER = lazy_regex(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\d{1,3}(?:,\d{3})+")
# MariaDB follows the rows of a table read with a rowid filter by the filter's selectivity: `7 (12%)`.
_FILTERED_ROWS = lazy_regex(r"(?P<rows>\S+) \(\d+(?:\.\d+)?%\)")
_REFERENCE = lazy_regex(r"<[a-z_]+[\d,.]*>")
_ID = lazy_regex(r"\d+")
_KEY_LEN = lazy_regex(r"\d+(?:[,|]\d+)*")
# What a cell holds that `clean_cells` may take off: a quote or emphasis at its start, an entity or
# escape, a comment marker after a space.
_MARKED = lazy_regex(r"^['\"\u2018\u201c\u201e`\u00ab\u2019\u201d*_~]|[&\\]|\s(?:--|#|//|<-|<=|\u2190|/\*)")
_NULL_WORDS = frozenset({"null", "undefined", "None", "nil"})
# How clients other than mysql print NULL: mycli and litecli `<null>`, others `(null)`, `[NULL]`.
_NULL_MARKERS = frozenset(f"{o}{word}{c}" for o, c in ("<>", "()", "[]") for word in ("null", "NULL"))


def is_select_type(cell: str) -> bool:
    return cell.upper() in _UPPER_SELECT_TYPES


def is_access_type(cell: str) -> bool:
    """An access type, MariaDB's rowid filter (`range|filter`) included."""
    return cell.removesuffix("|filter") in ACCESS_TYPES


def _is_number(cell: str) -> bool:
    return bool(_NUMBER.fullmatch(cell))


def _is_rows(cell: str) -> bool:
    """A count of rows, with MariaDB's rowid filter selectivity after it or not."""
    filtered = _FILTERED_ROWS.fullmatch(cell)
    return _is_number(filtered["rows"] if filtered else cell)


# Extra items that are the start of no longer item (`Using where` is, of `Using where with pushed condition`).
_WHOLE_ITEMS = tuple(item for item in EXTRA_ITEMS if len(item) > 6 and item != "null")


def is_extra(cell: str) -> bool:
    """Extra items as a server prints them: items it does not know stand (a newer server may print
    them), but not a known item with more words after it (a line joined to it, a comment)."""
    for item in cell.split(";"):
        folded = item.strip().casefold()
        if folded in EXTRA_ITEMS or EXTRA_PATTERNS.fullmatch(folded):
            continue
        for known in _WHOLE_ITEMS:
            if folded.startswith(known + " ") and not folded[len(known) + 1 :].startswith(("(", "with ")):
                return False
    return True


# What each column can hold, besides NULL and cells cut short.
DOMAINS: dict[str, Callable[[str], bool]] = {
    "id": lambda cell: bool(_ID.fullmatch(cell)),
    "select_type": is_select_type,
    "type": is_access_type,
    "key_len": lambda cell: bool(_KEY_LEN.fullmatch(cell)),
    "rows": _is_rows,
    "filtered": _is_number,
    "r_rows": _is_rows,
    "r_filtered": _is_number,
    "extra": is_extra,
}
# The columns whose values are terms: a term in quotes or emphasis is that term.
_TERMS: dict[str, Callable[[str], bool]] = {"select_type": is_select_type, "type": is_access_type}


class _Repairs:
    """The cells each repair changed, as (row index, column) pairs."""

    def __init__(self) -> None:
        self.entities: list[tuple[int, str]] = []
        self.escapes: list[tuple[int, str]] = []
        self.wrappers: list[tuple[int, str]] = []
        self.comments: list[tuple[int, str]] = []
        self.nulls: list[tuple[int, str]] = []


def clean_cells(plan: Plan) -> None:
    """Remove markup, quotes and comments from the cells of `plan.rows`, with a notice for each kind."""
    repairs = _Repairs()
    _read_null_marker(plan)
    escapes = plan.format != "tsv"  # batch output escapes backslashes itself; the reader undid that
    for index, row in enumerate(plan.rows):
        _clean_row(index, row, repairs, escapes)
    _say(plan, repairs.entities, "Decoded HTML entities (such as &lt;) in")
    _say(plan, repairs.escapes, "Removed Markdown escapes (a backslash before _ or *) from")
    _say(plan, repairs.wrappers, "Removed quotes or Markdown emphasis around the values of")
    _say(plan, repairs.nulls, "Read 'null' as NULL (a program's quoted copy of the rows) in")
    _say(plan, repairs.comments, "Removed a comment typed after the value of")
    restore_case(plan)


def _read_null_marker(plan: Plan) -> None:
    """Read a client's NULL marker (`<null>`, `(NULL)`, `[NULL]`) as NULL, with a notice, when
    the rows hold one marker and no NULL printed otherwise: a client prints every NULL one way."""
    found: set[str] = set()
    for row in plan.rows:
        for cell in row.values():
            if cell is None:
                return
            if cell in _NULL_MARKERS:
                found.add(cell)
    if len(found) != 1:
        return
    marker = found.pop()
    cells: list[tuple[int, str]] = []
    for index, row in enumerate(plan.rows):
        for column, cell in row.items():
            if cell == marker:
                row[column] = None
                cells.append((index, column))
    plan.notices.append(
        f"Read '{marker}' as NULL, as the client printed it, in {plural(len(cells), 'cell')} ({describe_cells(cells)})."
    )


# The terms of the columns that print them, by their spelling without case: the server's spelling.
# A page that strips spaces leaves `DEPENDENTSUBQUERY`: the terms are also found without theirs.
_SPELLINGS: dict[str, dict[str, str]] = {
    "select_type": {key: name for name in SELECT_TYPES for key in (name.casefold(), name.casefold().replace(" ", ""))},
    "type": {name.casefold(): name for name in ACCESS_TYPES},
}


# Cells already spelled as the server prints them (most are).
_SERVER_SPELLED = frozenset({"NULL", *SELECT_TYPES, *ACCESS_TYPES})


def restore_case(plan: Plan) -> None:
    """Put back the server's spelling of the terms a page's styling (or a writer) upper- or
    lower-cased: a `select_type` or access `type` that is a term only without case (`RANGE`,
    `simple`, `Range|Filter`), and `NULL` in any column (`null`, `Null`). Extra items are left as
    printed: they are matched without case."""
    restored: list[tuple[int, str]] = []
    examples: list[str] = []
    for index, row in enumerate(plan.rows):
        for column, cell in row.items():
            if not cell or cell in _SERVER_SPELLED or (len(cell) != 4 and column not in _SPELLINGS):
                continue
            spelled = "NULL" if cell.casefold() == "null" else _spelled(column, cell)
            if spelled is None or spelled == cell:
                continue
            row[column] = None if spelled == "NULL" else spelled
            restored.append((index, column))
            if len(examples) < 3:
                examples.append(f"{column} {_shown(cell)!r} as {spelled!r}")
    if restored:
        one = len(restored) == 1
        plan.notices.append(
            f"Restored the case of {plural(len(restored), 'term')} as the server prints {'it' if one else 'them'} "
            f"({describe_cells(restored)}; {', '.join(examples)}): a page's styling or a writer changed "
            f"{'it' if one else 'them'}."
        )


def _spelled(column: str, cell: str) -> str | None:
    """The server's spelling of a term of `column` written in another case (or with its spaces
    stripped), or None."""
    spellings = _SPELLINGS.get(column)
    if spellings is None:
        return None
    folded = " ".join(cell.split()).casefold()
    if column == "type" and folded.endswith("|filter"):
        base = spellings.get(folded.removesuffix("|filter"))
        return None if base is None else base + "|filter"
    return spellings.get(folded)


def _clean_row(index: int, row: Row, repairs: _Repairs, escapes: bool) -> None:
    marked = [column for column, cell in row.items() if cell and _MARKED.search(cell) and not cell.endswith(CUT)]
    for column in marked:
        text = row[column] or ""
        if "&" in text and _ENTITY.search(text) and _names_select(decoded := _unescape(text)):
            text = decoded
            repairs.entities.append((index, column))
        if escapes and "\\" in text and _ESCAPE.search(text):
            text = _ESCAPE.sub(r"\1", text)
            repairs.escapes.append((index, column))
        row[column] = text
    quotes = _row_quotes(row) if marked else None
    if quotes is not None:
        for column, cell in row.items():
            if cell in _NULL_WORDS:
                row[column] = None
                repairs.nulls.append((index, column))
    for column in marked:
        cell = row[column]
        if cell is None:
            continue
        text = _unwrapped(column, cell, quotes)
        if text != cell:
            repairs.wrappers.append((index, column))
        comment = _COMMENT.match(text)
        if comment and not _is_value(column, text):
            text = comment["value"]
            repairs.comments.append((index, column))
        row[column] = text


def _unescape(cell: str) -> str:
    import html  # rarely needed: a plain paste does not load it

    return html.unescape(cell)


def _names_select(cell: str) -> bool:
    """Whether a cell is a table a server names after a select (`<derived2>`, `<union1,2>`): where
    an HTML page's escaping was left in a paste, it shows as `&lt;derived2&gt;`."""
    return bool(_REFERENCE.fullmatch(cell))


def _row_quotes(row: Row) -> tuple[str, str] | None:
    """The quotes around a row's terms (`'SIMPLE'`, `'const'`), when a program quoted its values."""
    for column, known in _TERMS.items():
        cell = row.get(column)
        if not cell:
            continue
        for pair in _QUOTES:
            inner = _inside(cell, pair)
            if inner is not None and known(inner):
                return pair
    return None


def _unwrapped(column: str, cell: str, quotes: tuple[str, str] | None) -> str:
    """The cell without the quotes or emphasis around it that no server prints."""
    if quotes is not None and (inner := _inside(cell, quotes)) is not None:
        return inner
    for pair in _EMPHASIS:
        if (inner := _inside(cell, pair)) is not None and pair[0] not in inner:
            return inner
    known = _TERMS.get(column)
    if known is not None and not known(cell):
        for pair in _QUOTES + _LIGHT_EMPHASIS:
            if (inner := _inside(cell, pair)) is not None and known(inner):
                return inner
    return cell


def _inside(cell: str, pair: tuple[str, str]) -> str | None:
    opening, closing = pair
    if len(cell) > len(opening) + len(closing) and cell.startswith(opening) and cell.endswith(closing):
        return cell[len(opening) : -len(closing)].strip()
    return None


def _is_value(column: str, text: str) -> bool:
    """Whether a cell that looks like a value and a comment is a value its column holds whole."""
    domain = DOMAINS.get(column)
    return domain is not None and domain(text)


def _say(plan: Plan, cells: list[tuple[int, str]], what: str) -> None:
    if cells:
        plan.notices.append(f"{what} {plural(len(cells), 'cell')} ({describe_cells(cells)}).")


def describe_cells(cells: list[tuple[int, str]]) -> str:
    """`row 1: type`, `rows 1 and 3: table, type`: the rows counted from 1, as the table shows them."""
    rows = sorted({index + 1 for index, _ in cells})
    columns = list(dict.fromkeys(column for _, column in cells))
    shown = ", ".join(str(n) for n in rows[:5]) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
    return f"{'row' if len(rows) == 1 else 'rows'} {shown}: {', '.join(columns)}"


def judge_cells(plan: Plan) -> None:
    """Flag the reading uncertain when a cell is outside its column's domain."""
    odd: list[tuple[int, str]] = []
    masked: list[tuple[int, str]] = []
    examples: list[str] = []
    fits: dict[tuple[str, str], bool] = {}  # a long paste repeats its values
    for index, row in enumerate(plan.rows):
        for column, domain in DOMAINS.items():
            cell = row.get(column)
            if not cell or cell.endswith(CUT):
                continue
            known = fits.get((column, cell))
            if known is None:
                known = fits[column, cell] = domain(cell.strip())
            if known:
                continue
            if cell.strip() == MASKED and column != "select_type":
                masked.append((index, column))
                continue
            odd.append((index, column))
            if len(examples) < 3:
                examples.append(f"{column} {_shown(cell)!r}")
    if odd:
        plan.uncertain = True
        one = len(odd) == 1
        plan.notices.append(
            f"{plural(len(odd), 'cell')} {'holds a value' if one else 'hold values'} that MySQL and MariaDB "
            f"never print in {'its' if one else 'their'} column ({describe_cells(odd)}; {', '.join(examples)}): "
            "the reading may be wrong there."
        )
    if masked:
        one = len(masked) == 1
        plan.notices.append(
            f"{plural(len(masked), 'cell')} {'holds' if one else 'hold'} '{MASKED}' ({describe_cells(masked)}), the "
            f"mark mysqltest prints for a value its test replaced: {'that value is' if one else 'those values are'} "
            "unknown."
        )


def _shown(cell: str) -> str:
    return cell if len(cell) <= 40 else cell[:39] + CUT
