"""Damage done to EXPLAIN pastes on their way from a terminal to a web form.

Every damage is a pure function from text to text; `damage(text, "quote+wrap80", ctx)` applies
a `+`-joined chain of them by name. `tests/fixtures/qa/build.py` uses them to turn real client
captures into the QA corpus that `test_qa_corpus.py` checks.
"""

from __future__ import annotations

import quopri
import re
import unicodedata
from collections.abc import Callable

NBSP = "\u00a0"


def char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def display_width(text: str) -> int:
    return sum(char_width(c) for c in text)


def _lines(text: str) -> tuple[list[str], str]:
    """The lines of `text` and the ending to put back (a final newline or nothing)."""
    if text.endswith("\n"):
        return text[:-1].split("\n"), "\n"
    return text.split("\n"), ""


def _map_lines(text: str, fn: Callable[[int, str], str]) -> str:
    lines, end = _lines(text)
    return "\n".join(fn(i, line) for i, line in enumerate(lines)) + end


# --- wrapping -------------------------------------------------------------------------------


def terminal_wrap(text: str, width: int, keep_trailing: bool = True) -> str:
    """Hard-wrap every line at `width` display columns, as a terminal does.

    A wide character that does not fit in the last column moves to the next row. With
    `keep_trailing` false the rows lose their trailing spaces (what tmux and most terminals copy).
    """
    out: list[str] = []
    lines, end = _lines(text)
    for line in lines:
        row, col = "", 0
        rows = []
        for char in line:
            w = 8 - col % 8 if char == "\t" else char_width(char)
            if col + w > width:
                rows.append(row)
                row, col = "", 0
                w = 8 if char == "\t" else w
            row += char
            col += w
        rows.append(row)
        out.extend(rows if keep_trailing else [r.rstrip(" ") for r in rows])
    return "\n".join(out) + end


def mail_wrap(text: str, width: int) -> str:
    """Wrap long lines at the last space that fits, dropping that space, as mail clients do.

    A line with no space to break at (a table border) stays long.
    """
    out: list[str] = []
    lines, end = _lines(text)
    for line in lines:
        while display_width(line) > width:
            cut = -1
            col = 0
            for i, char in enumerate(line):
                col += char_width(char)
                if col > width + 1:
                    break
                if char == " " and i > 0:
                    cut = i
            if cut <= 0:
                break
            out.append(line[:cut])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out) + end


def flowed_wrap(text: str, width: int) -> str:
    """Wrap like a `format=flowed` mail client: break at a space and keep it at the line's end."""
    out: list[str] = []
    lines, end = _lines(text)
    for line in lines:
        while display_width(line) > width:
            cut = line.rfind(" ", 1, width)
            if cut <= 0:
                break
            out.append(line[: cut + 1])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out) + end


def truncate(text: str, width: int) -> str:
    """Cut every line at `width` display columns (a screenshot-to-text or a narrow copy)."""

    def cut(_: int, line: str) -> str:
        col = 0
        for i, char in enumerate(line):
            col += char_width(char)
            if col > width:
                return line[:i]
        return line

    return _map_lines(text, cut)


# --- prefixes, fences, whitespace -----------------------------------------------------------


def quote(text: str, prefix: str = "> ") -> str:
    return _map_lines(text, lambda _, line: (prefix + line) if line else prefix.rstrip())


LINE_NUMBER_STYLES = {
    "lineno_catn": lambda n, w: f"{n:6d}\t",  # cat -n
    "lineno_less": lambda n, w: f"{n:7d} ",  # less -N
    "lineno_vim": lambda n, w: f"{n:3d} ",  # vim :set number
    "lineno_pipe": lambda n, w: f"{n:>{w}} | ",
    "lineno_dot": lambda n, w: f"{n}. ",
    "lineno_zero": lambda n, w: f"{n:03d} ",
    "lineno_tab": lambda n, w: f"{n}\t",
}


def line_numbers(text: str, style: str) -> str:
    lines, end = _lines(text)
    width = len(str(len(lines)))
    fmt = LINE_NUMBER_STYLES[style]
    return "\n".join(fmt(i + 1, width) + line for i, line in enumerate(lines)) + end


def indent(text: str, prefix: str) -> str:
    return _map_lines(text, lambda _, line: prefix + line if line else line)


def fence(text: str, lang: str = "sql") -> str:
    body = text if text.endswith("\n") else text + "\n"
    return f"```{lang}\n{body}```\n"


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def nbsp(text: str) -> str:
    """Every space becomes a no-break space (copied from a web page)."""
    return text.replace(" ", NBSP)


def nbsp_html(text: str) -> str:
    """Runs of spaces become alternating no-break and plain spaces, as HTML editors write them."""

    def run(match: re.Match) -> str:
        n = len(match.group())
        if n == 1:
            return " "
        return "".join(NBSP if i % 2 == 0 else " " for i in range(n))

    return re.sub(r" +", run, text)


def rstrip_lines(text: str) -> str:
    return _map_lines(text, lambda _, line: line.rstrip(" "))


def expand_tabs(text: str, size: int = 8) -> str:
    """Turn tabs into spaces up to the next tab stop, counting display columns like a terminal."""

    def expand(_: int, line: str) -> str:
        out, col = [], 0
        for char in line:
            if char == "\t":
                pad = size - col % size
                out.append(" " * pad)
                col += pad
            else:
                out.append(char)
                col += char_width(char)
        return "".join(out)

    return _map_lines(text, expand)


# --- surroundings ---------------------------------------------------------------------------

CHATS = [
    ("hey, can someone look at this plan? it takes ~4s on prod\n\n", "\n\nthanks!! (MariaDB 10.11, InnoDB)\n"),
    (
        "Hi all | quick question: why does this query scan so much?\n",
        "\nPS: orders has about 12k rows; server version 10.11.\n-- \nAlex\n",
    ),
    ("Here is the output of EXPLAIN:\n\n", "\nAny idea what index I'm missing?\n"),
    ("@dba-team see below 👇\n", "\nIt used to be fast before the upgrade.\n"),
]


def chat(text: str, n: int) -> str:
    before, after = CHATS[n % len(CHATS)]
    return before + text + after


def twice(text: str) -> str:
    body = text if text.endswith("\n") else text + "\n"
    return body + "\nsorry, pasting it again with the formatting fixed:\n\n" + body


def footer(rows: int, warnings: int = 0) -> str:
    """The `N rows in set` line the client prints after a result set."""
    noun = "row" if rows == 1 else "rows"
    extra = f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""
    return f"{rows} {noun} in set{extra} (0.001 sec)\n"


PROMPTS = ["MariaDB [qa_shop]> ", "MySQL [qa_shop]> ", "MariaDB [(none)]> ", "app@db1 [qa_shop]> "]


def with_prompt(
    text: str, statement: str, mode: str, rows: int, style: str, warnings: int = 0, style_n: int = 0
) -> str:
    """Put an interactive prompt carrying the statement before the output and the footer after."""
    terminator = "\\G" if mode == "vertical" else ";"
    body = text if text.endswith("\n") else text + "\n"
    if style == "mysql":
        # The statement typed over several lines, with `->` continuation prompts.
        parts = re.split(r" (?=(?:FROM|JOIN|WHERE|GROUP BY|ORDER BY|UNION ALL|UNION) )", statement)
        if any("'" in p and p.count("'") % 2 for p in parts):
            parts = [statement]
        typed = "mysql> " + "\n    -> ".join(parts) + terminator + "\n"
        return typed + body + footer(rows, warnings) + "\nmysql> \n"
    prompt = PROMPTS[style_n % len(PROMPTS)]
    typed = f"{prompt}{statement}{terminator}\n"
    return typed + body + footer(rows, warnings) + f"\n{prompt}\n"


def shell_command(text: str, statement: str, flag: str) -> str:
    escaped = statement.replace('"', '\\"')
    return f'$ mariadb {flag} -h db1 qa_shop -e "{escaped}"\n' + text


# --- table borders --------------------------------------------------------------------------

BOX = {"top": ("┌", "┬", "┐"), "mid": ("├", "┼", "┤"), "bottom": ("└", "┴", "┘")}


def is_rule(line: str) -> bool:
    s = line.strip()
    return len(s) > 2 and s[0] == "+" and not s.strip("+-")


def border_columns(rule: str) -> set[int]:
    return {i for i, c in enumerate(rule) if c == "+"}


def _replace_at_columns(line: str, columns: set[int], old: str, new: str) -> str:
    out, col = [], 0
    for char in line:
        out.append(new if char == old and col in columns else char)
        col += char_width(char)
    return "".join(out)


def unicode_box(text: str) -> str:
    """Redraw every ASCII box with Unicode box-drawing characters."""
    lines, end = _lines(text)
    out = list(lines)
    columns: set[int] = set()

    def is_cell(k: int) -> bool:
        return 0 <= k < len(lines) and lines[k].lstrip().startswith("|")

    for i, line in enumerate(lines):
        if is_rule(line):
            columns = border_columns(line)
            part = "top" if not is_cell(i - 1) else "bottom" if not is_cell(i + 1) else "mid"
            left, mid, right = BOX[part]
            first, last = line.index("+"), line.rindex("+")
            drawn = line[:first] + left + line[first + 1 : last] + right + line[last + 1 :]
            out[i] = drawn.replace("-", "─").replace("+", mid)
        elif columns and is_cell(i):
            out[i] = _replace_at_columns(line, columns, "|", "│")
    return "\n".join(out) + end


def no_rules(text: str) -> str:
    """Drop the `+---+` lines, keep the `|` cell lines."""
    lines, end = _lines(text)
    return "\n".join(line for line in lines if not is_rule(line)) + end


def no_frame(text: str) -> str:
    """Drop the `+---+` lines and the outer `|` of every row (a markdown-ish table)."""
    lines, end = _lines(text)
    out = []
    for line in lines:
        if is_rule(line):
            continue
        if line.startswith("| ") and line.endswith(" |"):
            line = line[2:-2].rstrip()
        out.append(line)
    return "\n".join(out) + end


def markdown(text: str) -> str:
    """Retype a clean client box as a Markdown table (cells trimmed, a `|---|` rule under the header).

    Returns the text unchanged when a cell holds a `|`, which Markdown cannot show unescaped.
    """
    table = reference_table_parse(text)
    if any("|" in cell for row in table for cell in row):
        return text
    lines = ["| " + " | ".join(row) + " |" for row in table]
    lines.insert(1, "|" + "---|" * len(table[0]))
    return "\n".join(lines) + "\n"


def drop_rule(text: str, which: str) -> str:
    """Lose the first (`top`) or last (`bottom`) border line, as a sloppy selection does."""
    lines, end = _lines(text)
    rules = [i for i, line in enumerate(lines) if is_rule(line)]
    del lines[rules[0] if which == "top" else rules[-1]]
    return "\n".join(lines) + end


def partial_first_line(text: str, chars: int = 4) -> str:
    """The selection started a few characters into the first line."""
    return text[chars:]


def lstrip_lines(text: str) -> str:
    """Leading whitespace removed from every line (some chat and ticket forms do this)."""
    return _map_lines(text, lambda _, line: line.lstrip(" \t"))


def collapse_spaces(text: str) -> str:
    """Runs of spaces shown as one, as in text copied from a rendered web page."""
    return _map_lines(text, lambda _, line: re.sub(r" {2,}", " ", line))


def rstrip_whitespace(text: str) -> str:
    """Trailing spaces and tabs stripped (an editor's trim-trailing-whitespace)."""
    return _map_lines(text, lambda _, line: line.rstrip(" \t"))


def spaces_to_tabs(text: str, size: int = 8) -> str:
    """Runs of spaces reaching a tab stop turned into tabs (`unexpand -a`, some editors and terminals)."""

    def unexpand(_: int, line: str) -> str:
        out, chunk, col = [], "", 0
        for char in line:
            chunk += char
            col += char_width(char)
            if col % size == 0:
                stripped = chunk.rstrip(" ")
                out.append(stripped + "\t" if len(chunk) - len(stripped) >= 2 else chunk)
                chunk = ""
        return "".join(out) + chunk

    return _map_lines(text, unexpand)


def mixed_line_endings(text: str) -> str:
    """Every other line ends in CRLF (pieces pasted together from two systems)."""
    lines, end = _lines(text)
    eols = ["\r\n" if i % 2 else "\n" for i in range(len(lines))]
    if not end:
        eols[-1] = ""
    return "".join(line + eol for line, eol in zip(lines, eols, strict=True))


def cli_warning(text: str, statement: str, flag: str) -> str:
    """The shell command, the password prompt and the client's password warning before the output."""
    escaped = statement.replace('"', '\\"')
    return (
        f'$ mysql -u app -p {flag} qa_shop -e "{escaped}"\nEnter password: \n'
        "mysql: [Warning] Using a password on the command line interface can be insecure.\n" + text
    )


def double_spaced(text: str) -> str:
    """An empty line after every line (pasted through a word processor or some chat apps)."""
    lines, end = _lines(text)
    return "\n\n".join(lines) + end


def inline_lead(text: str) -> str:
    """Chat text typed on the same line as the first line of the paste."""
    return "explain output: " + text


def fence_inline_close(text: str) -> str:
    """A closing fence typed right after the last line, and an opening fence with a language."""
    return "```mysql\n" + text.rstrip("\n") + "```\n"


def list_item_fence(text: str) -> str:
    """A fenced block inside a markdown list item: the fences and the block indented 3 spaces."""
    return "1. Here is the plan:\n\n   ```\n" + indent(text, "   ") + "   ```\n"


def cut_tail(text: str) -> str:
    """The paste stops in the middle of a line about two thirds in (the selection ended too early)."""
    at = len(text) * 2 // 3
    while at < len(text) and text[at - 1 : at + 2].count("\n"):
        at += 3
    return text[:at]


def html_entities(text: str) -> str:
    """`&`, `<` and `>` written as HTML entities (text copied from a page's source or a feed)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cr_crlf(text: str) -> str:
    """Line endings converted to CRLF twice (`\r\r\n`), as a second Windows round trip leaves them."""
    return text.replace("\n", "\r\r\n")


def indent_tail(text: str, prefix: str = "    ") -> str:
    """Every line indented but the first: the selection started at the first visible character
    of an indented block."""
    first, sep, rest = text.partition("\n")
    return first + sep + indent(rest, prefix)


def quoted_printable(text: str) -> str:
    """The raw quoted-printable body of a mail (soft line breaks `=` at 76, `=C3=A9` for é),
    as a mail's source view or a mailing-list archive shows it."""
    return quopri.encodestring(text.encode("utf-8")).decode("ascii")


def fence_inline_open(text: str) -> str:
    """An opening fence typed on the same line as the first line of the paste (Discord, Slack)."""
    return "```" + text.rstrip("\n") + "\n```\n"


def details_block(text: str) -> str:
    """A GitHub issue comment: the paste fenced inside a collapsed `<details>` block."""
    return "<details>\n<summary>EXPLAIN output</summary>\n\n```\n" + text.rstrip("\n") + "\n```\n\n</details>\n"


def log_prefix(text: str) -> str:
    """Every line prefixed by a timestamp and a level, as a script's log file shows the output."""
    return _map_lines(text, lambda i, line: f"2026-11-22 09:14:{i % 60:02d},{(i * 37) % 1000:03d} INFO {line}")


def showbreak_wrap(text: str, width: int = 80) -> str:
    """Soft-wrapped in vim with `showbreak=↪\\ `: continuation rows start with the mark."""
    wrapped = terminal_wrap(text, width).split("\n")
    original = text.split("\n")
    out, k = [], 0
    for line in original:
        pieces = terminal_wrap(line, width).split("\n") if line else [""]
        out.append(pieces[0])
        out.extend("↪ " + piece for piece in pieces[1:])
        k += len(pieces)
    assert k == len(wrapped)
    return "\n".join(out)


def interjection(text: str) -> str:
    """A reply that comments in the middle of the quoted paste: unquoted lines after the first data line."""
    lines, end = _lines(quote(text))
    at = min(4, len(lines) - 1)
    return "\n".join(lines[:at] + ["", "^ why is this one a full scan?", ""] + lines[at:]) + end


def row_remark(text: str) -> str:
    """A remark typed after the last column of the first data row (`<-- this one`)."""
    lines, end = _lines(text)
    for i, line in enumerate(lines):
        stripped = line.strip()
        if i > 2 and stripped and not is_rule(line) and not stripped.startswith("*"):
            lines[i] = line + "   <-- this one is slow"
            break
    return "\n".join(lines) + end


def client_width(char: str) -> int:
    """Columns the mariadb client counts for a character when it pads a cell: two for East Asian
    wide ones, one for everything else, combining accents included (a terminal shows those in
    no column of their own, so such a row's `|` come out one column early)."""
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def reference_table_parse(text: str) -> list[list[str]]:
    """Cells of a clean client box, cut at the `+` columns of its first border (for self-checks)."""
    lines = [line for line in text.rstrip("\n").split("\n") if line]
    columns = sorted(border_columns(lines[0]))
    table = []
    for line in lines:
        if is_rule(line):
            continue
        cells, col, cur, k = [], 0, "", 0
        for char in line:
            if col == columns[k]:
                if k:
                    cells.append(cur.strip(" "))
                cur, k = "", k + 1
                if k == len(columns):
                    break
            else:
                cur += char
            col += client_width(char)
        table.append(cells)
    return table


# --- damage by name ------------------------------------------------------------------------


def damage(text: str, name: str, ctx: dict) -> str:
    """Apply one damage or a `+`-joined chain of them, left to right."""
    for step in name.split("+"):
        text = _one(text, step, ctx)
    return text


def _one(text: str, step: str, ctx: dict) -> str:
    if step.startswith("wrap"):
        width = int(step[4:].removesuffix("_trim"))
        return terminal_wrap(text, width, keep_trailing=not step.endswith("_trim"))
    if step.startswith("mail"):
        return mail_wrap(text, int(step[4:]))
    if step.startswith("flowed"):
        return flowed_wrap(text, int(step[6:]))
    if step.startswith("truncated"):
        return truncate(text, int(step[9:]))
    if step in LINE_NUMBER_STYLES:
        return line_numbers(text, step)
    simple: dict[str, Callable[[str], str]] = {
        "quote": quote,
        "quote2": lambda t: quote(t, "> > "),
        "indent4": lambda t: indent(t, "    "),
        "indent_tab": lambda t: indent(t, "\t"),
        "fence": lambda t: fence(t, "sql" if ctx["mode"] != "json" else "json"),
        "crlf": crlf,
        "nbsp": nbsp,
        "nbsp_html": nbsp_html,
        "rstrip": rstrip_lines,
        "tabs_expanded": expand_tabs,
        "tabs4": lambda t: expand_tabs(t, 4),
        "twice": twice,
        "unicode_box": unicode_box,
        "no_rules": no_rules,
        "no_frame": no_frame,
        "chat": lambda t: chat(t, ctx["n"]),
        "markdown": markdown,
        "no_top": lambda t: drop_rule(t, "top"),
        "no_bottom": lambda t: drop_rule(t, "bottom"),
        "partial_top": partial_first_line,
        "bom": lambda t: "\ufeff" + t,
        "lstrip": lstrip_lines,
        "collapse_spaces": collapse_spaces,
        "rstrip_ws": rstrip_whitespace,
        "spaces_to_tabs": spaces_to_tabs,
        "mixed_eol": mixed_line_endings,
        "double_spaced": double_spaced,
        "inline_lead": inline_lead,
        "fence_inline_close": fence_inline_close,
        "list_item_fence": list_item_fence,
        "cut_tail": cut_tail,
        "cr_crlf": cr_crlf,
        "indent_tail": indent_tail,
        "quoted_printable": quoted_printable,
        "fence_inline_open": fence_inline_open,
        "details_block": details_block,
        "interjection": interjection,
        "row_remark": row_remark,
        "log_prefix": log_prefix,
        "showbreak": showbreak_wrap,
        "html_entities": html_entities,
    }
    if step in simple:
        return simple[step](text)
    statement = f"{ctx['statement']} {ctx['sql']}"
    if step == "prompt":
        return with_prompt(text, statement, ctx["mode"], ctx["rows"], "mariadb", ctx["warnings"], ctx["n"])
    if step == "prompt_mysql":
        return with_prompt(text, statement, ctx["mode"], ctx["rows"], "mysql", ctx["warnings"])
    if step == "shell":
        return shell_command(text, statement, "-B")
    if step == "cli_warning":
        return cli_warning(text, statement, {"table": "-t", "vertical": "-E", "tsv": "-B"}.get(ctx["mode"], ""))
    raise ValueError(step)
