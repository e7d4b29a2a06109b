"""Result sets that are not the client's text box but were printed or re-typed as markup.

- `mysql --html` (`-H`): one line, `<TABLE BORDER=1><TR><TH>id</TH>…</TR><TR><TD>1</TD>…`,
  cells escaped as XML (`&lt;derived2&gt;`), NULL printed as `NULL`. A terminal or a mail
  client may have wrapped that line.
- `mysql --xml` (`-X`): `<resultset statement="…">`, then per row `<row>` and
  `<field name="id">1</field>`; NULL is `<field name="key" xsi:nil="true" />`. The statement
  attribute is the query.
- a Jira or Confluence wiki table: `||id||select_type||…||` header, `|1|SIMPLE|…|` rows, `\\|`
  for a `|` inside a cell.
- a table copied from a web page that came out with one cell per line: the header names one
  per line, then each row's cells; also a client table whose cells each went onto a line of
  their own with the `|` after them (`id |`, `select_type |`, borders as `-----+` lines).

Each is returned as a `ResultSet` with format "table" (what the client or the page showed is a
table) and a notice saying how it was read. Cells are decoded and kept as strings.
"""

from __future__ import annotations

import html
import re

from analyzer.lazy import lazy_regex
from analyzer.readers.resultset import CUT, EXPLAIN_COLUMNS, ResultSet, is_explain_header, unique_names, value
from analyzer.repair.unwrap.pieces import describe, rejoin
from analyzer.wording import describe_lines

_HTML_TABLE_RE = lazy_regex(r"<TABLE\b[^>]{0,200}>(.*?)(?:</TABLE>|\Z)", re.IGNORECASE | re.DOTALL)
_HTML_ROW_RE = lazy_regex(r"<TR\b[^>]{0,200}>(.*?)(?:</TR>|(?=<TR\b)|\Z)", re.IGNORECASE | re.DOTALL)
_HTML_CELL_RE = lazy_regex(r"<(T[HD])\b[^>]{0,200}>(.*?)(?:</T[HD]>|(?=<T[HD]\b)|\Z)", re.IGNORECASE | re.DOTALL)
_TAG_RE = lazy_regex(r"<[^>]{0,200}>")
_XML_ROW_RE = lazy_regex(r"<row>(.*?)(?:</row>|(?=<row>)|\Z)", re.DOTALL)
# Values are XML-escaped: a raw `<` only starts a tag.
_XML_FIELD_RE = lazy_regex(r'<field name="([^"<>]{0,300})"(?:\s+xsi:nil="true"\s*/>|>([^<]*)</field>)')
_STATEMENT_RE = lazy_regex(r'statement="([^"]*)"')
_JIRA_SPLIT_RE = lazy_regex(r"(?<!\\)\|")
_ROW_ID_RE = lazy_regex(r"^(?:\d+|NULL)$")
# Every tabular EXPLAIN has ten columns or more; a shorter list of names is not its header.
MIN_CELL_COLUMNS = 8


def starts_markup(line: str) -> bool:
    """A cheap test whether `line` may open an HTML table, an XML result set or a Jira table."""
    head = line.lstrip()[:10].lower()
    if head.startswith("||"):
        return starts_jira(line)
    return head.startswith(("<table", "<?xml", "<resultset"))


def parse_markup(
    lines: list[str], numbers: list[int], start: int, margins: list[int]
) -> tuple[ResultSet | None, int, str | None]:
    """Read the markup result set opening on `lines[start]`: the result (or None), the index
    after it, and the statement it names (the XML's `statement`), if any."""
    head = lines[start].lstrip()[:10].lower()
    if head.startswith("||"):
        result, end = _parse_jira(lines, numbers, start)
        return result, end, None
    if starts_cell_column(lines, start):
        result, end = parse_cell_column(lines, numbers, start)
        return result, end, None
    if head.startswith("<table"):
        result, end = _parse_html(lines, numbers, start, margins)
        return result, end, None
    return _parse_xml(lines, numbers, start)


def _block(lines: list[str], start: int, closing: str) -> int:
    """Index after the line holding `closing` (case-insensitive), or after the last line before
    an empty one."""
    k = start
    while k < len(lines):
        if closing in lines[k].lower():
            return k + 1
        if k > start and not lines[k].strip():
            return k
        k += 1
    return k


def _parse_html(lines: list[str], numbers: list[int], start: int, margins: list[int]) -> tuple[ResultSet | None, int]:
    end = _block(lines, start, "</table>")
    pieces = lines[start:end]
    text, terminal = rejoin(pieces, margins[start:end])
    match = _HTML_TABLE_RE.search(text)
    if match is None:
        return None, end
    header: list[str] = []
    data: list[list[str | None]] = []
    for row in _HTML_ROW_RE.finditer(match.group(1)):
        cells = [(kind.upper(), _html_cell(body)) for kind, body in _HTML_CELL_RE.findall(row.group(1))]
        if cells and all(kind == "TH" for kind, _ in cells) and not header:
            header = [text or "" for _, text in cells]
        elif cells:
            data.append([text for _, text in cells])
    notices = ["Read the HTML table printed by the client's --html option."]
    if len(pieces) > 1:
        notices.append(f"Rejoined {describe(len(pieces) - 1, terminal)} into the HTML table's one line.")
    complete = "</table>" in text.lower()
    return _result(header, data, numbers[start], notices, complete, "HTML table"), end


def _html_cell(body: str) -> str | None:
    text = html.unescape(_TAG_RE.sub("", body)).replace("\u00a0", " ").strip()
    return value(text)


def _parse_xml(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int, str | None]:
    end = _block(lines, start, "</resultset>")
    # Blank lines are part of the document (the client prints one after each row).
    while (
        end < len(lines)
        and "</resultset>" not in lines[end - 1]
        and any("<row>" in line or "</resultset>" in line for line in lines[end : end + 3])
    ):
        end = _block(lines, end + 1, "</resultset>")
    text = "\n".join(lines[start:end])
    at = text.find("<resultset")
    close = text.find(">", at)
    if at < 0 or close < 0:
        return None, start + 1, None
    statement = _STATEMENT_RE.search(text, at, close)
    names: list[str] = []
    records: list[dict[str, str | None]] = []
    for row in _XML_ROW_RE.finditer(text, close + 1):
        record: dict[str, str | None] = {}
        for field in _XML_FIELD_RE.finditer(row.group(1)):
            name = html.unescape(field.group(1))
            if name not in names:
                names.append(name)
            body = field.group(2)
            record[name] = None if body is None else html.unescape(body)
        records.append(record)
    data = [[record.get(name, CUT) for name in names] for record in records]
    notices = ["Read the XML result set printed by the client's --xml option."]
    complete = "</resultset>" in text
    result = _result(names, data, numbers[start], notices, complete, "XML result set")
    query = html.unescape(statement.group(1)) if statement else None
    return result, end, query


def starts_jira(line: str) -> bool:
    s = line.strip()
    if not (s.startswith("||") and s.endswith("||")):
        return False
    return is_explain_header([name.strip().lower() for name in s[2:-2].split("||")])


def _parse_jira(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    header = [name.strip() for name in lines[start].strip()[2:-2].split("||")]
    data: list[list[str | None]] = []
    notices = ["Read a Jira/Confluence wiki table ('||' header, '|' rows)."]
    k = start + 1
    while k < len(lines):
        line = lines[k].strip()
        if not line.startswith("|") or line.startswith("||"):
            break
        pieces = [line]
        k += 1
        # A row a mail client or a terminal wrapped goes on until it ends with its `|`.
        while not pieces[-1].endswith("|") and k < len(lines) and lines[k].strip() and not lines[k].startswith("|"):
            pieces.append(lines[k])
            k += 1
        text = rejoin(pieces, [0] * len(pieces))[0] if len(pieces) > 1 else line
        cells = [cell.replace("\\|", "|").strip() for cell in _JIRA_SPLIT_RE.split(text.strip()[1:-1])]
        data.append([value(cell) for cell in _merge_rowid_filter(cells, header)])
    return _result(header, data, numbers[start], notices, True, "Jira table"), k


def _merge_rowid_filter(cells: list[str], header: list[str]) -> list[str]:
    """Cells of a row typed without escaping MariaDB's rowid filter (`ref|filter`, `idx_a|idx_b`,
    `4|1`): three `|` too many, `filter` right after the type. Other rows are returned as they are."""
    names = [name.lower() for name in header]
    if len(cells) != len(names) + 3 or not {"type", "key", "key_len"} <= set(names):
        return cells
    at = names.index("type")
    if cells[at + 1] != "filter" or names[at + 1 : at + 4] != ["possible_keys", "key", "key_len"]:
        return cells
    merged = cells[: at + 1]
    merged[at] += "|filter"
    merged.append(cells[at + 2])  # possible_keys
    merged.append(cells[at + 3] + "|" + cells[at + 4])  # key
    merged.append(cells[at + 5] + "|" + cells[at + 6])  # key_len
    return merged + cells[at + 7 :]


def starts_cell_column(lines: list[str], i: int) -> bool:
    """A web table copied with one cell per line: `id` alone on its line, then `select_type`,
    each followed by its `|` or neither."""
    if _is_rule(lines[i]):
        i += 1  # the border over a table whose cells keep their `|`
        if i == len(lines) or not _barred(lines[i]):
            return False
    barred = _barred(lines[i])
    return (
        _cell(lines[i], barred).lower() == "id"
        and i + 1 < len(lines)
        and _barred(lines[i + 1]) == barred
        and _cell(lines[i + 1], barred).lower() == "select_type"
    )


def parse_cell_column(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    """Header names one per line, then each row's cells one per line (an empty cell is an
    empty line). Every row starts with its id (a number or NULL): a row that does not ends
    the table.

    A client table whose cells each went onto a line of their own keeps the `|` after each
    (its left border lost): an empty cell is a lone `|`, and its borders (`-----+`) are lines
    of their own, skipped; one above the header without one under the rows means rows are missing."""
    top = _is_rule(lines[start])
    k = start + top
    barred = _barred(lines[k])
    header: list[str] = []
    while (
        k < len(lines)
        and _barred(lines[k]) == barred
        and _cell(lines[k], barred).lower() in EXPLAIN_COLUMNS
        and len(header) < len(EXPLAIN_COLUMNS)
    ):
        header.append(_cell(lines[k], barred))
        k += 1
    if barred and k < len(lines) and _is_rule(lines[k]):
        k += 1
    count = len(header)
    data: list[list[str | None]] = []
    while count >= MIN_CELL_COLUMNS and k < len(lines) and _ROW_ID_RE.match(_cell(lines[k], barred)):
        piece = lines[k : k + count]
        if barred and not all(_barred(line) for line in piece):
            break  # a cell line without its `|`: not a row of this table
        cells = [_cell(line, barred) for line in piece]
        if len(cells) == count - 1 and header[-1].lower() == "extra":
            cells.append("")  # the empty Extra of the last row, lost with the trailing empty line
        k += count
        data.append([value(cell) for cell in cells])
    complete = True
    if barred:
        notices = ["Read a table whose cells were each put on a line of their own, with the '|' after each."]
        closed = k < len(lines) and _is_rule(lines[k])
        complete = closed or not top
        k += closed
    else:
        notices = ["Read a table copied from a web page with one cell per line."]
    return _result(header, data, numbers[start], notices, complete, "table"), min(k, len(lines))


def _barred(line: str) -> bool:
    """Whether a line of one cell ends with the `|` after the cell."""
    return line.rstrip().endswith("|")


def _cell(line: str, barred: bool) -> str:
    """The cell on a line of its own, without the `|` after it when the table keeps those."""
    text = line.strip()
    return text[:-1].strip() if barred and text.endswith("|") else text


def _is_rule(line: str) -> bool:
    """A border line of `-` (and `+`) signs alone."""
    text = line.strip()
    return len(text) >= 3 and "-" in text and not text.strip("-+")


def _result(
    header: list[str],
    data: list[list[str | None]],
    first_line: int,
    notices: list[str],
    complete: bool,
    what: str,
) -> ResultSet | None:
    if not header:
        return None
    columns = unique_names([name.lower() for name in header])
    rows = []
    damaged = []
    for index, cells in enumerate(data):
        if len(cells) != len(columns) or CUT in cells:
            damaged.append(index)
        cells = (cells + [CUT] * len(columns))[: len(columns)]
        rows.append(dict(zip(columns, cells, strict=True)))
    result = ResultSet("table", columns, rows, first_line, notices=notices)
    if damaged:
        result.truncated = True
        result.affected_rows = damaged
        which = describe_lines([i + 1 for i in damaged]).replace("line", "row").capitalize()
        verb = "does" if len(damaged) == 1 else "do"
        notices.append(
            f"{which} of the {what} {verb} not have the header's {len(columns)} cells: the row is damaged or a "
            f"cell holds an unescaped '|'; missing cells are shown as '{CUT}'."
        )
    if not complete:
        result.truncated = True
        notices.append(f"The {what} has no end: the paste looks truncated, and rows may be missing.")
    return result
