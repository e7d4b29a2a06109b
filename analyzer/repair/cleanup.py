"""Line-level repairs of a pasted EXPLAIN, before any format is recognised.

`clean(text)` undoes what editors, mail clients, chats and terminal sessions do to a paste:
line endings, non-breaking and invisible spaces, markdown fences (also typed on the paste's
own lines), noise lines a scraped web page put between every two lines, double spacing, `> ` quoting (also split off a line by a mail client), line
numbers, uniform indentation, client prompts (whose statement becomes the query) and the
client's status lines (output glued to a typed statement starts a line of its own);
`analyzer.repair.decorations` adds the decoding of HTML-escaped,
quoted-printable and `\\n`-escaped pastes, of tables, records and `\\G` fields flattened onto one
line and of lines framed as a table's cells, and the removal
of log prefixes, logger quotes, continuation backslashes and wrap marks; `analyzer.repair.diff`
reads a unified diff of a plan as its new side. Every repair is
reported as a sentence in `Cleaned.notices`.

Lines are only dropped where a repair joins or removes them (`Cleaned.numbers` keeps each
line's number in the original paste, for messages); prompt and status lines become empty
lines, so result sets printed one after the other stay apart. `Cleaned.margins` keeps the
width of the quoting taken off each line, which the table reader needs to rejoin lines a
terminal wrapped after the quoting was there.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.repair.decorations import (
    decode_quoted_printable,
    split_flattened_records,
    split_flattened_tables,
    split_side_by_side_fields,
    strip_colour_codes,
    strip_decorations,
    unescape_html,
    unescape_newlines,
    unframe_lines,
)
from analyzer.repair.diff import take_diff
from analyzer.repair.interleaved import drop_noise
from analyzer.repair.labels import starts_run
from analyzer.repair.scan import blank_count, line_indexes, pattern, starting_lines
from analyzer.repair.step_labels import strip_step_labels
from analyzer.repair.textwidth import USUAL_TERMINAL_WIDTHS, screen_width, width
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

# Spaces that chat apps, word processors and web pages put in place of ASCII spaces.
_ODD_SPACES = "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f"
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"
_SPACE_TABLE = {ord(c): " " for c in _ODD_SPACES} | {ord(c): None for c in _INVISIBLE}

# A fence line holds nothing but the fence and a language name (```` ```sql ````); a fence
# followed by output on the same line is cut off that line instead.
_FENCE_RE = lazy_regex(r"^\s*(?:```+|~~~+)[ \t]*[\w+.#-]{0,30}[ \t]*$")
# A line that only opens or closes a block in wiki, forum or HTML markup: `{noformat}`,
# `{code:sql}`, `[code]`, `<pre>`.
_MARKUP_FENCE_RE = lazy_regex(
    r"^\s*(?:\{(?:noformat|code|panel|quote)(?::[^}\n]{0,100})?\}|\[/?(?:code|quote|pre)(?:=[\w-]{1,20})?\]"
    r"|</?(?:pre|code)\b[^>\n]{0,100}>)+\s*$",
    re.IGNORECASE,
)
_INLINE_OPEN_RE = lazy_regex(r"^(\s*)(?:```|~~~)[A-Za-z0-9_]{0,20} ?(?=[+|*\u2500-\u257f]|id\s)")
_INLINE_FENCE_RE = lazy_regex(r"(?<=\S)([ \t]*)(?:```|~~~)\s*$")
_QUOTE_RE = lazy_regex(r"^(?:> ?)+")
_TABLE_STARTS = "+|┌├└╔╠╚╒╞╘╓╟╙┏┣┗│║┃"  # first characters of the lines of an ASCII or Unicode box
_OPEN_TAG_RE = lazy_regex(r"<[A-Za-z/][^<> ]{0,20}$")  # a line cut inside an HTML tag (`…<TD`)
_LINE_NUMBER_RE = lazy_regex(r"^[ \t]*(\d{1,7})(?:[ \t]*[:|.)\]][ \t]?|\t| |$)")
_NUMBERED_RE = lazy_regex(r"^[ \t]*\d+[ \t]*[:|.)\]\t ][^\n]*\n[ \t]*\d", re.MULTILINE)  # two numbered lines
# What a numbered line must start with, after its number, for the numbering to be believed:
# the start of some EXPLAIN output, so that TSV rows starting with ids 1, 2, 3 are left alone.
_OUTPUT_START_RE = lazy_regex(r"^\s*(?:[+|*{>]|->|EXPLAIN|id\s|[\u2500-\u257f]|mysql|mariadb)", re.IGNORECASE)

_PROMPT_RE = lazy_regex(
    r"^\s*(?:(?:mysql|mariadb|MariaDB|MySQL|MYSQL|[\w.-]{1,64}@[\w.-]{1,255})"
    r"(?: ?\[[^\]\n]{0,200}\])?(?: ?\([^)\n]{0,200}\))?> ?"
    r"|MySQL\s[^>\n]{0,200}\s(?:SQL|JS|Py) ?> ?)"  # MySQL Shell
)
# A prompt printed after the last line of output that had no final newline: a shell's
# (`user@host:~/dir$`, `[root@db ~]#`, `PS C:\>`) or the client's, at the end of the line.
_GLUED_PROMPT_RE = lazy_regex(
    r"(?:(?P<user>[\w.-]{1,64})@[\w.-]{1,255}:[^\s$#]{0,200}[$#]|\[[\w.-]{1,64}@[\w.-]{1,255}(?: [^\]\n]{0,200})?\][$#]"
    r"|PS [A-Za-z]:\\[^>\n]{0,200}>|(?:mysql|mariadb|MariaDB|MySQL)(?: ?\[[^\]\n]{0,200}\])?>) ?$"
)
# A bare shell prompt (`$`, `#`, `%`) after a space, glued to a tab-separated line.
_BARE_PROMPT_RE = lazy_regex(r"(?<=\s)[$#%] ?$")
_CONTINUATION_RE = lazy_regex(r"^\s*(?:->|'>|\">|`>|/\*>) ?")
_EXPLAIN_RE = lazy_regex(
    r"^\s*(?:EXPLAIN|DESCRIBE|DESC|ANALYZE)\b(?:\s+(?:EXTENDED|PARTITIONS|ANALYZE|FORMAT\s*=\s*\w+))*\s*",
    re.IGNORECASE,
)
_BARE_STATEMENT_RE = lazy_regex(
    r"^\s*(?:EXPLAIN|ANALYZE|DESCRIBE)\s+(?:(?:EXTENDED|PARTITIONS|ANALYZE|FORMAT\s*=\s*'?\w+'?)\s+)*"
    r"(?:SELECT\b|WITH\b|UPDATE\b|DELETE\b|INSERT\b|REPLACE\b|TABLE\b|\()",
    re.IGNORECASE,
)
# A MySQL tree line (`-> Table scan on t  (cost=…)`): plan output, never a statement's continuation.
_TREE_LINE_RE = lazy_regex(r"^\s*->\s.*\((?:cost|actual time|actual rows|never executed)")
_FOOTER_RE = lazy_regex(
    r"^\s*(?:(\d+) rows? in set\b|Empty set\b|Query OK\b|Rows matched: \d|Records: \d|Bye\s*$|"
    r"Current database: |No connection\. Trying)",
    re.IGNORECASE,
)
_NOTE_RE = lazy_regex(r"^\s*(?:Note|Warning|Error) \(Code \d+\): (.*)$")
_OUTPUT_LINE_RE = lazy_regex(r"^\s*(?:\+[-+]|\||\*{5}|\{|[\u2500-\u257f])")
_FOR_CONNECTION_RE = lazy_regex(r"FOR\s+CONNECTION\b", re.IGNORECASE)
_TERMINATOR_RE = lazy_regex(r"(?:;|\\[Gg])\s*$")
# Where output starts on the line of the statement typed before it (its line breaks lost): a `\G`
# row banner, a table border, a JSON plan after the `EXPLAIN:` label, or EXPLAIN's header.
_GLUED_OUTPUT_RE = lazy_regex(
    r"(?<!\*)\*{5,} ?\d+\. row ?\*{5,}|(?<!\S)\+-{3,}\+|\bEXPLAIN: ?(?=\{)"
    r"|(?<!\S)(?:\| ?)?id(?: ?\| ?|\t| +)select_type\b",
    re.IGNORECASE,
)
_ROW_BANNER_RE = lazy_regex(r"^\*{5,} ?\d+\. row ?\*{5,} ?")
# A status line after the closing brace of a JSON plan, on its line.
_JSON_FOOTER_RE = lazy_regex(r"(?<=\})\s+(\d+ rows? in set\b[^{}]*)$")


@dataclass
class Cleaned:
    lines: list[str]
    numbers: list[int]
    margins: list[int]  # per line, the width of the quoting removed from it
    notices: list[str] = field(default_factory=list)
    query: str | None = None
    warnings: list[str] = field(default_factory=list)
    row_counts: list[tuple[int, int]] = field(default_factory=list)  # (line index, N) of `N rows in set`
    queries: list[tuple[int, str]] = field(default_factory=list)  # (line index, SQL) of each EXPLAIN typed
    terminal_width: int | None = None  # the width a terminal wrapped lines at, when known
    # What the cleanup took out, as (first, last, kind) in line numbers of the paste: kind is "fence"
    # (a dropped code fence line), "noise" (a dropped line a web page put between every two lines,
    # `repair.interleaved`), "joined" (a line put back at the end of the one before it),
    # "prompt" or "statement" (a statement typed at a prompt or without one), "status" (`N rows in
    # set`), "note" (a `Note (Code …)` warning) or "diff" (a diff's header or a line it removed); all
    # but fences, noise, joined lines and diff lines are left as empty lines.
    taken: list[tuple[int, int, str]] = field(default_factory=list)
    # A decoding of the whole paste (quoted-printable, escaped line breaks, tables flattened onto
    # one line) joined or split its lines: `numbers` count the decoded lines, not the paste's.
    renumbered: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


# A cell alone on its line, indented: what a web page's table copy makes of a cell in its own block.
_LONE_CELL_RE = lazy_regex(r"^[ \t]+(NULL)[ \t]*$")


def clean(text: str) -> Cleaned:
    """Apply every line-level repair to `text`; see the module docstring."""
    notices: list[str] = []
    text = _fix_line_endings(text, notices)
    breaks = text.count("\n")
    text = strip_colour_codes(text, notices)
    decoded = decode_quoted_printable(text, notices)
    joined = decoded is not text and "=\n" in text  # soft line breaks joined lines
    text = unescape_newlines(decoded, notices)
    text = _split_flattened(text, notices)
    text = unescape_html(text, notices)
    text = _unescape_markdown(text, notices)
    renumbered = joined or text.count("\n") != breaks
    text = _fix_spaces(text, notices)
    lines = text.split("\n")
    # Long runs of empty lines mean no more than three do (a wrapped table may hold pieces of spaces).
    if "\n\n\n\n" in text:
        numbers = [
            n for n in range(1, len(lines) + 1) if n < 4 or lines[n - 1] or lines[n - 2] or lines[n - 3] or lines[n - 4]
        ]
    else:
        numbers = list(range(1, len(lines) + 1))  # no run of four empty lines
    if len(numbers) < len(lines):
        lines = [lines[n - 1] for n in numbers]
    taken: list[tuple[int, int, str]] = []
    lines, numbers = _drop_fences(lines, numbers, notices, taken)
    lines, numbers = drop_noise(lines, numbers, notices, taken)
    undone = _undouble(lines, notices)
    if undone is not None:
        lines, numbers = _kept_lines(lines, undone), [numbers[i] for i in undone[0]]
    lines, numbers = _rejoin_broken_prefixes(lines, numbers, notices)
    if "\t" in text:
        lines, numbers = _rejoin_cells_on_own_lines(lines, numbers, notices, taken)
    lines = _dedent(lines, notices, quoted_only=True)  # an indented quote: the quoting comes off next
    lines, margins = _strip_quoting(lines, notices)
    if _NUMBERED_RE.search("\n".join(lines)):
        numbered = _strip_line_numbers(lines, numbers, notices)
        if numbered is not lines:
            # Numbers put on quoted lines: the quoting comes off after them.
            lines, more = _strip_quoting(numbered, notices)
            margins = _added(margins, more)
    lines, numbers, margins = take_diff(lines, numbers, margins, notices, taken)
    lines, more = strip_decorations(lines, notices)
    margins = _added(margins, more)
    if "->" in text:
        lines = strip_step_labels(lines, numbers, notices)
    # Quoted or numbered lines hid the empty ones from the first look.
    again = None if undone is not None else _undouble(lines, notices)
    if again is not None:
        kept = again[0]
        lines, numbers, margins = _kept_lines(lines, again), [numbers[i] for i in kept], [margins[i] for i in kept]
    lines = _dedent(lines, notices)
    result = Cleaned(lines=lines, numbers=numbers, margins=margins, notices=notices, taken=taken, renumbered=renumbered)
    result.terminal_width = terminal_width(lines, margins)
    _take_prompts(result)
    _take_footers(result)
    _take_glued_prompt(result)
    return result


def _split_flattened(text: str, notices: list[str]) -> str:
    """Put back on their lines the output whose line breaks were lost: tables and `\\G` records on
    one line (also each framed as a table's cell), output glued to the statement typed before it,
    `\\G` fields side by side."""
    text = unframe_lines(text, notices)
    text = split_flattened_tables(text, notices)
    text = split_flattened_records(text, notices)
    text = _split_glued_output(text, notices)
    return split_side_by_side_fields(text, notices)


def _added(margins: list[int], more: list[int]) -> list[int]:
    """The margins of each line with `more` added."""
    if not any(more):
        return margins
    return [a + b for a, b in zip(margins, more, strict=True)]


# A Markdown editor escapes the underscores of EXPLAIN's column names (`select\_type`), and with
# them every other character Markdown would read as markup.
_MARKDOWN_ESCAPED_RE = lazy_regex(r"select\\_type|possible\\_keys|key\\_len|r\\_rows|r\\_filtered")
_MARKDOWN_ESCAPE_RE = lazy_regex(r"\\([_*<>#\[\]`!.~-])")


def _unescape_markdown(text: str, notices: list[str]) -> str:
    """A paste whose column names a Markdown editor escaped, without its escapes (`\\|` in a
    table's cell is the table reader's)."""
    if "\\_" not in text or not _MARKDOWN_ESCAPED_RE.search(text):
        return text
    count = len(_MARKDOWN_ESCAPE_RE.findall(text))
    notices.append(
        f"Removed {plural(count, 'Markdown escape')} (a backslash before _, * or <) a Markdown editor added."
    )
    return _MARKDOWN_ESCAPE_RE.sub(r"\1", text)


def _fix_line_endings(text: str, notices: list[str]) -> str:
    if "\r" not in text:
        return text
    crlf = text.count("\r\n")
    text = text.replace("\r\n", "\n")
    lone = text.count("\r")
    if crlf:
        notices.append("Converted Windows (CRLF) line endings.")
    if lone:
        notices.append(f"Treated {plural(lone, 'lone carriage return')} as line breaks.")
        text = text.replace("\r", "\n")
    return text


def _fix_spaces(text: str, notices: list[str]) -> str:
    if text.isascii():
        return text
    odd = sum(text.count(c) for c in _ODD_SPACES)
    invisible = sum(text.count(c) for c in _INVISIBLE)
    if not odd and not invisible:
        return text
    if odd:
        notices.append(f"Replaced {plural(odd, 'non-breaking space')} with ordinary spaces.")
    if invisible:
        notices.append(f"Removed {plural(invisible, 'invisible character')} (zero-width spaces or byte-order marks).")
    return text.translate(_SPACE_TABLE)


def _drop_fences(
    lines: list[str], numbers: list[int], notices: list[str], taken: list[tuple[int, int, str]]
) -> tuple[list[str], list[int]]:
    """Drop markdown fence lines (added to `taken`), and fences typed on the first or last line of
    the paste itself."""
    check_deadline()
    text = "\n".join(lines)
    # Only the lines holding a fence, or starting with a markup block's tag, can be one.
    marked = line_indexes(text, pattern(r"```|~~~")) if "```" in text or "~~~" in text else []
    tagged = starting_lines(
        lines, r"[^\S\n]*(?:\{(?:noformat|code|panel|quote)|\[/?(?:code|quote|pre)|</?(?:pre|code))", re.IGNORECASE
    )
    fences = [
        i
        for i in sorted(set(marked + tagged))
        if (lines[i].lstrip()[:3] in ("```", "~~~") and _FENCE_RE.match(lines[i]))
        or (lines[i].lstrip()[:1] in ("{", "[", "<") and _MARKUP_FENCE_RE.match(lines[i]))
    ]
    dropped = set(fences)
    inline = 0
    out = list(lines)
    for i in marked:
        line = lines[i]
        if i not in dropped:
            fixed = _INLINE_FENCE_RE.sub(r"\1", _INLINE_OPEN_RE.sub(r"\1", line))
            if fixed != line:
                out[i] = fixed
                inline += 1
    if inline:
        notices.append(f"Removed markdown fences typed on the same line as the paste ({plural(inline, 'line')}).")
    if not fences:
        return out, numbers
    taken += [(numbers[i], numbers[i], "fence") for i in fences]
    where = ", ".join(str(numbers[i]) for i in fences[:6])
    notices.append(f"Removed code fence lines of markdown, wiki or forum markup (line {where}).")
    kept = [i for i in range(len(lines)) if i not in dropped]
    return [out[i] for i in kept], [numbers[i] for i in kept]


def _undouble(lines: list[str], notices: list[str]) -> tuple[list[int], dict[int, str]] | None:
    """The indexes of the lines to keep when a chat or word processor put an empty line after
    every line (a double-spaced paste), else None; and the indentation to put back before some of
    them. Then every gap between two filled lines is odd: one empty line, or three where the paste
    had one of its own (one is kept). Three whose middle one holds only spaces, between two empty
    ones, are no empty line of the paste: a line broken after its indentation (a book's text
    pushes the rest to column 0, which gets the spaces back) or a line of nothing but blanks."""
    check_deadline()
    # Each gap counted below is made of empty lines: too few of them, and the gaps cannot be.
    blanks = blank_count(lines)
    if blanks < 2 or blanks < 0.8 * (len(lines) - blanks - 1):
        return None
    filled = [i for i, line in enumerate(lines) if line.strip()]
    gaps = [b - a - 1 for a, b in itertools.pairwise(filled)]
    singles = gaps.count(1)
    odd = sum(gap % 2 for gap in gaps)
    if singles < 2 or odd < 0.8 * len(gaps):
        return None
    notices.append(f"Removed the empty line after every line ({plural(singles, 'line')}): the paste was double-spaced.")
    kept: list[int] = []
    indents: dict[int, str] = {}
    run: list[int] = []
    for i, line in enumerate(lines):
        if not line.strip():
            run.append(i)
            continue
        if len(run) == 3 and lines[run[0]] == lines[run[2]] == "" and lines[run[1]]:
            if not line[:1].isspace():
                indents[i] = lines[run[1]]
        else:
            kept.extend(run[: len(run) // 2])
        run = []
        kept.append(i)
    kept.extend(run[: len(run) // 2])
    if indents:
        notices.append(
            f"Put back the indentation of {plural(len(indents), 'line')} that the double-spaced text had put on "
            "a line of its own."
        )
    return kept, indents


def _kept_lines(lines: list[str], undone: tuple[list[int], dict[int, str]]) -> list[str]:
    """The lines `_undouble` keeps, with the indentation it puts back."""
    kept, indents = undone
    return [indents.get(i, "") + lines[i] for i in kept]


def _rejoin_cells_on_own_lines(
    lines: list[str], numbers: list[int], notices: list[str], taken: list[tuple[int, int, str]]
) -> tuple[list[str], list[int]]:
    """Rejoin the tab-separated rows of a web page's table copied as text, where every cell the
    page printed in its own block (phpMyAdmin's italic `NULL`) went onto a line of its own: a row
    line ending with a tab, the indented `NULL`, then a line going on after a tab. The lines put
    back go to `taken`."""
    check_deadline()
    if not pattern(r"^[ \t]+NULL[ \t]*$").search("\n".join(lines)):
        return lines, numbers  # no cell alone on its line
    out: list[str] = []
    kept: list[int] = []
    put_back: list[int] = []  # numbers of the lines put back
    joined = 0
    after_cell = False  # the last line taken in was a cell alone: a tab line goes on with the row
    for i, line in enumerate(lines):
        lone = _LONE_CELL_RE.match(line)
        follows = i + 1 < len(lines) and lines[i + 1].startswith("\t")
        if out and lone and follows and (out[-1].endswith("\t") or after_cell):
            out[-1] += lone.group(1)
            joined += 1
            after_cell = True
            put_back.append(numbers[i])
        elif out and after_cell and line.startswith("\t"):
            out[-1] += line
            after_cell = False
            put_back.append(numbers[i])
        else:
            out.append(line)
            kept.append(numbers[i])
            after_cell = False
    if not joined:
        return lines, numbers
    notices.append(f"Put back {plural(joined, 'cell')} that a web page's table copy put on a line of its own.")
    taken += [(number, number, "joined") for number in put_back]
    return out, kept


def _rejoin_broken_prefixes(lines: list[str], numbers: list[int], notices: list[str]) -> tuple[list[str], list[int]]:
    """Rejoin a table line that a mail client moved off its `> ` quoting or its indentation.

    A border has no spaces (nor has a batch line or a row marker many), so a mail client
    wrapping a quoted or indented one breaks right after the prefix, dropping the space there:
    `>` (or blanks) alone, then the line at column 0. The prefix goes back in front of the line.
    """
    check_deadline()
    prefixes = starting_lines(lines, r"[> \t]+$")  # lines of nothing but a prefix
    broken = [
        i
        for i in prefixes
        if i < len(lines) - 1
        and lines[i + 1][:1]
        and (lines[i + 1][0] in _TABLE_STARTS or "\t" in lines[i + 1] or lines[i + 1].startswith("*****"))
    ]
    if not broken:
        return lines, numbers
    moved = {i + 1 for i in broken}
    indents = Counter(
        len(line) - len(line.lstrip(" "))
        for k, line in enumerate(lines)
        if k not in moved and line.lstrip(" ")[:1] in _TABLE_STARTS
    )
    usual = indents.most_common(1)[0][0] if indents else None
    out = list(lines)
    for i in broken:
        indent = usual if usual is not None else len(out[i]) + 1
        prefix = out[i].rstrip() + " " if ">" in out[i] else " " * indent
        out[i + 1] = prefix + out[i + 1]
    notices.append(
        f"Rejoined {plural(len(broken), 'table line')} that a mail client split from its quoting or indentation."
    )
    dropped = set(broken)
    kept = [i for i in range(len(lines)) if i not in dropped]
    return [out[i] for i in kept], [numbers[i] for i in kept]


def _strip_quoting(lines: list[str], notices: list[str]) -> tuple[list[str], list[int]]:
    check_deadline()
    out = list(lines)
    margins = [0] * len(lines)
    quoted = 0
    for i in starting_lines(lines, ">"):
        line = lines[i]
        quote = _QUOTE_RE.match(line)
        if quote and not (i and _OPEN_TAG_RE.search(lines[i - 1])):
            # (A line right after an open `<TD` is the rest of a wrapped HTML tag, not a quote.)
            margin = margins[i] = quote.end()
            out[i] = line[margin:]
            quoted += 1
    if quoted:
        notices.append(f"Removed '> ' e-mail quoting from {plural(quoted, 'line')}.")
    return out, margins


def _strip_line_numbers(lines: list[str], numbers: list[int], notices: list[str]) -> list[str]:
    """Remove `12 | `, `12: `, `  12 ` prefixes from runs of consecutively numbered lines."""
    check_deadline()
    out = list(lines)
    stripped_total = 0
    first_line = None
    starts = starting_lines(lines, r"[ \t]*\d")  # the lines that may be numbered
    numbered = {i: match for i in starts if (match := _LINE_NUMBER_RE.match(lines[i]))}
    j = 0
    for i, match in numbered.items():
        if i < j:
            continue  # in the run before
        run = [match]
        j = i + 1
        while (nxt := numbered.get(j)) is not None and int(nxt.group(1)) == int(run[-1].group(1)) + 1:
            run.append(nxt)
            j += 1
        if len(run) < 2:
            continue
        contents = _unnumbered(lines[i:j], run)
        if any(_OUTPUT_START_RE.match(c) for c in contents):
            out[i:j] = contents
            stripped_total += len(run)
            if first_line is None:
                first_line = numbers[i]
    if not stripped_total:
        return lines
    notices.append(f"Removed line numbers from {plural(stripped_total, 'line')} (from line {first_line}).")
    return out


def _unnumbered(lines: list[str], matches: list[re.Match[str]]) -> list[str]:
    """The lines without their numbers. The separator after the number is the shortest one every
    line has (`  2 | id` in a vim-style paste only loses `  2 `, since `  1 +---` shows the style)."""
    seps = {m.string[m.end(1) : m.end()] for m in matches if m.end() < len(m.string)}
    digits_ends = [m.end(1) for m in matches]
    for sep in sorted(seps, key=len):
        if all(line.startswith(sep, end) or end == len(line) for line, end in zip(lines, digits_ends, strict=True)):
            return [line[end + len(sep) :] for line, end in zip(lines, digits_ends, strict=True)]
    return [line[m.end() :] for line, m in zip(lines, matches, strict=True)]


def _dedent(lines: list[str], notices: list[str], quoted_only: bool = False) -> list[str]:
    """Remove the leading whitespace (spaces or tabs) that every non-empty line shares
    (with `quoted_only`, only when that uncovers `>` quoting)."""
    check_deadline()
    for line in lines:
        if line and line[0] not in " \t" and line.strip():
            return lines  # a line without indentation: nothing is shared
    leads = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    if not leads:
        return lines
    common = os.path.commonprefix([min(leads), max(leads)])
    if not common or quoted_only and not any(line.startswith(">", len(common)) for line in lines):
        return lines
    spaces = common.count(" ")
    tabs = len(common) - spaces
    what = " and ".join(
        part for part in (plural(tabs, "tab") if tabs else "", plural(spaces, "space") if spaces else "") if part
    )
    notices.append(f"Removed an indentation of {what} from every line.")
    size = len(common)
    return [line[size:] for line in lines]


def terminal_width(lines: list[str], margins: list[int]) -> int | None:
    """The width a terminal wrapped the paste at, if a table border or a `*** N. row ***` line
    split over two lines shows it.

    Quoting counts when it was there before the wrap: then only the first piece carries it. A
    mark an editor put before the continuation (a larger margin there) does not shorten the first.
    """
    check_deadline()
    for i in _marked_lines(lines[:-1], ("+-", "*****")):
        line = lines[i].rstrip()
        nxt = lines[i + 1].rstrip()
        if not nxt:
            continue
        border = line.startswith("+-") and not line.strip("+-") and not nxt.strip("+-")
        if border and (not line.endswith("+") or nxt[0] == "-"):
            return width(lines[i]) + margins[i] - min(margins[i], margins[i + 1])
        if ". row " in line and line.lstrip()[:5] == "*****" and not nxt.strip("*"):
            return width(lines[i]) + margins[i] - min(margins[i], margins[i + 1])
    return None


def _split_glued_output(text: str, notices: list[str]) -> str:
    """Put output that follows a typed statement on the same line (the paste lost its line
    breaks: `mysql> explain … *** 1. row *** EXPLAIN: {…} 1 row in set`) on lines of its own: the
    statement ends where a row banner, a table border, a JSON plan or EXPLAIN's header starts,
    outside a quoted string. A row banner and a status line after a JSON plan get their own lines."""
    check_deadline()
    if not _GLUED_OUTPUT_RE.search(text):
        return text
    lines = text.split("\n")
    changed = 0
    for i, line in enumerate(lines):
        typed = _PROMPT_RE.match(line) if ">" in line else None
        if typed is None and not _BARE_STATEMENT_RE.match(line):
            continue
        cut = _glued_output_start(line, typed.end() if typed else 0)
        if cut is None:
            continue
        lines[i] = line[:cut].rstrip() + "\n" + _output_lines(line[cut:].strip())
        changed += 1
    if not changed:
        return text
    notices.append(
        f"Put the output glued to {plural(changed, 'typed statement')} (the line breaks were lost) on lines of its own."
    )
    return "\n".join(lines)


def _glued_output_start(line: str, start: int) -> int | None:
    """Where output starts in `line` after a statement typed from `start`, outside quotes; None
    when nothing of the statement comes before it. A border or header starts output only as the
    one line of a table glued there: a whole table left on the line was not put back on its lines
    (`split_flattened_tables`), and taking the statement off would not make it readable."""
    quotes = [0, 0, 0]  # the `'`, `"` and backquotes typed before the match
    at = start
    for match in _GLUED_OUTPUT_RE.finditer(line, start):
        check_deadline()
        if at == start and not line[start : match.start()].strip():
            return None
        quotes = [n + line.count(q, at, match.start()) for n, q in zip(quotes, "'\"`", strict=True)]
        at = match.start()
        if any(n % 2 for n in quotes):
            continue
        rest = line[match.start() :].rstrip()
        if rest[0] == "+" and rest.strip("+-") or rest[0] in "|iI" and "+-" in rest:
            return None
        return match.start()
    return None


def _output_lines(output: str) -> str:
    """The output cut off a statement's line: a row banner on its own line, then its record; a
    status line after a JSON plan on its own line."""
    banner = _ROW_BANNER_RE.match(output)
    if banner:
        output = banner.group(0).rstrip() + "\n" + output[banner.end() :]
    return _JSON_FOOTER_RE.sub(r"\n\1", output)


def _marked_lines(lines: list[str], marks: tuple[str, str]) -> list[int]:
    """Indexes of the lines holding one of the two `marks` (one search of the text for many lines)."""
    if len(lines) < 256:
        return [i for i, line in enumerate(lines) if marks[0] in line or marks[1] in line]
    return line_indexes("\n".join(lines), pattern("(?:" + "|".join(map(re.escape, marks)) + ").*"))


def _prompt_gap(used: int, previous: str, nxt: str, wrap_width: int) -> int:
    """Spaces lost where a statement typed at a prompt was wrapped onto `nxt`, when the terminal
    line so far (ending with `previous`) is `used` columns wide.

    A terminal cut it at its width (`wrap_width` when the paste shows it, else a usual terminal
    width) and trailing spaces may have been dropped; a mail client broke it at a space and
    dropped that space.
    """
    wide_next = screen_width(nxt[:1]) == 2  # a wide character that did not fit went whole to the next line
    for terminal in (wrap_width, *USUAL_TERMINAL_WIDTHS):
        if terminal and used in (terminal, terminal - 1):
            return 0 if wide_next else terminal - used
    if previous.endswith(" ") or nxt.startswith(" "):
        return 0
    return 1


def statement_query(statement: str) -> str | None:
    """The SQL of an EXPLAIN/ANALYZE/DESCRIBE statement, without that keyword or terminator."""
    match = _EXPLAIN_RE.match(statement)
    if not match or match.end() == 0:
        return None
    sql = _TERMINATOR_RE.sub("", statement[match.end() :]).strip()
    if _FOR_CONNECTION_RE.match(sql):
        return None  # MySQL's EXPLAIN FOR CONNECTION names a session, not a statement
    return sql or None


def _take_prompts(result: Cleaned) -> None:
    """Blank out prompt lines and their statement's continuation lines; keep the EXPLAIN's SQL.

    A statement the client answered with an `ERROR` line is not the query of the output.
    """
    check_deadline()
    lines = result.lines
    prompts = 0
    bare_lines: list[int] = []  # numbers of the lines of statements typed without a prompt, not reported yet
    j = 0
    # The lines that may hold a prompt (`mysql>`, `MySQL … JS>`, `user@host>`) or start a statement.
    candidates = starting_lines(lines, r"[^\S\n]*(?:[EeAaDdMm]|[\w.-]{1,64}@)")
    for i in candidates:
        if i < j:
            continue
        line = lines[i]
        match = _PROMPT_RE.match(line) if ">" in line else None
        bare = None if match or line.lstrip()[:1] not in "EeAaDd" else _BARE_STATEMENT_RE.match(line)
        if not match and not bare:
            continue
        check_deadline()
        pieces, j = _typed_statement(lines, i, match)
        result.taken.append((result.numbers[i], result.numbers[j - 1], "prompt" if match else "statement"))
        taken = _keep_query(result, i, j, _join_statement(result, i, line, pieces))
        if match:
            prompts += 1
        elif taken:
            result.notices.append(f"Took the query from the EXPLAIN statement on line {result.numbers[i]}.")
        else:
            bare_lines.extend(result.numbers[i:j])
    if prompts:
        result.notices.append(f"Removed {plural(prompts, 'client prompt')} and the statements typed there.")
    if bare_lines:
        result.notices.append(
            f"Removed {plural(len(bare_lines), 'line')} of EXPLAIN statements typed without a prompt "
            f"({describe_lines(bare_lines)})."
        )


def _take_glued_prompt(result: Cleaned) -> None:
    """Take off the prompt a shell or the client printed at the end of the paste's last line,
    where the output had no final newline. A user name glued to a `NULL` the client printed
    starts after it."""
    lines = result.lines
    last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), None)
    if last is None:
        return
    line = lines[last].rstrip()
    tail = line[-600:]  # (a prompt is shorter: the search stays short on a long line)
    match = _GLUED_PROMPT_RE.search(tail) or (_BARE_PROMPT_RE.search(tail) if "\t" in line else None)
    if match is None:
        return
    at = len(line) - len(tail) + match.start()
    user = match.groupdict().get("user")
    if user and user.startswith("NULL") and len(user) > 4:
        at += 4
    kept = line[:at].rstrip()
    if not kept.strip():
        return  # a prompt alone on its line
    lines[last] = kept
    result.notices.append(
        f"Removed the prompt '{line[at:].strip()}' glued to the end of line {result.numbers[last]} "
        "(the output had no final newline)."
    )


def _typed_statement(lines: list[str], start: int, prompt: re.Match[str] | None) -> tuple[list[tuple[str, str]], int]:
    """The pieces of the statement typed on line `start` (after `prompt`, or without one) and the
    index of the line after its last; its lines are blanked out. A piece after the first is
    `typed` (after a continuation prompt or a line break) or `wrapped` by a terminal or mail client."""
    n = len(lines)
    line = lines[start]
    pieces = [(line[prompt.end() :] if prompt else line.strip(), "first")]
    lines[start] = ""
    j = start + 1
    while j < n and j - start < 500 and not _ended(pieces):
        nxt = lines[j]
        if _TREE_LINE_RE.match(nxt) or (not prompt and nxt.lstrip().startswith("->")):
            break
        cont = _CONTINUATION_RE.match(nxt) if prompt else None
        if cont:
            pieces.append((nxt[cont.end() :], "typed"))
        elif not nxt.strip() or _OUTPUT_LINE_RE.match(nxt) or _PROMPT_RE.match(nxt) or "\t" in nxt:
            break
        elif ":" in nxt and starts_run(lines, j):
            break  # `\G` fields without their row marker: the output starts here
        else:
            pieces.append((nxt, "wrapped" if prompt else "typed"))
        lines[j] = ""
        j += 1
    return pieces, j


def _keep_query(result: Cleaned, start: int, end: int, statement: str) -> bool:
    """Record the SQL of the statement typed on lines `start` to `end` (not one the client answered
    with an error); True when it became the query of the output."""
    lines = result.lines
    query = statement_query(statement)
    after = next((k for k in range(end, min(len(lines), end + 5)) if lines[k].strip()), None)
    if not query or (after is not None and lines[after].lstrip().startswith("ERROR")):
        return False
    result.queries.append((start, query))
    if result.query is not None:
        return False
    result.query = query
    return True


def _ended(pieces: list[tuple[str, str]]) -> bool:
    """True when the statement ends with `;`, `\\G` or `\\g` (which a wrap may have split)."""
    tail = (pieces[-2][0][-2:] if len(pieces) > 1 else "") + pieces[-1][0]
    return _TERMINATOR_RE.search(tail) is not None


def _join_statement(result: Cleaned, start: int, prompt_line: str, pieces: list[tuple[str, str]]) -> str:
    """The statement typed at the prompt on line `start`, from its pieces: `typed` ones after a
    continuation prompt (or a line break) join with a space, `wrapped` ones put back what the
    terminal or mail client dropped. The terminal's width is the one the cleanup saw, else the
    width three or more wrapped lines share."""
    physical = [prompt_line] + [text for text, _ in pieces[1:]]
    widths = [screen_width(text) + result.margins[start + k] for k, text in enumerate(physical[:-1])]
    wrap_width = result.terminal_width
    # Two pieces of one width can be a mail client's chance; three are a terminal's edge, unless
    # other pieces stop well short of it (a mail client wrapped the terminal's lines again).
    if (
        not wrap_width
        and len(widths) > 2
        and widths.count(max(widths)) > 2
        and all(w >= max(widths) - 1 for w in widths[1:-1])
    ):
        wrap_width = max(widths)
    statement = pieces[0][0]
    line_used = widths[0] if widths else 0  # columns of the current terminal line so far
    for k, (text, kind) in enumerate(pieces[1:], 1):
        if kind == "typed":
            statement += " " + text
            line_used = screen_width(text)
            continue
        margin = result.margins[start + k - 1] - result.margins[start + k]
        gap = _prompt_gap(line_used - result.margins[start + k], physical[k - 1], text, wrap_width or 0)
        cut_at = line_used - result.margins[start + k] + gap
        if cut_at == wrap_width or cut_at in USUAL_TERMINAL_WIDTHS:
            result.terminal_width = result.terminal_width or cut_at
            line_used = screen_width(text) + result.margins[start + k]  # a new terminal line
        else:
            line_used += gap + screen_width(text) - margin  # a mail break inside the terminal line
        statement += " " * gap + text
    return statement


def _continues_note(line: str) -> bool:
    return bool(line.strip()) and not (
        _NOTE_RE.match(line) or _FOOTER_RE.match(line) or _PROMPT_RE.match(line) or _OUTPUT_LINE_RE.match(line)
    )


def _take_footers(result: Cleaned) -> None:
    check_deadline()
    lines = result.lines
    footers = 0
    # The lines that may be a note or a status line, by their first words.
    candidates = starting_lines(
        lines,
        r"[^\S\n]*(?=[nweqrbc\d])(?:(?:Note|Warning|Error) \(Code \d|\d+ rows? in set|Empty set|Query OK"
        r"|Rows matched: \d|Records: \d|Bye|Current database: |No connection\. Trying)",
        re.IGNORECASE,
    )
    for i in candidates:
        line = lines[i]
        if line[:1] in "|+-{*":
            continue
        note = _NOTE_RE.match(line)
        if note:
            # The message may go on over lines a mail client or terminal wrapped.
            message = note.group(1).strip()
            k = i + 1
            while k < len(lines) and _continues_note(lines[k]):
                message += " " + lines[k].strip()
                lines[k] = ""
                k += 1
            result.warnings.append(message)
            result.taken.append((result.numbers[i], result.numbers[k - 1], "note"))
            lines[i] = ""
        elif footer := _FOOTER_RE.match(line):
            lines[i] = ""
            result.taken.append((result.numbers[i], result.numbers[i], "status"))
            footers += 1
            if footer.group(1) is not None:
                result.row_counts.append((i, int(footer.group(1))))
            elif footer.group(0).lstrip().lower().startswith("empty set"):
                result.row_counts.append((i, 0))
    if footers:
        result.notices.append(f"Removed {plural(footers, 'client status line')} such as 'N rows in set'.")
