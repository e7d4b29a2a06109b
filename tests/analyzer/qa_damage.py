"""Damage done to EXPLAIN pastes on their way from a terminal to a web form, and the QA corpus builder.

Every damage is a pure function from text to text. `build()` reads the real client captures in
`tests/fixtures/qa/captures/` (written by `tests/fixtures/qa/capture.py` against a live MariaDB),
applies the damages and writes one JSON per case into `tests/fixtures/qa/cases/`:

    .venv/bin/python -m tests.analyzer.qa_damage

The expected parse of every tabular case is the clean `mariadb -B` capture split on tabs.
"""

from __future__ import annotations

import json
import re
import unicodedata
import zlib
from collections.abc import Callable
from pathlib import Path

QA_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "qa"
CAPTURES = QA_DIR / "captures"
CASES = QA_DIR / "cases"

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

BOX = {"top": "┌┬┐", "mid": "├┼┤", "bottom": "└┴┘"}


def _is_rule(line: str) -> bool:
    s = line.strip()
    return len(s) > 2 and s[0] == "+" and not s.strip("+-")


def _border_columns(rule: str) -> set[int]:
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
        if _is_rule(line):
            columns = _border_columns(line)
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
    return "\n".join(line for line in lines if not _is_rule(line)) + end


def no_frame(text: str) -> str:
    """Drop the `+---+` lines and the outer `|` of every row (a markdown-ish table)."""
    lines, end = _lines(text)
    out = []
    for line in lines:
        if _is_rule(line):
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
    rules = [i for i, line in enumerate(lines) if _is_rule(line)]
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


# --- the expected parse -----------------------------------------------------------------------


def tsv_expectation(tsv: str) -> tuple[list[str], list[dict]]:
    """Columns and rows of a clean `mariadb -B` capture: cells split on tabs, NULL as None."""
    lines = tsv.rstrip("\n").split("\n")
    columns = [c.lower() for c in lines[0].split("\t")]
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        assert len(cells) == len(columns), line
        rows.append({c: (None if v == "NULL" else v) for c, v in zip(columns, cells, strict=True)})
    return columns, rows


def client_width(char: str) -> int:
    """Columns the mariadb client counts for a character when it pads a cell: two for East Asian
    wide ones, one for everything else, combining accents included (a terminal shows those in
    no column of their own, so such a row's `|` come out one column early)."""
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def reference_table_parse(text: str) -> list[list[str]]:
    """Cells of a clean client box, cut at the `+` columns of its first border (for self-checks)."""
    lines = [line for line in text.rstrip("\n").split("\n") if line]
    columns = sorted(_border_columns(lines[0]))
    table = []
    for line in lines:
        if _is_rule(line):
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


def reference_vertical_parse(text: str) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("***"):
            rows.append({})
        elif line:
            key, _, value = line.partition(": ")
            rows[-1][key.strip().lower()] = value if value or not line.endswith(":") else ""
    return rows


def warning_messages(tsv: str) -> list[str]:
    """The messages of the SHOW WARNINGS result set in a batch capture of EXPLAIN EXTENDED + SHOW WARNINGS."""
    lines = tsv.rstrip("\n").split("\n")
    start = lines.index("Level\tCode\tMessage")
    return [line.split("\t", 2)[2] for line in lines[start + 1 :]]


def json_tables(doc) -> list[str]:
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "table_name" and isinstance(value, str) and value not in found:
                    found.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(doc)
    return found


def self_check(capture: dict, columns: list[str], rows: list[dict]) -> None:
    """The -t and -E captures hold the very cells of the -B capture (same plan in every mode)."""
    outputs = capture["outputs"]
    as_lists = [[("NULL" if v is None else v) for v in row.values()] for row in rows]
    table = reference_table_parse(outputs["table"])
    assert [c.lower() for c in table[0]] == columns, capture["query_id"]
    assert table[1:] == as_lists, (capture["query_id"], capture["kind"], table[1:], as_lists)
    vertical = reference_vertical_parse(outputs["vertical"])
    assert [list(r.values()) for r in vertical] == as_lists, (capture["query_id"], capture["kind"])
    for name in ("table_verbose", "table_showwarn"):
        if name in outputs:
            assert first_box(outputs[name]) == outputs["table"], (capture["query_id"], name)
    if "vertical_verbose" in outputs:
        assert outputs["vertical"] in outputs["vertical_verbose"], capture["query_id"]


def first_box(text: str) -> str:
    """The first client box in `text`: from its top border to its bottom border."""
    lines = text.split("\n")
    rules = [i for i, line in enumerate(lines) if _is_rule(line)]
    return "\n".join(lines[rules[0] : rules[2] + 1]) + "\n"


# --- the corpus -------------------------------------------------------------------------------

TABLE_DAMAGES = [
    "wrap80",
    "mail72",
    "quote",
    "lineno_pipe",
    "unicode_box",
    "wrap132",
    "prompt",
    "chat",
    "crlf+fence",
    "nbsp_html",
    "quote2+wrap80",
    "twice",
    "wrap60",
    "mail76",
    "no_rules",
    "indent4",
    "lineno_dot",
    "prompt_mysql",
    "wrap100",
    "rstrip",
    "nbsp",
    "mail72+quote",
    "quote+mail76",
    "fence+indent_tab",
    "wrap200",
    "lineno_zero",
    "no_frame",
    "chat+twice",
    "unicode_box+quote",
    "lineno_tab",
    "wrap80_trim",
    "quote2",
    "prompt+chat",
    "wrap100+lineno_pipe",
    "crlf",
    "unicode_box+nbsp",
    "fence",
    "indent_tab+crlf",
    "wrap60+quote",
    "mail72+crlf",
    "no_rules+quote",
    "chat+fence+crlf",
    "markdown",
    "no_bottom",
    "no_top",
    "partial_top",
    "bom",
    "collapse_spaces",
    "wrap80+quote",
    "mail72+quote2",
    "bom+crlf",
    "no_bottom+chat",
    "markdown+quote",
    "wrap100+partial_top",
    "spaces_to_tabs",
    "mixed_eol",
    "cli_warning",
    "cli_warning+fence",
    "double_spaced",
]
VERTICAL_DAMAGES = [
    "quote",
    "prompt",
    "indent4",
    "chat",
    "lineno_pipe",
    "crlf+fence",
    "twice",
    "nbsp",
    "mail72",
    "quote2",
    "wrap60",
    "lineno_tab",
    "chat+quote",
    "rstrip",
    "prompt_mysql",
    "indent_tab",
    "lineno_zero+crlf",
    "nbsp_html",
    "lstrip",
    "collapse_spaces",
    "wrap80",
    "bom",
    "lstrip+quote",
    "mail60",
    "wrap50",
    "spaces_to_tabs",
    "cli_warning",
    "mixed_eol",
    "double_spaced",
]
TSV_DAMAGES = [
    "tabs_expanded",
    "fence+crlf",
    "quote",
    "chat",
    "tabs4",
    "lineno_pipe",
    "indent4",
    "shell",
    "twice",
    "tabs_expanded+quote",
    "crlf",
    "rstrip",
    "tabs_expanded+fence",
    "lineno_dot",
    "rstrip_ws",
    "bom",
    "tabs_expanded+rstrip",
    "chat+crlf",
    "cli_warning",
    "double_spaced",
]
JSON_DAMAGES = [
    "quote",
    "fence",
    "chat",
    "crlf",
    "indent4",
    "lineno_pipe",
    "nbsp_html",
    "chat+fence+crlf",
    "wrap80",
    "mail72",
    "quote+wrap80",
    "lstrip",
    "collapse_spaces",
]
TRANSCRIPT_DAMAGES = [
    "quote",
    "chat",
    "crlf",
    "indent4",
    "fence",
    "nbsp_html",
    "lineno_pipe",
    "quote+crlf",
    "mail76",
    "twice",
    "mail72+quote",
    "double_spaced",
]
# Two-layer damages that each reader handles alone but that meet in real pastes; each is applied
# to about one capture in 16 so the corpus stays small.
COMBOS = {
    "table": [
        "lineno_pipe+quote",
        "no_top+wrap80",
        "double_spaced+quote",
        "lineno_zero+double_spaced",
        "no_rules+wrap100",
        "no_top+mail72",
        "prompt+wrap80+quote",
        "twice+wrap100",
        "fence_inline_close",
        "list_item_fence",
        "inline_lead",
        "no_rules+mail72",
        "collapse_spaces+mail76",
        "cr_crlf",
        "indent_tail",
        "flowed72",
    ],
    "vertical": [
        "lineno_dot+quote",
        "double_spaced+lineno_pipe",
        "prompt+wrap60+quote",
        "mail60+quote2",
        "fence_inline_close",
        "list_item_fence",
        "inline_lead",
        "indent_tail",
        "flowed72+quote",
    ],
    "tsv": [
        "tabs_expanded+wrap120",
        "double_spaced+quote",
        "lineno_pipe+quote",
        "tabs_expanded+double_spaced",
        "tabs_expanded+prompt+wrap80",
        "fence_inline_close",
        "list_item_fence",
        "inline_lead",
        "indent_tail",
        "indent_tail+quote",
    ],
}
COMBO_SPREAD = 16
CLIENT_EXTRAS = ("table_verbose", "vertical_verbose", "table_showwarn")
PER_TABLE = 3
PER_VERTICAL = 1
PER_TSV = 1
PER_JSON = 1
PER_TRANSCRIPT = 1


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
        "html_entities": html_entities,
        "cr_crlf": cr_crlf,
        "indent_tail": indent_tail,
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


def _pick(damages: list[str], count: int, n: int) -> list[str]:
    """`count` damages of the list, rotating with the capture number so all get used."""
    start = (n * count) % len(damages)
    return [damages[(start + k) % len(damages)] for k in range(count)]


def _tail_cut_shows(text: str, mode: str) -> bool:
    """Whether a paste that stops mid-line shows it: not when the cut fell in a last value
    (`Extra: Using wh` or a batch row's last field), which could have been complete."""
    last = text.rsplit("\n", 1)[-1]
    if mode == "vertical":
        return not last.lstrip().startswith("Extra:")
    if mode == "tsv":
        # One field short is also what a stripped trailing tab (empty Extra) looks like.
        return last.count("\t") < text.split("\n", 1)[0].count("\t") - 1
    return True


def _looks_cut(tsv: str) -> bool:
    """Whether a batch output that lost fields has its longest lines all of one length.

    That is what lines cut at a fixed width look like, so such a paste is ambiguous.
    """
    lines = [line for line in tsv.split("\n") if line]
    widths = [len(line) for line in lines]
    short = any(line.count("\t") < lines[0].count("\t") for line in lines[1:])
    return short and widths.count(max(widths)) >= 2


def _cut_width(text: str, width: int) -> int:
    """`width`, moved left off a table's column border so the cut falls inside cells.

    Lines cut just after a `|` would look complete, and no reader could tell they were cut.
    """
    first = text.split("\n", 1)[0]
    while _is_rule(first) and width > 2 and first[width - 1 : width] == "+":
        width -= 2
    return width


def cases_for(capture: dict, n: int) -> list[dict]:
    """All cases made from one capture (one query in one statement kind)."""
    outputs = capture["outputs"]
    qid, kind, statement, sql = capture["query_id"], capture["kind"], capture["statement"], capture["sql"]
    base = {"statement": statement, "sql": sql}
    cases: list[dict] = []

    notes = warning_messages(outputs["tsv_warnings"]) if "tsv_warnings" in outputs else []

    def add(mode: str, dmg: str, text: str, expect: dict, query: bool = False) -> None:
        case = {"id": f"{qid}.{kind}.{mode}.{dmg}", **base, "mode": mode, "damage": dmg, "input": text}
        case["expect"] = dict(expect, query=sql) if query else dict(expect)
        shows_warnings = mode.endswith(("_warnings", "_showwarn")) or (
            mode.startswith("transcript") and not mode.endswith("_vertical")
        )
        if notes and shows_warnings and not expect.get("unrecoverable"):
            case["expect"]["warnings"] = notes  # SHOW WARNINGS' rewritten query goes to `warnings`
        cases.append(case)

    if kind == "none":  # result sets that are not EXPLAIN: the analyzer must refuse them
        for name, text in outputs.items():
            add(name, "clean", text, {"error": True})
            if n % 2 == 0 or name.startswith("show_warnings"):
                add(name, "chat", chat(text, len(name)), {"error": True})
        return cases
    if kind == "show":  # SHOW EXPLAIN [FORMAT=JSON] FOR <thread>: the JSON flavour first
        expect = {"format": "json", "tables": json_tables(json.loads(outputs.pop("json_raw")))}
        text = outputs.pop("json_batch")
        add("json_batch", "clean", text, expect)
        add("json_batch", "quote", quote(text), expect)
    if kind in ("json", "anjson"):
        tables = json_tables(json.loads(outputs["json_raw"]))
        expect = {"format": "json", "tables": tables}
        for mode in ("json_raw", "json_table", "json_vertical", "tsv"):
            name = "json_batch" if mode == "tsv" else mode
            text = outputs[mode]
            add(name, "clean", text, expect)
            ctx = {"mode": "json", "n": n, "statement": statement, "sql": sql, "rows": 1, "warnings": 0}
            for dmg in _pick(JSON_DAMAGES, PER_JSON if mode != "json_table" else 0, n + len(name)):
                add(name, dmg, damage(text, dmg, ctx), expect)
        if n % 6 == 0:
            add("json_table", "wrap120", terminal_wrap(outputs["json_table"], 120), expect)
        if n % 3 == 1:
            add("json_raw", "cut_tail", cut_tail(outputs["json_raw"]), {"unrecoverable": True, "format": "json"})
        if n % 3 == 2:
            cut = cut_tail(outputs["json_vertical"])
            add("json_vertical", "cut_tail", cut, {"unrecoverable": True, "format": "json"})
        if sum(display_width(line) > 60 for line in outputs["json_raw"].split("\n")) >= 2:
            cut = truncate(outputs["json_raw"], 60)
            add("json_raw", "truncated60", cut, {"unrecoverable": True, "format": "json"})
        for name, text in outputs.items():
            if name.startswith("transcript"):
                add(name, "clean", text, expect, query=True)
        return cases

    columns, rows = tsv_expectation(outputs["tsv"])
    self_check(capture, columns, rows)
    warnings = 1 if kind == "ext" else 0
    ctx = {"n": n, "statement": statement, "sql": sql, "rows": len(rows), "warnings": warnings}

    def expect_for(mode: str) -> dict:
        return {"format": mode, "columns": columns, "rows": rows}

    big = len(rows) > 20  # keep the 40-row explain to a few cases: the corpus must stay small
    for mode, damages, count in (
        ("table", TABLE_DAMAGES, 2 if big else PER_TABLE),
        ("vertical", VERTICAL_DAMAGES, 1 if big else PER_VERTICAL),
        ("tsv", TSV_DAMAGES, 1 if big else PER_TSV),
    ):
        text = outputs[mode]
        ctx["mode"] = mode
        add(mode, "clean", text, expect_for(mode))
        for dmg in _pick(damages, count, n):
            damaged = damage(text, dmg, ctx)
            if damaged == text or (mode == "tsv" and _looks_cut(damaged)):
                continue
            expect = expect_for(mode)
            if "no_bottom" in dmg:
                expect["may_be_truncated"] = True  # rows may be missing below, as far as anyone can tell
            add(mode, dmg, damaged, expect, query="prompt" in dmg)
        for k, dmg in enumerate(COMBOS[mode]):
            if (n + k * 5) % COMBO_SPREAD == 0 and not big:
                damaged = damage(text, dmg, ctx)
                if not (mode == "tsv" and _looks_cut(damaged)):
                    add(mode, dmg, damaged, expect_for(mode), query="prompt" in dmg)
        if n % 3 == 1 and _tail_cut_shows(cut_tail(text), mode):
            add(mode, "cut_tail", cut_tail(text), {"unrecoverable": True, "format": mode})
        cut = _cut_width(text, {"table": 100, "vertical": 40, "tsv": 60}[mode])
        if sum(display_width(line) > cut for line in text.split("\n")) >= 2 and not big and n % 2 == 0:
            add(mode, f"truncated{cut}", truncate(text, cut), {"unrecoverable": True, "format": mode})

    for name in ("table_warnings", "vertical_warnings", "tsv_warnings", *CLIENT_EXTRAS):
        if name in outputs and not big and (name != "vertical_verbose" or n % 2):
            mode = name.split("_")[0]
            add(name, "clean", outputs[name], expect_for(mode))
            ctx["mode"] = mode
            for dmg in _pick(TRANSCRIPT_DAMAGES, 0 if name in CLIENT_EXTRAS[:2] else PER_TRANSCRIPT, n + len(name)):
                add(name, dmg, damage(outputs[name], dmg, ctx), expect_for(mode))
            if name == "table_verbose" and n % 2:
                add(name, "double_spaced", double_spaced(outputs[name]), expect_for(mode))

    for name, text in outputs.items():
        if not name.startswith("transcript") or (big and name.endswith(("_vertical", "_session"))):
            continue
        if name.endswith("_joined") and (n % 3 or big):
            continue  # half the captures are enough for terminals that rejoin soft-wrapped lines
        mode = "vertical" if name.endswith("_vertical") else "table"
        # A terminal that rejoins soft-wrapped lines keeps the blank cell left where a wide
        # character did not fit: then the statement in the paste is not the SQL typed.
        query = kind != "show" and (not name.endswith("_joined") or f"{statement} {sql}" in text)
        add(name, "clean", text, expect_for(mode), query=query)
        ctx["mode"] = mode
        for dmg in _pick(TRANSCRIPT_DAMAGES, 0 if big or n % 2 else PER_TRANSCRIPT, n + len(name)):
            add(name, dmg, damage(text, dmg, ctx), expect_for(mode), query=query)
        if name.endswith(("_joined", "_session")) and n % 3 == 0:  # a session pasted into a mail
            add(name, "mail72", mail_wrap(text, 72), expect_for(mode), query=query)
        if name.endswith("_wrapped") and n % 3 == 1 and not big:  # hard-wrapped, then mailed
            add(name, "mail76", mail_wrap(text, 76), expect_for(mode), query=query)
        if n % 8 == 3 and not big:  # a whole session double-spaced: its own blank lines become three
            add(name, "double_spaced", double_spaced(text), expect_for(mode), query=query)
    return cases


def build() -> list[dict]:
    CASES.mkdir(exist_ok=True)
    for old in CASES.glob("*.json"):
        old.unlink()
    cases: list[dict] = []
    for path in sorted(CAPTURES.glob("*.json")):
        # A number per capture that does not move when captures are added: it picks the damages.
        n = zlib.crc32(path.name.encode()) % 9973
        cases.extend(cases_for(json.loads(path.read_text(encoding="utf-8")), n))
    for case in cases:
        (CASES / f"{case['id']}.json").write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    return cases


if __name__ == "__main__":
    built = build()
    print(f"{len(built)} cases in {CASES}")
