"""EXPLAIN rows printed by Go's fmt: a struct with `%+v` (`{Id:1 SelectType:SIMPLE Table:users
Extra:Using where}`) or `%#v` (`main.Explain{Id:1, SelectType:"SIMPLE", …}`), or a map with `%v`
(`map[id:1 select_type:SIMPLE …]`).

Values are not quoted by `%+v`, so a value runs to the next field name: a struct's field names are
exported (capitalised), a map's keys are matched against the EXPLAIN columns. `sql.NullString`
and its kin (`{String:PRIMARY Valid:true}`) give their value or NULL, `<nil>` is NULL, a byte slice
(`[83 73 77]`) is decoded, and an empty value is read as NULL (a NULL scanned into a Go string
prints as nothing). A pointer (`0xc000123`) does not print its value: that cell is missing.
"""

from __future__ import annotations

import itertools
import json
import re
from bisect import bisect_right

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.readers.dumps.records import Dump, Record, Scalar, column_name, is_explain_record, is_partial_record
from analyzer.readers.resultset import CUT, STANDARD_ORDER
from analyzer.structs import dataclass, field
from analyzer.wording import plural

_STRUCT_FIELD_RE = lazy_regex(r"(?<![^{\s,])([A-Z][A-Za-z0-9_]{0,63}):")
_MAP_KEY_RE = lazy_regex(
    r"(?<![^\[\s])("
    + "|".join(sorted({*STANDARD_ORDER, *(n.replace("_", "") for n in STANDARD_ORDER), "possiblekey"}, key=len)[::-1])
    + r"):",
    re.IGNORECASE,
)
_ROW_KEY_RE = lazy_regex(r"(?<![^{\[\s,])select_?type:", re.IGNORECASE)
_BRACKET_RE = lazy_regex(r"[{}\[\]]")
_NULLABLE_RE = lazy_regex(r"^[\w.]*\{(\w+):(.*?),? Valid:(true|false)\}$", re.DOTALL)
_POINTER_RE = lazy_regex(r"^(?:\(\*[\w.]+\))?\(?0x[0-9a-f]+\)?$")
_BYTES_RE = lazy_regex(r"^\[(\d{1,3}(?: \d{1,3})*)\]$")
_INTEGER_RE = lazy_regex(r"^-?\d{1,19}$")
_FLOAT_RE = lazy_regex(r"^-?\d{1,19}\.\d+$")
_QUERY_KEYS = ("sql", "query", "statement")
_MAX_DEPTH = 64  # brackets nested on a line of rows (deeper ones are not read)


@dataclass(slots=True)
class _Span:
    """A bracketed part of the line: a struct (`{…}`), a map (`map[…]`) or a slice (`[…]`)."""

    start: int  # index of the opening bracket
    end: int  # index of the closing bracket (the line's end when it is cut off)
    parent: int | None  # index of the span around it
    is_map: bool
    closed: bool = True
    children: list[tuple[int, int]] = field(default_factory=list)


@dataclass(slots=True)
class _Read:
    """What the values of a dump said while they were read."""

    empty: int = 0  # empty values read as NULL
    pointers: int = 0  # pointers, whose values the dump does not show


def read_go_dumps(lines: list[str]) -> list[Dump]:
    """Every Go fmt dump of EXPLAIN rows in the cleaned lines (one line each), in order."""
    found = []
    for k, line in enumerate(lines):
        if ("SelectType:" in line or "map[" in line) and _ROW_KEY_RE.search(line):
            dump = _line_dump(line, k)
            if dump is not None:
                found.append(dump)
    return found


def _line_dump(line: str, k: int) -> Dump | None:
    """The EXPLAIN rows of the dump on `line` (index `k`): the struct or map around one of its
    first `select_type` fields, and the ones next to it that are rows too."""
    spans = _spans(line)
    starts = [span.start for span in spans]
    for match in itertools.islice(_ROW_KEY_RE.finditer(line), 3):
        span = _innermost(spans, starts, match.start())
        if span is None or not is_explain_record([name for name, _, _ in _fields(line, span)]):
            continue
        read = _Read()
        rows = [(s, fields) for s in spans if s.parent == span.parent and (fields := _row_fields(line, s)) is not None]
        records = [_record(line, s, fields, read) for s, fields in rows]
        dump = Dump(records, "a Go fmt %v map dump" if span.is_map else "a Go fmt %+v struct dump", k, k + 1)
        dump.problems, dump.notes = _problems(spans, read), _notes(read)
        dump.query = _query(line, spans, span.parent)
        return dump
    return None


def _spans(line: str) -> list[_Span]:
    """The bracketed spans of a line, in order of their opening bracket."""
    spans: list[_Span] = []
    stack: list[int] = []
    for bracket in _BRACKET_RE.finditer(line):
        at, char = bracket.start(), bracket.group()
        if char in "{[":
            if len(stack) >= _MAX_DEPTH:
                return []  # no dump of rows nests that deep
            parent = stack[-1] if stack else None
            spans.append(_Span(at, len(line), parent, char == "[" and line.endswith("map", 0, at), closed=False))
            stack.append(len(spans) - 1)
        elif stack:
            span = spans[stack.pop()]
            span.end, span.closed = at, True
            if span.parent is not None:
                spans[span.parent].children.append((span.start, at + 1))
    for index in stack:
        parent = spans[index].parent
        if parent is not None:
            spans[parent].children.append((spans[index].start, len(line)))
    return spans


def _innermost(spans: list[_Span], starts: list[int], at: int) -> _Span | None:
    """The innermost span around position `at`, if any."""
    index: int | None = bisect_right(starts, at) - 1
    while index is not None and index >= 0:
        if spans[index].end > at:
            return spans[index]
        index = spans[index].parent
    return None


def _row_fields(line: str, span: _Span) -> list[tuple[str, int, int]] | None:
    """The fields of a span that is an EXPLAIN row (or the start of one the line cuts off), else None."""
    check_deadline()
    fields = _fields(line, span)
    names = [name for name, _, _ in fields]
    return fields if is_explain_record(names) or (not span.closed and is_partial_record(names)) else None


def _fields(line: str, span: _Span) -> list[tuple[str, int, int]]:
    """The fields at the top level of a span: (name, start of its value, end of its value)."""
    pattern = _MAP_KEY_RE if span.is_map else _STRUCT_FIELD_RE
    names: list[tuple[str, int, int]] = []  # (name, start of the name, start of the value)
    at = span.start + 1
    # Between the spans nested in it (a NullString's fields are not its own).
    for begin, after in [*span.children, (span.end, span.end)]:
        names += [(match.group(1), match.start(), match.end()) for match in pattern.finditer(line, at, begin)]
        at = after
    ends = [start for _, start, _ in names[1:]] + [span.end]
    if not names:
        return []
    return [(name, value, end) for (name, _, value), end in zip(names, ends, strict=True)]


def _record(line: str, span: _Span, fields: list[tuple[str, int, int]], read: _Read) -> Record:
    """A struct or map as a record (its `fields`); the last value of one the line cuts off ends with `…`."""
    check_deadline()
    record: Record = []
    for number, (name, start, end) in enumerate(fields):
        value = _value(line[start:end], read)
        if not span.closed and number == len(fields) - 1:
            value = f"{value or ''}{CUT}"
        record.append((name, value))
    return record


def _value(text: str, read: _Read) -> Scalar:
    """A printed value: NULL for `<nil>`, an invalid NullString or nothing; a NullString's value;
    a byte slice decoded; a number as a number; a quoted string unquoted."""
    text = text.strip().removesuffix(",").strip()
    nullable = _NULLABLE_RE.match(text)
    if nullable:
        return _value(nullable.group(2), read) if nullable.group(3) == "true" else None
    if text in ("", "<nil>", "nil") or text.endswith("(nil)"):
        read.empty += not text
        return None
    if _POINTER_RE.match(text):
        read.pointers += 1
        return CUT
    if _BYTES_RE.match(text):
        return bytes(min(int(b), 255) for b in text[1:-1].split()).decode("utf-8", "replace")
    if _INTEGER_RE.match(text):
        return int(text)
    if _FLOAT_RE.match(text):
        return float(text)
    if len(text) > 1 and text[0] == text[-1] == '"':
        try:
            return str(json.loads(text))
        except ValueError:
            return text[1:-1]
    return text


def _problems(spans: list[_Span], read: _Read) -> list[str]:
    """Why the dump lacks part of its content: brackets it does not close, pointers."""
    problems = []
    if any(not span.closed for span in spans):
        problems.append("The dump stops before its closing brackets: the rest of it is missing.")
    if read.pointers:
        problems.append(
            f"{plural(read.pointers, 'value')} of the dump {'is a pointer' if read.pointers == 1 else 'are pointers'} "
            f"(0x…), which does not show the value: shown as '{CUT}'."
        )
    return problems


def _notes(read: _Read) -> list[str]:
    """How empty values were read."""
    if not read.empty:
        return []
    return [f"Read {plural(read.empty, 'empty value')} as NULL: Go prints a NULL scanned into a string as nothing."]


def _query(line: str, spans: list[_Span], holder: int | None) -> str | None:
    """The statement a field next to the rows gives (`SQL:`, `Query:`), in the struct around them."""
    while holder is not None:
        span = spans[holder]
        for name, start, end in _fields(line, span):
            if column_name(name) in _QUERY_KEYS:
                value = _value(line[start:end], _Read())
                if isinstance(value, str) and value.strip() and not value.endswith(CUT):
                    return value.strip()
        holder = span.parent
    return None
