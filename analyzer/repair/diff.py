"""A paste that is a unified diff: a test's expected output changed in a commit or a pull request,
copied with the diff's marks before its lines.

`take_diff` reads it as its new side: the `+` before added lines and the space before context
lines come off, and the lines the diff removed (`-`) and its headers are left out. A diff is known
by its headers (a hunk's `@@ -1,4 +1,5 @@`, the file names `--- a/…` over `+++ b/…`), or, without
them, by a block of lines that all start with `+`, `-` or a space in which marked lines are lines of
a plan only once their mark is off (`++----+`, `+| 1 |`, `+{`, `+-> `, `-"rows": 3,`) and none is one
only with it: a table's border starts with `+` (`+----+`) and a tree's arrow with `-` (`-> `), and
such a block is the plan itself.
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import EXPLAIN_COLUMN_ORDER
from analyzer.wording import describe_lines, plural

_HUNK_RE = lazy_regex(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
# A line of a plan as a client prints it: a table's border or row, a tree's arrow, a line of a JSON
# document (a bracket, a member), a vertical record's marker or field.
_PLAN_LINE_RE = lazy_regex(
    r"^[ \t]*(?:\+-[-+]*\+[ \t]*$|\|.*\|[ \t]*$|-> |[{}\[\]],?[ \t]*$|\"[\w#-]+\"[ \t]*:"
    r"|\*{5,} ?\d+\. row ?\*{5,}|(?:" + "|".join(EXPLAIN_COLUMN_ORDER) + r"): )"
)
# How a line of a hunk starts: added, removed, context, or git's "\ No newline at end of file".
_HUNK_MARKS = ("+", "-", " ", "\\")


def take_diff(
    lines: list[str], numbers: list[int], margins: list[int], notices: list[str], taken: list[tuple[int, int, str]]
) -> tuple[list[str], list[int], list[int]]:
    """The lines, their numbers in the paste and their margins, without a diff's marks, headers
    and removed lines (those go to `taken` as "diff"); as they were when no diff is found."""
    check_deadline()
    if not any(line.startswith(("+", "-", "@@")) for line in lines):
        return lines, numbers, margins
    headed = any(line.startswith(("@@", "--- ")) for line in lines)
    kinds = (_hunks(lines) if headed else None) or _headerless(lines)
    if kinds is None:
        return lines, numbers, margins
    out: list[str] = []
    kept: list[int] = []
    left_out: list[int] = []
    headers: list[int] = []
    for i, kind in enumerate(kinds):
        if kind in ("@", "-", "\\"):
            (left_out if kind == "-" else headers).append(numbers[i])
            taken.append((numbers[i], numbers[i], "diff"))
            continue
        out.append(lines[i][1:] if kind in ("+", " ") else lines[i])
        kept.append(i)
    marked = [i for i in kept if kinds[i] in ("+", " ")]
    notices.append(_notice(lines, marked, left_out, headers))
    return out, [numbers[i] for i in kept], [margins[i] + (1 if kinds[i] in ("+", " ") else 0) for i in kept]


def _hunks(lines: list[str]) -> list[str] | None:
    """Per line, "@" for a diff's header, its mark for a line of a hunk, "" for any other line;
    None when the lines hold no hunk header."""
    kinds = [""] * len(lines)
    found = False
    i = 0
    while i < len(lines):
        if _file_header(lines, i):
            kinds[i] = kinds[i + 1] = "@"
            i += 2
        elif _HUNK_RE.match(lines[i]):
            found = True
            kinds[i] = "@"
            i += 1
            while i < len(lines) and lines[i].startswith(_HUNK_MARKS) and not _file_header(lines, i):
                if _HUNK_RE.match(lines[i]):
                    break
                kinds[i] = lines[i][0]
                i += 1
        else:
            i += 1
    return kinds if found else None


def _file_header(lines: list[str], i: int) -> bool:
    """Whether lines `i` and `i + 1` name the diff's old and new file (`--- a/x`, `+++ b/x`)."""
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def _headerless(lines: list[str]) -> list[str] | None:
    """Per line, its mark where it is in a block of a diff without headers, else ""; None when
    there is no such block. A block runs over the lines that start with `+`, `-` or a space (and
    empty lines): it is a diff when at least two of its marked lines, one of them added, are plan
    lines only without their mark, and none is one only with it."""
    kinds = [""] * len(lines)
    found = False
    start = 0
    for end in range(len(lines) + 1):
        if end < len(lines) and (not lines[end] or lines[end][0] in "+- "):
            continue
        if _is_diff_block(lines[start:end]):
            found = True
            kinds[start:end] = [line[:1] for line in lines[start:end]]
        start = end + 1
    return kinds if found else None


def _is_diff_block(block: list[str]) -> bool:
    decorated = added = 0
    for line in block:
        if line[:1] not in ("+", "-"):
            continue
        bare = _PLAN_LINE_RE.match(line) is not None
        without = _PLAN_LINE_RE.match(line[1:]) is not None
        if bare and not without:
            return False  # the mark is the plan's own: a table's border, a tree's arrow
        if without and not bare or "\t" in line:
            decorated += 1
            added += line[0] == "+"
    return decorated >= 2 and added >= 1


def _notice(lines: list[str], marked: list[int], left_out: list[int], headers: list[int]) -> str:
    """What reading the diff's new side did."""
    marks = "'+' and ' '" if any(lines[i][0] == " " for i in marked) else "'+'"
    notice = f"Removed the {marks} a diff put before {plural(len(marked), 'line')}"
    if left_out:
        what = "the line" if len(left_out) == 1 else f"the {len(left_out)} lines"
        notice += f" and left out {what} it removed ({describe_lines(left_out)}): the plan shown is the diff's new side"
    if headers:
        notice += f"; left out its {plural(len(headers), 'header line')} ({describe_lines(headers)})"
    return notice + "."
