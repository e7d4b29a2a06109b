"""The plan region accounted for: a line inside the plan that no reader used, or an elision next to
it, means the reading may lack part of the plan.

An elision (`...`, `…`, `[...]`, `// ... much more text`, `-- snip --`, "omitted", `중략`, `省略`)
inside the region, or right after the last line of a tree or JSON plan, makes the reading `truncated`; any other text inside the region (a comment, a foreign line) makes it
`uncertain`. Either is said with the lines named.
"""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.model import LineSpan, Plan
from analyzer.wording import describe_lines, plural

# A tree step whose figures were replaced by a mark of something left out.
_MASKED = lazy_regex(r"->.*\(\s*(?:\.{3}|\u2026)\s*\)\s*$")
# The formats whose end is not marked: an elision right after the last line read is part of them.
_DOCUMENTS = frozenset({"tree", "json"})
# The reasons of ignored lines that a reader could not place (not prompts, status lines or fences).
_UNPLACED = frozenset({"other text", "other text inside the output"})
_MARKERS = r"(?:#|--|//|/\*|\*|;|>|\||\+)"
_ELISION = lazy_regex(
    rf"^\s*{_MARKERS}?\s*[(\[<{{]?\s*(?:\.{{2,}}|\u2026|\u22ef|snip\b|omitted\b|elided\b"
    r"|(?:and\s+|\d+\s+)?(?:more|other)\s+(?:rows|lines|nodes)\b|etc\b|중략|생략|이하\s*생략|省略|略|以下省略"
    r"|\u2014\s*snip|skip(?:ped)?\b)",
    flags=2,  # re.IGNORECASE
)


def check_region(plan: Plan, text: str) -> None:
    """Flag lines inside and next to the plan region that no reader took."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    inside, after = _unplaced(plan.lines, len(lines))
    if plan.format not in _DOCUMENTS:
        after = []  # a table ends visibly; what follows it (a heredoc's `...`) is not part of it
    elided = [n for n in inside + after if len(lines[n - 1]) <= 80 and _ELISION.match(lines[n - 1])]
    foreign = [n for n in inside if n not in elided and lines[n - 1].strip()]
    if elided and not _said(plan, elided):
        plan.truncated = True
        plan.notices.append(
            f"The paste leaves part of the plan out at {describe_lines(elided)} "
            f"({_quoted(lines[elided[0] - 1])}): the plan shown is incomplete."
        )
    masked = _masked_figures(plan, lines)
    if masked:
        plan.truncated = True
        plan.notices.append(
            f"The figures of {plural(len(masked), 'step')} were left out of the paste ('(...)' on "
            f"{describe_lines(masked)}): their estimates and times are not known."
        )
    if foreign and not _said(plan, foreign):
        plan.uncertain = True
        plan.notices.append(
            f"Text inside the plan that is not EXPLAIN output was left out ({describe_lines(foreign)}); "
            "check that no part of the plan was lost with it."
        )


def _masked_figures(plan: Plan, lines: list[str]) -> list[int]:
    """The lines of a tree plan whose figures stand as `(...)`, as test suites print them."""
    if plan.format != "tree":
        return []
    spans = [span for span in plan.lines if span.role == "plan"]
    numbers = [n for span in spans for n in range(span.first, min(span.last, len(lines)) + 1)]
    return [n for n in numbers if _MASKED.search(lines[n - 1])]


def _unplaced(spans: list[LineSpan], count: int) -> tuple[list[int], list[int]]:
    """The unplaced lines between the plan's first and last line, and the first line after its last
    when no reader took it."""
    placed = [span for span in spans if span.role == "plan"]
    if not placed:
        return [], []
    first, last = placed[0].first, placed[-1].last
    inside: list[int] = []
    after: list[int] = []
    for span in spans:
        if span.role != "ignored" or span.reason not in _UNPLACED:
            if span.first > last:
                break
            continue
        numbers = range(span.first, min(span.last, count) + 1)
        if first < span.first and span.last < last:
            inside.extend(numbers)
        elif span.first > last:
            after.extend(numbers)
            break
    return inside, after[:1]


def _said(plan: Plan, numbers: list[int]) -> bool:
    """Whether a notice already names these lines (a reader that reported the text it skipped)."""
    described = describe_lines(numbers)
    return any(described in notice for notice in plan.notices)


def _quoted(line: str) -> str:
    shown = line.strip()
    return repr(shown if len(shown) <= 40 else shown[:39] + "\u2026")
