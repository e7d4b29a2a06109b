"""Build pastes for the parser tests: the client's output shapes, and the damage pastes suffer.

`box`, `vertical` and `batch` print rows the way the mysql/mariadb client does (cells padded
by display width, numbers right-aligned); the other functions damage a paste the way
terminals, mail clients, chats and editors do.
"""

from __future__ import annotations

import unicodedata

NUMERIC = {"id", "rows", "filtered", "r_rows", "r_filtered"}


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _text(cell: str | None) -> str:
    return "NULL" if cell is None else cell


def box(columns: list[str], rows: list[list[str | None]]) -> str:
    """The client's ASCII table for `columns` (as printed, e.g. `Extra`) and `rows`."""
    cells = [[_text(c) for c in row] for row in rows]
    widths = [max([display_width(name)] + [display_width(r[i]) for r in cells]) for i, name in enumerate(columns)]

    def line(values: list[str], header: bool) -> str:
        out = []
        for name, text, w in zip(columns, values, widths, strict=True):
            pad = " " * (w - display_width(text))
            right = not header and name.lower() in NUMERIC
            out.append(" " + (pad + text if right else text + pad) + " ")
        return "|" + "|".join(out) + "|"

    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    return "\n".join([border, line(columns, True), border, *(line(r, False) for r in cells), border]) + "\n"


def vertical(columns: list[str], rows: list[list[str | None]]) -> str:
    """`\\G` output: a star line per row, names right-aligned, `Extra:` with its trailing space."""
    name_width = max(len(c) for c in columns)
    out = []
    for number, row in enumerate(rows, 1):
        out.append(f"{'*' * 27} {number}. row {'*' * 27}")
        out.extend(f"{name.rjust(name_width)}: {_text(cell)}" for name, cell in zip(columns, row, strict=True))
    return "\n".join(out) + "\n"


def batch(columns: list[str], rows: list[list[str | None]]) -> str:
    """`mysql -B` output: tab-separated, header first."""
    return "\n".join("\t".join(_text(c) for c in line) for line in [columns, *rows]) + "\n"


def terminal_wrap(text: str, width: int, strip: bool = True) -> str:
    """Cut every line at `width` display columns, as a terminal does; `strip` drops trailing spaces."""
    out = []
    for line in text.split("\n"):
        while display_width(line) > width:
            index = used = 0
            while used + display_width(line[index]) <= width:
                used += display_width(line[index])
                index += 1
            piece, line = line[:index], line[index:]
            out.append(piece.rstrip() if strip else piece)
        out.append(line)
    return "\n".join(out)


def mail_wrap(text: str, width: int, keep_space: bool = False) -> str:
    """Break lines longer than `width` at their last space before it, as a mail client does."""
    out = []
    for line in text.split("\n"):
        while display_width(line) > width:
            at = line.rfind(" ", 0, width + 1)
            if at <= 0:
                break
            out.append(line[:at] + (" " if keep_space else ""))
            line = line[at + 1 :]
        out.append(line)
    return "\n".join(out)


def truncate(text: str, width: int) -> str:
    """Cut every line at `width` characters, as a narrow window or a size limit does."""
    return "\n".join(line[:width] for line in text.split("\n"))


def quote(text: str, prefix: str = "> ") -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


def number_lines(text: str, style: str = "{n:>3} | ") -> str:
    return "\n".join(style.format(n=n) + line for n, line in enumerate(text.split("\n"), 1))


def indent(text: str, spaces: int = 4) -> str:
    return "\n".join(" " * spaces + line if line else line for line in text.split("\n"))


def expand_tabs(text: str) -> str:
    """Turn tabs into spaces up to the next multiple of 8 display columns, as a terminal shows them."""
    out = []
    for line in text.split("\n"):
        expanded = ""
        column = 0
        for char in line:
            if char == "\t":
                spaces = 8 - column % 8
                expanded += " " * spaces
                column += spaces
            else:
                expanded += char
                column += display_width(char)
        out.append(expanded)
    return "\n".join(out)


def unexpand(text: str) -> str:
    """Turn runs of spaces that reach a tab stop (every 8 display columns) into tabs, as
    `unexpand -a` or an editor that keeps tabs does."""
    out = []
    for line in text.split("\n"):
        result = pending = ""
        column = 0
        for char in line:
            if char == " ":
                pending += " "
                column += 1
                if column % 8 == 0:
                    result += "\t" if len(pending) > 1 else " "
                    pending = ""
            else:
                result += pending + char
                pending = ""
                column += display_width(char)
        out.append(result + pending)
    return "\n".join(out)


def prefix_lines(text: str, prefix: str) -> str:
    """Put `prefix` before every non-empty line (a log's timestamp and level)."""
    return "\n".join(prefix + line if line else line for line in text.split("\n"))


def quote_lines(text: str, mark: str = '"', tail: str = "") -> str:
    """Wrap every non-empty line in quotes, as a logger or a program's string dump does."""
    escaped = (line.replace("\\", "\\\\").replace(mark, "\\" + mark) for line in text.split("\n"))
    return "\n".join(f"{mark}{line}{mark}{tail}" if line else line for line in escaped)


def marked_wrap(text: str, width: int, mark: str) -> str:
    """Wrap lines at `width` columns with `mark` in the last column of each piece, as some
    terminals and editors show a soft wrap."""
    out = []
    for line in text.split("\n"):
        while display_width(line) > width:
            out.append(line[: width - 1] + mark)
            line = line[width - 1 :]
        out.append(line)
    return "\n".join(out)


def html_escape(text: str, nbsp: bool = False) -> str:
    """The paste as the source of a web page holds it: `<`, `>`, `&`, quotes as entities, and
    with `nbsp` every second space of a run as `&nbsp;`."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace('"', "&quot;").replace("'", "&#39;")
    return text.replace("  ", "&nbsp; ") if nbsp else text


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def html_table(columns: list[str], rows: list[list[str | None]]) -> str:
    """`mysql --html` output: the whole result set on one line, cells XML-escaped, NULL as `NULL`."""
    out = "<TABLE BORDER=1><TR>" + "".join(f"<TH>{_xml_escape(c)}</TH>" for c in columns) + "</TR>"
    for row in rows:
        out += "<TR>" + "".join(f"<TD>{_xml_escape(_text(c))}</TD>" for c in row) + "</TR>"
    return out + "</TABLE>"


def xml_resultset(columns: list[str], rows: list[list[str | None]], statement: str) -> str:
    """`mysql --xml` output, NULL as `xsi:nil`."""
    out = f'<?xml version="1.0"?>\n\n<resultset statement="{_xml_escape(statement)}" '
    out += 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
    for row in rows:
        out += "\n  <row>\n"
        for name, cell in zip(columns, row, strict=True):
            if cell is None:
                out += f'\t<field name="{name}" xsi:nil="true" />\n'
            else:
                out += f'\t<field name="{name}">{_xml_escape(cell)}</field>\n'
        out += "  </row>\n"
    return out + "</resultset>\n"


def jira_table(columns: list[str], rows: list[list[str | None]]) -> str:
    """A Jira/Confluence wiki table: `||` header cells, `|` row cells, `\\|` inside a cell."""
    head = "||" + "||".join(columns) + "||"
    body = ["|" + "|".join(_text(c).replace("|", "\\|") or " " for c in row) + "|" for row in rows]
    return "\n".join([head, *body]) + "\n"


def showbreak_wrap(text: str, width: int, mark: str = "\u21aa ") -> str:
    """Wrap lines at `width` columns as an editor's soft wrap shown with vim's `showbreak`: each
    continuation starts with `mark`, which takes columns of its own."""
    out = []
    for line in text.split("\n"):
        first = True
        while display_width(line) > (width if first else width - len(mark)):
            room = width if first else width - len(mark)
            out.append(("" if first else mark) + line[:room])
            line, first = line[room:], False
        out.append(("" if first else mark) + line)
    return "\n".join(out)
