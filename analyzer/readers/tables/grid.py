"""Text grids without an outer border: DataGrip's and DBeaver's text copy (`id|select_type|…`
over `--+-----------+…`) and psql's aligned output (` id | select_type | …` over `----+-----…`).

The rule under the header holds a `+` at the display column of every `|` that parts two cells,
and no `+` at its ends (a rule with them is a boxed table's border: `readers.tables.table`). Rows are
cut at those columns; a row that does not line up with them (typed or edited by hand) is cut at
its `|` signs when it has one per column. Such grids show NULL as an empty cell. psql ends the
output with `(N rows)`, which is compared with the rows read.
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.readers.resultset import CUT, ResultSet, unique_names, value
from analyzer.repair.textwidth import Columns
from analyzer.wording import describe_lines, plural

# Dashes parted by `+` signs, optionally closed by one (DBeaver ends its rule with `+`).
_RULE_RE = lazy_regex(r"^[^\S\n]*-+(?:\+-+)+\+?[^\S\n]*$")
_ROW_COUNT_RE = lazy_regex(r"^\s*\((\d+) rows?\)\s*$")


def is_grid_rule(line: str) -> bool:
    """True when `line` is the rule under a grid's header: dashes parted by `+` signs."""
    return line.lstrip()[:1] == "-" and "+" in line and _RULE_RE.match(line) is not None


def starts_grid(lines: list[str], i: int) -> bool:
    """True when `lines[i]` is the header of a grid: `|` signs (none before the first name) in the
    display columns of the `+` signs of the rule under it."""
    header = lines[i]
    if i + 1 >= len(lines) or header.lstrip()[:1] in ("|", "") or not is_grid_rule(lines[i + 1]):
        return False
    rule = lines[i + 1].rstrip()
    closed = rule.endswith("+")
    bars = _columns(header.rstrip(), "|")
    return bool(bars) and bars == _columns(rule, "+")[: len(bars) if closed else None]


def parse_grid(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet, int]:
    """The grid whose header is `lines[start]` (with its rule on the next line), and the index of
    the line after it."""
    rule = lines[start + 1].rstrip()
    seps = _columns(rule, "+")
    closed = rule.endswith("+")  # a `|` closes every line: no cell follows the last one
    columns = unique_names([name.lower() for name in _cut(lines[start], seps, closed)])
    result = ResultSet("table", columns, [], numbers[start])
    loose: list[int] = []
    damaged: list[int] = []
    empty: list[int] = []
    j = start + 2
    while j < len(lines) and "|" in lines[j] and lines[j].strip():
        check_deadline()
        line = lines[j]
        if _lines_up(line, seps):
            cells = _cut(line, seps, closed)
        else:
            cells = [cell.strip() for cell in line.strip().split("|")]
            if closed and cells[-1:] == [""]:
                cells.pop()
            if len(cells) == len(columns):
                loose.append(numbers[j])
            else:
                damaged.append(numbers[j])
                result.affected_rows.append(len(result.rows))
                cells = (cells + [CUT] * len(columns))[: len(columns)]
        if "" in cells:
            empty.append(numbers[j])
        result.rows.append({name: value(cell) if cell else None for name, cell in zip(columns, cells, strict=False)})
        j += 1
    end = _row_count(lines, numbers, j, result)
    _report(result, numbers[start], loose, damaged, empty)
    return result, end


def _row_count(lines: list[str], numbers: list[int], j: int, result: ResultSet) -> int:
    """Take psql's `(N rows)` line at `lines[j]`, if there, comparing it with the rows read; return
    the index after the grid."""
    match = _ROW_COUNT_RE.match(lines[j]) if j < len(lines) else None
    if match is None:
        return j
    count = int(match.group(1))
    if count > len(result.rows):
        result.truncated = True
        result.notices.append(
            f"The grid's footer says {plural(count, 'row')} (line {numbers[j]}) but only {len(result.rows)} "
            f"{'is' if len(result.rows) == 1 else 'are'} in the paste: it looks truncated, rows are missing."
        )
    elif count < len(result.rows):
        result.notices.append(
            f"The grid's footer says {plural(count, 'row')} (line {numbers[j]}) but the paste holds {len(result.rows)}."
        )
    return j + 1


def _report(result: ResultSet, first: int, loose: list[int], damaged: list[int], empty: list[int]) -> None:
    """The notices on how the grid starting on line `first` was read."""
    result.notices.append(
        f"Read the grid starting on line {first} (cells parted by '|' under a '--+--' rule, no outer border)."
    )
    if loose:
        result.notices.append(
            f"Cut {describe_lines(loose)}, which {'does' if len(loose) == 1 else 'do'} not line up with the rule, "
            f"at {'its' if len(loose) == 1 else 'their'} '|' signs."
        )
    if empty:
        result.notices.append(
            f"Read the empty cells on {describe_lines(empty)} as NULL, which such a grid shows as nothing."
        )
    if damaged:
        result.truncated = True
        result.notices.append(
            f"{describe_lines(damaged).capitalize()} {'does' if len(damaged) == 1 else 'do'} not line up with the "
            f"rule and {'has' if len(damaged) == 1 else 'have'} not one cell per column: the row is damaged; "
            f"missing cells are shown as '{CUT}'."
        )


def _columns(text: str, sign: str) -> list[int]:
    """The display columns of the `sign`s in `text`."""
    columns = Columns(text)
    return [columns.column(k) for k, char in enumerate(text) if char == sign]


def _lines_up(line: str, seps: list[int]) -> bool:
    """True when `line` holds a `|` at every separator column."""
    columns = Columns(line.rstrip())
    return all(sep < columns.width and columns.char(sep) == "|" for sep in seps)


def _cut(line: str, seps: list[int], closed: bool) -> list[str]:
    """The cells of `line` between the separator columns (a cell after the last one goes to the
    end, unless the last separator closes the line)."""
    columns = Columns(line)
    bounds = [-1, *seps]
    cells = []
    for k, left in enumerate(bounds):
        begin = 0 if left < 0 else columns.index(left) + 1
        right = bounds[k + 1] if k + 1 < len(bounds) else None
        end = len(line) if right is None or right >= columns.width else columns.index(right)
        cells.append(line[begin:end].strip())
    return cells[:-1] if closed else cells
