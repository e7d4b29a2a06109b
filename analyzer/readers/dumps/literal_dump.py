"""EXPLAIN rows printed as a literal: JSON (a library's log record whose `explain` key holds the
rows, or a bare array of them), a Python repr (a list of dicts or named tuples, or rows of values
after a tuple of column names), Node's `console.log` (`[ RowDataPacket { id: 1, … } ]`) and Ruby's
`p` / `pp` (`[{"id"=>1, "select_type"=>"SIMPLE", …}]`).

The literal around a line naming `select_type` as a key is found by its brackets, decoded by
`json` or else parsed by `ast` (bounded in size, never evaluated) once Node's class names and
`... N more items` are taken out, and searched for the rows: a list of records, a record alone,
or a header of column names followed by rows of values. A literal cut short is read as far as its
complete records go, and flagged.
"""

from __future__ import annotations

import ast
import itertools
import json
from bisect import bisect_right

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.readers.dumps.records import Dump, Record, Scalar, is_explain_record
from analyzer.readers.resultset import CUT
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_KEY_RE = lazy_regex(r"""["']select_type["']\s*(?:[:,\])]|=>)|\bselect_type\s*:\s*\S|\bselect_type=""")
_OPENING_RE = lazy_regex(r"[\[{(]")
# Inside brackets: a bracket, or a whole string (to its closing quote, or to the end of its line).
_TOKEN_RE = lazy_regex(r"""[\[\]{}()]|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?""")
_OPENERS = {"]": "[", "}": "{", ")": "("}
MAX_ATTEMPTS = 1000  # lines naming `select_type` as a key tried as the first row of a literal
_MAX_AST = 256 * 1024  # characters of a literal that `ast` parses (JSON has no bound)
_MAX_VISITS = 100_000  # containers searched for the rows
_MAX_DEPTH = 40  # brackets nested in a literal of rows (deeper ones are not read)
_NODE_CLASS_RE = lazy_regex(r"(?<![\w$.'\"])(?:[A-Za-z_$][\w$]*(?:\.[\w$]+)*|\[Object: null prototype\]) (?=\{)")
_NODE_MORE_RE = lazy_regex(r"\.\.\. \d+ more items?")
_RUBY_SYMBOL_RE = lazy_regex(r"(?<![\w\"'\\]):([A-Za-z_]\w*)\s*=>")  # `:id=>1`: the key `id`
_RUBY_ARROW_RE = lazy_regex(r"\s*=>\s*")
_CONSTANTS: dict[str, Scalar] = {
    "null": None,
    "None": None,
    "undefined": None,
    "true": True,
    "True": True,
    "false": False,
    "False": False,
}
_QUERY_KEYS = ("sql", "query", "statement")
_SOURCES = {
    "json": "a JSON document",
    "python": "a Python repr",
    "node": "a Node.js console.log dump",
    "ruby": "a Ruby inspect (p, pp) dump",
}


class _Elided:
    """What a literal printed in place of content it left out (`...`, Node's `[Object]`)."""


_ELIDED = _Elided()


@dataclass
class _Spans:
    """The bracketed spans of a text: the outermost closed ones, and those still open at its end
    (outermost first) with the closed spans directly inside each, and the rows found in the
    complete literals inside each open one (looked for once, whichever line asks first)."""

    closed: list[tuple[int, int]] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    inner: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    salvaged: dict[int, tuple[_Found | None, str]] = field(default_factory=dict)


@dataclass
class _Found:
    """Rows found in a decoded literal."""

    records: list[Record]
    query: str | None = None
    elided: bool = False


def read_literal_dumps(lines: list[str]) -> list[Dump]:
    """Every JSON, Python or Node literal of EXPLAIN rows in the cleaned lines, in order. The
    first `MAX_ATTEMPTS` lines that name `select_type` as a key are tried (a literal of rows is
    read from its first, the lines of its other rows are passed over)."""
    found: list[Dump] = []
    # A literal's key or value is quoted on the line of its `select_type` (vertical output's is not).
    candidates = [
        k
        for k, line in enumerate(lines)
        if "select_type" in line and ("'" in line or '"' in line) and _KEY_RE.search(line)
    ]
    del candidates[MAX_ATTEMPTS:]
    at = 0
    floor = 0
    while at < len(candidates):
        start, end = _paragraph(lines, candidates[at], floor)
        inside = []
        while at < len(candidates) and candidates[at] < end:
            inside.append(candidates[at])
            at += 1
        found += _paragraph_dumps(lines, start, end, inside)
        floor = end
    return found


def _paragraph_dumps(lines: list[str], start: int, end: int, candidates: list[int]) -> list[Dump]:
    """The literals of EXPLAIN rows in the paragraph `lines[start:end]` that hold the candidate
    lines (which name `select_type` as a key); its brackets are scanned once."""
    text = "\n".join(lines[start:end])
    # Where each line starts in `text` (its length and line break added up), and where the text ends.
    offsets = [at + k for k, at in enumerate(itertools.accumulate(map(len, lines[start:end]), initial=0))]
    spans = _spans(text)
    found: list[Dump] = []
    floor = start
    for k in candidates:
        check_deadline()
        key = _KEY_RE.search(lines[k])
        if k < floor or key is None:
            continue
        dump, used = _dump_at(text, offsets[k - start] + key.start(), spans)
        first = bisect_right(offsets, used[0]) - 1
        last = bisect_right(offsets, max(used[0], used[1] - 1)) - 1
        floor = start + last + 1
        if dump is not None:
            dump.start, dump.end = start + first, floor
            found.append(dump)
    return found


def _paragraph(lines: list[str], k: int, floor: int) -> tuple[int, int]:
    """The lines around `lines[k]` up to empty lines (not before `floor`)."""
    start = k
    while start > floor and lines[start - 1].strip():
        start -= 1
    end = k + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return start, end


def _spans(text: str) -> _Spans:
    """The bracketed spans of `text`, in one pass. Quotes count inside brackets only (chat
    before a literal may hold an apostrophe), and a string ends at the end of its line. Brackets
    nested deeper than any literal of rows are no such literal: no spans then."""
    spans = _Spans()
    stack: list[tuple[int, str, list[tuple[int, int]]]] = []
    at = 0
    while (match := (_TOKEN_RE if stack else _OPENING_RE).search(text, at)) is not None:
        char, at = match.group()[0], match.end()
        if char in "[{(":
            if len(stack) >= _MAX_DEPTH:
                return _Spans()
            stack.append((match.start(), char, []))
        elif char in _OPENERS and stack[-1][1] == _OPENERS[char]:
            begin, _, _ = stack.pop()
            (stack[-1][2] if stack else spans.closed).append((begin, at))
    spans.open = [begin for begin, _, _ in stack]
    spans.inner = {begin: inner for begin, _, inner in stack}
    return spans


def _dump_at(text: str, offset: int, spans: _Spans) -> tuple[Dump | None, tuple[int, int]]:
    """The rows of the literal holding `text[offset]` (a closed span, with the rows after it when
    it is a header of column names, or the records after it when it is one), else of the complete
    records of the open span around it. Also returns where the literals read start and end."""
    index = bisect_right(spans.closed, (offset, len(text) + 1)) - 1
    if index < 0 or spans.closed[index][1] <= offset:
        return _salvage(text, offset, spans)
    begin, end = spans.closed[index]
    decoded = _decode(text[begin:end])
    if decoded is None:
        return _inside(text, begin, end), (begin, end)
    value, kind = decoded
    items = [value]
    if _header(value) is not None and index + 1 < len(spans.closed):
        after = spans.closed[index + 1]
        following = _decode(text[after[0] : after[1]])
        if following is not None:
            items.append(following[0])
            end = after[1]
    elif isinstance(value, dict) and _is_record(value):
        records, end = _next_records(text, spans.closed, index)
        items = [[value, *records]]
    found = _rows(items)
    return (_make_dump(found, kind, []) if found else None), (begin, end)


def _inside(text: str, begin: int, end: int) -> Dump | None:
    """The rows in the literals directly inside the one in `text[begin:end]`, which could not be
    read as a whole (mysql2 logs `[rows, fields]`, the fields holding `<Buffer …>`)."""
    inner = text[begin + 1 : end - 1]
    decoded = [d for d in (_decode(inner[a:b]) for a, b in _spans(inner).closed) if d is not None]
    found = _rows([value for value, _ in decoded]) if decoded else None
    return _make_dump(found, decoded[0][1], []) if found else None


def _next_records(text: str, closed: list[tuple[int, int]], index: int) -> tuple[list[dict[str, Any]], int]:
    """The records printed one by one after the one in `closed[index]` (a program printing each
    row, MySQL Shell's JSON output): literals with nothing but spaces and commas between them.
    Returns them and where the last ends."""
    records: list[dict[str, Any]] = []
    end = closed[index][1]
    for begin, after in closed[index + 1 :]:
        if text[end:begin].strip(" \t\n,"):
            break
        decoded = _decode(text[begin:after])
        if decoded is None or not isinstance(decoded[0], dict) or not _is_record(decoded[0]):
            break
        records.append(decoded[0])
        end = after
    return records, end


def _salvage(text: str, offset: int, spans: _Spans) -> tuple[Dump | None, tuple[int, int]]:
    """The complete records inside the literal the paste cuts off (an open span before `offset`)."""
    for begin in spans.open:
        if begin > offset or not spans.inner[begin]:
            continue
        if begin not in spans.salvaged:
            spans.salvaged[begin] = _complete_rows(text, spans.inner[begin])
        found, kind = spans.salvaged[begin]
        if found:
            problem = "The literal stops before its closing brackets: the rest of it is missing."
            return _make_dump(found, kind, [problem]), (begin, len(text))
    return None, (offset, offset + 1)


def _complete_rows(text: str, inner: list[tuple[int, int]]) -> tuple[_Found | None, str]:
    """The rows in the literals at the spans `inner` of `text`, and the kind of the first literal."""
    decoded = []
    for a, b in inner:
        check_deadline()
        if (literal := _decode(text[a:b])) is not None:
            decoded.append(literal)
    return (_rows([d[0] for d in decoded]), decoded[0][1]) if decoded else (None, "")


def _make_dump(found: _Found, kind: str, problems: list[str]) -> Dump:
    """The dump of the rows found in a literal of `kind` (json, python, node)."""
    if found.elided:
        problems = [*problems, "The literal leaves rows or values out ('...', [Object]): part of it is missing."]
    fmt = "json" if kind == "json" else "vertical"
    return Dump(found.records, _SOURCES[kind], 0, 0, format=fmt, problems=problems, query=found.query)


def _decode(source: str) -> tuple[Any, str] | None:
    """The value of a literal and its kind: JSON, else a Python, Node or Ruby literal (read as
    Python syntax once Node's class names and elisions and Ruby's `=>` are rewritten); None if
    none of them."""
    try:
        return json.loads(source), "json"
    except (ValueError, RecursionError):
        pass
    if len(source) > _MAX_AST:
        return None
    python = _NODE_MORE_RE.sub("...", _NODE_CLASS_RE.sub("", source))
    flags = {"node": python != source, "ruby": "=>" in python}
    if flags["ruby"]:
        python = _RUBY_ARROW_RE.sub(": ", _RUBY_SYMBOL_RE.sub(r"\1:", python))
    try:
        tree = ast.parse(python.strip(), mode="eval")
        value = _convert(tree.body, 0, flags)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError, OverflowError):
        return None
    return value, "ruby" if flags["ruby"] else "node" if flags["node"] else "python"


def _convert(node: ast.expr, depth: int, flags: dict[str, bool]) -> Any:
    """The value a literal's syntax tree stands for (never evaluated): constants, containers,
    `Decimal('1.5')` as its text, a named tuple's keywords as a dict, other calls as printed."""
    if depth > _MAX_DEPTH:
        raise ValueError("nested too deeply")
    if isinstance(node, ast.Constant):
        return _constant(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        number = node.operand.value
        if isinstance(number, int | float) and not isinstance(number, bool):
            return -number
    if isinstance(node, ast.Name):
        if node.id in ("Object", "Array"):
            return _ELIDED  # Node's `[Object]`: an object deeper than it prints
        if node.id == "nil":
            flags["ruby"] = True
            return None
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [_convert(item, depth + 1, flags) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {
            _dict_key(key, flags): _convert(item, depth + 1, flags)
            for key, item in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.Call):
        return _call(node, depth, flags)
    raise ValueError("not a literal")


def _constant(value: object) -> Any:
    """A constant of a Python or Node literal (`...` is content left out)."""
    if value is Ellipsis:
        return _ELIDED
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    raise ValueError("not a literal")


def _dict_key(key: ast.expr | None, flags: dict[str, bool]) -> str:
    """The key of a dict entry: a string, a number, or a bare name (Node's unquoted keys)."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str | int):
        return str(key.value)
    if isinstance(key, ast.Name):
        flags["node"] = True
        return key.id
    raise ValueError("not a literal key")


def _call(node: ast.Call, depth: int, flags: dict[str, bool]) -> Any:
    """`Decimal('1.5')` as '1.5', `Row(id=1, …)` as a dict; any other call as printed."""
    if not node.args and node.keywords and all(k.arg for k in node.keywords):
        return {str(k.arg): _convert(k.value, depth + 1, flags) for k in node.keywords}
    if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)
    return ast.unparse(node)


def _rows(items: list[Any]) -> _Found | None:
    """The EXPLAIN rows in decoded literals, searched in document order."""
    stack: list[tuple[Any, dict[str, Any] | None]] = [(items, None)]
    visits = 0
    while stack and visits < _MAX_VISITS:
        check_deadline()
        value, holder = stack.pop()
        visits += 1
        if isinstance(value, dict):
            if _is_record(value):
                return _Found([_record(value)])
            found = _list_rows(list(value.values()), value)
            children = list(value.values())
        elif isinstance(value, list):
            found = _list_rows(value, holder)
            children = value
        else:
            continue
        if found is not None:
            return found
        holder_of_children = value if isinstance(value, dict) else None
        stack.extend((child, holder_of_children) for child in reversed(children) if isinstance(child, list | dict))
    return None


def _list_rows(items: list[Any], holder: dict[str, Any] | None) -> _Found | None:
    """Rows in a list: records (dicts), or a header of column names and rows of values after it."""
    records = [item for item in items if item is not _ELIDED]
    elided = len(records) < len(items)
    if records and all(isinstance(item, dict) for item in records) and all(_is_flat(item) for item in records):
        keys = list(dict.fromkeys(key for item in records for key in item))
        if is_explain_record(keys):
            return _Found([_record(item) for item in records], _query(holder), elided)
    for h, item in enumerate(items):
        header = _header(item)
        if header is None:
            continue
        rest = items[h + 1 :]
        if len(rest) == 1 and isinstance(rest[0], list) and rest[0] and all(isinstance(r, list) for r in rest[0]):
            rest = rest[0]
        values = [r for r in rest if r is not _ELIDED]
        if values and all(isinstance(r, list) and len(r) == len(header) and _is_flat(r) for r in values):
            rows = [_record(dict(zip(header, r, strict=True))) for r in values]
            return _Found(rows, _query(holder), len(values) < len(rest))
        return None
    return None


def _header(value: Any) -> list[str] | None:
    """`value` when it is a list of column names that are those of EXPLAIN, else None."""
    if isinstance(value, list) and value and all(isinstance(name, str) for name in value):
        return value if is_explain_record(value) else None
    return None


def _is_flat(container: dict[str, Any] | list[Any]) -> bool:
    """True when a record holds only scalars (or values left out)."""
    values = container.values() if isinstance(container, dict) else container
    return all(isinstance(v, str | int | float | bool) or v is None or v is _ELIDED for v in values)


def _is_record(value: dict[str, Any]) -> bool:
    """True when a dict is one EXPLAIN row."""
    return _is_flat(value) and is_explain_record(list(value))


def _record(value: dict[str, Any]) -> Record:
    """A decoded row as a record; a value the literal left out is a missing cell."""
    return [(str(key), CUT if item is _ELIDED else item) for key, item in value.items()]


def _query(holder: dict[str, Any] | None) -> str | None:
    """The statement a log record gives next to its rows (`sql`, `query` or `statement`)."""
    if holder is None:
        return None
    for key, value in holder.items():
        if isinstance(key, str) and key.lower() in _QUERY_KEYS and isinstance(value, str) and value.strip():
            return value.strip()
    return None
