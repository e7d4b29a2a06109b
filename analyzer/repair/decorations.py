"""Repairs for what tools add around every line of a paste, and for HTML escaping.

- `decode_quoted_printable`: a mail copied with its transfer encoding (`=` at the end of lines
  cut at 76 characters, `=C2=A0` for a non-breaking space).
- `unescape_html`: a paste copied from the source of a web page or a rich-text field arrives
  with `&lt;derived2&gt;`, `&amp;`, `&quot;`, `&#39;` and `&nbsp;`. The entities are decoded only
  when the paste is clearly escaped (no raw `<` anywhere), since a real statement or cell may
  hold text such as `&amp;`.
- `strip_decorations`: log prefixes (`2024-05-01 10:00:00 [Note] `, the MySQL 8 error log's
  `…Z 0 [Note] [MY-010000] [Server] `, syslog's `May  1 10:00:00 host mysqld[12]: `, chat
  logs' `[10:01] <nick> `), lines a logger wrapped in quotes (`"| 1 | SIMPLE |…",`), shell
  continuation backslashes at the end of each line, and the marker some terminals and editors
  put where they wrapped a line (`↵`, or `\\` in the last column).

Each returns what it changed as notices; `strip_decorations` also returns the width taken off
the left of each line, which a terminal counted when it wrapped the lines.
"""

from __future__ import annotations

import itertools
import os
import re

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_module, lazy_regex
from analyzer.model import EXPLAIN_COLUMN_ORDER
from analyzer.repair.scan import any_line, matching_lines, pattern
from analyzer.repair.textwidth import width
from analyzer.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    import html
    import json
    import quopri
else:  # only the repairs that find their encoding in a paste use them
    html = lazy_module("html")
    json = lazy_module("json")
    quopri = lazy_module("quopri")

# Three columns or more, each of two dashes or more; a dash run may hold one stray space (`---- --+`).
_FLAT_BORDER_RE = lazy_regex(r"(\+(?:(?=-[- ])-++(?: -++)?\+){2,})")
# A cell border: a `|` with a space on at least one side (`ref|filter` holds one with none).
_FLAT_SPLIT_RE = lazy_regex(r"(?<= )\||\|(?= )|^\||\|$")
_QP_ESCAPE_RE = lazy_regex(r"=[0-9A-F]{2}")
_QP_UTF8_RE = lazy_regex(r"=[C-F][0-9A-F](?:=[89AB][0-9A-F])+")
_QP_TRAILING_RE = lazy_regex(r"=(?:20|09)$", re.MULTILINE)
_BACKSLASH_RE = lazy_regex(r"\\(.)")
_BACKSLASH_CHARS = {"n": "\n", "t": "\t", "r": ""}
# Table, vertical or batch output, once the escapes are gone.
# The blanks of one line only: `\s*` would run on over every empty line after each line start.
_ESCAPED_OUTPUT_RE = lazy_regex(r"(?m)^[^\S\n]*(?:#[^\S\n]*)?(?:\+-{3}|\| ?id\b|\*{10}|id\tselect_type)")
# The comment marker a report puts before every line of the output it quotes (pt-query-digest's `# `).
_QUOTED_MARK_RE = lazy_regex(r"(?m)^# ?")
# The most lines a logged string broken by real line breaks is followed over.
_BROKEN_STRING_LINES = 8
_ENTITY_RE = lazy_regex(r"&(?:lt|gt|amp|quot|apos|nbsp|#0*39|#x0*27|#0*160|#x0*a0|#0*124|#x0*7c);", re.IGNORECASE)

# Tags that only wrap an escaped paste (a `<pre>` block) and do not make it raw HTML.
_WRAPPER_TAG_RE = lazy_regex(r"</?(?:pre|code|br|p|div|span)\b[^<>\n]{0,100}>", re.IGNORECASE)
_TIMESTAMP_RE = lazy_regex(
    r"^[ \t]*(?:"
    r"\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?"  # ISO, MySQL logs
    r"|\d{6} {1,2}\d{1,2}:\d\d:\d\d"  # MySQL 5.5 error log: 240501 10:00:00
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"  # syslog: May  1 10:00:00
    r"|\[\d{1,2}:\d\d(?::\d\d)?(?: ?[AP]M)?\]"  # chat logs: [10:01], [10:01:22 PM]
    r")"
)
# What log formats print after the time: a thread id before a `[level]`, `[Note]`, `[MY-010000]`,
# `[Server]`, a syslog `program[pid]:`, a chat `<nick>`.
_LOG_TOKEN_RE = lazy_regex(r"[ \t]+(?:\d+(?= \[)|\[[^\]\n]{1,40}\]|[\w./-]{1,64}\[\d+\]:|<[^>\n]{1,40}>)")
# A syslog host and program (`db1 mysqld:`): up to three words before the content.
_HOST_RE = lazy_regex(r"[ \t]*(?:[\w.@/\[\]-]{1,64}:?[ \t]+){0,3}")
_QUOTED_RE = lazy_regex(r'^[ \t]*(["\'])(.*)\1,?[ \t]*$')
_WRAP_MARKS = "\u21b5\u21a9\u23ce\u2936"  # ↵ ↩ ⏎ ⤶
_MARK_ENDS = _WRAP_MARKS + "\\"
# Empty cells after a line's text: ` | |` (at least two bars, so one row's own closing `|` is not one);
# looked for in a line's last 40 characters only, which keeps the search linear.
_TRAILING_CELLS_RE = lazy_regex(r"(?: \|){2,} *$")
# What an editor shows at the start of a soft-wrapped line's continuation (vim `showbreak`).
_SHOWBREAKS = "\u21aa\u21b3"  # ↪ ↳
# An HTML line break left at the end of a line by a web page's source (`<br>`, `<br/>`, `<br />`).
_BREAK_TAG = r"<br[ \t]*/?>[ \t]*$"
SAMPLE = 200
# A comment marker or list bullet at the start of a line, then one space (or the line's end).
_GUTTER_RE = lazy_regex(r"^([ \t]*)(//|--|#|\*|-|\u2022)(?: |$)")
_LIST_BULLETS = ("*", "-", "\u2022")
# The figures a MySQL tree plan's line ends with (what a list of its lines shows).
_TREE_FIGURES_RE = lazy_regex(r"\((?:cost=|actual time=|actual rows=|never executed\)|rows=\d)[^()]*\)\s*$")
# A vertical record flattened onto one line: its marker, its labels in the client's order, its footer.
# Tried from the first `*` of a run only, not again from each `*` of a long run.
_FLAT_MARKER_RE = lazy_regex(r"((?<!\*)\*{5,} ?\d+\. row ?\*{5,})")
# `possible_keys`, the longest label, has no padding: with the line breaks gone it sticks to the
# value before it (`type: indexpossible_keys: NULL`), as the footer may (`Using index2 rows in set`).
_FLAT_LABEL_RE = lazy_regex(
    r"(?:(?<!\S)|(?=possible_keys:))(" + "|".join(EXPLAIN_COLUMN_ORDER) + r"):(?=\s|$)", re.IGNORECASE
)
# A field's label where fields were laid out side by side: at the start of a line or after a blank.
_SIDE_LABEL_RE = lazy_regex(r"(?<!\S)(" + "|".join(EXPLAIN_COLUMN_ORDER) + r"):(?=\s|$)", re.IGNORECASE)
# What starts the text inside a frame and never a cell: a client prompt or a table's border.
_FRAMED_OUTPUT_RE = lazy_regex(
    r"\s*(?:\+-{2,}\+|(?:mysql|mariadb)(?: ?\[[^\]\n]{0,200}\])?>|\{\s*$|\"query_block\"|-> |\*{5,})", re.IGNORECASE
)
# The end of a framed line: its closing `|`, and the empty cells of the page's other columns.
_FRAME_END_RE = lazy_regex(r"(?:\s+\|)+\s*$")
_FLAT_FOOTER_RE = lazy_regex(r"(?:\s|(?<=[A-Za-z)]))\d+ rows? in set\b.*$")


def split_flattened_tables(text: str, notices: list[str]) -> str:
    """A client table whose line breaks were lost (pasted into a page or a chat that renders it
    as a paragraph, then copied back): borders, header and rows follow each other on one line.
    The borders give the number of columns; a row ends where its last `|` meets the next row's
    first (`| |`), checked against that count, else the line is left as it is."""
    check_deadline()
    if "+--" not in text:
        return text
    lines = text.split("\n")
    changed = spaced = 0
    for i, line in enumerate(lines):
        if len(line) < 60 or line.count("+--") < 4 or line.count("|") < 6:
            continue
        rebuilt = _unflatten(line)
        if rebuilt is not None:
            lines[i], split = rebuilt
            changed += 1
            spaced += split
    if not changed:
        return text
    notices.append(f"Put {plural(changed, 'table')} pasted on one line (its line breaks lost) back on its lines.")
    if spaced:
        notices.append(f"Took a stray space out of {plural(spaced, 'border')} of a table pasted on one line.")
    return "\n".join(lines)


def _unflatten(line: str) -> tuple[str, int] | None:
    """The table flattened onto `line` back on its lines, and how many of its borders held a
    stray space (taken out); None when its borders and rows do not agree."""
    parts = _FLAT_BORDER_RE.split(line)
    spaced = sum(" " in border for border in parts[1::2])
    borders = [border.replace(" ", "") for border in parts[1::2]]
    if len(borders) < 2 or len({border.count("+") for border in borders}) != 1:
        return None
    count = borders[0].count("+") - 1
    out = [parts[0].rstrip()] if parts[0].strip() else []
    for k, segment in enumerate(parts[2::2]):
        out.append(borders[k])
        cells = _FLAT_SPLIT_RE.split(segment.strip())
        if segment.strip() == "":
            continue
        if k == len(borders) - 1:  # text after the last border
            out.append(segment.strip())
            break
        if cells[0] != "" or cells[-1] != "" or (len(cells) - 1) % (count + 1) != 0:
            return None
        for start in range(1, len(cells) - 1, count + 1):
            row = cells[start : start + count]
            if start + count < len(cells) - 1 and cells[start + count].strip():
                return None  # the gap between two rows holds text: not a row boundary
            out.append("| " + " | ".join(cell.strip() for cell in row) + " |")
    return "\n".join(out), spaced


def split_flattened_records(text: str, notices: list[str]) -> str:
    """Vertical (`\\G`) records whose line breaks were lost: the statement, the `*** 1. row ***`
    marker, every `label: value` and the `1 row in set` line follow each other on one line. The
    record is put back on its lines when at least four EXPLAIN labels follow its marker, in the
    order the client prints them; a line without that stays as it is."""
    check_deadline()
    if "row *" not in text:
        return text
    lines = text.split("\n")
    changed = 0
    for i, line in enumerate(lines):
        if len(line) < 60 or not _FLAT_MARKER_RE.search(line):
            continue
        rebuilt = _unflatten_record(line)
        if rebuilt is not None:
            lines[i] = rebuilt
            changed += 1
    if not changed:
        return text
    notices.append(
        f"Put {plural(changed, 'line')} of vertical (\\G) output whose line breaks were lost back on their lines."
    )
    return "\n".join(lines)


def _unflatten_record(line: str) -> str | None:
    parts = _FLAT_MARKER_RE.split(line)  # text, marker, record, marker, record, …
    out = [parts[0].rstrip()] if parts[0].strip() else []
    for marker, record in zip(parts[1::2], parts[2::2], strict=True):
        fields = _record_fields(record)
        if fields is None:
            return None
        out.append(marker.strip())
        out.extend(fields)
    return "\n".join(out)


def _record_fields(record: str) -> list[str] | None:
    """`id: 1 select_type: SIMPLE …` as one `label: value` line each (a `N rows in set` tail on its
    own line), or None when the labels are too few or out of the client's order."""
    tail = _FLAT_FOOTER_RE.search(record)
    body, footer = (record[: tail.start()], [tail.group(0).strip()]) if tail else (record, [])
    starts = list(_FLAT_LABEL_RE.finditer(body))
    order = [EXPLAIN_COLUMN_ORDER.index(m.group(1).lower()) for m in starts]
    if len(starts) < 4 or starts[0].start() != len(body) - len(body.lstrip()) or order != sorted(set(order)):
        return None
    ends = [m.start() for m in starts[1:]] + [len(body)]
    return [body[m.start() : end].strip() for m, end in zip(starts, ends, strict=True)] + footer


def unframe_lines(text: str, notices: list[str]) -> str:
    """A code block a web page rendered as a table of one column: every line of the paste framed as
    `| text |` (with the empty cells of other columns after it: `| text | |`). The frames come off
    when every line that holds text has one and the text inside one of them starts as no cell of an
    EXPLAIN table can: a client prompt, a table's border, a JSON document, a tree's arrow or a `\\G`
    row's stars."""
    check_deadline()
    if not text.lstrip().startswith("|"):
        return text
    lines = text.split("\n")
    framed = [_FRAME_END_RE.sub("", line.strip()) for line in lines if line.strip()]
    if not all(len(line) > 2 and line.startswith("| ") for line in framed):
        return text
    if not all(_FRAME_END_RE.search(line) for line in lines if line.strip()):
        return text
    if not any(_FRAMED_OUTPUT_RE.match(line[2:]) for line in framed):
        return text
    notices.append(
        f"Took off the '| … |' around each of {plural(len(framed), 'line')} "
        "(the page showed the text as a table of one column)."
    )
    return "\n".join(_FRAME_END_RE.sub("", line.strip())[2:].strip() if line.strip() else line for line in lines)


def split_side_by_side_fields(text: str, notices: list[str]) -> str:
    """Vertical (`\\G`) fields laid out two or more to a line (a slide's columns, a page's
    layout): `id: 1   select_type: SIMPLE`. A line is split where it starts with an EXPLAIN
    label and every piece of it is `label: value`, the labels in the client's order. Pieces apart
    by a tab or two spaces or more are split on any such line; apart by one space, only where two
    lines or more of the paste hold four labels or more between them."""
    check_deadline()
    if ":" not in text:
        return text
    lines = text.split("\n")
    found: list[tuple[int, list[str], bool]] = []  # (line index, its fields, apart by wide gaps)
    for i, line in enumerate(lines):
        if line.count(":") > 1:
            split = _side_by_side(line)
            if split is not None:
                found.append((i, *split))
    narrow = [item for item in found if not item[2]]
    if len(narrow) < 2 or sum(len(fields) for _, fields, _ in narrow) < 4:
        found = [item for item in found if item[2]]
    if not found:
        return text
    for i, fields, _ in found:
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = "\n".join(indent + field for field in fields)
    notices.append(
        f"Split {plural(len(found), 'line')} of vertical (\\G) output holding fields side by side "
        "into one field a line."
    )
    return "\n".join(lines)


def _side_by_side(line: str) -> tuple[list[str], bool] | None:
    """The `label: value` fields of a line holding two or more side by side, in the client's
    order, and whether every gap between them is a tab or two spaces or more; else None."""
    starts = list(_SIDE_LABEL_RE.finditer(line))
    if len(starts) < 2 or line[: starts[0].start()].strip():
        return None
    order = [EXPLAIN_COLUMN_ORDER.index(m.group(1).lower()) for m in starts]
    if order != sorted(set(order)):
        return None
    ends = [m.start() for m in starts[1:]] + [len(line)]
    fields = [line[m.start() : end].strip() for m, end in zip(starts, ends, strict=True)]
    wide = all(line[max(0, at - 2) : at].endswith(("  ", "\t")) for at in ends[:-1])
    return fields, wide


_RULE_CHARACTERS = "=#-+|* \t"
_COLOUR_MARKS = ("\x1b[", "\\e[", "\\033[", "\\x1b[", "\\u001b[", "^[[")
_COLOUR_RE = lazy_regex(r"(?:\x1b|\\e|\\033|\\x1[bB]|\\u001[bB]|\^\[)\[[0-9;]{0,12}m")


def strip_colour_codes(text: str, notices: list[str]) -> str:
    """`text` without the terminal's colour and bold codes (`ESC[1;31m`), also where a log or a
    test wrote them out as text (`\\e[31m`, `\\033[0m`, `\\x1b[m`, `^[[1m`): a client or gem that
    highlights bad access types puts them in cells, and a terminal shows them as nothing."""
    check_deadline()
    if "[" not in text or not any(mark in text for mark in _COLOUR_MARKS):
        return text
    stripped, count = _COLOUR_RE.subn("", text)
    if count:
        notices.append(f"Removed {plural(count, 'terminal colour code')} (such as 'ESC[1m').")
    return stripped


def decode_quoted_printable(text: str, notices: list[str]) -> str:
    """`text` decoded from the quoted-printable encoding of a raw mail (soft line breaks `=` at
    the end of lines of at most 76 characters, `=C2=A0`, `=3D`), when it clearly is that."""
    check_deadline()
    if "=" not in text or not text.isascii():
        return text
    # A rule drawn with `=` (`# ====== ===`, a report's underline) ends in `=` too, and is no break.
    soft = [
        line for line in text.split("\n") if line.endswith("=") and len(line) <= 76 and line.strip(_RULE_CHARACTERS)
    ]
    # `rows=12` is no escape. Sure signs of the encoding: a soft break at the 76-character
    # limit, soft breaks near it, escaped UTF-8 sequences, an escaped space at the end of a line (`Extra:=20`); two
    # weaker ones together: a soft break and an escaped `=` (`=3D`).
    sure = (
        # Encoders cut at 76 characters, inside a word (a mail client breaks at a space: `a =`).
        any(len(line) >= 73 and line[-2:-1] not in (" ", "\t") for line in soft)
        or (len(soft) >= 2 and max(map(len, soft)) >= 60)
        or _QP_UTF8_RE.search(text)
        or _QP_TRAILING_RE.search(text)
    )
    if not sure and bool(soft) + ("=3D" in text) < 2:
        return text
    escapes = _QP_ESCAPE_RE.findall(text)
    raw = quopri.decodestring(text.encode("ascii"))
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        decoded = raw.decode("latin-1")
    notices.append(
        f"Decoded the quoted-printable encoding of a raw e-mail ({plural(len(soft), 'soft line break')}, "
        f"{plural(len(escapes), 'escaped character')})."
    )
    return decoded


def unescape_newlines(text: str, notices: list[str]) -> str:
    """A result set logged as one string with its line breaks escaped (`"+---+\\n| id |…"` in a
    JSON log line or a program's output) back on its lines. Only strings that hold a table
    border, a `|` row, a row marker or a batch header once unescaped are touched (a batch
    JSON plan is escaped the same way and has its own reader)."""
    check_deadline()
    if "\\n" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    changed = marked = 0
    i = 0
    while i < len(lines):
        line, taken = _logged_line(lines, i)
        i += taken
        if line.count("\\n") < 2:
            out += lines[i - taken : i]
            continue
        span = _escaped_string(line)
        if span:
            try:
                inner = json.loads(line[span[0] : span[1]])
            except ValueError:
                out += lines[i - taken : i]
                continue
            before, after = line[: span[0]], line[span[1] :]
        else:
            inner = _BACKSLASH_RE.sub(lambda m: _BACKSLASH_CHARS.get(m.group(1), m.group(1)), line)
            before = after = ""
        if not _ESCAPED_OUTPUT_RE.search(inner):
            out += lines[i - taken : i]
            continue
        if all(row.startswith("#") for row in inner.split("\n") if row.strip()):
            inner = _QUOTED_MARK_RE.sub("", inner)
            marked += 1
        out.append("\n".join(part for part in (before, inner, after) if part.strip()))
        changed += 1
    if not changed:
        return text
    notices.append(f"Unescaped the line breaks (\\n) of output logged as {plural(changed, 'string')}.")
    if marked:
        notices.append(f"Removed the '#' a report put before every line of {plural(marked, 'logged string')}.")
    return "\n".join(out)


def _logged_line(lines: list[str], i: int) -> tuple[str, int]:
    """`lines[i]`, or where a string holding `\\n` escapes goes on past its end (a real line
    break inside it, which a display or an editor added), that line joined with the next ones
    through the string's end, the real breaks written as escapes; and how many lines it took."""
    line = lines[i]
    if "\\n" not in line or _escaped_string(line) is not None or not _ends_inside_string(line):
        return line, 1
    joined = line
    for k in range(i + 1, min(len(lines), i + _BROKEN_STRING_LINES)):
        joined += "\\n" + lines[k]
        if _ends_inside_string(lines[k]):
            return joined, k - i + 1  # an odd count of quotes on the line: one closes the string
    return line, 1


def _ends_inside_string(line: str) -> bool:
    """Whether `line` ends inside a double-quoted string (an odd count of unescaped quotes)."""
    inside = False
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\":
            i += 2
            continue
        if char == '"':
            inside = not inside
        i += 1
    return inside


def _escaped_string(line: str) -> tuple[int, int] | None:
    """Start and end of the first double-quoted string in `line` that holds a `\\n` escape
    (one pass: a regex would backtrack over every escaped quote)."""
    start = None
    newline = False
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\":
            newline = newline or (start is not None and line[i + 1 : i + 2] == "n")
            i += 2
            continue
        if char == '"':
            if start is None:
                start = i
            elif newline:
                return start, i + 1
            else:
                start = None
        i += 1
    return None


def unescape_html(text: str, notices: list[str]) -> str:
    """`text` with its HTML entities decoded, when the whole paste was HTML-escaped."""
    check_deadline()
    if "&" not in text or "<" in _WRAPPER_TAG_RE.sub("", text):
        return text
    entities = _ENTITY_RE.findall(text)
    if not entities:
        return text
    count = f"{len(entities)} HTML entities" if len(entities) > 1 else "1 HTML entity"
    notices.append(f"Decoded {count} such as '{entities[0]}': the paste was HTML-escaped.")
    # `&nbsp;` becomes a plain space: the client padded with spaces.
    return html.unescape(text).replace("\u00a0", " ")


def strip_decorations(lines: list[str], notices: list[str]) -> tuple[list[str], list[int]]:
    """Lines without HTML line breaks at their ends, log prefixes, logger quotes, continuation
    backslashes and wrap markers; and the width taken off the left of each line."""
    check_deadline()
    margins = [0] * len(lines)
    if any_line(lines, _BREAK_TAG, re.IGNORECASE):
        lines = _strip_break_tags(lines, notices)
    # Prefixes, quotes and continuations are on (nearly) every line: a sample of the first lines
    # tells whether to look at all of them.
    sample = list(itertools.islice(filter(str.strip, lines), SAMPLE))
    if len(sample) < 2:
        return lines, margins
    stamped = any(_TIMESTAMP_RE.match(line) for line in sample)
    quoted = sum(line.lstrip()[:1] in ("'", '"') for line in sample) > len(sample) / 2
    continued = sum(line.rstrip(" ").endswith("\\") for line in sample) > len(sample) / 2
    lost_indent = sum(line.startswith("??") for line in sample) > len(sample) / 2
    gutter = any(_GUTTER_RE.match(line) for line in sample[:5])
    diff = any(line.startswith(("++-", "+|")) for line in sample)
    trailing = sum(line.endswith(" |") for line in sample) > len(sample) / 2
    # The lines that are not blank, as they were before any of these repairs.
    filled = (
        [i for i, line in enumerate(lines) if line.strip()]
        if stamped or quoted or continued or lost_indent or gutter or diff or trailing
        else []
    )
    if stamped:
        lines = _strip_log_prefixes(lines, filled, margins, notices)
    if quoted:
        lines = _strip_logger_quotes(lines, filled, margins, notices)
    if continued:
        lines = _strip_continuations(lines, filled, notices)
    if any_line(lines, "[" + re.escape(_MARK_ENDS) + "]$"):
        lines = _strip_wrap_marks(lines, notices)
    text = "\n".join(lines)
    if any(mark in text for mark in _SHOWBREAKS):
        lines = _strip_showbreaks(lines, margins, notices)
    if "/*" in text or "*/" in text:
        lines = _strip_comment_marks(lines, margins, notices)
    if lost_indent:
        lines = _strip_lost_indent(lines, filled, margins, notices)
    if gutter:
        lines = _strip_gutter(lines, filled, margins, notices)
    if diff:
        lines = _strip_diff_marks(lines, filled, margins, notices)
    if trailing:
        lines = _strip_trailing_cells(lines, filled, notices)
    return lines, margins


def _strip_break_tags(lines: list[str], notices: list[str]) -> list[str]:
    """The HTML line break (`<br />`) a web page's source (a blog post imported as raw HTML) put at
    the end of every line of a block: taken off each run of two or more lines in a row that all
    end with one; a single line that does is left as it is."""
    check_deadline()
    ended = matching_lines(lines, _BREAK_TAG, re.IGNORECASE)
    # Runs of lines in a row: their indexes less their places in `ended` are one number.
    runs = [[i for _, i in run] for _, run in itertools.groupby(enumerate(ended), lambda pair: pair[1] - pair[0])]
    marked = [i for run in runs if len(run) >= 2 for i in run]
    if not marked:
        return lines
    found = pattern(_BREAK_TAG, re.IGNORECASE)
    tag = found.search(lines[marked[0]])
    out = list(lines)
    for i in marked:
        out[i] = found.sub("", lines[i], count=1)
    shown = tag.group(0).strip() if tag else "<br>"
    notices.append(
        f"Removed the HTML line break ('{shown}') a web page put at the end of {plural(len(marked), 'line')}."
    )
    return out


def _strip_comment_marks(lines: list[str], margins: list[int], notices: list[str]) -> list[str]:
    """The `/*` opening and the `*/` closing a code comment kept around a paste, where they stick
    to its first or last line (`/*# id, select_type…`, `…Using where*/`); a comment that opens and
    closes on one line is part of that line's text."""
    check_deadline()
    out = list(lines)
    changed = 0
    for i, line in enumerate(lines):
        body = line.strip()
        if body.startswith("/*") and "*/" not in body:
            cut = line.index("/*") + 2
            out[i] = line[cut:].lstrip(" ")
            margins[i] += len(line) - len(out[i])
            changed += 1
        elif body.endswith("*/") and "/*" not in body and body != "*/":
            out[i] = line.rstrip()[:-2].rstrip(" *")
            changed += 1
    if changed:
        notices.append(f"Removed the marks of a code comment ('/*', '*/') from {plural(changed, 'line')}.")
    return out


def _strip_lost_indent(lines: list[str], filled: list[int], margins: list[int], notices: list[str]) -> list[str]:
    """An indentation whose characters a lost encoding turned into `?` (full-width spaces, NBSPs
    saved as Latin-1): the same run of `?` before nearly every line."""
    check_deadline()
    runs = [len(lines[i]) - len(lines[i].lstrip("?")) for i in filled]
    common = min((run for run in runs if run >= 2), default=0)
    marked = [i for i, run in zip(filled, runs, strict=True) if run >= common > 0]
    if len(marked) < 3 or len(marked) < 0.8 * len(filled):
        return lines
    out = list(lines)
    for i in marked:
        out[i] = lines[i][common:]
        margins[i] += common
    notices.append(
        f"Removed the {'?' * common} before {plural(len(marked), 'line')}: an indentation whose characters "
        "a lost encoding turned into question marks."
    )
    return out


def _strip_diff_marks(lines: list[str], filled: list[int], margins: list[int], notices: list[str]) -> list[str]:
    """The `+` a diff puts before every added line (a table in a pull request: `++---+`, `+| id`)."""
    check_deadline()
    added = [i for i in filled if lines[i].startswith("+")]
    if len(added) < 3 or len(filled) - len(added) > max(2, 0.2 * len(filled)):
        return lines
    rest = [lines[i][1:] for i in added]
    if sum(line.startswith("|") for line in rest) < 2 or not any(line.startswith("+-") for line in rest):
        return lines  # without the marks, the lines must be a table's
    out = list(lines)
    for i, line in zip(added, rest, strict=True):
        out[i] = line
        margins[i] += 1
    notices.append(f"Removed the '+' a diff put before {plural(len(added), 'line')}.")
    return out


def _strip_trailing_cells(lines: list[str], filled: list[int], notices: list[str]) -> list[str]:
    """Empty cells a web page's table widget appended to every line (`… | |`): the same run of
    `|` ends nearly every line, also lines that are no table row (borders, prompts, JSON)."""
    check_deadline()
    # A table row ends with its own `|` before the residue: the run is read off the other lines.
    runs = [
        m.group(0)
        for i in filled
        if not lines[i].lstrip().startswith("|") and (m := _TRAILING_CELLS_RE.search(lines[i][-40:]))
    ]
    run = max(set(runs), key=runs.count) if runs else ""
    marked = [i for i in filled if run and lines[i].endswith(run)]
    if runs.count(run) < 3 or len(marked) < 0.8 * len(filled):
        return lines
    out = list(lines)
    for i in marked:
        out[i] = lines[i][: -len(run)]
    notices.append(
        f"Removed the empty cells ('{run.strip()}') a web page put at the end of {plural(len(marked), 'line')}."
    )
    return out


def _strip_gutter(lines: list[str], filled: list[int], margins: list[int], notices: list[str]) -> list[str]:
    """A code comment's marker (`// `, `# `, ` * `, `-- `) or a list bullet (`- `, `• `) before
    (nearly) every line: the paste was kept in source code or a list. Lines without it (`/*`, chat)
    stay as they are. `*** 1. row ***` and `-> ` carry no marker: one needs a space after it."""
    check_deadline()
    found = [(i, m) for i in filled if (m := _GUTTER_RE.match(lines[i]))]
    markers = [m.group(2) for _, m in found]
    marker = max(set(markers), key=markers.count) if markers else ""
    marked = [(i, m) for i, m in found if m.group(2) == marker]
    if len(marked) < 3 or len(filled) - len(marked) > max(2, 0.2 * len(filled)):
        return lines  # unmarked lines beyond a comment's `/*`, `*/` and a line of chat: no gutter
    if marker in _LIST_BULLETS and _tree_list(lines, marked):
        return lines  # a tree plan written as a list: its bullets are its arrows, the tree reader reads them
    out = list(lines)
    for i, match in marked:
        out[i] = lines[i][match.end() :]
        margins[i] += match.end()
    notices.append(f"Removed the '{marker}' before {plural(len(marked), 'line')} (a code comment or a list).")
    return out


def _tree_list(lines: list[str], marked: list[tuple[int, re.Match[str]]]) -> bool:
    """Whether list items are the lines of a MySQL tree plan retyped as a list (`- Table scan on t
    (cost=…)`): some end with its figures, and no arrow follows a bullet."""
    rests = [lines[i][match.end() :] for i, match in marked]
    if any(rest.lstrip().startswith("->") for rest in rests):
        return False
    return any(_TREE_FIGURES_RE.search(rest) for rest in rests)


def _strip_log_prefixes(lines: list[str], filled: list[int], margins: list[int], notices: list[str]) -> list[str]:
    check_deadline()
    stamped = [(i, m) for i in filled if lines[i].lstrip()[:1] not in "+|*" and (m := _TIMESTAMP_RE.match(lines[i]))]
    # Lines a terminal wrapped after the prefix was there continue without one.
    if len(stamped) < 2 or len(stamped) < 0.25 * len(filled):
        return lines
    rests = {}
    for i, match in stamped:
        end = match.end()
        while token := _LOG_TOKEN_RE.match(lines[i], end):
            end = token.end()
        rests[i] = (end, lines[i][end:])
    # What follows is the same on every line up to the content (a host name, a colon, spaces),
    # as far as a space: the content itself may start alike on every line (`|`).
    texts = [rest for _, rest in rests.values()]
    common = os.path.commonprefix([min(texts), max(texts)])
    common = common[: common.rfind(" ") + 1]
    if not _HOST_RE.fullmatch(common):
        common = common[: len(common) - len(common.lstrip())]  # only host and program names may go
    out = list(lines)
    for i, (end, _) in rests.items():
        cut = end + len(common)
        margins[i] += width(lines[i][:cut])
        out[i] = lines[i][cut:]
    first = next(iter(rests))
    example = lines[first][: rests[first][0] + len(common)].strip()[:60]
    notices.append(f"Removed the log prefix ('{example}') from {plural(len(rests), 'line')}.")
    return out


def _strip_logger_quotes(lines: list[str], filled: list[int], margins: list[int], notices: list[str]) -> list[str]:
    check_deadline()
    quoted = [
        (i, m)
        for i in filled
        if lines[i].lstrip()[:1] in ("'", '"') and (m := _QUOTED_RE.match(lines[i])) and not _is_csv(m)
    ]
    if len(quoted) < 2 or len(quoted) < 0.8 * len(filled):
        return lines
    out = list(lines)
    for i, match in quoted:
        out[i] = match.group(2).replace("\\" + match.group(1), match.group(1)).replace("\\\\", "\\")
        margins[i] += width(lines[i][: match.start(2)])
    notices.append(f"Removed the quotes a logger or a program put around {plural(len(quoted), 'line')}.")
    return out


def _is_csv(match: re.Match[str]) -> bool:
    """A line of quoted CSV fields (`"1","SIMPLE",…`) is not one quoted line."""
    mark = match.group(1)
    return f"{mark},{mark}" in match.group(2) or f"{mark}\t{mark}" in match.group(2)


def _strip_continuations(lines: list[str], filled: list[int], notices: list[str]) -> list[str]:
    """Shell continuation backslashes: (nearly) every line ends with ` \\`."""
    check_deadline()
    ending = [i for i in filled if lines[i].rstrip(" ").endswith("\\")]
    if len(ending) < 2 or len(ending) < 0.8 * len(filled):
        return lines
    spaced = sum(lines[i].rstrip(" ").endswith(" \\") for i in ending)
    out = list(lines)
    for i in ending:
        line = lines[i].rstrip(" ")[:-1]
        out[i] = line[:-1] if spaced > len(ending) / 2 and line.endswith(" ") else line
    notices.append(f"Removed the trailing backslash (a shell line continuation) from {plural(len(ending), 'line')}.")
    return out


def _strip_wrap_marks(lines: list[str], notices: list[str]) -> list[str]:
    """The mark a terminal or editor put in the last column of a line it wrapped: `↵` and the
    like wherever they end a line; `\\` when the lines ending with it all have one width and
    most lines of that width end with it (a batch JSON line cut inside a `\\n` has it too)."""
    check_deadline()
    marked = [i for i, line in enumerate(lines) if line and line[-1] in _WRAP_MARKS]
    widths: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        if line[-1:] == "\\" and i + 1 < len(lines) and lines[i + 1].strip():
            widths.setdefault(width(line), []).append(i)
    # Batch output escapes line breaks as `\\n`: a piece of it may end with the backslash.
    if len(widths) == 1 and not any("\\n" in line for line in lines):
        ((edge, ending),) = widths.items()
        at_edge = sum(1 for line in lines if width(line) == edge)
        if len(ending) >= 2 and len(ending) >= 0.8 * at_edge:
            marked += ending
    if not marked:
        return lines
    out = list(lines)
    for i in marked:
        out[i] = lines[i][:-1]
    notices.append(
        f"Removed the wrap mark ('{lines[marked[0]][-1]}') a terminal or editor put at the end of "
        f"{plural(len(marked), 'wrapped line')}."
    )
    return out


def _strip_showbreaks(lines: list[str], margins: list[int], notices: list[str]) -> list[str]:
    """The `↪ ` an editor put before each continuation of a line it soft-wrapped; the terminal
    counted it, like quoting, so its width goes to the margin."""
    check_deadline()
    marked = [i for i in matching_lines(lines, "^[" + _SHOWBREAKS + "].") if i and lines[i - 1].strip()]
    if len(marked) < 2:
        return lines
    out = list(lines)
    for i in marked:
        cut = 2 if lines[i][1:2] == " " else 1
        out[i] = lines[i][cut:]
        margins[i] += cut
    notices.append(
        f"Removed the wrap mark ('{lines[marked[0]][0]}') an editor put at the start of "
        f"{plural(len(marked), 'continued line')}."
    )
    return out
