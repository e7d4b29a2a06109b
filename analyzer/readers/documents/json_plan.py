"""Reader for `EXPLAIN FORMAT=JSON` documents.

Handles MySQL 5.6+ "version 1" documents (`query_block`, `nested_loop`, `ordering_operation`, …),
MySQL 8.3+ `explain_json_format_version=2` documents (`query_plan`, `inputs`, `operation`), and
MariaDB 10.1+ `EXPLAIN FORMAT=JSON` / `ANALYZE FORMAT=JSON` (`block-nl-join`, `filesort`, `r_rows`, …),
however the client presented them: pure JSON, inside the one-cell box of `mysql -t`, after
`EXPLAIN: ` in vertical output, on one line with `\\n` escapes in batch (`-B`) output, hard-wrapped
by a terminal, or between chat text.

`parse_json(text)` never raises: it returns None when there is no such document, else a Plan whose
`plan` is the document itself (repeated keys of old MariaDB kept as `table#2`, …; numbers JSON
cannot carry, such as `1e999`, as null) and whose `rows` are a flattened per-table view, so the
annotator can read it like any other result:

- version 1 / MariaDB: `id, select_type, table, type, possible_keys, key, key_len, ref, rows,
  filtered, extra`, plus `r_rows` and `r_filtered` (after `rows` and `filtered`, as MariaDB's
  tabular ANALYZE) when the document has ANALYZE figures. Values are strings (161 -> "161",
  1.5 -> "1.5") or None; rows come in tabular order (a select's tables, then its nested selects
  in the order the server prints them; a UNION RESULT after its members), and `extra` holds the tabular Extra items the document's
  flags stand for. Checked against MariaDB 10.11's own tabular output for the same statements.
- version 2: the columns of the TREE reader (`analyzer.readers.documents.tree_plan.flatten_nodes`), since its
  nodes carry the same operations.

The Plan's `tree` (the plan model) is built here too (`readers.documents.document_model`), each node linked
to the row flattened from it.
"""

from __future__ import annotations

import json
import math
import re

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import Plan
from analyzer.readers.documents.document_model import SUBQUERY_LISTS, document_tree, operations_tree
from analyzer.readers.documents.tree_plan import flatten_with_sources, make_node
from analyzer.readers.resultset import STANDARD_ORDER
from analyzer.repair.unwrap.documents import mend_wrapped_strings, rejoin_cut_lines
from analyzer.repair.unwrap.pieces import describe, rejoin
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

# A document nested deeper than this is refused; real plans stay far below it.
MAX_DEPTH = 120
# How many `{` that merely look like the start of a document are tried before giving up.
MAX_CANDIDATES = 20

# Tabular EXPLAIN's columns (MariaDB's order); ANALYZE adds the measured r_rows and r_filtered.
ANALYZE_COLUMNS = [c for c in STANDARD_ORDER if c != "partitions"]
COLUMNS = [c for c in ANALYZE_COLUMNS if c not in ("r_rows", "r_filtered")]

# Top-level keys that open an EXPLAIN document: v1 and MariaDB (`query_block`, MariaDB ANALYZE's
# `query_optimization`), v2 (`query`, `query_plan`, or a bare node starting with `operation`/`inputs`).
_TOP_KEYS = (
    "query_block",
    "query_optimization",
    "r_query_time_in_progress_ms",
    "query_plan",
    "query",
    "operation",
    "inputs",
)
# Keys that only a MySQL (version 1) or only a MariaDB document uses, to name the dialect.
_MYSQL_MARKS = ('"cost_info"', '"rows_examined_per_scan"', '"used_columns"')
_MARIADB_MARKS = (
    '"r_loops"',
    '"block-nl-join"',
    '"expression_cache"',
    '"query_optimization"',
    '"filesort"',
    '"temporary_table"',
)
# A `{`, optional blanks, box borders or batch `\n` escapes, then a quoted key.
_START = lazy_regex(r'\{(?:[\s|│]|\\[nrt])*"([A-Za-z_][\w-]*)"')
_BORDER_LINE = lazy_regex(r"^\s*[+┌├└╔╠╚][-+─┬┼┴═╦╬╩┐┤┘╗╣╝]*\s*$")
_LEFT_CELL = lazy_regex(r"^\s*[|│║] ?")
# Some line starts with a cell border or a box rule, or ends with a cell border.
_DECORATED = lazy_regex(r"^[ \t]*[|│║+┌├└╔╠╚]|[|│║][ \t]*$", re.MULTILINE)
_BATCH_ESCAPE = lazy_regex(r"\\(.)")
_BATCH_CHARS = {"n": "\n", "t": "\t", "0": "\0", "r": "\r", "\\": "\\", "Z": "\x1a", "b": "\b"}
# Where a quoted part of a document starts: one of its keys first on a line, opening an object or list.
_FRAGMENT_RE = lazy_regex(r'^[ \t]*"(query_block|table|nested_loop)"\s*:\s*[{\[]', re.MULTILINE)
_TYPOGRAPHIC_QUOTES = ("\u201c", "\u201d", "\u201e", "\u201f", "\u2033")
_STRAIGHTEN = str.maketrans(dict.fromkeys(_TYPOGRAPHIC_QUOTES, '"'))
# A string, a comment's opening or a bracket: what the scan for comments steps over.
_COMMENT_SCAN = lazy_regex(r'"(?:[^"\\]|\\.)*"|/\*|//|#(?=[ \t]*[^\s,}\]#])|--(?=[ \t])|[{}\[\]]')
# The marks of a comment that runs to the end of its line (a writer's note after a value).
_LINE_COMMENTS = ("//", "#", "--")
# A string or a character of JSON's structure: what the scan for masked values steps over.
_VALUE_SCAN = lazy_regex(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')
# A bare word (or `#`s) where a value stands, ending where the value would: a masked value.
_BARE_VALUE = lazy_regex(r"[ \t\r\n]*(#+|[A-Za-z_][\w.$-]*)(?=[ \t\r]*(?:[,}\]\n]|$))")
# The words JSON, or Python's reader of it, takes as values.
_JSON_WORDS = frozenset(("true", "false", "null", "NaN", "Infinity"))
# What an end marker names: a key (`table`, `nested_loop`, `select#1`).
_MARKER_NAME = lazy_regex(r"[\w#$-]{1,64}")
# Strings and the structural characters of JSON, for the truncation scan.
_TOKEN = lazy_regex(r'"(?:[^"\\]|\\.)*"|[{}\[\],]')


def parse_json(text: str, margins: list[int] | None = None) -> Plan | None:
    """A Plan with format "json" when `text` holds an EXPLAIN FORMAT=JSON document, else None.

    The first document found wins. A document that is cut off or damaged gives a Plan with
    `truncated=True`, a notice, and whatever complete part precedes the damage. `margins`
    holds, per line of `text`, the width of the quoting the cleanup took off it (a terminal
    that wrapped the lines counted it).
    """
    if "{" not in text:
        return None
    plan = _parse_json(text, margins)
    if any(q in text for q in _TYPOGRAPHIC_QUOTES) and (plan is None or plan.truncated):
        # A blog or a word processor curled the quotes: straight ones may make it a whole document.
        straight = _parse_json(text.translate(_STRAIGHTEN), margins)
        if straight is not None and not straight.truncated:
            count = sum(text.count(q) for q in _TYPOGRAPHIC_QUOTES)
            straight.notices.insert(0, f"Straightened {plural(count, 'typographic quote')} (“ ”) in the JSON plan.")
            return straight
    return plan


def _parse_json(text: str, margins: list[int] | None) -> Plan | None:
    tried = 0
    for match in _START.finditer(text):
        if match.group(1) not in _TOP_KEYS:
            continue
        tried += 1
        if tried > MAX_CANDIDATES:
            break
        found = _read_document(text, match.start(), margins)
        if found is not None:
            return found
    return _read_fragment(text)


def _read_fragment(text: str) -> Plan | None:
    """A part of a version 1 / MariaDB document, as docs and posts quote them: it starts at
    `"query_block":`, `"table":` or `"nested_loop":` without the braces around it. It is read
    inside the braces it lacks and always flagged: the rest of the plan is not in the paste."""
    match = _FRAGMENT_RE.search(text)
    if match is None:
        return None
    key = match.group(1)
    if key == "query_block":
        whole = _document_without_braces(text[match.start() :])
        if whole is not None:
            whole.notices.append(
                f'The JSON plan lacks its outer braces (it starts at "query_block", line '
                f"{text.count(chr(10), 0, match.start()) + 1}); it holds the whole plan all the same."
            )
            return whole
    opening = "{" if key == "query_block" else '{"query_block": {'
    plan = _read_document(opening + text[match.start() :], 0)
    if plan is None or not plan.rows:
        return None
    plan.truncated = True
    plan.notices.append(
        f'The paste holds part of a JSON plan: it starts at "{key}" (line {text.count(chr(10), 0, match.start()) + 1}) '
        "without the braces around it, so the rest of the plan is missing."
    )
    return plan


def _document_without_braces(fragment: str) -> Plan | None:
    """The whole document of a fragment that starts at `"query_block":` and is complete but for
    its outer braces (the opening one, or both), or None."""
    body = fragment.rstrip()
    for document in ("{" + body, "{" + body + "}"):
        plan = _read_document(document, 0)
        if plan is not None and plan.rows and not plan.truncated:
            return plan
    return None


def document_line(text: str) -> int | None:
    """Index of the line where the first EXPLAIN document of `text` seems to start, if any."""
    for count, match in enumerate(_START.finditer(text)):
        if count >= MAX_CANDIDATES:
            break
        if match.group(1) in _TOP_KEYS:
            return text.count("\n", 0, match.start())
    return None


def _read_document(text: str, start: int, margins: list[int] | None = None) -> Plan | None:
    """Decode the document that starts at `text[start]`, or None if it is no EXPLAIN document."""
    decoder = json.JSONDecoder(
        strict=False,
        object_pairs_hook=_object_keeping_duplicates,
        parse_float=_finite_float,
        parse_constant=_no_constant,
    )
    try:
        # As printed by `--raw`, or with borders only before the first and after the last brace.
        doc, end = decoder.raw_decode(text, start)
    except RecursionError:
        return _refused("The JSON plan is nested too deeply to be read.")
    except ValueError:
        return _read_presented(text, start, decoder, margins)
    if not _is_explain(doc):
        return None
    return _build_plan(doc, text[start:end], [], truncated=False)


def _read_presented(text: str, start: int, decoder: json.JSONDecoder, margins: list[int] | None = None) -> Plan | None:
    """Decode a document wrapped in the client's presentation (box, batch escapes, hard wraps)."""
    notices: list[str] = []
    source = _unwrap(text, start, margins, notices)
    try:
        doc, _ = decoder.raw_decode(source)
    except RecursionError:
        return _refused("The JSON plan is nested too deeply to be read.")
    except ValueError:
        mended = _mended(source, decoder)
        if mended is None:
            return _damaged(*_best_repair(source), decoder)
        doc, source, repairs = mended
        notices += repairs
    if not _is_explain(doc):
        return None
    return _build_plan(doc, source, notices, truncated=False)


def _mended(source: str, decoder: json.JSONDecoder) -> tuple[Any, str, list[str]] | None:
    """The document of a `source` that does not decode as it is, decoded after the repairs it
    needs, with the text it was decoded from and the notices of those repairs: its masked values
    read as unknown, its comments taken out, or its hard-wrapped lines rejoined (and then its
    comments taken out: a terminal wraps the lines as printed, comments and all). None when none
    of these makes it whole."""
    for text, notices in _repairs(source):
        doc = _decode(decoder, text)
        if doc is None and (masked := _unmasked(text)) is not None:
            text, notices = masked.text, [*notices, masked.notice]
            doc = _decode(decoder, text)
        if doc is not None:
            return doc, text, notices
    return None


def _repairs(source: str) -> Iterator[tuple[str, list[str]]]:
    """The texts to try decoding `source` as, each with the notices of its repairs: as it is,
    without its comments, then with its hard-wrapped lines rejoined (and without their comments)."""
    yield source, []
    uncommented = _without_comments(source)
    if uncommented is not None:
        yield uncommented.text, [uncommented.notice]
    rejoined = rejoin_cut_lines(source)
    if rejoined is None:
        return
    notices = ["Lines of the JSON plan were hard-wrapped by a terminal; they have been rejoined."]
    again = _without_comments(rejoined)
    if again is not None:
        rejoined = again.text
        notices.append(again.notice)
    yield rejoined, notices


def _best_repair(source: str) -> tuple[str, list[str]]:
    """A damaged `source` without its comments and with its masked values read as unknown, so
    that the part before the damage is read as far as it goes; with the notices of those repairs."""
    notices: list[str] = []
    uncommented = _without_comments(source)
    if uncommented is not None:
        source = uncommented.text
        notices.append(uncommented.notice)
    masked = _unmasked(source)
    if masked is not None:
        source = masked.text
        notices.append(masked.notice)
    return source, notices


@dataclass
class _Repaired:
    """A document's text after a repair, and the notice that says what the repair did."""

    text: str
    notice: str


def _without_comments(source: str) -> _Repaired | None:
    """`source` without the comments outside the strings of the document it starts with (scanned up
    to the bracket that closes it): `/* … */`, each replaced by the line breaks it spanned so that
    line numbers hold, and a writer's note after `#`, `//` or `-- ` to the end of its line (a `#`
    alone where a value stands is a masked value, not a comment); None when there is none. A
    comment's mark inside a string (a condition quoting `/* select#2 */`) is text, and stays."""
    if "/*" not in source and not any(mark in source for mark in _LINE_COMMENTS):
        return None
    check_deadline()
    pieces: list[str] = []
    copied = at = depth = 0
    comments: list[str] = []
    markers = True
    while (match := _COMMENT_SCAN.search(source, at)) is not None:
        mark = match.group()
        at = match.end()
        if mark in _LINE_COMMENTS:
            end = source.find("\n", at)
            end = len(source) if end < 0 else end
            pieces.append(source[copied : match.start()])
            comments.append(source[match.start() : end].rstrip())
            markers = False
            copied = at = end
        elif mark == "/*":
            close = source.find("*/", at)
            if close < 0:
                break
            pieces += [source[copied : match.start()], "\n" * source.count("\n", match.start(), close)]
            comments.append(source[match.start() : close + 2])
            markers = markers and _is_end_marker(source, match.start(), close + 2)
            copied = at = close + 2
        elif mark in ("{", "["):
            depth += 1
        elif mark in ("}", "]"):
            depth -= 1
            if depth <= 0:
                break
    if not comments:
        return None
    pieces.append(source[copied:])
    return _Repaired("".join(pieces), _comments_notice(comments, markers))


@dataclass
class _Masked:
    """A bare word seen where the document has a value, and the lines of the document it is on."""

    word: str
    lines: list[int] = field(default_factory=list)


def _unmasked(source: str) -> _Repaired | None:
    """`source` with each bare word that stands where a value does (after a `:`, or as an item of
    a list) quoted as a string, scanned up to the bracket that closes the document it starts with;
    None when there is none. Test suites mask the figures that vary between runs that way
    (`"r_engine_stats": REPLACED,`, `"r_rows": #,`): the value is read as unknown, a figure
    becoming None and a text keeping the word. Words inside strings are text, and stay."""
    check_deadline()
    pieces: list[str] = []
    masked: dict[str, _Masked] = {}
    copied = at = line_at = 0
    line = 1
    stack: list[str] = []
    while (match := _VALUE_SCAN.search(source, at)) is not None:
        mark = match.group()
        at = match.end()
        if mark in ("{", "["):
            stack.append(mark)
        elif mark in ("}", "]"):
            if stack:
                stack.pop()
            if not stack:
                break
        if mark == ":" or mark == "[" or (mark == "," and stack[-1:] == ["["]):
            bare = _BARE_VALUE.match(source, at)
            if bare is None or bare.group(1) in _JSON_WORDS:
                continue
            word = bare.group(1)
            line += source.count("\n", line_at, bare.start(1))
            line_at = bare.start(1)
            masked.setdefault(word, _Masked(word)).lines.append(line)
            pieces += [source[copied : bare.start(1)], f'"{word}"']
            copied = at = bare.end(1)
    if not masked:
        return None
    pieces.append(source[copied:])
    return _Repaired("".join(pieces), _masked_notice(list(masked.values())))


def _masked_notice(masked: list[_Masked]) -> str:
    """What reading the masked values as unknown did, naming each word and its lines."""
    count = sum(len(item.lines) for item in masked)
    what = ", ".join(f"{item.word} ({describe_lines(item.lines)})" for item in masked)
    return (
        f"Read {plural(count, 'masked value')} of the JSON plan as unknown: {what}, a bare word "
        "where a value stands (as test suites mask the figures that vary; JSON has no bare words)."
    )


def _comments_notice(comments: list[str], markers: bool) -> str:
    """What removing `comments` did, naming the first; `markers`: all of them are end markers."""
    example = comments[0] if len(comments[0]) <= 40 else comments[0][:36] + " …*/"
    kind = "end marker" if markers else "comment"
    what = f"the {kind} '{example}'" if len(comments) == 1 else f"{len(comments)} {kind}s such as '{example}'"
    if markers:
        return (
            f"Removed {what} after the closing braces and brackets of the JSON plan "
            "(comments naming what they close, which JSON does not allow)."
        )
    return f"Removed {what} from the JSON plan, outside its strings (JSON does not allow comments)."


def _is_end_marker(source: str, start: int, end: int) -> bool:
    """Whether the comment at `source[start:end]` is an end marker: a single name (`/* table */`)
    right after a closing brace or bracket on its line."""
    before = source[max(0, start - 40) : start].rstrip(" \t")
    return before.endswith(("}", "]")) and _MARKER_NAME.fullmatch(source[start + 2 : end - 2].strip()) is not None


def _decode_error(decoder: json.JSONDecoder, source: str) -> ValueError:
    """The error decoding `source` stops at."""
    try:
        decoder.raw_decode(source)
    except ValueError as error:
        return error
    except RecursionError:
        pass
    return ValueError("invalid JSON")


def _decode(decoder: json.JSONDecoder, source: str) -> Any:
    try:
        doc, _ = decoder.raw_decode(source)
    except (ValueError, RecursionError):
        return None
    return doc


def _damaged(source: str, repaired: list[str], decoder: json.JSONDecoder) -> Plan | None:
    """A Plan marked truncated for a document that is cut off or damaged, keeping the complete
    part before the damage; None when the text was not an EXPLAIN document after all. `repaired`
    holds the notices of the repairs made before (comments taken out, masked values)."""
    error = _decode_error(decoder, source)
    position = getattr(error, "pos", 0) or 0
    doc = _salvage(source, position, decoder)
    if doc is not None and not _is_explain(doc):
        doc = None
    if doc is None and not _looks_like_explain(source[:200]):
        return None
    line = source.count("\n", 0, position) + 1
    if source[position:].strip():
        notice = (
            f"The JSON plan is truncated or damaged at line {line} of the document "
            f"({getattr(error, 'msg', 'invalid JSON')}); only the complete part before it is shown."
        )
    else:
        notice = "The JSON plan is truncated: the document ends before it is complete; only its complete part is shown."
    notices = [*repaired, notice]
    if doc is None:
        return Plan(format="json", columns=list(COLUMNS), truncated=True, notices=notices)
    return _build_plan(doc, source, notices, truncated=True)


def _refused(message: str) -> Plan:
    return Plan(format="json", columns=list(COLUMNS), notices=[message], truncated=True)


def _unwrap(text: str, start: int, margins: list[int] | None, notices: list[str]) -> str:
    """The document text from `start`, without batch escaping or the cell borders of a box."""
    line_end = text.find("\n", start)
    first_line = text[start : len(text) if line_end < 0 else line_end]
    if re.match(r"\{\s*\\n", first_line):
        # `mysql -B` prints the whole document on one line with \n, \t and \\ escaped.
        line = _batch_line(text, start, margins, notices)
        return _BATCH_ESCAPE.sub(lambda m: _BATCH_CHARS.get(m.group(1), m.group(1)), _strip_right_cell(line))
    segment = text[start:]
    if not _DECORATED.search(segment):
        return segment
    lines = segment.split("\n")
    kept = []
    for line in lines:
        if _BORDER_LINE.match(line):
            continue
        kept.append(_strip_right_cell(_LEFT_CELL.sub("", line)))
    return "\n".join(kept)


def _batch_line(text: str, start: int, margins: list[int] | None, notices: list[str]) -> str:
    """The one line of a batch-escaped document from `text[start]`, with the pieces a terminal
    or a mail client wrapped it into put back together. The line holds no raw line break, so
    every following line up to an empty one (or a new `EXPLAIN` header or document) is a piece.

    See `analyzer.repair.unwrap.pieces` for how a terminal's cut and a mail client's break are told apart.
    """
    first = text.count("\n", 0, start)
    lines = text[start:].split("\n", 5000)
    pieces = [lines[0]]
    for line in lines[1:5000]:
        head = line.lstrip()
        if not head or head.rstrip() == "EXPLAIN" or "\t" in line or _starts_document(head):
            break
        pieces.append(line)
    if len(pieces) == 1:
        return pieces[0]
    margin = [margins[first + k] if margins and first + k < len(margins) else 0 for k in range(len(pieces))]
    line, terminal = rejoin(pieces, margin)
    notices.append(f"Rejoined {describe(len(pieces) - 1, terminal)} in the one-line (batch) JSON plan.")
    return line


def _starts_document(line: str) -> bool:
    """True when `line` opens an EXPLAIN document (a second copy pasted after the first)."""
    match = _START.match(line)
    return match is not None and match.group(1) in _TOP_KEYS


def _finite_float(text: str) -> float | None:
    """JSON numbers too large for a float (`1e999`) become None: the answer must stay valid JSON."""
    value = float(text)
    return value if math.isfinite(value) else None


def _no_constant(_name: str) -> None:
    """`NaN` and `Infinity` are not JSON; Python's reader accepts them, the API could not send them."""
    return None


def _strip_right_cell(line: str) -> str:
    """The line without the client box's right border (`… |`)."""
    stripped = line.rstrip()
    return stripped[:-1].rstrip() if stripped.endswith(("|", "│", "║")) else line


def _object_keeping_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Old MariaDB versions repeat `"table": {…}` in one object; keep each as `table#2`, `table#3`…
    Also mends keys that a terminal wrap broke over two lines."""
    if any("\n" in key for key, _ in pairs):
        # A terminal wrap inside a key; servers never put line breaks in keys.
        pairs = [(key.replace("\r", "").replace("\n", ""), value) for key, value in pairs]
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    obj = {}
    for key, value in pairs:
        name, number = key, 1
        while name in obj:
            number += 1
            name = f"{key}#{number}"
        obj[name] = value
    return obj


def _looks_like_explain(head: str) -> bool:
    return any(f'"{key}"' in head for key in ("query_block", "query_plan", "query_optimization"))


def _is_explain(doc: Any) -> bool:
    if not isinstance(doc, dict):
        return False
    if "query_block" in doc or "query_plan" in doc:
        return True
    return isinstance(doc.get("operation"), str) or isinstance(doc.get("inputs"), list)


def _salvage(source: str, error_at: int, decoder: json.JSONDecoder) -> Any:
    """Decode the longest prefix of `source` that ends at a complete member before `error_at`.

    One scan finds the last comma (or opening bracket) before the damage; a second one finds the
    brackets still open there, which are then closed. Returns None when nothing sensible remains.
    """
    cut = 0
    for token in _TOKEN.finditer(source, 0, error_at):
        char = token.group()
        if char == ",":
            cut = token.start()
        elif char in "{[":
            cut = token.end()
    if cut == 0:
        return None
    stack: list[str] = []
    for token in _TOKEN.finditer(source, 0, cut):
        char = token.group()
        if char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    if len(stack) > MAX_DEPTH:
        return None
    try:
        doc, _ = decoder.raw_decode(source[:cut] + "".join(reversed(stack)))
    except (ValueError, RecursionError):
        return None
    return doc


def _build_plan(doc: dict[str, Any], source: str, notices: list[str], truncated: bool) -> Plan:
    if _depth_exceeds(doc, MAX_DEPTH):
        return _refused("The JSON plan is nested too deeply to be read.")
    if mend_wrapped_strings(doc):
        notices.append("Text values of the JSON plan were hard-wrapped over several lines; they have been rejoined.")
    if "query_block" in doc:
        flat = _Flattener()
        flat.run(doc["query_block"])
        analyze = flat.analyze or '"r_loops"' in source or '"r_total_time_ms"' in source
        columns = list(ANALYZE_COLUMNS if analyze else COLUMNS)
        rows = [{name: row.get(name) for name in columns} for row in flat.rows]
        tree = document_tree(doc, rows, [row["_source"] for row in flat.rows])
        dialect = _dialect(source)
        statement = "ANALYZE FORMAT=JSON" if analyze else "EXPLAIN FORMAT=JSON"
        return Plan(
            format="json",
            variant=f"{dialect} {statement}",
            columns=columns,
            rows=rows,
            plan=doc,
            tables=flat.tables,
            notices=notices,
            truncated=truncated,
            tree=tree,
        )
    root = doc.get("query_plan", doc)
    nodes = [v2_node(root, 0)] if isinstance(root, dict) else []
    columns, rows, tables, sources = flatten_with_sources(nodes)
    analyzed = any(row.get("r_rows") is not None or row.get("loops") is not None for row in rows)
    label = "EXPLAIN ANALYZE FORMAT=JSON" if analyzed else "EXPLAIN FORMAT=JSON"
    query = doc.get("query") if isinstance(doc.get("query"), str) else None
    return Plan(
        format="json",
        columns=columns,
        rows=rows,
        plan=doc,
        tables=tables,
        query=query,
        notices=notices,
        truncated=truncated,
        tree=operations_tree(nodes, rows, sources),
        variant=f"MySQL {label} (version 2)",
    )


def _dialect(source: str) -> str:
    if any(mark in source for mark in _MARIADB_MARKS):
        return "MariaDB"
    if any(mark in source for mark in _MYSQL_MARKS):
        return "MySQL"
    return "MySQL/MariaDB"


def _depth_exceeds(value: Any, limit: int) -> bool:
    """True when containers nest deeper than `limit`; iterative, so it cannot overflow the stack."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values() if isinstance(child, dict | list))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))
    return False


def format_value(value: Any) -> str | None:
    """A JSON scalar as the string a table cell would show: 161 -> "161", 1.5 -> "1.5"."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)
    if isinstance(value, list):
        return ",".join(item for item in (format_value(v) for v in value) if item is not None)
    if isinstance(value, dict):
        return None
    return str(value)


# --- version 1 and MariaDB ---------------------------------------------------------------------

# Extra items in the order tabular EXPLAIN prints them (MariaDB 10.11 / MySQL 8 agree on most).
_EXTRA_ORDER = [
    "Using union",
    "Using intersect",
    "Using sort_union",
    "Using sort_intersect",
    "Using index condition",
    "Range checked for each record",
    "Using where with pushed condition",
    "Using where",
    "Using index for group-by",
    "Using index for skip scan",
    "Using index",
    "Not exists",
    "Full scan on NULL key",
    "Using rowid filter",
    "Backward index scan",
    "Distinct",
    "LooseScan",
    "Start temporary",
    "FirstMatch",
    "End temporary",
    "Using join buffer",
    "Using MRR",
    "Rowid-ordered scan",
    "Key-ordered",
    "const row not found",
    "unique row not found",
    "Impossible ON condition",
    "Using temporary",
    "Using filesort",
]


def _extra_rank(item: str) -> int:
    for rank, prefix in enumerate(_EXTRA_ORDER):
        if item.startswith(prefix):
            # "Using index condition" must not rank as "Using index"; the list has it first.
            return rank + 1
    return 0


# Table-node flags that stand for one Extra item each (MySQL json_extra_tags, MariaDB members).
_FLAG_EXTRAS = {
    "index_condition": "Using index condition",
    "index_condition_bka": "Using index condition(BKA)",
    "pushed_condition": "Using where with pushed condition",
    "attached_condition": "Using where",
    "using_where": "Using where",
    "using_index": "Using index",
    "using_index_for_skip_scan": "Using index for skip scan",
    "not_exists": "Not exists",
    "full_scan_on_NULL_key": "Full scan on NULL key",
    "using_MRR": "Using MRR",
    "rowid_filter": "Using rowid filter",
    "backward_index_scan": "Backward index scan",
    "distinct": "Distinct",
    "loosescan": "LooseScan",
    "loose_scan": "LooseScan",
    "const_row_not_found": "const row not found",
    "unique_row_not_found": "unique row not found",
    "impossible_on_condition": "Impossible ON condition",
    "using_temporary_table": "Using temporary",
    "using_filesort": "Using filesort",
}

# MariaDB ANALYZE figures measured on a wrapper that tabular ANALYZE shows on the table inside:
# rows read back from the sorted file, and the share of rows the join buffer's condition kept.
_WRAPPER_FIGURES = {"read_sorted_file": ("r_rows",), "block-nl-join": ("r_filtered",)}

# A flattened semi-join leaves one select, but tabular EXPLAIN still calls it PRIMARY.
_SEMIJOIN_MARK = lazy_regex(r"FirstMatch|LooseScan|Start temporary")
# Set-operation nodes and the select_type of their second and later members. MariaDB writes
# `union_result` for INTERSECT and EXCEPT too (the table name tells), and `recursive_union` for
# a recursive CTE.
_SET_OPERATIONS = {
    "union_result": "UNION",
    "intersect_result": "INTERSECT",
    "except_result": "EXCEPT",
    "recursive_union": "RECURSIVE UNION",
}


@dataclass
class _Block:
    """A query block waiting to be flattened, with what its container says about it."""

    node: Any
    select_type: str | None
    depth: int
    # Set for the result row of a UNION/INTERSECT/EXCEPT, which follows the rows of its members.
    result_row: dict[str, Any] | None = None
    # How MariaDB orders it among the blocks nested in the same select (`_mariadb_order`): None
    # for a block MariaDB's containers do not hold, else "nest" for a semi-join materialization
    # nest, "unit" for a subquery, a derived table or a materialized non-merged subquery.
    mariadb: str | None = None


@dataclass
class _Select:
    """The query block being walked: what its rows share, the blocks nested in it (flattened
    after it), and the Extra items its operations give to its first table."""

    select_id: str | None
    select_type: str | None
    depth: int
    nested: list[_Block] = field(default_factory=list)
    extras: list[str] = field(default_factory=list)


@dataclass
class _Flattener:
    """Walks a version 1 / MariaDB document into tabular rows, in the order tabular EXPLAIN uses:
    the rows of a select, then the selects nested in it."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    analyze: bool = False
    blocks: int = 0

    def run(self, query_block: Any) -> None:
        self._block(_Block(query_block, "PRIMARY", 0))
        self.tables = [row["table"] for row in self.rows if row["table"] is not None]
        semijoin = any(_SEMIJOIN_MARK.search(row["extra"] or "") for row in self.rows)
        if self.blocks == 1 and not semijoin:
            for row in self.rows:
                if row.get("select_type") == "PRIMARY":
                    row["select_type"] = "SIMPLE"

    def _block(self, block: _Block) -> None:
        """Flatten one query block (its table rows), then the blocks nested in it."""
        if block.result_row is not None:
            block.result_row["extra"] = _join_extra(block.result_row.pop("_extra"))
            self.rows.append(block.result_row)
            return
        if not isinstance(block.node, dict) or block.depth > MAX_DEPTH:
            return
        self.blocks += 1
        select = _Select(format_value(block.node.get("select_id")), block.select_type, block.depth)
        first_row = len(self.rows)
        message = block.node.get("message")
        if isinstance(message, str):
            # MySQL puts "No tables used", "Impossible WHERE", … directly in the query block.
            self._row({"message": message}, select, [])
            self.rows[-1]["_source"] = block.node
        self._walk(block.node, select, [], in_join=False, depth=0)
        if select.extras and len(self.rows) > first_row:
            self.rows[first_row]["_extra"].extend(select.extras)
        for row in self.rows[first_row:]:
            row["extra"] = _join_extra(row.pop("_extra"))
        for child in _mariadb_order(select.nested):
            self._block(child)

    def _walk(self, node: Any, select: _Select, inherited: list[str], in_join: bool, depth: int) -> None:
        """Collect the table rows of one query block; queue the blocks nested in it. `inherited`
        holds the Extra items the wrappers around `node` pass to the next table."""
        if depth > MAX_DEPTH:
            return
        if isinstance(node, list):
            for item in node:
                self._walk(item, select, inherited, in_join, depth + 1)
            return
        if not isinstance(node, dict):
            return
        set_operation = next((key for key in _SET_OPERATIONS if isinstance(node.get(key), dict)), None)
        if set_operation:
            self._set_operation(node[set_operation], set_operation, select)
            return
        if "table_name" in node:
            self._row(node, select, inherited)
            inherited = []
        for key, value in node.items():
            base = key.split("#", 1)[0]
            if not isinstance(value, dict | list) or self._set_aside(base, value, node, select, depth):
                continue
            first = len(self.rows)
            if base == "duplicates_removal" and in_join:
                # A semi-join's duplicate weedout, shown on its first and last tables.
                self._walk(value, select, inherited, False, depth + 1)
                if len(self.rows) > first:
                    self.rows[first]["_extra"].append("Start temporary")
                    self.rows[-1]["_extra"].append("End temporary")
                continue
            wrapper = _wrapper_extras(base, value)
            select.extras.extend(item for item in _block_extras(base, value) if item not in select.extras)
            self._walk(value, select, inherited + wrapper, in_join=base == "nested_loop", depth=depth + 1)
            self._copy_figures(base, value, first)

    def _set_aside(self, base: str, value: Any, holder: dict[str, Any], select: _Select, depth: int) -> bool:
        """Deal with a member that is not walked as part of the select: a nested query block or
        subquery (queued), a table that is only a message, window sorts. False for any other."""
        if base == "query_block" and depth > 0:
            select.nested.append(_Block(value, None, select.depth + 1))
        elif base == "table" and isinstance(value, dict) and "table_name" not in value and "message" in value:
            self._row(value, select, [])
        elif base in SUBQUERY_LISTS or base == "materialized_from_subquery" or base == "materialized":
            self._queue_nested(base, holder, value, select)
        else:
            # MariaDB window functions list their sorts; tabular Extra does not name them.
            return base == "sorts"
        return True

    def _copy_figures(self, base: str, value: Any, first: int) -> None:
        """Give the first row inside a MariaDB wrapper the ANALYZE figures measured on the wrapper."""
        figures = _WRAPPER_FIGURES.get(base, ())
        if figures and isinstance(value, dict) and len(self.rows) > first:
            for name in figures:
                if name in value:
                    self.rows[first][name] = format_value(value[name])

    def _queue_nested(self, key: str, holder: dict[str, Any], value: Any, select: _Select) -> None:
        """Queue the query blocks held by a subquery list or a derived/materialized table."""
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            found = _find_query_block(entry)
            if found is None:
                continue
            container, query_block = found
            select_type = _nested_select_type(container, key, query_block, holder, entry)
            kind = _mariadb_kind(key, holder, container, entry)
            select.nested.append(_Block(query_block, select_type, select.depth + 1, mariadb=kind))

    def _set_operation(self, result: dict[str, Any], key: str, select: _Select) -> None:
        """A UNION/INTERSECT/EXCEPT: its members are nested selects, then its result row."""
        specs = result.get("query_specifications")
        members = specs if isinstance(specs, list) else []
        for index, member in enumerate(members):
            found = _find_query_block(member)
            if found is None:
                continue
            container, query_block = found
            select_type = select.select_type if index == 0 else _member_select_type(key, container, query_block)
            select.nested.append(_Block(query_block, select_type, select.depth + 1))
        if "table_name" in result:
            self.blocks += 1
            extras = ["Using temporary"] if result.get("using_temporary_table") is True else []
            kind = _set_result_kind(key, str(result.get("table_name")))
            row = self._make_row(result, None, f"{kind} RESULT", extras)
            select.nested.append(_Block(None, None, select.depth + 1, result_row=row))

    def _row(self, node: dict[str, Any], select: _Select, inherited: list[str]) -> None:
        self.rows.append(self._make_row(node, select.select_id, select.select_type, inherited))

    def _make_row(
        self, node: dict[str, Any], select_id: str | None, select_type: str | None, inherited: list[str]
    ) -> dict[str, Any]:
        if "r_loops" in node or "r_rows" in node:
            self.analyze = True
        row = _table_row(node, select_id, select_type, inherited)
        row["_source"] = node  # the model links its nodes to rows through it
        return row


def _mariadb_kind(key: str, holder: dict[str, Any], container: dict[str, Any], entry: Any) -> str | None:
    """How MariaDB orders the block nested in `entry` under `key` (see `_Block.mariadb`): a
    `<subqueryN>` table whose `materialized` member holds the query block itself is a semi-join
    nest (a non-merged subquery puts a `materialization` member in between); `materialized` and
    `subqueries` hold units. None for MySQL's containers."""
    if key == "subqueries":
        return "unit"
    if key != "materialized":
        return None
    nest = container is entry and str(holder.get("table_name", "")).startswith("<subquery")
    return "nest" if nest else "unit"


def _mariadb_order(blocks: list[_Block]) -> list[_Block]:
    """The blocks nested in one select in the order MariaDB's tabular EXPLAIN prints them, when
    MariaDB's containers hold them all: its semi-join materialization nests in join order, then its
    units by decreasing select id (the server keeps a select's units newest first, so the last one
    written comes first). Any other list, or units without a select id, stay in document order."""
    if not blocks or any(block.mariadb is None for block in blocks):
        return blocks
    units = [block for block in blocks if block.mariadb == "unit"]
    ids = [_first_select_id(block.node) for block in units]
    if None in ids:
        return blocks
    nests = [block for block in blocks if block.mariadb == "nest"]
    order = sorted(range(len(units)), key=lambda index: -(ids[index] or 0))
    return nests + [units[index] for index in order]


def _first_select_id(query_block: Any) -> int | None:
    """The select id of a query block, or of the first member of the set operation it holds."""
    for _ in range(MAX_DEPTH):
        if not isinstance(query_block, dict):
            return None
        select_id = query_block.get("select_id")
        if isinstance(select_id, int) and not isinstance(select_id, bool):
            return select_id
        operation = next((query_block[key] for key in _SET_OPERATIONS if isinstance(query_block.get(key), dict)), None)
        members = operation.get("query_specifications") if operation is not None else None
        if not isinstance(members, list) or not members:
            return None
        found = _find_query_block(members[0])
        query_block = found[1] if found is not None else None
    return None


def _member_select_type(key: str, container: dict[str, Any], query_block: Any) -> str:
    """The select_type of the second and later members of a set operation (`key`)."""
    operation = query_block.get("operation") if isinstance(query_block, dict) else None
    select_type = _SET_OPERATIONS[key]
    if isinstance(operation, str) and key != "recursive_union":
        select_type = operation
    if container.get("dependent") is True:
        return f"DEPENDENT {select_type}"
    if container.get("cacheable") is False:
        return f"UNCACHEABLE {select_type}"
    return select_type


def _set_result_kind(key: str, name: str) -> str:
    """UNION, INTERSECT or EXCEPT: whose result the set-operation node `key` (table `name`) holds."""
    if key in ("intersect_result", "except_result"):
        return _SET_OPERATIONS[key]
    return next((word for word in ("INTERSECT", "EXCEPT") if name.upper().startswith(f"<{word}")), "UNION")


def _table_row(
    node: dict[str, Any], select_id: str | None, select_type: str | None, inherited: list[str]
) -> dict[str, Any]:
    """The tabular row of a table node, with its Extra items (its own, then `inherited`) as a list."""
    name = node.get("table_name")
    table = format_value(name) if not isinstance(name, dict | list) else None
    rows = node.get("rows_examined_per_scan", node.get("rows"))
    key = node.get("key")
    extras = _table_extras(node)
    merge = _index_merge(node.get("index_merge"), 0)
    if merge is not None:
        # MariaDB: "index_merge": {"union": [{"range": {"key": …}}, …]}; tabular shows the keys
        # and "Using union(a,b)".
        keys, description = merge
        key = key if key is not None else ",".join(keys)
        extras.insert(0, f"Using {description}")
    # MySQL 5.7+ marks DML target tables with `"update": true` (MariaDB writes 1 and keeps
    # SIMPLE in its tabular output).
    for statement in ("insert", "replace", "update", "delete"):
        if select_type and node.get(statement) is True:
            select_type = statement.upper()
    return {
        "id": select_id,
        "select_type": select_type,
        "table": table,
        "type": format_value(node.get("access_type")),
        "possible_keys": format_value(node.get("possible_keys")),
        "key": format_value(key),
        "key_len": format_value(node.get("key_length")),
        "ref": format_value(node.get("ref")),
        "rows": format_value(rows),
        "r_rows": format_value(node.get("r_rows")),
        "filtered": format_value(node.get("filtered")),
        "r_filtered": format_value(node.get("r_filtered")),
        "_extra": extras + list(inherited),
    }


def _index_merge(spec: Any, depth: int) -> tuple[list[str], str] | None:
    """(keys, "union(a,intersect(b,c))") for a MariaDB `index_merge` member."""
    if not isinstance(spec, dict) or len(spec) != 1 or depth > 10:
        return None
    method, parts = next(iter(spec.items()))
    if not isinstance(parts, list):
        return None
    keys: list[str] = []
    texts: list[str] = []
    for part in parts:
        scan = part.get("range") if isinstance(part, dict) else None
        if isinstance(scan, dict) and isinstance(scan.get("key"), str):
            keys.append(scan["key"])
            texts.append(scan["key"])
            continue
        inner = _index_merge(part, depth + 1)
        if inner is not None:
            keys.extend(inner[0])
            texts.append(inner[1])
    return keys, f"{method}({','.join(texts)})"


def _find_query_block(entry: Any) -> tuple[dict[str, Any], Any] | None:
    """The (holder, query_block) inside a subquery entry, looking through MariaDB's
    `expression_cache` and `materialization` wrappers."""
    current = entry
    for _ in range(4):
        if not isinstance(current, dict):
            return None
        if "query_block" in current:
            return current, current["query_block"]
        inner = next((value for value in current.values() if isinstance(value, dict) and "query_block" in value), None)
        if inner is None:
            return None
        current = inner
    return None


def _nested_select_type(
    container: dict[str, Any],
    key: str | None,
    query_block: Any,
    holder: dict[str, Any] | None = None,
    entry: Any = None,
) -> str | None:
    """The select_type a nested block gets from what holds it."""
    dependent = container.get("dependent") is True
    if isinstance(entry, dict) and "expression_cache" in entry:
        # MariaDB caches only correlated (dependent) subqueries.
        dependent = True
    if key in ("materialized_from_subquery", "materialized"):
        name = str((holder or {}).get("table_name", ""))
        if container.get("lateral"):
            return "LATERAL DERIVED"
        if name.startswith("<subquery") or container.get("unique"):
            return "MATERIALIZED"
        return "DEPENDENT DERIVED" if dependent else "DERIVED"
    if key in SUBQUERY_LISTS:
        if isinstance(entry, dict) and "materialization" in entry:
            return "MATERIALIZED"
        if dependent:
            return "DEPENDENT SUBQUERY"
        if container.get("cacheable") is False:
            return "UNCACHEABLE SUBQUERY"
        return "SUBQUERY"
    return None


def _table_extras(node: dict[str, Any]) -> list[str]:
    extras = []
    message = node.get("message")
    if isinstance(message, str):
        extras.append(message)
    for flag, item in _FLAG_EXTRAS.items():
        value = node.get(flag)
        if value is None or value is False or value == "":
            continue
        if item not in extras:
            extras.append(item)
    checked = node.get("range_checked_for_each_record")
    if isinstance(checked, str):
        extras.append(f"Range checked for each record ({checked})")
    group_by = node.get("using_index_for_group_by")
    if group_by is True:
        extras.append("Using index for group-by")
    elif isinstance(group_by, str):
        extras.append(f"Using index for group-by ({group_by})")
    first_match = node.get("first_match")
    if isinstance(first_match, str):
        extras.append(f"FirstMatch({first_match})")
    join_buffer = node.get("using_join_buffer")
    if isinstance(join_buffer, str):
        extras.append(f"Using join buffer ({join_buffer})")
    mrr = node.get("mrr_type")
    if isinstance(mrr, str) and mrr:
        extras.append(mrr)
    return extras


def _wrapper_extras(key: str, value: Any) -> list[str]:
    """Extra items a MariaDB wrapper node (`block-nl-join`, …) passes to the table inside it."""
    if not isinstance(value, dict):
        return []
    extras = []
    if key == "block-nl-join" or ("join_type" in value and "buffer_type" in value):
        if value.get("attached_condition"):
            extras.append("Using where")
        parts = [str(value[name]) for name in ("buffer_type", "join_type") if isinstance(value.get(name), str)]
        if len(parts) == 2:
            extras.append(f"Using join buffer ({parts[0]}, {parts[1]} join)")
        elif parts:
            extras.append(f"Using join buffer ({parts[0]})")
        else:
            extras.append("Using join buffer")
        if isinstance(value.get("mrr_type"), str) and value["mrr_type"]:
            extras.append(value["mrr_type"])
    elif key == "range-checked-for-each-record":
        extras.append("Range checked for each record")
    elif key == "full-scan-on-null_key":
        extras.append("Full scan on NULL key")
    return extras


def _block_extras(key: str, value: Any) -> list[str]:
    """Extra items an operation wrapper gives to the first table of its select."""
    extras = []
    if key == "temporary_table":
        extras.append("Using temporary")
    if key == "filesort":
        extras.append("Using filesort")
    if isinstance(value, dict) and "table_name" not in value and "query_block" not in value:
        if value.get("using_temporary_table") is True:
            extras.append("Using temporary")
        if value.get("using_filesort") is True:
            extras.append("Using filesort")
    elif isinstance(value, list) and key == "windows":
        for window in value:
            if isinstance(window, dict) and window.get("using_filesort") is True:
                extras.append("Using filesort")
            if isinstance(window, dict) and window.get("using_temporary_table") is True:
                extras.append("Using temporary")
    return extras


def _join_extra(items: list[str]) -> str | None:
    unique: list[str] = []
    for item in items:
        if item not in unique:
            unique.append(item)
    if not unique:
        return None
    unique.sort(key=_extra_rank)
    return "; ".join(unique)


# --- MySQL version 2 -----------------------------------------------------------------------------


def v2_node(node: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """A version 2 node in the node shape of the TREE reader (a `heading` becomes its own node)."""
    operation = node.get("operation")
    text = operation if isinstance(operation, str) else "(unnamed operation)"
    table = node.get("alias") if isinstance(node.get("alias"), str) else node.get("table_name")
    condition = next(
        (node[key] for key in ("condition", "lookup_condition", "hash_condition") if isinstance(node.get(key), str)),
        None,
    )
    children = []
    if depth < MAX_DEPTH:
        for key, value in node.items():
            if not key.startswith("inputs"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, dict):
                    children.append(v2_node(child, depth + 1))
    converted = make_node(
        text,
        table=table if isinstance(table, str) else None,
        index=node.get("index_name") if isinstance(node.get("index_name"), str) else None,
        condition=condition,
        cost=_number(node.get("estimated_total_cost")),
        rows=_number(node.get("estimated_rows")),
        actual_time_first=_number(node.get("actual_first_row_ms")),
        actual_time_last=_number(node.get("actual_last_row_ms")),
        actual_rows=_number(node.get("actual_rows")),
        loops=_integer(node.get("actual_loops")),
        children=children,
    )
    heading = node.get("heading")
    if isinstance(heading, str):
        return make_node(heading, children=[converted])
    return converted


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _integer(value: Any) -> int | None:
    number = _number(value)
    return int(number) if number is not None and number.is_integer() else None
