"""Reader for MySQL 8 `EXPLAIN FORMAT=TREE` (8.0.16+) and `EXPLAIN ANALYZE` (8.0.18+) output.

Each plan line reads `-> <operation>  (cost=… rows=…) (actual time=….….. rows=… loops=…)`, children
indented further than their parent. The text may come as printed by the client: inside the one-cell
box of `mysql -t`, after `EXPLAIN: ` in vertical output, on one line with `\\n` escapes from `-B`, or
with long lines hard-wrapped by a terminal (such lines are rejoined, with a notice).

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
from analyzer.structs import dataclass, field
from analyzer.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
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
# A plan line: optional client decoration (box border, `EXPLAIN: `, a quote or bullet), then `-> `.
# (An SQL comment `-- ` is how plans are often kept in .sql files.)
_LINE = lazy_regex(r"^(?P<ws>[ \t]*)(?:(?P<prefix>[|│║*'\"]|--|EXPLAIN:|ANALYZE:)(?P<indent>[ \t]*))?-> ?(?P<body>.*)$")
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
    """Index of the first `-> operation` line, if any."""
    for i, line in enumerate(lines):
        if "->" in line and (match := _LINE.match(line)) and match.group("body").strip():
            return i
    return None


def parse_tree(text: str) -> Plan | None:
    """A Plan with format "tree" when `text` holds `-> …` plan lines, else None."""
    if "->" not in text:
        return None
    notices: list[str] = []
    lines = _expand_batch(text.split("\n"))
    entries, wrapped = _plan_lines(lines)
    if not entries:
        return None
    # Keep the runs of `->` lines that read as plans (a client's `    -> ` continuation prompt
    # also starts with an arrow).
    plans = [block for block in _split_plans(entries) if any(_names_operation(body) for _, body in block)]
    if not plans:
        return None
    first = plans[0]
    nodes = [_parse_line(body) for _, body in first]
    if len(plans) > 1:
        if all(_same_plan(first, other) for other in plans[1:]):
            notices.append("The same plan appears more than once in the paste; it is shown once.")
        else:
            notices.append(f"The paste holds {len(plans)} plans; only the first one is shown.")
    if wrapped:
        notices.append(f"Rejoined {plural(wrapped, 'plan line')} hard-wrapped by a terminal or mail client.")
    roots, flat = _nest(first, nodes)
    if flat:
        notices.append(
            "The indentation of the plan was lost, so its nesting could not be recovered; nodes are listed in order."
        )
    if _too_deep(roots):
        notices.append(f"The plan nests deeper than {MAX_DEPTH} levels; deeper nodes are left out.")
    columns, rows, tables, sources = flatten_with_sources(roots)
    analyzed = "loops" in columns
    variant = "MySQL EXPLAIN ANALYZE" if analyzed else "MySQL EXPLAIN FORMAT=TREE"
    # The model, built from the rows' nodes while they are at hand (flattening costs as much again).
    from analyzer.readers.document_model import operations_tree  # it reads this module's kinds

    plan = Plan(format="tree", columns=columns, rows=rows, plan=roots, tables=tables, notices=notices, variant=variant)
    plan.tree = operations_tree(roots, rows, sources)
    return plan


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


def _expand_batch(lines: list[str]) -> list[str]:
    """Undo `mysql -B` escaping on a line that holds a whole plan with literal `\\n`."""
    out: list[str] = []
    for line in lines:
        if "->" in line and "\\n" in line and re.search(r"\\n\s*->", line):
            out.extend(_BATCH_ESCAPE.sub(lambda m: _BATCH_CHARS.get(m.group(1), m.group(1)), line).split("\n"))
        else:
            out.append(line)
    return out


class _Line:
    """A plan line being read, with what is needed to tell whether the next line continues it."""

    __slots__ = ("indent", "open_parens", "pieces", "tail")

    def __init__(self, indent: int, first: str) -> None:
        self.indent = indent
        self.pieces = [first]
        self.open_parens = first.count("(") - first.count(")")
        self.tail = first[-_TAIL_CHARS:]

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.open_parens += piece.count("(") - piece.count(")")
        self.tail = (self.tail + piece)[-_TAIL_CHARS:]

    def continued_by(self, line: str) -> bool:
        """A wrapped line: this one has an unclosed parenthesis, or it lacks the figures the next
        line ends with, or the next line starts with the measured figures this one lacks."""
        if self.open_parens > 0:
            return True
        if _MEASURED.match(line.lstrip()) and not _MEASURED.search(self.tail):
            return True
        return not _FIGURES_AT_END.search(self.tail) and bool(_FIGURES_AT_END.search(line))


# Figures at the end of a line are shorter than this.
_TAIL_CHARS = 200


def _plan_lines(lines: list[str]) -> tuple[list[tuple[int, str] | None], int]:
    """The plan lines as (indent, body), with None where other text interrupts them.

    A line that does not start with `->` but directly follows a plan line that looks cut off is
    a hard-wrapped continuation and is joined to it; the count of such joins is returned too.
    When every wrapped line has the same length, a terminal cut them at its width and the pieces
    join as they are; otherwise a mail client broke them at a space, which is put back.
    """
    # A plan line is kept as (indent, body) until a line may continue it (most are never continued).
    entries: list[_Line | tuple[int, str] | None] = []
    cut_lengths: set[int] = set()
    previous_length = 0
    for raw in lines:
        check_deadline()
        arrow = "->" in raw
        if not arrow and (not entries or entries[-1] is None):
            continue  # other text after other text: nothing to join it to
        if _BORDER_LINE.match(raw):
            continue
        line = raw.rstrip()
        if line.endswith(_CELL_BARS) or (line.endswith("\\") and line[-2:-1].isspace()):
            # The right border of the client's box, or a shell-style line continuation.
            line = line[:-1].rstrip()
        match = _LINE.match(line) if arrow else None
        if match and not match.group("body").strip():
            match = None  # an arrow alone names no operation (an empty continuation prompt)
        if match:
            ws, prefix, indent, body = match.groups()
            entries.append((len((indent if prefix else ws).expandtabs(4)), body.rstrip()))
            previous_length = len(raw)
            continue
        last = entries[-1] if entries else None
        if last is not None and line.strip():
            if isinstance(last, tuple):
                last = entries[-1] = _Line(*last)
            if last.continued_by(line):
                last.add(line)
                cut_lengths.add(previous_length)
                previous_length = len(raw)
                continue
        if entries and entries[-1] is not None:
            entries.append(None)
    while entries and entries[-1] is None:
        entries.pop()
    glue = "" if len(cut_lengths) <= 1 else " "
    wrapped = 0
    result: list[tuple[int, str] | None] = []
    for entry in entries:
        if entry is None or isinstance(entry, tuple):
            result.append(entry)
            continue
        first, *rest = entry.pieces
        wrapped += len(rest)
        body = first + "".join(glue + piece if glue and not piece[:1].isspace() else piece for piece in rest)
        result.append((entry.indent, body.rstrip()))
    return result, wrapped


def _split_plans(entries: list[tuple[int, str] | None]) -> list[list[tuple[int, str]]]:
    """Separate plans: after interrupting text, a line no deeper than the first root starts a new one."""
    blocks: list[list[tuple[int, str]]] = [[]]
    interrupted = False
    for entry in entries:
        if entry is None:
            interrupted = True
            continue
        if interrupted and blocks[-1] and entry[0] <= blocks[-1][0][0]:
            blocks.append([])
        interrupted = False
        blocks[-1].append(entry)
    return [block for block in blocks if block]


def _same_plan(first: list[tuple[int, str]], other: list[tuple[int, str]]) -> bool:
    return [body for _, body in first] == [body for _, body in other]


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


def _nest(entries: list[tuple[int, str]], nodes: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Attach each node to the closest previous node indented less than it."""
    roots: list[dict[str, Any]] = []
    stack: list[tuple[int, dict[str, Any]]] = []
    for (indent, _), node in zip(entries, nodes, strict=True):
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            stack[-1][1]["children"].append(node)
        else:
            roots.append(node)
        stack.append((indent, node))
    flat = len(roots) > 1 and len({indent for indent, _ in entries}) == 1
    return roots, flat


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
