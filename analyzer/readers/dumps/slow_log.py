"""MariaDB's slow query log with `log_slow_verbosity=explain`: the plan of a logged statement as
`# explain:` lines (a tab-separated header and rows behind the prefix) or, as MariaDB 10.0.5
logged it, between `## <explain>` and `## </explain>` lines with `##` before each row.

An entry is read from its `# Time:` / `# User@Host:` header lines to its statement, which becomes
the query (after `SET timestamp=…;` and `use db;`). Pages that show such a log turn its tabs into
spaces: aligned to tab stops in the log's own columns (the prefix counts; the cleanup keeps the
width of a `# ` it took off in the margins), or collapsed to single spaces. Fields are then split
at the tab stops, or by their values: only Extra, the last field, holds spaces, besides the
select_types of two words and a rowid filter's `(15%)` after rows; such a split is checked
against the values each column can hold.
"""

from __future__ import annotations

import re

from analyzer.lazy import lazy_regex
from analyzer.model import Row
from analyzer.readers.resultset import CUT, ResultSet, is_explain_header, unique_names, value
from analyzer.readers.tables.tsv import split_expanded
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

_NEW_RE = lazy_regex(r"^\s*(?:#\s?)?explain: ")
_OLD_OPEN_RE = lazy_regex(r"^\s*##\s?<explain>\s*$")
_OLD_CLOSE_RE = lazy_regex(r"^\s*##\s?</explain>\s*$")
_OLD_ROW_RE = lazy_regex(r"^\s*##\s*")
_HEADER_LINE_RE = lazy_regex(
    r"^\s*(?:#\s?)?(?:Time|User@Host|Thread_id|Query_time|Rows_\w+|Full_scan|Full_join|Filesort\w*|Tmp_\w+"
    r"|Pages_\w+|Merge_passes|Bytes_sent|Log_slow\w*|QC_hit|Schema|Priority_queue|Max_mem\w*|Lock_time):"
)
_SET_RE = lazy_regex(r"^\s*SET timestamp=\d+;\s*$", re.IGNORECASE)
_USE_RE = lazy_regex(r"^\s*use [`\w$]+;\s*$", re.IGNORECASE)
_TWO_WORDS = frozenset(
    {
        "DEPENDENT SUBQUERY",
        "DEPENDENT UNION",
        "UNCACHEABLE SUBQUERY",
        "UNCACHEABLE UNION",
        "UNION RESULT",
        "LATERAL DERIVED",
    }  # fmt: skip
)
_FILTER_SHARE_RE = lazy_regex(r"^\(\d+(?:\.\d+)?%\)$")
# What each column of a row split by its values may hold.
_CHECKS = {
    "id": lazy_regex(r"^(?:\d+|NULL)$"),
    "type": lazy_regex(
        r"^(?:ALL|index|range|ref|eq_ref|const|system|fulltext|ref_or_null|index_merge|unique_subquery"
        r"|index_subquery|hash_\w+|NULL)(?:\|filter)?$"
    ),
    "key_len": lazy_regex(r"^(?:[\d,|]+|NULL)$"),
    "rows": lazy_regex(r"^(?:\d+(?: \(\d+(?:\.\d+)?%\))?|NULL)$"),
    "r_rows": lazy_regex(r"^(?:\d+(?:\.\d+)?|NULL)$"),
    "filtered": lazy_regex(r"^(?:\d+(?:\.\d+)?|NULL)$"),
    "r_filtered": lazy_regex(r"^(?:\d+(?:\.\d+)?|NULL)$"),
}


@dataclass
class _Block:
    """The plan lines of one entry: the header's line, the rows' lines, each line's text after its
    prefix and the column that text starts at in the log."""

    lines: list[int]
    bodies: list[str]
    columns: list[int]
    begin: int = 0  # index of the block's first line (`## <explain>`)
    end: int = 0  # index of the line after the block (after `## </explain>`)
    closed: bool = True  # the old form's `## </explain>` is there
    guessed: list[int] = field(default_factory=list)  # line numbers split by a guess
    filled: list[int] = field(default_factory=list)  # line numbers whose empty Extra lost its tab


def read_slow_log(lines: list[str], numbers: list[int], margins: list[int]) -> list[ResultSet]:
    """The plan of every slow query log entry with `# explain:` lines, in order (a plan starts
    with its header, on a line that names `select_type`)."""
    found = []
    floor = 0
    for k in [k for k, line in enumerate(lines) if "select_type" in line and ("explain:" in line or "##" in line)]:
        block = _block(lines, margins, k) if k >= floor else None
        result = _result(block, lines, numbers) if block is not None else None
        if block is not None and result is not None:
            found.append(result)
            floor = max(block.end, result.end)
    return found


def _block(lines: list[str], margins: list[int], k: int) -> _Block | None:
    """The plan lines whose header is `lines[k]`, if it is one."""
    if _NEW_RE.match(lines[k]):
        block = _Block([], [], [], begin=k)
        j = k
        while j < len(lines) and (prefix := _NEW_RE.match(lines[j])) is not None:
            _add(block, lines, margins, j, prefix.end())
            j += 1
        block.end = j
        return block
    if not k or not _OLD_OPEN_RE.match(lines[k - 1]):
        return None
    block = _Block([], [], [], begin=k - 1, closed=False)
    j = k
    while j < len(lines) and (row := _OLD_ROW_RE.match(lines[j])) is not None:
        if _OLD_CLOSE_RE.match(lines[j]):
            block.closed = True
            j += 1
            break
        _add(block, lines, margins, j, row.end())
        j += 1
    block.end = j
    return block


def _add(block: _Block, lines: list[str], margins: list[int], j: int, cut: int) -> None:
    """Add `lines[j]` to the block: its text after the first `cut` characters (the prefix)."""
    block.lines.append(j)
    block.bodies.append(lines[j][cut:].rstrip(" "))
    block.columns.append(margins[j] + cut)


def _result(block: _Block, lines: list[str], numbers: list[int]) -> ResultSet | None:
    """The result set of a block whose first line is an EXPLAIN header; None otherwise."""
    header = block.bodies[0]
    names = [name.strip().lower() for name in (header.split("\t") if "\t" in header else header.split())]
    if not is_explain_header(names):
        return None
    columns = unique_names(names)
    layout = _layout(block)
    rows: list[Row] = []
    damaged: list[int] = []
    for body, column, j in zip(block.bodies[1:], block.columns[1:], block.lines[1:], strict=True):
        fields = _fields(body, column, columns, layout, block, numbers[j])
        if len(fields) != len(columns):
            damaged.append(len(rows))
        fields = (fields + [CUT] * len(columns))[: len(columns)]
        rows.append({name: value(cell) for name, cell in zip(columns, fields, strict=True)})
    start, end, query_line = _entry(lines, block)
    # Lines that kept the log's tabs are tab-separated output; the others were laid out again.
    kind = "tsv" if layout == "tabs" else "table"
    result = ResultSet(kind, columns, rows, numbers[block.lines[0]], start=start, end=end)
    if query_line is not None:
        result.query = _statement(lines, query_line, end)
    _report(result, block, layout, numbers, query_line)
    _flag(result, block, damaged, numbers)
    return result


def _layout(block: _Block) -> str:
    """How the fields are separated: `tabs`, `stops` (tabs expanded to spaces, aligned to tab stops
    in the log's columns) or `words` (tabs collapsed to single spaces)."""
    if all("\t" in body for body in block.bodies[1:]) or "\t" in block.bodies[0]:
        return "tabs"
    header, column = block.bodies[0], block.columns[0]
    words = [m.start() for m in re.finditer(r"\S+", header)]
    if "  " in header and len(words) > 2 and all((column + at) % 8 == 0 for at in words[1:]):
        return "stops"
    return "words"


def _fields(body: str, column: int, columns: list[str], layout: str, block: _Block, number: int) -> list[str]:
    """The fields of a row's text (which starts at `column` of its log line)."""
    if layout == "tabs":
        fields = body.split("\t")
        if len(fields) == len(columns) - 1 and columns[-1] == "extra":
            fields.append("")
            block.filled.append(number)
        return fields
    if layout == "stops":
        fields, sure = split_expanded(" " * column + body, len(columns), 8)
        fields[0] = fields[0].strip()
    else:
        fields, sure = _split_words(body, columns)
    if not sure:
        block.guessed.append(number)
    return fields


def _split_words(body: str, columns: list[str]) -> tuple[list[str], bool]:
    """A row whose tabs were collapsed to single spaces, split by its values: Extra (last) takes
    the rest. True when every column with a known form holds a value of that form."""
    words: list[str] = []
    for word in body.split():
        if words and (f"{words[-1]} {word}" in _TWO_WORDS or _FILTER_SHARE_RE.match(word)):
            words[-1] += " " + word
        else:
            words.append(word)
    count = len(columns)
    if columns[-1] == "extra" and len(words) >= count - 1:
        words = words[: count - 1] + [" ".join(words[count - 1 :])]
    sure = len(words) == count and all(
        check.match(cell) for name, cell in zip(columns, words, strict=True) if (check := _CHECKS.get(name))
    )
    return words, sure


def _entry(lines: list[str], block: _Block) -> tuple[int, int, int | None]:
    """The entry around a block: index of its first header line, of the line after it, and of
    its statement's first line (logged after `SET timestamp=…;`; None when the paste lacks it)."""
    start = block.begin
    while start > 0 and _log_comment(lines[start - 1]):
        start -= 1
    while start < block.begin and not lines[start].strip():
        start += 1
    j = block.end
    while j < len(lines) and (not lines[j].strip() or lines[j].strip() == "#" or _USE_RE.match(lines[j])):
        j += 1
    if j >= len(lines) or not _SET_RE.match(lines[j]):
        return start, block.end, None
    end = j + 1
    while end < len(lines) and lines[end].strip() and not _log_comment(lines[end]) and not _NEW_RE.match(lines[end]):
        end += 1
        if lines[end - 1].rstrip().endswith(";"):
            break
    return start, end, (j + 1 if end > j + 1 else None)


def _log_comment(line: str) -> bool:
    """True for the lines of an entry's header: `# Time: …`, `# User@Host: …`, a `#` alone."""
    text = line.strip()
    return not text or text == "#" or _HEADER_LINE_RE.match(line) is not None


def _statement(lines: list[str], start: int, end: int) -> str | None:
    """The statement logged on `lines[start:end]`, without its `;`."""
    return " ".join(line.strip() for line in lines[start:end]).removesuffix(";").strip() or None


def _report(result: ResultSet, block: _Block, layout: str, numbers: list[int], query_line: int | None) -> None:
    """Notices: what was read, how its fields were separated, where the query came from."""
    first, last = numbers[block.lines[0]], numbers[block.lines[-1]]
    where = f"lines {first}-{last}" if last > first else f"line {first}"
    result.notices.append(
        f"Read {plural(len(result.rows), 'EXPLAIN row')} from a MariaDB slow query log entry ({where})."
    )
    if layout == "stops":
        result.notices.append("The log's tabs had been expanded to spaces; split the fields at the tab stops.")
    elif layout == "words":
        result.notices.append(
            "The log's tabs had been collapsed to single spaces; split the fields by their values "
            "(only Extra, the last, holds spaces)."
        )
    if query_line is not None:
        result.notices.append(f"Took the query from the statement the entry logged (line {numbers[query_line]}).")


def _flag(result: ResultSet, block: _Block, damaged: list[int], numbers: list[int]) -> None:
    """Flag what the block lacks (rows without every field, a missing `## </explain>`) and fields
    split by a guess."""
    if damaged:
        result.truncated = True
        result.affected_rows = damaged
        result.notices.append(
            f"{plural(len(damaged), 'row')} of the log {'does' if len(damaged) == 1 else 'do'} not have the header's "
            f"{len(result.columns)} fields: "
            f"they are cut short or damaged; missing cells are shown as '{CUT}'."
        )
    if not block.closed:
        result.truncated = True
        result.notices.append("The plan has no closing '## </explain>' line: rows after the last one may be missing.")
    if block.filled:
        result.notices.append(
            f"The last field on {describe_lines(block.filled)} was missing (a trailing tab was probably stripped); "
            "took it as empty."
        )
    if block.guessed:
        result.uncertain = True
        result.notices.append(
            f"The fields on {describe_lines(block.guessed)} could be split more than one way; check those rows."
        )
