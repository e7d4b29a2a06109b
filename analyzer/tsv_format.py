"""Batch output (`mysql -B`): a header line, then one line per row, fields separated by tabs.

Also reads it after an editor or a chat expanded the tabs into spaces (tab stops every 8
columns): a field then starts at a tab stop right after spaces, and the header's field count
tells how many fields each row has, so values with single spaces (`Using index condition`)
survive. mysql-test `.result` files add `Warnings:` followed by `Note<TAB>1003<TAB>…` lines.
"""

from __future__ import annotations

import re

from analyzer.resultset import (
    CUT,
    ResultSet,
    describe_lines,
    is_explain_header,
    missing_tail,
    plural,
    unique_names,
    value,
)
from analyzer.textwidth import width

TAB_SIZES = (8, 4)
_FILL = "\x00"
_WORD_RE = re.compile(r"\S+")
_SPACES_RE = re.compile(r" +")


def _header_names(line: str) -> list[str] | None:
    """The column names of a batch header line (tabs, or tabs expanded to spaces), else None."""
    if "\t" in line:
        names = [name.strip().lower() for name in line.split("\t")]
    else:
        if _tab_size(line) is None:
            return None
        names = [w.lower() for w in line.split()]
    return names if is_explain_header(names) or names[:3] == ["level", "code", "message"] else None


def _tab_size(header: str) -> int | None:
    """The tab stops (8, or 4 as some editors set) a header with expanded tabs was laid out on."""
    indent = len(header) - len(header.lstrip(" "))
    starts = [w.start() - indent for w in _WORD_RE.finditer(header)]
    if len(starts) < 3:
        return None
    return next((size for size in TAB_SIZES if not any(start % size for start in starts)), None)


def starts_tsv(line: str) -> bool:
    if "\t" not in line and "select_type" not in line and "key_len" not in line:
        return line.strip() == "Warnings:"
    return _header_names(line) is not None


def parse_tsv(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet | None, int]:
    """Read the batch result set whose header is `lines[start]`."""
    header = lines[start]
    if header.strip() == "Warnings:":
        return _parse_warnings(lines, numbers, start)
    columns = _header_names(header)
    if columns is None:
        return None, start + 1
    columns = unique_names(columns)
    expanded = "\t" not in header
    tab = _tab_size(header) if expanded else 8
    origin = len(header) - len(header.lstrip(" "))
    count = len(columns)
    cut_lines = bool(missing_tail(columns))  # the header stops early: every line was cut
    notices: list[str] = []
    rows = []
    damaged: list[int] = []
    damaged_lines: list[int] = []
    filled: list[int] = []
    ambiguous: list[int] = []
    wrapped = 0
    j = start + 1
    while j < len(lines):
        line = lines[j]
        if not line.strip() or line.strip() == "Warnings:":
            break
        if expanded:
            if "\t" in line:
                break
            fields, sure = split_expanded(line[origin:], count, tab)
            if not sure:
                ambiguous.append(numbers[j])
        else:
            if "\t" not in line and count > 1:
                break
            line, k = _unwrap(lines, j, count)
            wrapped += k - j
            j = k
            fields = line.split("\t")
        if cut_lines and fields[-1] != "":
            fields[-1] += CUT  # the line was cut: its last field may go on
        elif len(fields) == count - 1 and columns[-1] == "extra":
            fields.append("")
            filled.append(numbers[j])
        if len(fields) != count and not cut_lines:
            damaged.append(len(rows))
            damaged_lines.append(numbers[j])
        fields = (fields + [CUT] * count)[:count]
        rows.append({name: value(cell) for name, cell in zip(columns, fields, strict=True)})
        j += 1
    if wrapped:
        notices.append(f"Rejoined {plural(wrapped, 'line')} of tab-separated rows wrapped at word boundaries.")
    if expanded:
        notices.append(f"Read tab-separated output whose tabs were expanded to spaces (tab stops every {tab} columns).")
    if filled:
        notices.append(
            f"The last field on {describe_lines(filled)} was missing (a trailing tab was probably stripped); "
            "took it as empty."
        )
    if ambiguous:
        notices.append(
            f"Fields on {describe_lines(ambiguous)} could be split more than one way after tab expansion; "
            "check those rows."
        )
    result = ResultSet("tsv", columns, rows, numbers[start], notices=notices)
    if damaged:
        result.truncated = True
        result.affected_rows = damaged
        notices.append(
            f"{describe_lines(damaged_lines).capitalize()} do not have the header's {count} fields: "
            f"the rows are truncated or damaged; missing cells are shown as '{CUT}'."
        )
    return result, j


def _unwrap(lines: list[str], start: int, count: int) -> tuple[str, int]:
    """A batch row with the lines a mail client wrapped off it (at spaces, which are put back);
    returns it and the index of its last line."""
    text = lines[start]
    tabs = text.count("\t")
    k = start + 1
    while k < len(lines) and lines[k].strip() and not starts_tsv(lines[k]):
        more = lines[k].count("\t")
        if tabs + more > count - 1 or (tabs == count - 1 and (more or width(lines[k - 1]) < 40)):
            break
        text = text.rstrip(" ") + " " + lines[k].lstrip(" ")
        tabs += more
        k += 1
    return text, k - 1


def _parse_warnings(lines: list[str], numbers: list[int], start: int) -> tuple[ResultSet, int]:
    rows = []
    j = start + 1
    while j < len(lines) and lines[j].count("\t") >= 2:
        level, code, message = lines[j].split("\t", 2)
        rows.append({"level": level, "code": code, "message": message})
        j += 1
    return ResultSet("tsv", ["level", "code", "message"], rows, numbers[start]), j


def split_expanded(line: str, count: int, tab: int = 8) -> tuple[list[str], bool]:
    """Split a row whose tabs became spaces into `count` fields (fewer if it has fewer).

    A run of spaces is a separator when the text after it starts at a tab stop; it then
    stands for one tab per tab stop it crosses (more than one means empty fields between).
    Runs of two or more spaces are taken first; single spaces that end at a tab stop could be
    inside a value, so only as many of them as the count needs are used. The flag is False
    when that choice was a guess.
    """
    if not line.isascii():
        # Tab stops count display columns: give each wide character a placeholder second column.
        shadow = "".join(c + _FILL * (w - 1) for c, w in ((c, width(c)) for c in line))
        fields, sure = _split_columns(shadow, count, tab)
        return [f.replace(_FILL, "") for f in fields], sure
    return _split_columns(line, count, tab)


def _split_columns(line: str, count: int, tab: int) -> tuple[list[str], bool]:
    strong: list[tuple[int, int, int]] = []  # (start, end, tabs)
    weak: list[tuple[int, int, int]] = []
    trailing_tabs = 0
    for run in _SPACES_RE.finditer(line):
        a, b = run.start(), run.end()
        if a == 0:
            continue
        if b == len(line):
            # Spaces at the very end: tabs before empty trailing fields, if they reach a tab stop.
            trailing_tabs = (b // tab - a // tab) if b % tab == 0 else 0
            continue
        if b % tab:
            continue
        tabs = b // tab - a // tab
        (strong if b - a >= 2 or tabs > 1 else weak).append((a, b, tabs))
    need = count - 1 - trailing_tabs - sum(t for _, _, t in strong)
    sure = need <= 0 or need == len(weak)
    chosen = sorted(strong + weak[: max(need, 0)])
    fields: list[str] = []
    begin = 0
    for a, b, tabs in chosen:
        fields.append(line[begin:a])
        fields.extend([""] * (tabs - 1))
        begin = b
    fields.append(line[begin:].rstrip(" "))
    fields.extend([""] * trailing_tabs)
    return fields, sure
