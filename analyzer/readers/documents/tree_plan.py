"""Reader for MySQL 8 `EXPLAIN FORMAT=TREE` (8.0.16+) and `EXPLAIN ANALYZE` (8.0.18+) output.

Each plan line reads `-> <operation>  (cost=… rows=…) (actual time=….….. rows=… loops=…)`, children
indented further than their parent. The text may come as printed by the client: inside the one-cell
box of `mysql -t`, after `EXPLAIN: ` in vertical output, on one line with `\\n` escapes from `-B`, or
with long lines hard-wrapped by a terminal (such lines are rejoined, with a notice). People also keep
it behind a comment's marker (`-- `, `# `, `// `), or retype it as a Markdown list whose bullets
(`- `, `* `, `+ `) stand for the arrows, read only where each item names an operation.

What is said rather than guessed: a line of other text inside the plan makes the reading truncated
when it stands for lines left out (`...`, `(snip)`, `// 중략`), else uncertain; so does indentation
that puts a line between two levels, or that nests differently with another width of a tab. A
`Select #N` block an editor dedented out of the node that refers to `(select #N)` is put back there.

`plan` is a list of root nodes (normally one), each a dict:
`operation` (the full text), `kind` (short name: "Table scan", "Index lookup", "Filter", …;
"Operation" when unknown), `table`, `index`, `condition` (str or None), `cost` (total cost of
`cost=first..total`), `rows` (estimates, float or None), `actual_time_first`, `actual_time_last`
(ms per loop), `actual_rows` (rows per loop), `loops` (int; 0 for "never executed"), `children`
(list of nodes). A `Select #2 (subquery in condition; dependent)` heading is a node of kind
"Select" whose child is the subquery's top node.

The flattened `rows` have one row per table access, in the columns `id, select_type, table, type,
key, rows, extra`, with `r_rows`, `loops`, `actual_time` before `extra` when the text has EXPLAIN
ANALYZE figures (see `ANALYZE_COLUMNS`). Access kinds map to classic `type` values (Table scan ->
ALL, Index lookup -> ref, …); Filter, Sort, temporary tables and join buffers above an access become
its `extra` items, as tabular EXPLAIN would print them.
"""

from __future__ import annotations

import math
import re

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import Plan
from analyzer.repair.unwrap.documents import join_plan_pieces
from analyzer.structs import dataclass, field
from analyzer.wording import describe_lines, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# Nesting deeper than this is cut off (with a notice); real plans stay far below it.
MAX_DEPTH = 100

TREE_COLUMNS = ["id", "select_type", "table", "type", "key", "rows", "extra"]
# With EXPLAIN ANALYZE figures: `r_rows` = actual rows per loop (comparable to `rows`, as MariaDB's
# r_rows), `loops` = how often the access ran (0 = never executed), `actual_time` = "first..last"
# milliseconds per loop, as printed.
ANALYZE_COLUMNS = ["id", "select_type", "table", "type", "key", "rows", "r_rows", "loops", "actual_time", "extra"]

_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
# Figure groups at the end of a line (matched on right-stripped text, so no `\s*` to backtrack).
_TAILS = [
    ("never", lazy_regex(r"\(never executed\)$")),
    ("actual", lazy_regex(rf"\(actual time=({_NUM})\.\.({_NUM}) rows=({_NUM}) loops=({_NUM})\)$")),
    ("actual_rows", lazy_regex(rf"\(actual rows=({_NUM}) loops=({_NUM})\)$")),
    ("cost", lazy_regex(rf"\(cost=({_NUM})(?:\.\.({_NUM}))? rows=({_NUM})\)$")),
    ("rows", lazy_regex(rf"\(rows=({_NUM})\)$")),
]
_FIGURES_AT_END = lazy_regex(rf"\((?:cost=|actual |never executed|rows={_NUM}\))[^()]*\)\s*$")
# EXPLAIN ANALYZE's own figures: the manual prints them wrapped onto a line of their own after the estimates.
_MEASURED = lazy_regex(r"\((?:actual |never executed\))")
# A plan line: optional client decoration (box border, `EXPLAIN: `, a quote, a list bullet or a
# code comment's marker: `-- `, `# ` and `// ` are how plans are kept in source files), then `-> `.
_LINE = lazy_regex(
    r"^(?P<ws>[ \t]*)(?:(?P<prefix>[|│║*'\"#+\u2022-]|--|//|EXPLAIN:|ANALYZE:)(?P<indent>[ \t]*))?-> ?(?P<body>.*)$"
)
# A plan retyped as a Markdown list: the bullet stands for the arrow (read only where its text
# names an operation, see `_plan_lines`).
_BULLET_LINE = lazy_regex(r"^(?P<ws>[ \t]*)[-*+\u2022][ \t]+(?P<body>\S.*)$")
_BULLETS = ("-", "*", "+", "\u2022")
# Where a paste may hold such a list (`parse_tree` looks no further when it holds no arrow either).
_BULLET_TEXT = lazy_regex(r"^[ \t]*[-*+\u2022][ \t]+\S", re.MULTILINE)
_BORDER_LINE = lazy_regex(r"^\s*[+┌├└╔╠╚][-+─┬┼┴═╦╬╩┐┤┘╗╣╝]*\s*$")
_CELL_BARS = ("|", "│", "║")
_BATCH_ESCAPE = lazy_regex(r"\\(.)")
_BATCH_CHARS = {"n": "\n", "t": "\t", "0": "\0", "r": "\r", "\\": "\\"}

# (kind, pattern, classic access type). Patterns are tried in order on the operation text.
_ACCESS = [
    (
        "Single-row covering index lookup",
        r"Single-row covering index lookup on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?",
        "eq_ref",
    ),
    (
        "Single-row index lookup",
        r"Single-row index lookup on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?",
        "eq_ref",
    ),
    (
        "Covering index lookup",
        r"Covering index lookup on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?",
        "ref",
    ),
    ("Index lookup", r"Index lookup on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?", "ref"),
    (
        "Covering index range scan",
        r"Covering index range scan on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: over \((?P<c>.*)\))?",
        "range",
    ),
    (
        "Index range scan",
        r"Index range scan on (?P<t><[^>]+>|\S+)(?: using (?P<i>\S+))?(?: over \((?P<c>.*)\))?",
        "range",
    ),
    (
        "Covering index skip scan",
        r"Covering index skip scan (?:for \w+ )?on (?P<t><[^>]+>|\S+) using (?P<i>\S+)",
        "range",
    ),
    ("Index skip scan", r"Index skip scan (?:for \w+ )?on (?P<t><[^>]+>|\S+) using (?P<i>\S+)", "range"),
    ("Group index skip scan", r"Group index skip scan on (?P<t><[^>]+>|\S+) using (?P<i>\S+)", "range"),
    ("Covering index scan", r"Covering index scan on (?P<t><[^>]+>|\S+) using (?P<i>\S+)", "index"),
    ("Index scan", r"Index scan on (?P<t><[^>]+>|\S+) using (?P<i>\S+)", "index"),
    (
        "Full-text index search",
        r"Full-text index search on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?",
        "fulltext",
    ),
    (
        "Multi-range index lookup",
        r"Multi-range index lookup on (?P<t><[^>]+>|\S+) using (?P<i>\S+)(?: \((?P<c>.*)\))?",
        "range",
    ),
    ("Constant row", r"Constant row from (?P<t><[^>]+>|\S+)", "const"),
    ("Table scan", r"Table scan on (?P<t><[^>]+>|\S+)", "ALL"),
]

# (kind, pattern) for the other iterators; the kind is the name the UI shows.
_OTHER = [
    ("Select", r"Select #(?P<n>\d+)"),
    ("Filter", r"Filter: (?P<c>.*)"),
    ("Sort", r"Sort(?: row IDs| with duplicate removal)?(?::|$)"),
    ("Aggregate using temporary table", r"Aggregate using temporary table"),
    ("Group aggregate", r"Group aggregate"),
    ("Group (no aggregates)", r"Group \(no aggregates\)"),
    ("Aggregate", r"Aggregate"),
    (
        "Index merge",
        r"(?:Sort-deduplicate by row ID|Deduplicate rows sorted by row ID|Intersect rows sorted by row ID|Index merge)",
    ),
    ("Nested loop join", r"Nested loop (?P<j>[\w ]+?join|antijoin|semijoin)"),
    ("Hash join", r"(?:(?:Inner|Left|Right|Full) )?[Hh]ash (?:join|antijoin|semijoin|left join)(?: \((?P<c>.*)\))?"),
    ("Batched key access join", r"Batched key access (?:inner |left |semi|anti)?\w*"),
    ("Batch input rows", r"Batch input rows"),
    ("Hash", r"Hash$"),
    ("Weedout", r"Remove duplicate .*\(weedout\)"),
    ("Remove duplicates", r"Remove duplicates"),
    ("Union materialize", r"(?:Union|Union all|Except|Intersect)(?: all)? materialize"),
    ("Materialize", r"Materialize"),
    ("Temporary table", r"Temporary table"),
    ("Stream results", r"Stream results"),
    ("Limit", r"Limit(?:/Offset)?:"),
    ("Offset", r"Offset:"),
    ("Window aggregate", r"Window (?:multi-pass )?aggregate"),
    ("Append", r"Append"),
    ("Zero rows", r"Zero (?:input )?rows(?: \((?P<c>.*)\))?"),
    ("Rows fetched before execution", r"Rows fetched before execution"),
    ("Alternative plans", r"Alternative plans"),
    ("Update", r"Update "),
    ("Delete", r"Delete from "),
]
ACCESS_TYPES = {kind: access for kind, _, access in _ACCESS}
_SELECT_HEADING = lazy_regex(r"Select #(\d+)\s*(?:\((.*)\))?")
_SELECT_NUMBER = lazy_regex(r"Select #(\d+)")
# How a condition or a select list refers to a subquery printed in its own `Select #N` block.
_SELECT_REFERENCE = lazy_regex(r"\(select #(\d+)\)", re.IGNORECASE)
# A line of other text inside a plan: the marks of a comment or a box around its text, and what
# says that plan lines were left out there (dots, an ellipsis, a word for it in a few words).
_MARKS = "/#*-|│║()[]<>{}!=~_\"' \t"
_ELLIPSES = ("..", "…", "⋯")
_ELISION_WORDS_AT_MOST = 5
_ELISION_WORDS = lazy_regex(
    r"\b(?:snip\w*|omit\w*|omis\w*|elided|elision|skip\w*|truncat\w*|etc|gekürzt|ausgelassen|пропущ\w*|сокращ\w*)\b"
    r"|중략|생략|후략|略",
    re.IGNORECASE,
)
_GROUP_NAME = lazy_regex(r"\(\?P<\w+>")
# Every kind in order of preference, and one regex that finds which applies in a single pass
# (its alternatives in the same order, inner groups made non-capturing).
_KINDS = [(kind, lazy_regex(pattern)) for kind, pattern, _ in _ACCESS] + [
    (kind, lazy_regex(pattern)) for kind, pattern in _OTHER
]
_SELECTOR = lazy_regex(
    "|".join(f"(?P<k{number}>{_GROUP_NAME.sub('(?:', pattern.pattern)})" for number, (_, pattern) in enumerate(_KINDS))
)


def plan_line(lines: list[str]) -> int | None:
    """Index of the first `-> operation` line, else of the first list item naming an operation."""
    for i, line in enumerate(lines):
        if "->" in line and (match := _LINE.match(line)) and match.group("body").strip():
            return i
    for i, line in enumerate(lines):
        if line.lstrip()[:1] in _BULLETS and _bullet_node(line) is not None:
            return i
    return None


def parse_tree(text: str, numbers: list[int] | None = None) -> Plan | None:
    """A Plan with format "tree" when `text` holds `-> …` plan lines (or a list of operations
    written with bullets), else None. `numbers` are the paste's numbers of the lines of `text`,
    for notices (else they count from 1)."""
    if "->" not in text and not _BULLET_TEXT.search(text):
        return None
    notices: list[str] = []
    lines, origins = _expand_batch(text.split("\n"))
    items, wrapped = _plan_lines(lines)
    # Keep the runs of lines that read as plans (a client's `    -> ` continuation prompt also
    # starts with an arrow; a list of prose is no plan).
    plans = [block for block in _split_plans(items) if _reads_as_plan(block)]
    if not plans:
        return None
    first = plans[0]

    def number(at: int) -> int:
        return numbers[origins[at]] if numbers is not None else origins[at] + 1

    nodes = [_parse_line(entry.body) for entry in first]
    notices += _reading_notices(plans, wrapped)
    nesting = _nest(first, nodes, number)
    roots = nesting.roots
    if nesting.flat:
        notices.append(
            "The indentation of the plan was lost, so its nesting could not be recovered; nodes are listed in order."
        )
    notices += nesting.notices
    if _too_deep(roots):
        notices.append(f"The plan nests deeper than {MAX_DEPTH} levels; deeper nodes are left out.")
    elided, other = _foreign_lines(items, first, lines)
    notices += _foreign_notices(elided, other, lines, number)
    columns, rows, tables, sources = flatten_with_sources(roots)
    analyzed = "loops" in columns
    variant = "MySQL EXPLAIN ANALYZE" if analyzed else "MySQL EXPLAIN FORMAT=TREE"
    # The model, built from the rows' nodes while they are at hand (flattening costs as much again).
    from analyzer.readers.documents.document_model import operations_tree  # it reads this module's kinds

    plan = Plan(format="tree", columns=columns, rows=rows, plan=roots, tables=tables, notices=notices, variant=variant)
    plan.truncated = bool(elided)
    plan.uncertain = bool(other) or nesting.uncertain
    plan.tree = operations_tree(roots, rows, sources)
    return plan


def _reading_notices(plans: list[list[_Entry]], wrapped: int) -> list[str]:
    """What reading the lines of the `plans` found (the first is shown): other plans, lines a
    terminal wrapped, list bullets read as arrows."""
    notices = []
    first = plans[0]
    if len(plans) > 1:
        if all(_same_plan(first, other) for other in plans[1:]):
            notices.append("The same plan appears more than once in the paste; it is shown once.")
        else:
            notices.append(f"The paste holds {len(plans)} plans; only the first one is shown.")
    if wrapped:
        notices.append(f"Rejoined {plural(wrapped, 'plan line')} hard-wrapped by a terminal or mail client.")
    bullets = sum(entry.bullet for entry in first)
    if bullets:
        notices.append(f"Read the list's bullets as the plan's arrows ({plural(bullets, 'line')}).")
    return notices


def _foreign_notices(elided: list[int], other: list[int], lines: list[str], number: Callable[[int], int]) -> list[str]:
    """The notices about the lines inside the plan that stand for lines left out (`elided`) and
    those of `other` text."""
    notices = []
    if elided:
        notices.append(
            f"The plan leaves out part of its lines: {_quoted(elided, lines, number)} "
            f"{'stands' if len(elided) == 1 else 'stand'} for lines left out."
        )
    if other:
        notices.append(
            f"Ignored {plural(len(other), 'line')} of other text inside the plan ({_quoted(other, lines, number)}); "
            "lines of the plan may be missing there."
        )
    return notices


def make_node(
    operation: str,
    *,
    table: str | None = None,
    index: str | None = None,
    condition: str | None = None,
    cost: float | None = None,
    rows: float | None = None,
    actual_time_first: float | None = None,
    actual_time_last: float | None = None,
    actual_rows: float | None = None,
    loops: int | None = None,
    children: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A plan node; `kind`, and `table`/`index`/`condition` when not given, come from the text."""
    kind, found_table, found_index, found_condition = describe(operation)
    return {
        "operation": operation,
        "kind": kind,
        "table": table if table is not None else found_table,
        "index": index if index is not None else found_index,
        "condition": condition if condition is not None else found_condition,
        "cost": cost,
        "rows": rows,
        "actual_time_first": actual_time_first,
        "actual_time_last": actual_time_last,
        "actual_rows": actual_rows,
        "loops": loops,
        "children": children if children is not None else [],
    }


def describe(operation: str) -> tuple[str, str | None, str | None, str | None]:
    """(kind, table, index, condition) read from an operation text such as
    "Index lookup on t2 using idx_a (a=t1.a)"."""
    selected = _SELECTOR.match(operation)
    if selected is None or selected.lastgroup is None:
        return "Operation", None, None, None
    kind, pattern = _KINDS[int(selected.lastgroup[1:])]
    match = pattern.match(operation)
    groups = match.groupdict() if match else {}
    if kind == "Nested loop join" and groups.get("j"):
        kind = f"Nested loop {groups['j']}"
    return kind, groups.get("t"), groups.get("i"), groups.get("c")


# --- reading the lines ---------------------------------------------------------------------------


def _expand_batch(lines: list[str]) -> tuple[list[str], list[int]]:
    """Undo `mysql -B` escaping on a line that holds a whole plan with literal `\\n`; with the lines,
    the index of the line of `lines` each comes from."""
    out: list[str] = []
    origins: list[int] = []
    for at, line in enumerate(lines):
        if "->" in line and "\\n" in line and re.search(r"\\n\s*->", line):
            pieces = _BATCH_ESCAPE.sub(lambda m: _BATCH_CHARS.get(m.group(1), m.group(1)), line).split("\n")
            out.extend(pieces)
            origins.extend([at] * len(pieces))
        else:
            out.append(line)
            origins.append(at)
    return out, origins


class _Entry:
    """A plan line being read: its indentation (tabs as 4 columns) and the blanks it is made of,
    its text after the arrow or bullet, its line, and whether a list bullet stood for the arrow;
    with what is needed to tell whether the next line continues it (once one may)."""

    __slots__ = ("at", "body", "bullet", "indent", "lead", "open_parens", "pieces", "tail")

    def __init__(self, lead: str, body: str, at: int, bullet: bool) -> None:
        self.lead = lead
        self.indent = len(lead.expandtabs(4))
        self.body = body
        self.at = at
        self.bullet = bullet
        self.pieces: list[str] | None = None

    def continued_by(self, line: str) -> bool:
        """A wrapped line: this one has an unclosed parenthesis, or it lacks the figures the next
        line ends with, or the next line starts with the measured figures this one lacks."""
        if self.pieces is None:
            self.pieces = [self.body]
            self.open_parens = self.body.count("(") - self.body.count(")")
            self.tail = self.body[-_TAIL_CHARS:]
        if self.open_parens > 0:
            return True
        if _MEASURED.match(line.lstrip()) and not _MEASURED.search(self.tail):
            return True
        return not _FIGURES_AT_END.search(self.tail) and bool(_FIGURES_AT_END.search(line))

    def add(self, piece: str) -> None:
        assert self.pieces is not None  # `continued_by` came first
        self.pieces.append(piece)
        self.open_parens += piece.count("(") - piece.count(")")
        self.tail = (self.tail + piece)[-_TAIL_CHARS:]


# Figures at the end of a line are shorter than this.
_TAIL_CHARS = 200

if TYPE_CHECKING:
    # A plan line, or where other text interrupts the plan lines: the index of a line holding
    # text, None for an empty one.
    _Item = _Entry | int | None


def _plan_lines(lines: list[str]) -> tuple[list[_Item], int]:
    """The plan lines as entries, with the index of each line of other text (None for an empty
    line) where it interrupts them.

    A line that is no plan line but directly follows one that looks cut off is a hard-wrapped
    continuation and is joined to it; the count of such joins is returned too. When every
    wrapped line has the same length, a terminal cut them at its width and the pieces join as
    they are; otherwise a mail client broke them at a space, which is put back. A list item is a
    plan line when its text names an operation (`_names_operation`).
    """
    items: list[_Item] = []
    cut_lengths: set[int] = set()
    previous_length = 0
    for at, raw in enumerate(lines):
        check_deadline()
        arrow = "->" in raw
        bulleted = raw.lstrip()[:1] in _BULLETS
        last = items[-1] if items else None
        if not (arrow or bulleted or isinstance(last, _Entry)):
            items.append(at if raw.strip() and not _BORDER_LINE.match(raw) else None)
            continue  # other text after other text: nothing to join it to
        if _BORDER_LINE.match(raw):
            continue
        line = raw.rstrip()
        if line.endswith(_CELL_BARS) or (line.endswith("\\") and line[-2:-1].isspace()):
            # The right border of the client's box, or a shell-style line continuation.
            line = line[:-1].rstrip()
        entry = _arrow_node(line, at) if arrow else None
        if entry is None and bulleted:
            entry = _bullet_node(line, at)
        if entry is not None:
            items.append(entry)
            previous_length = len(raw)
            continue
        if isinstance(last, _Entry) and line.strip() and last.continued_by(line):
            last.add(line)
            cut_lengths.add(previous_length)
            previous_length = len(raw)
            continue
        items.append(at if line.strip() else None)
    mailed = len(cut_lengths) > 1
    wrapped = 0
    for item in items:
        if isinstance(item, _Entry) and item.pieces is not None and len(item.pieces) > 1:
            wrapped += len(item.pieces) - 1
            item.body = join_plan_pieces(item.pieces, mailed)
    return items, wrapped


def _arrow_node(line: str, at: int) -> _Entry | None:
    """The entry of a `-> operation` line (an arrow alone names no operation: an empty
    continuation prompt)."""
    match = _LINE.match(line)
    if not match or not match.group("body").strip():
        return None
    ws, prefix, indent, body = match.groups()
    return _Entry(indent if prefix else ws, body.rstrip(), at, bullet=False)


def _bullet_node(line: str, at: int = 0) -> _Entry | None:
    """The entry of a list item whose text names an operation (a plan retyped as a list)."""
    match = _BULLET_LINE.match(line)
    if not match or not _names_operation(match.group("body")):
        return None
    return _Entry(match.group("ws"), match.group("body").rstrip(), at, bullet=True)


def _reads_as_plan(block: list[_Entry]) -> bool:
    """Whether a run of plan lines is a plan: one of its lines names an operation; a list without
    arrows also shows the figures of one somewhere (a list of words is no plan)."""
    if all(entry.bullet for entry in block):
        return any(_has_figures(_parse_line(entry.body)) for entry in block)
    return any(_names_operation(entry.body) for entry in block)


def _split_plans(items: list[_Item]) -> list[list[_Entry]]:
    """Separate plans: after interrupting text, a line no deeper than the first root starts a new
    one, unless it heads the block of a subquery the plan so far refers to or has not shown yet
    (`_belongs`)."""
    blocks: list[list[_Entry]] = [[]]
    interrupted = False
    mentioned: set[int] = set()
    headed: set[int] = set()
    for item in items:
        if not isinstance(item, _Entry):
            interrupted = interrupted or bool(blocks[-1])
            continue
        block = blocks[-1]
        heading = _SELECT_NUMBER.match(item.body)
        apart = heading is None or not _belongs(int(heading.group(1)), mentioned, headed)
        if interrupted and block and item.indent <= block[0].indent and apart:
            blocks.append([])
            mentioned, headed = set(), set()
        interrupted = False
        blocks[-1].append(item)
        if heading is not None:
            headed.add(int(heading.group(1)))
        elif "#" in item.body:
            mentioned.update(int(n) for n in _SELECT_REFERENCE.findall(item.body))
    return [block for block in blocks if block]


def _belongs(select: int, mentioned: set[int], headed: set[int]) -> bool:
    """Whether the block of `Select #select` is part of the plan whose lines so far refer to the
    selects `mentioned` and head those `headed`: they name it, or its number is a subquery's
    (the outer select, #1, has no heading) that they have not shown."""
    return select in mentioned or (select >= 2 and select not in headed)


def _same_plan(first: list[_Entry], other: list[_Entry]) -> bool:
    return [entry.body for entry in first] == [entry.body for entry in other]


def _foreign_lines(items: list[_Item], block: list[_Entry], lines: list[str]) -> tuple[list[int], list[int]]:
    """The lines of other text in the plan `block`: (those that stand for left-out lines, the
    rest). Lines between its first and last line count, and an elision right before or after it
    (over empty lines)."""
    first = next(k for k, item in enumerate(items) if item is block[0])
    last = next(k for k in range(len(items) - 1, -1, -1) if items[k] is block[-1])
    elided: list[int] = []
    other: list[int] = []
    for item in items[first + 1 : last]:
        if isinstance(item, int) and (kind := _other_line(lines[item])) is not None:
            (elided if kind == "elision" else other).append(item)
    for k in (_beside(items, first, -1), _beside(items, last, 1)):
        at = items[k] if k is not None else None
        if isinstance(at, int) and _other_line(lines[at]) == "elision":
            elided.append(at)
    return sorted(elided), other


def _beside(items: list[_Item], k: int, step: int) -> int | None:
    """The position of the first item holding text from `k` on in direction `step`, over empty lines."""
    k += step
    while 0 <= k < len(items) and items[k] is None:
        k += step
    return k if 0 <= k < len(items) else None


def _other_line(line: str) -> str | None:
    """What a line of other text inside a plan is: "elision" when it stands for lines left out
    (it starts with dots or an ellipsis, or says so in a few words: `(snip)`, `-- omitted --`,
    `// 중략`, `(省略)`), "text" for any other text, None when it holds nothing but a comment's or
    a box's marks."""
    core = line.strip().strip(_MARKS)
    if not core:
        return None
    if core.startswith(_ELLIPSES):
        return "elision"
    if len(core.split()) <= _ELISION_WORDS_AT_MOST and _ELISION_WORDS.search(core):
        return "elision"
    return "text"


def _quoted(ats: list[int], lines: list[str], number: Callable[[int], int]) -> str:
    """`line 4 ('...')`, `lines 4 and 9 ('...', '// 중략')`: the lines and what they hold."""
    texts = list(dict.fromkeys(_shortened(lines[at].strip()) for at in ats))
    shown = ", ".join(f"'{text}'" for text in texts[:3]) + (", …" if len(texts) > 3 else "")
    return f"{describe_lines([number(at) for at in ats])} ({shown})"


def _shortened(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _parse_line(body: str) -> dict[str, Any]:
    """One node from the text after `-> `, its figures read from the end of the line."""
    check_deadline()
    figures: dict[str, Any] = {}
    text = body.rstrip()
    for _ in range(3):
        for name, pattern in _TAILS:
            match = pattern.search(text) if text.endswith(")") else None
            if match and name not in figures:
                figures[name] = match.groups()
                text = text[: match.start()].rstrip()
                break
        else:
            break
    node = make_node(text.strip())
    if "cost" in figures:
        first, last, rows = figures["cost"]
        node["cost"] = _finite(last if last is not None else first)
        node["rows"] = _finite(rows)
    elif "rows" in figures:
        node["rows"] = _finite(figures["rows"][0])
    if "actual" in figures:
        first, last, rows, loops = figures["actual"]
        node["actual_time_first"], node["actual_time_last"] = _finite(first), _finite(last)
        node["actual_rows"], node["loops"] = _finite(rows), _loops(loops)
    elif "actual_rows" in figures:
        rows, loops = figures["actual_rows"]
        node["actual_rows"], node["loops"] = _finite(rows), _loops(loops)
    elif "never" in figures:
        node["loops"] = 0
    return node


def _names_operation(body: str) -> bool:
    """Whether the text after `-> ` reads as a plan's line: it names a known operation or ends
    with figures (what `_parse_line` would find, without building the node where it cannot)."""
    text = body.rstrip()
    if text.endswith(")"):
        node = _parse_line(body)
        return node["kind"] != "Operation" or _has_figures(node)
    selected = _SELECTOR.match(text.strip())  # no figures: the kind is all there is
    return selected is not None and selected.lastgroup is not None


def _finite(text: str) -> float | None:
    """A printed figure as a float; None for one too large to represent (`1e999`)."""
    value = float(text)
    return value if math.isfinite(value) else None


def _loops(text: str) -> int | None:
    value = _finite(text)
    return int(value) if value is not None else None


def _has_figures(node: dict[str, Any]) -> bool:
    return node["cost"] is not None or node["rows"] is not None or node["loops"] is not None


@dataclass
class _Nesting:
    """The nodes of a plan put together by their indentation: the roots, whether the indentation
    was lost (every line at one level), the notices about it and whether it was unclear."""

    roots: list[dict[str, Any]]
    flat: bool = False
    notices: list[str] = field(default_factory=list)
    uncertain: bool = False


def _nest(entries: list[_Entry], nodes: list[dict[str, Any]], number: Callable[[int], int]) -> _Nesting:
    """Attach each node to the closest previous node indented less than it; a subquery's block
    indented outside the node that refers to it goes back under it (`_attach_subqueries`). Lines
    whose level is unclear (`_parents`, and tabs mixed with spaces: `_tab_reading`) are named."""
    indents = [entry.indent for entry in entries]
    nesting = _Nesting([])
    nesting.flat = len(entries) > 1 and len(set(indents)) == 1
    if nesting.flat:
        parents: list[int | None] = [None] * len(entries)
        odd: list[int] = []
    else:
        parents, odd = _tab_reading(entries, nesting, number) or _parents(indents)
        moved = _attach_subqueries(entries, parents)
        if moved:
            nesting.notices.append(_moved_notice(entries, parents, moved, number))
        odd = [k for k in odd if k not in moved]
    if odd:
        nesting.uncertain = True
        nesting.notices.append(
            f"The indentation of {describe_lines([number(entries[k].at) for k in odd])} lies between the levels "
            f"of the lines around {'it' if len(odd) == 1 else 'them'}: read as nested under the closest line "
            "above indented less, which may be wrong."
        )
    for k, node in enumerate(nodes):
        parent = parents[k]
        if parent is None:
            nesting.roots.append(node)
        else:
            nodes[parent]["children"].append(node)
    return nesting


def _parents(indents: list[int]) -> tuple[list[int | None], list[int]]:
    """Per line, the index of the closest previous line indented less (None for a root); and the
    lines indented less than their previous sibling (between the level of their parent and that of
    its other children, or a root less than the first root), whose place is unclear."""
    parents: list[int | None] = []
    odd: list[int] = []
    stack: list[int] = []
    last_child: dict[int | None, int] = {}  # per parent, the indentation of its last child
    for k, indent in enumerate(indents):
        while stack and indents[stack[-1]] >= indent:
            stack.pop()
        parent = stack[-1] if stack else None
        if last_child.get(parent, indent) > indent:
            odd.append(k)
        last_child[parent] = indent
        parents.append(parent)
        stack.append(k)
    return parents, odd


# Tab widths a tab in a plan's indentation may have stood for, the usual one first.
_TAB_WIDTHS = (4, 8, 2)


def _tab_reading(
    entries: list[_Entry], nesting: _Nesting, number: Callable[[int], int]
) -> tuple[list[int | None], list[int]] | None:
    """Where the indentation mixes tabs and spaces and the nesting depends on the width of a tab:
    the nesting with the one width that nests every line consistently (with a notice), else with
    tabs of 4 columns and the lines whose place depends on it named (uncertain). None when the
    width does not matter."""
    leads = [entry.lead for entry in entries]
    if not (any("\t" in lead for lead in leads) and any(" " in lead for lead in leads)):
        return None
    readings = {width: _parents([len(lead.expandtabs(width)) for lead in leads]) for width in _TAB_WIDTHS}
    if all(reading[0] == readings[4][0] for reading in readings.values()):
        return None
    consistent = [width for width, (_, odd) in readings.items() if not odd]
    if len({tuple(readings[width][0]) for width in consistent}) == 1:
        width = consistent[0]
        nesting.notices.append(
            f"Read each tab in the plan's indentation as {width} spaces: the only width that nests every line consistently."
        )
        return readings[width]
    parents = readings[4][0]
    differ = [k for k in range(len(entries)) if any(reading[0][k] != parents[k] for reading in readings.values())]
    nesting.uncertain = True
    nesting.notices.append(
        f"The plan's indentation mixes tabs and spaces, and how deep {describe_lines([number(entries[k].at) for k in differ])} "
        f"{'is' if len(differ) == 1 else 'are'} nested depends on the width of a tab: read with tabs of 4 columns."
    )
    return readings[4]


def _attach_subqueries(entries: list[_Entry], parents: list[int | None]) -> dict[int, bool]:
    """Put each `Select #N` block indented no deeper than a node that refers to `(select #N)` and
    outside it back under that node (MySQL prints it there); a block standing apart as a root that
    no node refers to goes under the first root (a subquery of the select list) when its number is
    a subquery's not shown yet. Returns the headings moved: their index, and whether a line refers to them."""
    mentions: dict[int, int] = {}  # per select number, the last line referring to it
    headed: set[int] = set()
    moved: dict[int, bool] = {}
    for k, entry in enumerate(entries):
        heading = _SELECT_NUMBER.match(entry.body)
        if heading is None:
            if "#" in entry.body:
                mentions.update((int(n), k) for n in _SELECT_REFERENCE.findall(entry.body))
            continue
        select = int(heading.group(1))
        referrer = mentions.get(select)
        if referrer is not None:
            if entry.indent <= entries[referrer].indent and not _descends(k, referrer, parents):
                parents[k] = referrer
                moved[k] = True
        elif parents[k] is None and k > 0 and _belongs(select, set(), headed):
            parents[k] = 0
            moved[k] = False
        headed.add(select)
    return moved


def _descends(k: int, ancestor: int, parents: list[int | None]) -> bool:
    """Whether line `k` is nested under line `ancestor` (looked for up to MAX_DEPTH levels up;
    deeper, it is taken to be)."""
    parent = parents[k]
    for _ in range(MAX_DEPTH):
        if parent is None:
            return False
        if parent == ancestor:
            return True
        parent = parents[parent]
    return True


def _moved_notice(
    entries: list[_Entry], parents: list[int | None], moved: dict[int, bool], number: Callable[[int], int]
) -> str:
    """The notice about the subquery blocks put back in their place: where each went."""
    places = []
    for k, referred in list(moved.items())[:5]:
        parent = parents[k]
        assert parent is not None  # a moved block has its place
        why = "which refers to it" if referred else "the top of the plan"
        places.append(f"line {number(entries[k].at)} under line {number(entries[parent].at)} ({why})")
    more = f" and {len(moved) - 5} more" if len(moved) > 5 else ""
    return (
        f"Repaired the indentation of {plural(len(moved), 'subquery block')} set outside the plan line "
        f"{'it belongs' if len(moved) == 1 else 'they belong'} to: read {', '.join(places)}{more}."
    )


def _too_deep(roots: list[dict[str, Any]]) -> bool:
    """Cut children below MAX_DEPTH (iteratively); True when something was cut."""
    cut = False
    stack = [(node, 1) for node in roots]
    while stack:
        node, depth = stack.pop()
        if depth >= MAX_DEPTH and node["children"]:
            node["children"] = []
            cut = True
        stack.extend((child, depth + 1) for child in node["children"])
    return cut


# --- the flattened per-table view ----------------------------------------------------------------


@dataclass
class _Scope:
    """The select a node belongs to, as tabular EXPLAIN would number it."""

    select_id: str | None
    select_type: str | None


@dataclass
class _Flat:
    rows: list[dict[str, Any]] = field(default_factory=list)
    scopes: int = 1
    sources: list[dict[str, Any]] = field(default_factory=list)  # per row, the node it stands for


def flatten_nodes(roots: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, str | None]], list[str]]:
    """(columns, rows, tables): one row per table access of a node tree, in plan order.

    Access kinds map to classic `type` values (Table scan -> ALL, Index lookup -> ref, …); Filter,
    Sort, temporary tables and join buffers above an access become its `extra` items.
    """
    columns, rows, tables, _ = flatten_with_sources(roots)
    return columns, rows, tables


def flatten_with_sources(
    roots: list[dict[str, Any]],
) -> tuple[list[str], list[dict[str, str | None]], list[str], list[dict[str, Any]]]:
    """`flatten_nodes`, and per row the node it was made from (to link the plan model to rows)."""
    flat = _Flat()
    top = _Scope("1", "PRIMARY")
    for root in roots:
        _walk(root, top, flat, 0)
    analyzed = any(row["loops"] is not None for row in flat.rows)
    for row in flat.rows:
        if flat.scopes == 1 and row["select_type"] == "PRIMARY":
            row["select_type"] = "SIMPLE"
        items: list[str] = []
        for item in row.pop("_extra"):
            if item not in items:
                items.append(item)
        row["extra"] = "; ".join(items) if items else None
    columns = list(ANALYZE_COLUMNS if analyzed else TREE_COLUMNS)
    rows = [{name: row.get(name) for name in columns} for row in flat.rows]
    tables = [row["table"] for row in rows if row["table"] is not None]
    return columns, rows, tables, flat.sources


def _walk(node: dict[str, Any], scope: _Scope, flat: _Flat, depth: int) -> list[int]:
    """Emit the rows of `node`'s subtree; return the indexes of those in `scope` (same select)."""
    if depth > MAX_DEPTH:
        return []
    kind = node["kind"]
    mine: list[int] = []
    if kind == "Index merge":
        mine.append(_index_merge_row(node, scope, flat))
        return mine
    table = node["table"] or ""
    union_result = kind in ACCESS_TYPES and table.startswith("<union")
    if kind in ACCESS_TYPES and table != "<temporary>" and not union_result:
        mine.append(_access_row(node, scope, flat))
    elif kind in ("Zero rows", "Rows fetched before execution"):
        mine.append(_pseudo_row(node, scope, flat))
    children = node["children"]
    for position, child in enumerate(children):
        child_scope = _child_scope(node, child, position, scope, flat)
        found = _walk(child, child_scope, flat, depth + 1)
        if child_scope is not scope:
            continue
        if kind == "Batched key access join" and position > 0 and found:
            flat.rows[found[0]]["_extra"].append("Using join buffer (Batched Key Access)")
        if kind == "Hash join" and child["kind"] != "Hash" and found:
            # The probe side is the table joined with a hash join (tabular Extra says so on it).
            flat.rows[found[0]]["_extra"].append("Using join buffer (hash join)")
        mine.extend(found)
    if union_result:
        # Tabular EXPLAIN lists the UNION RESULT row after the rows of its members.
        _access_row(node, _Scope(None, "UNION RESULT"), flat)
    if not mine:
        return mine
    rows = flat.rows
    if kind == "Filter":
        rows[mine[-1]]["_extra"].append("Using where")
    elif kind == "Sort":
        rows[mine[0]]["_extra"].append("Using filesort")
    elif kind in ("Aggregate using temporary table", "Temporary table") or node["table"] == "<temporary>":
        rows[mine[0]]["_extra"].append("Using temporary")
    elif kind == "Weedout":
        rows[mine[0]]["_extra"].append("Start temporary")
        rows[mine[-1]]["_extra"].append("End temporary")
    return mine


def _child_scope(node: dict[str, Any], child: dict[str, Any], position: int, scope: _Scope, flat: _Flat) -> _Scope:
    """The scope of a child: a `Select #N` heading, the select materialized into `<derivedN>` /
    `<subqueryN>`, or a union member starts a new one."""
    if child["kind"] == "Select":
        select_id, select_type = select_heading(child["operation"])
        flat.scopes += 1
        return _Scope(str(select_id) if select_id is not None else None, select_type)
    table = node["table"] or ""
    if node["kind"] in ACCESS_TYPES and child["kind"] == "Materialize" and table != "<temporary>":
        # A derived table, CTE or materialized subquery: the select that fills it.
        number = re.match(r"<(derived|subquery)(\d+)>", table)
        flat.scopes += 1
        if number:
            return _Scope(number.group(2), "DERIVED" if number.group(1) == "derived" else "MATERIALIZED")
        materialized = "deduplication" in child["operation"] or table.startswith("<subquery")
        return _Scope(None, "MATERIALIZED" if materialized else "DERIVED")
    if node["kind"] in ACCESS_TYPES and table.startswith("<union"):
        return _Scope(None, scope.select_type)
    if node["kind"] in ("Union materialize", "Append"):
        flat.scopes += 1
        return _Scope(None, scope.select_type if position == 0 else "UNION")
    return scope


def select_heading(operation: str) -> tuple[int | None, str]:
    """(select id, select_type) of a `Select #2 (subquery in condition; dependent)` heading."""
    match = _SELECT_HEADING.match(operation)
    details = (match.group(2) or "") if match else ""
    select_type = "SUBQUERY"
    if "dependent" in details:
        select_type = "DEPENDENT SUBQUERY"
    elif "uncacheable" in details:
        select_type = "UNCACHEABLE SUBQUERY"
    return (int(match.group(1)) if match else None), select_type


def _new_row(scope: _Scope, flat: _Flat, node: dict[str, Any]) -> int:
    loops = node["loops"]
    first, last = node["actual_time_first"], node["actual_time_last"]
    flat.sources.append(node)
    flat.rows.append(
        {
            "id": scope.select_id,
            "select_type": scope.select_type,
            "table": node["table"],
            "type": None,
            "key": node["index"],
            "rows": _number(node["rows"]),
            "r_rows": _number(node["actual_rows"]),
            "loops": str(loops) if loops is not None else None,
            "actual_time": f"{_number(first)}..{_number(last)}" if first is not None and last is not None else None,
            "_extra": [],
        }
    )
    return len(flat.rows) - 1


def _access_row(node: dict[str, Any], scope: _Scope, flat: _Flat) -> int:
    index = _new_row(scope, flat, node)
    row = flat.rows[index]
    kind, text = node["kind"], node["operation"]
    row["type"] = ACCESS_TYPES[kind]
    extra = row["_extra"]
    if "re-planned for each iteration" in text:
        extra.append("Range checked for each record")
    if ", with index condition:" in text:
        extra.append("Using index condition")
    if kind.startswith(("Covering", "Single-row covering")):
        extra.append("Using index")
    if kind in ("Covering index skip scan", "Index skip scan"):
        extra.append("Using index for skip scan")
    if kind == "Group index skip scan":
        extra.append("Using index for group-by")
    if "(reverse)" in text:
        extra.append("Backward index scan")
    if "(Multi-Range Read)" in text or kind == "Multi-range index lookup":
        extra.append("Using MRR")
    return index


def _index_merge_row(node: dict[str, Any], scope: _Scope, flat: _Flat) -> int:
    """Index merge is one row in tabular EXPLAIN: its table, type index_merge, the keys merged."""
    index = _new_row(scope, flat, node)
    parts = []
    stack = list(reversed(node["children"]))
    while stack:
        child = stack.pop()
        if child["kind"] in ACCESS_TYPES:
            parts.append(child)
        else:
            stack.extend(reversed(child["children"]))
    row = flat.rows[index]
    row["type"] = "index_merge"
    row["table"] = next((part["table"] for part in parts if part["table"]), None)
    keys = [part["index"] for part in parts if part["index"]]
    row["key"] = ",".join(keys) if keys else None
    operation = node["operation"]
    method = (
        "intersect" if operation.startswith("Intersect") else "union" if "Deduplicate" in operation else "sort_union"
    )
    row["_extra"].append(f"Using {method}({','.join(keys)})")
    return index


def _pseudo_row(node: dict[str, Any], scope: _Scope, flat: _Flat) -> int:
    """`Zero rows (Impossible WHERE)` and `Rows fetched before execution` stand for the table-less
    rows tabular EXPLAIN prints with the reason in Extra."""
    index = _new_row(scope, flat, node)
    row = flat.rows[index]
    if node["kind"] == "Rows fetched before execution":
        row["type"] = "system"
    elif node["condition"]:
        row["_extra"].append(node["condition"])
    return index


def _number(value: float | None) -> str | None:
    """A figure as a plain decimal string: 2.98e+6 -> "2980000", 0.5 -> "0.5"."""
    if value is None:
        return None
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)
