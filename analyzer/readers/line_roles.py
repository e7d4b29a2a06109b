"""What became of each line of the paste: `Plan.lines`.

The readers know which cleaned lines each result set took (`ResultSet.start`/`end`) and where the
JSON or tree plan is (`PlanPlace`); the cleanup knows which lines it emptied or dropped
(`Cleaned.taken`: prompts and their statements, status lines, client warnings, code fences).
`line_spans` puts both together, line by line of the paste as it was sent (`Cleaned.numbers`),
and gives them as a few `LineSpan`s: the plan, the warnings, the statement the query was taken
from, and every other line that holds text as ignored, with the reason.

A line counts as read only where a reader took it. Empty lines belong to no span, except inside
one; so do lines that held nothing but decoration (quoting, a line number). When the cleanup
decoded the paste as a whole and its lines no longer match the paste's (`Cleaned.renumbered`),
no spans are given rather than wrong ones.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from analyzer.model import LineSpan
from analyzer.readers.resultset import PLAN_COLUMNS, ResultSet
from analyzer.repair.cleanup import Cleaned
from analyzer.structs import dataclass

Role = tuple[str, str]  # (role, reason) as in `LineSpan`
Mark = tuple[int, int, Role]  # cleaned lines [start, end) and their role

EXPLAIN_SHOWN: Role = ("plan", "the EXPLAIN result shown")
WARNINGS: Role = ("warnings", "SHOW WARNINGS output, read as warnings")
CLIENT_WARNING: Role = ("warnings", "a warning the client printed, read as warnings")
QUERY: Role = ("query", "the statement the query was taken from")
OTHER_TEXT: Role = ("ignored", "other text")
FOREIGN: Role = ("ignored", "another result set, not EXPLAIN output")
OTHER_EXPLAIN: Role = ("ignored", "another EXPLAIN result, not the one shown")
REPEAT: Role = ("ignored", "the same EXPLAIN result again, read once")
OTHER_PLAN: Role = ("ignored", "another plan, not the one shown")
NO_COLUMNS: Role = ("ignored", "a result set without column names")
REMARK: Role = ("ignored", "other text inside the output")
MORE_PLAN: Role = ("ignored", "plan text after the plan shown")
PROMPT: Role = ("ignored", "a client prompt and what was typed there")
STATEMENT: Role = ("ignored", "a typed statement, not the one the query was taken from")
STATUS: Role = ("ignored", "a client status line such as 'N rows in set'")
FENCE: Role = ("ignored", "a code fence")
DIFF: Role = ("ignored", "a diff's header or a line it removed")
NOISE: Role = ("ignored", "a line a web page put between the lines of the text")
QUERY_GIVEN: Role = ("ignored", "a typed statement; the query given with the paste is shown")
_DROPPED: dict[str, Role] = {"fence": FENCE, "noise": NOISE, "diff": DIFF}
_TAKEN: dict[str, Role] = {"prompt": PROMPT, "statement": STATEMENT, "status": STATUS, "note": CLIENT_WARNING}


@dataclass(frozen=True)
class PlanPlace:
    """Where a JSON or tree plan is in the cleaned lines: from line `at` to before line `end` (an
    empty line, or a JSON document's closing brace), `kind` "json" or "tree"; `text` finds what
    may be a line of such a plan, `header` a lone column name (`EXPLAIN`). `shown`: the plan is
    the answer (else a tabular EXPLAIN before it is)."""

    at: int
    end: int
    kind: str
    text: re.Pattern[str]
    header: re.Pattern[str]
    shown: bool


def line_spans(
    cleaned: Cleaned,
    lines: list[str],
    found: list[ResultSet],
    *,
    chosen: ResultSet | None = None,
    place: PlanPlace | None = None,
    query_at: int | None = None,
) -> list[LineSpan]:
    """The spans of the paste's lines: `lines` are the cleaned lines and `found` the result sets
    in them; `chosen` is the EXPLAIN result shown, or `place` the plan shown; `query_at` the cleaned
    line of the statement the query was taken from, if any."""
    if cleaned.renumbered:
        return []
    roles: list[Role | None] = [None] * len(lines)
    for start, end, role in reversed(_marks(lines, found, chosen, place)):
        roles[start:end] = [role] * (end - start)
    filled = [bool(line.strip()) for line in lines]
    roles = [OTHER_TEXT if role is None and text else role for role, text in zip(roles, filled, strict=True)]
    dropped = _taken(cleaned, query_at, roles, filled)
    entries = list(zip(cleaned.numbers, roles, filled, strict=True))
    if dropped:
        entries = sorted(entries + dropped)  # line numbers are unique: the tuples compare by them alone
    return _spans(entries)


def query_line(queries: list[tuple[int, str]], before: int | None) -> int | None:
    """The cleaned line of the statement the query was taken from, of the EXPLAIN statements the
    cleanup found (`Cleaned.queries`): the last one typed before line `before`, else the first."""
    earlier = [at for at, _ in queries if before is not None and at < before]
    if earlier:
        return earlier[-1]
    return queries[0][0] if queries else None


def query_given(spans: list[LineSpan]) -> list[LineSpan]:
    """The spans once the caller's query replaced the one taken from the paste."""
    return [LineSpan(s.first, s.last, *QUERY_GIVEN) if s.role == "query" else s for s in spans]


def _marks(lines: list[str], found: list[ResultSet], chosen: ResultSet | None, place: PlanPlace | None) -> list[Mark]:
    """What each reader took, the first mark of a line winning: text a result set's reader left out,
    the plan shown, the result sets, then plan text after the plan shown."""
    remarks: list[Mark] = [(i, i + 1, REMARK) for r in found for i in r.skipped]
    marks = [(r.start, r.end, _result_role(r, chosen)) for r in found]
    if place is None:
        return remarks + marks
    plan = _plan_mark(lines, found, place)
    if not place.shown:
        return [*remarks, *marks, plan]
    later = [i for i in range(plan[1], len(lines)) if lines[i].strip() and place.text.search(lines[i])]
    return [*remarks, plan, *marks] + [(i, i + 1, MORE_PLAN) for i in later]


def _result_role(result: ResultSet, chosen: ResultSet | None) -> Role:
    """What became of a result set's lines."""
    if result is chosen:
        return EXPLAIN_SHOWN
    if result.is_explain:
        return REPEAT if chosen is not None and _same(result, chosen) else OTHER_EXPLAIN
    if result.is_warnings:
        return WARNINGS
    names = [c.strip().lower() for c in result.columns]
    if any(name in PLAN_COLUMNS for name in names):
        return OTHER_PLAN
    return FOREIGN if any(names) else NO_COLUMNS


def _same(result: ResultSet, chosen: ResultSet) -> bool:
    """Whether `result` is a copy of `chosen`, as `ResultSet.key()` tells (without building the
    keys of big plans when their rows compare equal or their sizes differ)."""
    if result.columns != chosen.columns or len(result.rows) != len(chosen.rows):
        return False
    return result.rows == chosen.rows or result.key() == chosen.key()


def _plan_mark(lines: list[str], found: list[ResultSet], place: PlanPlace) -> Mark:
    """The lines of the JSON or tree plan: the client's box or record around it, else from its
    column name to its last line of plan text (chat right after it is not part of it)."""
    label = "JSON" if place.kind == "json" else "tree"
    role = ("plan", f"the {label} plan shown") if place.shown else ("ignored", f"a {label} plan, not the one shown")
    box = next((r for r in found if r.start <= place.at < r.end), None)
    if box is not None:
        return box.start, box.end, role
    start, end = place.at, place.end
    while end > start + 1 and not _plan_text(lines, end - 1, place):
        end -= 1
    if start and lines[start - 1].strip() and place.header.match(lines[start - 1]):
        start -= 1
    return start, end, role


def _plan_text(lines: list[str], i: int, place: PlanPlace) -> bool:
    """Whether line `i`, after the first line of a plan, may be part of it: plan text, or the rest
    of a tree line a terminal wrapped (its figures' parenthesis left open, or ending the line)."""
    if place.text.search(lines[i]):
        return True
    if place.kind != "tree":
        return False
    previous = lines[i - 1].rstrip()
    return previous.count("(") > previous.count(")") or (not previous.endswith(")") and lines[i].rstrip().endswith(")"))


def _taken(
    cleaned: Cleaned, query_at: int | None, roles: list[Role | None], filled: list[bool]
) -> list[tuple[int, Role | None, bool]]:
    """Give the lines the cleanup emptied their role in `roles` and `filled` (over whatever a reader
    made of the empty lines they became); return the entries of the lines it dropped: code fences,
    a diff's headers and removed lines, and lines put back at the end of another, which share its role."""
    numbers = cleaned.numbers
    query_number = numbers[query_at] if query_at is not None else None
    dropped: list[tuple[int, Role | None, bool]] = []
    for first, last, kind in cleaned.taken:
        if kind in _DROPPED:
            dropped.append((first, _DROPPED[kind], True))
            continue
        if kind == "joined":
            dropped.append((first, roles[bisect_right(numbers, first) - 1], True))
            continue
        role = QUERY if first == query_number else _TAKEN[kind]
        start, end = bisect_left(numbers, first), bisect_right(numbers, last)
        roles[start:end] = [role] * (end - start)
        filled[start:end] = [True] * (end - start)
    return dropped


def _spans(entries: list[tuple[int, Role | None, bool]]) -> list[LineSpan]:
    """Entries (line number, role, holds text) in order, as spans: consecutive lines of one role,
    over empty lines in no span; a span starts and ends on a line that holds text."""
    spans: list[LineSpan] = []
    current: Role | None = None
    first = last = 0
    for number, role, filled in entries:
        if role is None:
            continue
        if role != current:
            if current is not None and first:
                spans.append(LineSpan(first, last, *current))
            current, first, last = role, 0, 0
        if filled:
            first, last = first or number, number
    if current is not None and first:
        spans.append(LineSpan(first, last, *current))
    return spans
