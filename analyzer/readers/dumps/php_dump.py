"""PHP dumps of EXPLAIN rows: `print_r`, `var_dump` (plain, and Xdebug's CLI and text layouts),
`var_export` and Symfony VarDumper (`dump()`, `dd()`, Laravel tinker and PsySH).

A dump is read line by line into nested containers (`_Node`); a container whose `key => value`
lines have the keys of an EXPLAIN row is a record, and the records in one container are the rows.
The dump's own structure tells whether it is whole: its closing brackets, and the element counts
var_dump, Xdebug and VarDumper print (`array(12) {`, `array (size=12)`, `array:12 [`). Each
dialect is recognised by how its `select_type` key is printed, then its lines are read with its
own grammar.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from analyzer.lazy import lazy_regex
from analyzer.readers.dumps.records import Dump, Record, Scalar, is_explain_record, is_partial_record
from analyzer.readers.resultset import CUT
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural


@dataclass(slots=True)
class _Line:
    """What one line of a dump does: `open` or `close` a container, give a `key` whose value is on
    the next line, a `pair`, a `value` alone (for the key before it), a `label` (print_r's
    `Array` before its `(`), or mark content the dump left out (`elided`)."""

    kind: str
    key: str | None = None
    value: Scalar = None
    count: int | None = None  # the elements a container declares
    bracket: bool = True  # a bracket line closes it (Xdebug's text layout closes by indentation)


@dataclass(slots=True, eq=False)
class _Node:
    """A container of the dump: its `key => value` pairs and the containers inside it."""

    line: int
    indent: int
    bracket: bool
    count: int | None
    parent: _Node | None
    pairs: Record = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)


@dataclass(slots=True)
class _Parse:
    """A dump being read: its root, the containers open at the current line, what was left out."""

    bare: bool  # pairs may stand in no container (the dialect's `_Dialect.bare`)
    stack: list[_Node] = field(default_factory=list)
    root: _Node | None = None
    pending: str | None = None  # a key whose value is on the next line
    elided: list[int] = field(default_factory=list)
    done: bool = False  # the outermost container closed


_STRING = r"((?:[^\\\n]|\\.){0,200}?)"
# print_r: `[key] => value`, `Array` or `Name Object` then `(` ... `)`.
_PRINT_R_PAIR_RE = lazy_regex(r"^\s*\[([^\]\n]{1,80})\] =>(?: (.*))?$")
_PRINT_R_CONTAINER_RE = lazy_regex(r"^(?:Array|[\w\\]{1,200} Object)$")
# var_dump: `["key"]=>` (Xdebug's CLI: `'key' =>`, `public $key =>`) with the value on the next line.
_VAR_DUMP_KEY_RE = lazy_regex(
    r"^\s*(?:\[(?:\"" + _STRING + r"\"|(-?\d{1,19}))(?::[^\]\n]{0,200})?\] ?=>|'" + _STRING + r"' =>"
    r"|(?:public|protected|private) \$(\w{1,80}) =>)\s*$"
)
_VAR_DUMP_OPEN_RE = lazy_regex(
    r"^\s*(?:array\((\d{1,9})\)|object\([^)\n]{1,200}\)#\d+ \((\d{1,9})\)|class [\w\\]{1,200}#\d+ \((\d{1,9})\)) \{\s*$"
)
_VAR_DUMP_VALUE_RE = lazy_regex(
    r"^\s*(?:string\((\d{1,9})\) \"(.*)\"|int\((-?\d{1,19})\)|float\(([^)\n]{1,40})\)|bool\((true|false)\)|(NULL))\s*$"
)
# Xdebug's text layout: `'key' => string 'value' (length=5)`, `array (size=12)`, no closing lines.
_XDEBUG_PAIR_RE = lazy_regex(r"^\s*(?:(?:public|protected|private) )?(?:'" + _STRING + r"'|(-?\d{1,19})) =>(?: (.*))?$")
_XDEBUG_OPEN_RE = lazy_regex(r"^(?:array \(size=(\d{1,9})\)|object\([^)\n]{1,200}\)\[\d+\])$")
_XDEBUG_VALUE_RE = lazy_regex(
    r"^(?:string '(.*)'(\.\.\.)? \(length=(\d{1,9})\)|int (-?\d{1,19})|float (\S{1,40})|boolean (true|false)|(null))$"
)
# var_export: `'key' => 'value',` (also `0 => ` with an `array (` on the next line), `array (`
# (after what a log or code put before it: `Explain : `, `$rows = `), `(object) array(`,
# `\\Name::__set_state(array(`, closed by `),` (`))` for an object).
_VAR_EXPORT_PAIR_RE = lazy_regex(r"^\s*(?:'" + _STRING + r"'|(-?\d{1,19})) =>(?: (.*))?$")
_VAR_EXPORT_OPEN_RE = lazy_regex(
    r"^(?:[$\w ]{1,80}[:=] ?)?(?:\(object\) ?array ?\(|\\?[\w\\]{1,200}::__set_state\(array\(|array \()$"
)
_VAR_EXPORT_CLOSE_RE = lazy_regex(r"^\)\)?[,;]?$")
_VAR_EXPORT_STRING_RE = lazy_regex(r"^'((?:[^'\\]|\\.)*)'$")
# Symfony VarDumper and PsySH: `+"key": value,`, `"key" => value`, `0 => {#12`, `#items: array:1 [`.
_VARDUMPER_PAIR_RE = lazy_regex(
    r"^\s*(?:[+#-]?\"" + _STRING + r"\":|\"" + _STRING + r"\" =>|(-?\d{1,19}) =>|[+#-]?([A-Za-z_]\w{0,80}):)"
    r"(?: (.*?))?,?\s*$"
)
_VARDUMPER_OPEN_RE = lazy_regex(r"^(?:\^ |=>? )?(?:array:(\d{1,9}) \[|\[|(?:[\w\\]{1,200}\^? )?\{#\d+)\s*[▼▶]?$")
_VARDUMPER_FOLDED_RE = lazy_regex(r"^(?:array:\d{1,9} )?(?:\[|(?:[\w\\]{1,200}\^? )?\{#\d+)\s*(?:▶|…\d*)\s*[\]}]$")
_NUMBER_RE = lazy_regex(r"^-?\d{1,19}$")
_FLOAT_RE = lazy_regex(r"^-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?$|^-?INF$|^NAN$")
MAX_ATTEMPTS = 1000  # lines naming `select_type` tried as the first row of a dump
_MAX_HEAD = 100  # lines of a dump above its first row's `select_type`
_MAX_DEPTH = 32  # containers nested in a dump of rows
# How each dialect prints the `select_type` key.
_DIALECT_RE = lazy_regex(
    r"(?P<print_r>\[select_type\] =>)"
    r"|(?P<var_dump>\[\"select_type\"\] ?=>\s*$|'select_type' =>\s*$|\$select_type =>\s*$)"
    r"|(?P<var_export>'select_type' => ')"
    r"|(?P<xdebug>'select_type' => \S)"
    r"|(?P<vardumper>[+#-]\"select_type\":|\"select_type\" =>)"
)


def _key(*groups: str | None) -> str:
    """The key a pattern matched (the first group that did), without a visibility suffix."""
    key = next((g for g in groups if g is not None), "")
    return key.split(":", 1)[0]


def _print_r_line(line: str) -> _Line | None:
    """A line of print_r output (which prints NULL, false and '' alike: as nothing)."""
    pair = _PRINT_R_PAIR_RE.match(line)
    if pair:
        rest = (pair.group(2) or "").rstrip()
        if _PRINT_R_CONTAINER_RE.match(rest):
            return _Line("key", _key(pair.group(1)))
        return _Line("pair", _key(pair.group(1)), rest)
    text = line.strip()
    if text in ("(", ")"):
        return _Line("open" if text == "(" else "close")
    if _PRINT_R_CONTAINER_RE.match(text):
        return _Line("label")
    return _Line("elided") if text == "*RECURSION*" else None


def _var_dump_line(line: str) -> _Line | None:
    """A line of var_dump output (also Xdebug's CLI layout, which quotes keys with `'`)."""
    if key := _VAR_DUMP_KEY_RE.match(line):
        return _Line("key", _key(*key.groups()))
    if opened := _VAR_DUMP_OPEN_RE.match(line):
        return _Line("open", count=int(next(g for g in opened.groups() if g is not None)))
    text = line.strip()
    if text == "}":
        return _Line("close")
    if text in ("...", "(more elements)..."):
        return _Line("elided")
    found = _VAR_DUMP_VALUE_RE.match(line)
    if found is None:
        return None
    length, string, integer, real, boolean, _ = found.groups()
    if string is not None:
        return _Line("value", value=_sized(string.removesuffix("..."), int(length), string))
    return _Line("value", value=_typed(integer, real, boolean))


def _sized(shown: str, length: int, printed: str) -> str:
    """A string dumped with its length in bytes: cut short (`…` after it) when it shows fewer."""
    if len(printed.encode("utf-8")) >= length:
        return printed
    return shown + CUT


def _typed(integer: str | None, real: str | None, boolean: str | None) -> Scalar:
    """A dumped int, float or bool (None when none of them: NULL)."""
    if integer is not None:
        return int(integer)
    if real is not None:
        return _float(real)
    return None if boolean is None else boolean == "true"


def _float(text: str) -> Scalar:
    """A dumped float; text PHP prints for one that is no number is kept as printed."""
    try:
        return float(text)
    except ValueError:
        return text


def _xdebug_line(line: str) -> _Line | None:
    """A line of Xdebug's var_dump text layout (containers close by indentation)."""
    pair = _XDEBUG_PAIR_RE.match(line)
    text = (pair.group(3) or "").strip() if pair else line.strip()
    key = _key(pair.group(1), pair.group(2)) if pair else None
    if opened := _XDEBUG_OPEN_RE.match(text):
        return _Line("open", key, count=int(opened.group(1)) if opened.group(1) else None, bracket=False)
    if pair and not text:
        return _Line("key", key)
    if text == "more elements...":
        return _Line("elided")
    if text == "empty":
        return _Line("label")
    found = _XDEBUG_VALUE_RE.match(text)
    if found is None:
        return None
    string, dots, length, integer, real, boolean, _ = found.groups()
    if string is None:
        scalar = _typed(integer, real, boolean)
    else:
        scalar = string + CUT if dots else _sized(string, int(length), string)
    return _Line("pair", key, scalar) if pair else _Line("value", value=scalar)


def _var_export_line(line: str) -> _Line | None:
    """A line of var_export output."""
    text = line.strip()
    if _VAR_EXPORT_CLOSE_RE.match(text):
        return _Line("close")
    if _VAR_EXPORT_OPEN_RE.match(text):
        return _Line("open")
    pair = _VAR_EXPORT_PAIR_RE.match(line)
    if pair is None:
        return None
    key = _key(pair.group(1), pair.group(2))
    rest = (pair.group(3) or "").strip().removesuffix(",")
    if _VAR_EXPORT_OPEN_RE.match(rest):
        return _Line("open", key)
    if not rest:
        return _Line("key", key)
    return _var_export_pair(key, rest)


def _var_export_pair(key: str, text: str) -> _Line | None:
    """The pair of `key` and the var_export scalar `text`: `'text'` (`\\'` and `\\\\` escaped),
    a number, NULL, true or false; None for anything else."""
    if quoted := _VAR_EXPORT_STRING_RE.match(text):
        return _Line("pair", key, quoted.group(1).replace("\\\\", "\0").replace("\\'", "'").replace("\0", "\\"))
    if text in ("NULL", "true", "false"):
        return _Line("pair", key, None if text == "NULL" else text == "true")
    if _NUMBER_RE.match(text):
        return _Line("pair", key, int(text))
    return _Line("pair", key, _float(text)) if _FLOAT_RE.match(text) else None


def _vardumper_line(line: str) -> _Line | None:
    """A line of Symfony VarDumper or PsySH output."""
    text = line.strip().removesuffix(",")
    if text in ("]", "}"):
        return _Line("close")
    if opened := _VARDUMPER_OPEN_RE.match(text):
        return _Line("open", count=int(opened.group(1)) if opened.group(1) else None)
    pair = _VARDUMPER_PAIR_RE.match(line)
    if pair is None:
        return _Line("elided") if text.startswith("\u2026") else None
    key = _key(*pair.groups()[:4])
    rest = (pair.group(5) or "").strip()
    if opened := _VARDUMPER_OPEN_RE.match(rest):
        return _Line("open", key, count=int(opened.group(1)) if opened.group(1) else None)
    if pair.group(4) is not None and line.lstrip()[:1] not in "+#-":
        return None  # `word:` without a sigil only opens a container (PsySH's `all: [`); else it is text
    if _VARDUMPER_FOLDED_RE.match(rest):
        return _Line("elided", key)  # an array or object shown folded (`{#12 ▶}`, `[…3]`): its content is not there
    if not rest:
        return _Line("key", key)
    return _Line("pair", key, _vardumper_value(rest))


def _vardumper_value(text: str) -> Scalar:
    """A VarDumper scalar: `"text"` (cut short where it shows `…`), a number, null, true, false."""
    if text[:1] == '"' or text[:2] == 'b"':
        inner = text[text.index('"') + 1 :]
        inner = inner[:-1] if inner.endswith('"') else inner + CUT  # no closing quote: the line was cut
        at = inner.find("\u2026")
        return inner if at < 0 else inner[:at] + CUT
    if text in ("null", "true", "false"):
        return None if text == "null" else text == "true"
    if _NUMBER_RE.match(text):
        return int(text)
    return _float(text) if _FLOAT_RE.match(text) else text


class _Dialect(NamedTuple):
    """How to read a dialect's lines, what printed it, whether it prints NULL as nothing, and
    whether its `key => value` lines are unmistakable enough to be read without their containers
    (a paste of the inner lines only; other dialects' look like other languages' hashes)."""

    classify: Callable[[str], _Line | None]
    source: str
    empty_is_null: bool
    bare: bool


_DIALECTS = {
    "print_r": _Dialect(_print_r_line, "a PHP print_r dump", empty_is_null=True, bare=True),
    "var_dump": _Dialect(_var_dump_line, "a PHP var_dump", empty_is_null=False, bare=False),
    "var_export": _Dialect(_var_export_line, "a PHP var_export dump", empty_is_null=False, bare=False),
    "xdebug": _Dialect(_xdebug_line, "a PHP var_dump in Xdebug's layout", empty_is_null=False, bare=False),
    "vardumper": _Dialect(_vardumper_line, "a PHP VarDumper or PsySH dump", empty_is_null=False, bare=False),
}


def read_php_dumps(lines: list[str], numbers: list[int]) -> list[Dump]:
    """Every PHP dump of EXPLAIN rows in the cleaned lines, in order. A dump is read from the
    first line of its first row's `select_type` up; lines that name `select_type` in no dump cost
    a bounded effort (`MAX_ATTEMPTS` of them are tried)."""
    found: list[Dump] = []
    floor = 0  # lines before it were read already
    attempts = 0
    for k in [k for k, line in enumerate(lines) if "select_type" in line and _may_name_key(line)]:
        dialect = _DIALECT_RE.search(lines[k]) if k >= floor else None
        if dialect is None or dialect.lastgroup is None:
            continue
        attempts += 1
        if attempts > MAX_ATTEMPTS:
            break
        start = _dump_start(lines, k, floor, _DIALECTS[dialect.lastgroup].classify)
        dump, end = _dump_through(lines, numbers, start, k, dialect.lastgroup) if start is not None else (None, k)
        floor = max(end, k + 1)
        if dump is not None:
            found.append(dump)
    return found


def _may_name_key(line: str) -> bool:
    """A cheap test whether `line` may print `select_type` as a PHP dump's key."""
    return "select_type]" in line or 'select_type"' in line or "select_type'" in line or "$select_type" in line


def _dump_start(lines: list[str], k: int, floor: int, classify: Callable[[str], _Line | None]) -> int | None:
    """Index of the first line of the dump whose first row names `select_type` on line `k`: the
    lines above it that belong to the dump, a few (its containers' and the row's first keys)."""
    start = k
    while start > floor and lines[start - 1].strip() and classify(lines[start - 1]) is not None:
        start -= 1
        if k - start > _MAX_HEAD:
            return None
    return start


def _dump_through(lines: list[str], numbers: list[int], start: int, k: int, dialect: str) -> tuple[Dump | None, int]:
    """The dump of `dialect` that holds line `k`, read from `start` on (a dump that ends before
    it is passed over), and the index of the line after it."""
    end = start
    while start <= k:
        parse, end = _parse(lines, start, _DIALECTS[dialect])
        if end > k:
            return _dump(parse, _DIALECTS[dialect], (start, end), numbers), end
        start = max(end, start + 1)
    return None, end


def _parse(lines: list[str], start: int, dialect: _Dialect) -> tuple[_Parse, int]:
    """Read the dump from `lines[start]`; returns it and the index of the line after it."""
    parse = _Parse(bare=dialect.bare)
    i = start
    while i < len(lines) and not parse.done:
        line = lines[i]
        if not line.strip():
            if not any(node.bracket for node in parse.stack[-1:]):
                break
            i += 1
            continue
        event = dialect.classify(line)
        indent = len(line) - len(line.lstrip())
        while parse.stack and not parse.stack[-1].bracket and parse.stack[-1].indent >= indent and not parse.pending:
            parse.stack.pop()
        if event is None or not _apply(parse, event, i, indent):
            break
        i += 1
    return parse, i


def _apply(parse: _Parse, event: _Line, i: int, indent: int) -> bool:
    """Apply one line to the dump being read; False when the line does not belong to it."""
    kind = event.kind
    if kind == "elided":
        parse.elided.append(i)
    elif kind == "close":
        if not parse.stack or not parse.stack[-1].bracket:
            return False
        parse.stack.pop()
        parse.done = not parse.stack
    elif kind == "open":
        top = parse.stack[-1] if parse.stack else None
        if (top is None and parse.root is not None) or len(parse.stack) >= _MAX_DEPTH:
            return False  # a second dump starts, or no dump of rows nests that deep
        node = _Node(i, indent, event.bracket, event.count, top)
        if top is None:
            parse.root = node
        else:
            top.children.append(node)
        parse.stack.append(node)
        parse.pending = None
    elif kind in ("key", "pair", "value"):
        return _apply_field(parse, event, i)
    return True


def _apply_field(parse: _Parse, event: _Line, i: int) -> bool:
    """Apply a key, a pair or a value alone (the value of the key on the line before)."""
    if not parse.stack:
        if parse.root is not None or event.kind == "value" or not parse.bare:
            return False
        # Only the inner lines of a dump were pasted: the pairs stand in no container.
        parse.root = _Node(i, -1, False, None, None)
        parse.stack.append(parse.root)
    top = parse.stack[-1]
    if event.kind == "key":
        if parse.pending is not None:
            return False  # two keys in a row: no dump
        parse.pending = event.key
    elif event.kind == "pair":
        top.pairs.append((event.key or "", event.value))
        parse.pending = None
    else:
        if parse.pending is None:
            return False
        top.pairs.append((parse.pending, event.value))
        parse.pending = None
    return True


def _dump(parse: _Parse, dialect: _Dialect, span: tuple[int, int], numbers: list[int]) -> Dump | None:
    """The EXPLAIN records of a dump read, with what its structure says about them."""
    if parse.root is None:
        return None
    nodes = _record_nodes(parse.root, [node for node in parse.stack if node.bracket])
    if not nodes:
        return None
    records = [record for node in nodes for record in _split(node.pairs)]
    notes = _empty_as_null(records) if dialect.empty_is_null else []
    problems = _problems(parse, nodes, numbers)
    # One line per field: a line the paste lost takes a field with it.
    return Dump(records, dialect.source, span[0], span[1], whole=False, problems=problems, notes=notes)


def _record_nodes(root: _Node, unclosed: list[_Node]) -> list[_Node]:
    """The first container (in the dump's order) holding an EXPLAIN row, and the containers next
    to it that hold one too: the rows (the last one also when the paste cuts it short)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.pairs and is_explain_record([key for key, _ in node.pairs]):
            if node.parent is None:
                return [node]
            return [c for c in node.parent.children if _is_row(c, unclosed)]
        stack.extend(reversed(node.children))
    return []


def _is_row(node: _Node, unclosed: list[_Node]) -> bool:
    """True when a container holds an EXPLAIN row, or the start of one the paste cuts off."""
    keys = [key for key, _ in node.pairs]
    if node in unclosed and not node.children:
        return is_partial_record(keys)
    return bool(keys) and is_explain_record(keys)


def _split(pairs: Record) -> list[Record]:
    """A container's pairs as records: a key seen again starts the next record (rows pasted
    without the lines of their containers)."""
    records: list[Record] = [[]]
    seen: set[str] = set()
    for key, value in pairs:
        if key in seen:
            records.append([])
            seen = set()
        seen.add(key)
        records[-1].append((key, value))
    return records


def _empty_as_null(records: list[Record]) -> list[str]:
    """Read print_r's empty values as NULL (it prints NULL as nothing); a notice if there were any."""
    count = 0
    for record in records:
        for k, (key, value) in enumerate(record):
            if value == "":
                record[k] = (key, None)
                count += 1
    if not count:
        return []
    return [f"Read {plural(count, 'empty value')} as NULL: print_r prints NULL, false and '' alike, as nothing."]


def _problems(parse: _Parse, nodes: list[_Node], numbers: list[int]) -> list[str]:
    """Why the dump visibly lacks part of its content: unclosed brackets, elisions, or fewer
    elements than it declares."""
    problems = []
    unclosed = [node for node in parse.stack if node.bracket]
    if unclosed:
        problems.append(
            f"The dump stops before {plural(len(unclosed), 'closing bracket')} (opened on "
            f"{describe_lines([numbers[n.line] for n in unclosed])}): the rest of it is missing."
        )
    if parse.elided:
        problems.append(
            f"The dump leaves part of its content out ({describe_lines([numbers[i] for i in parse.elided])})."
        )
    parent = nodes[0].parent
    if unclosed or parse.elided:
        return problems  # the counts cannot add up then
    if parent is not None and parent.count is not None:
        held = len(parent.children) + len(parent.pairs)
        if held < parent.count:
            problems.append(
                f"The dump declares {parent.count} elements on line {numbers[parent.line]} but holds {held}: "
                "rows are missing."
            )
    short = [n for n in nodes if n.count is not None and len(n.pairs) + len(n.children) < n.count]
    if short:
        problems.append(
            f"{plural(len(short), 'row')} of the dump hold fewer fields than declared "
            f"({describe_lines([numbers[n.line] for n in short])}): fields are missing."
        )
    return problems
