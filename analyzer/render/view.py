"""What the analysis partial shows, prepared from the `Analysis.to_dict()` dict.

`build_view(analysis, raw_explain)` does the work a template should not: it pairs each
annotation with the piece of cell text it explains, sorts findings by severity, builds the
plan tree and the clean text copies, and highlights the query and the raw paste. No Django
here: highlighted HTML comes back as plain strings the template tag marks safe.
"""

from __future__ import annotations

import itertools
import re

from analyzer.insight import glossary
from analyzer.lazy import lazy_regex
from analyzer.model import LINE_ROLES, LineSpan, Plan
from analyzer.render.finding_groups import FindingGroup, group_findings
from analyzer.render.highlight import highlight_explain, highlight_explain_parts, highlight_query
from analyzer.render.icicle import icicle_svg
from analyzer.render.plan_tree import FlatNode, TreeNode, build_tree, count, flatten
from analyzer.render.profile_view import (
    Path,
    Profile,
    TreeWriter,
    format_ms,
    format_share,
    heat_legend,
    node_id,
    open_paths,
    read_profile,
)
from analyzer.render.text import format_table, format_vertical
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SEVERITY_ORDER = {"bad": 0, "warning": 1, "info": 2, "good": 3}
# Columns whose long values (lists of keys, "; "-joined Extra items) may break after , and ;
# when longer than WRAP_WIDTH characters (their box in site.css is 34ch wide at most).
WRAPPING_COLUMNS = {"possible_keys", "ref", "extra"}
WRAP_WIDTH = 30
_NUMBER = lazy_regex(r"^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?: \(\d+(?:\.\d+)?%\))?$", re.IGNORECASE)
_EXTRA_SPLIT = lazy_regex(r"(;\s*)")
# The query as the optimizer rewrote it (Note 1003 of SHOW WARNINGS): the server prints it in
# lower case, often after a `/* select#1 */` comment; other notes are sentences ("Select 2 was ...").
_REWRITTEN_QUERY = lazy_regex(r"^\s*(?:/\* select#\d+ \*/\s*)?(?:select|insert|update|delete|replace|with)\b")
# Formats whose rows were flattened from a document: MariaDB's JSON prints `filtered` as 19.40385628,
# which the table shows with two decimals, as tabular EXPLAIN prints it.
DOCUMENT_FORMATS = ("json", "tree")
ROUNDED_COLUMNS = ("filtered", "r_filtered", "r_rows")
_LONG_DECIMAL = lazy_regex(r"^-?\d+\.\d{3,}$")
# A page shows at most this many plan rows and findings (a 1 MiB paste can hold 30,000 rows, whose
# cells would make a page of many megabytes); the raw text and the JSON keep them all.
MAX_SHOWN_ROWS = 1000
MAX_SHOWN_FINDINGS = 200
MAX_FINDING_LINKS = 50
# The raw paste marks at most this many spans of lines (each carries its reason); the rest is shown unmarked.
MAX_MARKED_SPANS = 500
# How each role of a line reads: the marker beside the lines, and what it means.
LINE_MARKERS = {
    "plan": ("plan", "read as the plan"),
    "warnings": ("warnings", "read as warnings"),
    "query": ("query", "read as the query"),
    "ignored": ("not read", "ignored"),
}


@dataclass
class TermNote:
    """An explanation the page writes once, in its list of terms; every term it explains points
    at `id` (that of the explanation's text). Annotations share one only when all of it is the same."""

    id: str
    title: str
    severity: str
    explanation: str
    url: str
    slug: str
    term: str


class TermNotes:
    """The notes of one page, one per distinct content, numbered as first met."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.by_content: dict[tuple[str, ...], TermNote] = {}

    def of(self, annotation: dict[str, Any]) -> TermNote:
        """The note explaining `annotation`, made when it is the first with its content."""
        content = (
            str(annotation.get("title") or annotation.get("term") or ""),
            str(annotation.get("severity") or "info"),
            *(str(annotation.get(key) or "") for key in ("explanation", "url", "slug", "term")),
        )
        note = self.by_content.get(content)
        if note is None:
            note = self.by_content[content] = TermNote(f"{self.prefix}t{len(self.by_content) + 1}", *content)
        return note


@dataclass
class Segment:
    text: str
    note: TermNote | None = None


@dataclass
class Cell:
    column: str
    value: str | None
    numeric: bool
    wraps: bool
    segments: list[Segment] = field(default_factory=list)
    chips: list[Segment] = field(default_factory=list)  # annotations whose text is not in the cell

    @property
    def is_null(self) -> bool:
        return self.value is None


@dataclass
class RowView:
    index: int
    number: int
    cells: list[Cell]
    affected: bool
    severity: str | None  # the worst severity among the row's annotations


@dataclass
class ServerNote:
    """A SHOW WARNINGS message; `sql_html` is set when it is the rewritten query."""

    text: str
    sql_html: str = ""


@dataclass
class FindingView:
    severity: str
    message: str
    kind: str
    rows: list[tuple[int, str]]  # (row index, label such as "row 2 (e)")
    nodes: list[tuple[str, str]] = field(default_factory=list)  # (anchor of a tree node, its label)


@dataclass
class ProfileView:
    """Where the time went (EXPLAIN ANALYZE): the total, the slowest step, the graph and the tree
    with each step's figures, as HTML and SVG built from escaped parts."""

    total: str  # "90.0 ms"
    timed: int  # steps with timings
    slowest: tuple[str, str, str, str] | None  # (anchor, label, self time, share)
    graph_svg: str
    graph_id: str  # of the graph's caption
    tree_html: str
    legend: list[tuple[int, str, str]] = field(default_factory=heat_legend)  # (level, word, shares)


@dataclass
class RawPart:
    """Lines `first` to `last` of the raw paste as highlighted HTML, with what became of them:
    `role` and `reason` of their `LineSpan`, or no role for lines in no span."""

    html: str
    first: int
    last: int
    role: str = ""
    reason: str = ""
    note_id: str = ""  # of the reason's text in the legend

    @property
    def marker(self) -> str:
        """The word beside the lines: `plan`, `not read`, …"""
        return LINE_MARKERS[self.role][0] if self.role else ""

    @property
    def where(self) -> str:
        """`line 3` or `lines 3–9`."""
        return f"line {self.first}" if self.first == self.last else f"lines {self.first}\u2013{self.last}"


@dataclass
class LineNote:
    """A role and reason of marked lines, written once in the legend; the marks of all the spans
    with them point at `id` (that of the reason's text)."""

    id: str
    role: str
    reason: str

    @property
    def marker(self) -> str:
        return LINE_MARKERS[self.role][0]

    @property
    def meaning(self) -> str:
        """What the marker means: `read as the plan`, `ignored`, …"""
        return LINE_MARKERS[self.role][1]


@dataclass
class AdviceView:
    """One index to add: its statement (with an id for its copy button), why, the rows it helps."""

    statement: str
    reason: str
    rows: list[tuple[int, str]]
    id: str


@dataclass
class AnalysisView:
    format: str
    variant: str
    columns: list[tuple[str, bool]]  # (name, numeric)
    rows: list[RowView]
    findings: list[FindingView]
    notices: list[str]
    warnings: list[ServerNote]
    truncated: bool
    uncertain: bool
    tree: list[FlatNode]
    tree_size: int
    clean_table: str
    clean_vertical: str
    query: str | None
    query_html: str
    raw_html: str
    annotation_count: int
    prefix: str
    row_count: int = 0  # rows in the plan; `rows` holds the first MAX_SHOWN_ROWS of them
    finding_count: int = 0  # findings in the analysis; `findings` holds the most severe ones
    # The raw paste cut where what became of its lines changes (else `raw_html` shows it unmarked),
    # the roles and reasons found in it (for the legend), and how many of its lines with text were not read.
    raw_parts: list[RawPart] = field(default_factory=list)
    line_notes: list[LineNote] = field(default_factory=list)  # by role, then as first met
    lines_not_read: int = 0
    spans_marked: int = 0
    spans_unmarked: int = 0  # spans past MAX_MARKED_SPANS, shown without their marks
    profile: ProfileView | None = None  # for a plan with timings
    terms: list[TermNote] = field(default_factory=list)  # the explanations of the terms in `rows`
    advice: list[AdviceView] = field(default_factory=list)  # indexes to add
    # `findings` of one kind together, most severe first: what the page shows.
    finding_groups: list[FindingGroup[FindingView]] = field(default_factory=list)
    # Whether the page has a raw paste and clean copies to show; without `parts` (see `build_view`)
    # their text is left out, and loaded when their collapsed sections are opened.
    has_paste: bool = False
    has_copies: bool = False

    @property
    def copies(self) -> list[tuple[str, str]]:
        """The clean copies, as (name, text): the table, then the vertical output."""
        return [("table", self.clean_table), ("vertical", self.clean_vertical)]
    server: str = ""  # "MariaDB 10.11", "MySQL": whose documentation the terms link to, unless `variant` says it


_FLAVOUR_NAMES = {"mysql": "MySQL", "mariadb": "MariaDB"}


def _server_label(analysis: dict[str, Any]) -> str:
    """The server the analysis found ("MySQL 8.0", "MariaDB"), or "" when unknown or when the
    variant already names it."""
    server = analysis.get("server")
    if not isinstance(server, dict):
        return ""
    name = _FLAVOUR_NAMES.get(str(server.get("flavour")))
    if name is None:
        return ""
    version = server.get("version")
    label = f"{name} {version}" if isinstance(version, str) and version else name
    return "" if str(analysis.get("variant") or "").startswith(label) else label


def _worst(severities: list[str]) -> str | None:
    return min(severities, key=lambda s: SEVERITY_ORDER.get(s, 9)) if severities else None


def _is_numeric_column(values: list[str | None]) -> bool:
    present = [v.strip() for v in values if v is not None and v.strip()]
    return bool(present) and all(_NUMBER.match(v) for v in present)


def _items(column: str, value: str) -> list[str]:
    """The cell split into the pieces the glossary names: Extra items, or the whole value."""
    return [p for p in _EXTRA_SPLIT.split(value) if p] if column == "extra" else [value]


def _claims(annotation: dict[str, Any], column: str, item: str) -> bool:
    text = item.strip()
    if not text or text.startswith(";"):
        return False
    term = str(annotation.get("term") or "")
    if term and term.strip().lower() == text.lower():
        return True
    slug = annotation.get("slug")
    if slug:
        entry = glossary.match(column, text)
        return entry is not None and entry.slug == slug
    return False


def _cell(column: str, value: str | None, numeric: bool, annotations: list[dict[str, Any]], notes: TermNotes) -> Cell:
    cell = Cell(column=column, value=value, numeric=numeric, wraps=False)
    if value is None:
        cell.chips = [Segment(a.get("term") or a.get("title") or "", notes.of(a)) for a in annotations]
        return cell
    pending = list(annotations)
    for item in _items(column, value):
        owner = next((a for a in pending if _claims(a, column, item)), None)
        if owner is not None:
            pending.remove(owner)
            cell.segments.append(Segment(item, notes.of(owner)))
        else:
            cell.segments.append(Segment(item))
    cell.chips = [Segment(str(a.get("term") or a.get("title") or "note"), notes.of(a)) for a in pending]
    width = len(value) + sum(len(chip.text) + 1 for chip in cell.chips)
    cell.wraps = column in WRAPPING_COLUMNS and width > WRAP_WIDTH
    return cell


def _row_label(index: int, rows: list[dict[str, Any]]) -> str:
    table = rows[index].get("table") if 0 <= index < len(rows) else None
    return f"row {index + 1} ({table})" if table else f"row {index + 1}"


def build_view(
    analysis: dict[str, Any], raw_explain: str | None = None, prefix: str = "", parts: bool = True
) -> AnalysisView:
    """The view of an `Analysis.to_dict()` dict, with the raw paste highlighted; `prefix` starts
    the ids of its explanations (a page may show two analyses). Without `parts`, the clean copies
    and the highlighted paste are left out (a saved explain's page loads them when they are opened)."""
    columns: list[str] = [str(c) for c in analysis.get("columns") or []]
    rows: list[dict[str, Any]] = analysis.get("rows") or []
    annotations: list[dict[str, Any]] = analysis.get("annotations") or []
    affected = set(analysis.get("affected_rows") or [])
    shown = rows[:MAX_SHOWN_ROWS]
    if analysis.get("format") in DOCUMENT_FORMATS:
        shown = [_two_decimals(row) for row in shown]
    numeric = {c: _is_numeric_column([row.get(c) for row in rows]) for c in columns}
    notes = TermNotes(prefix)
    row_views = _row_views(columns, shown, numeric, _by_cell(columns, annotations), affected, notes)
    findings = sorted(analysis.get("findings") or [], key=lambda f: SEVERITY_ORDER.get(f.get("severity"), 9))
    nodes = build_tree(analysis)
    tree = _tree(nodes, len(row_views))
    shown_nodes = {item.node.path: item.node for item in tree}
    plan = _shown_plan(analysis, columns, shown)
    query = analysis.get("query")
    view = AnalysisView(
        format=str(analysis.get("format") or ""),
        variant=str(analysis.get("variant") or ""),
        server=_server_label(analysis),
        columns=[(c, numeric[c]) for c in columns],
        rows=row_views,
        findings=[_finding_view(f, rows, len(row_views), shown_nodes, prefix) for f in findings[:MAX_SHOWN_FINDINGS]],
        notices=[str(n) for n in analysis.get("notices") or []],
        warnings=[_server_note(str(w)) for w in analysis.get("warnings") or []],
        truncated=bool(analysis.get("truncated")),
        uncertain=bool(analysis.get("uncertain")),
        tree=tree,
        tree_size=count(nodes),
        clean_table=format_table(plan) if rows and parts else "",
        clean_vertical=format_vertical(plan) if rows and parts else "",
        query=query,
        query_html=highlight_query(query, _table_rows(shown)) if query else "",
        raw_html="",
        annotation_count=len(annotations),
        prefix=prefix,
        row_count=len(rows),
        finding_count=len(findings),
        terms=list(notes.by_content.values()),
        advice=_advice_views(analysis.get("advice"), rows, len(row_views), prefix),
        has_paste=bool(raw_explain),
        has_copies=bool(rows),
    )
    view.finding_groups = group_findings(view.findings, lambda f: f.severity, lambda f: f.kind, lambda f: f.message)
    profile = read_profile(analysis)
    if profile is not None and nodes:
        targets = {path for f in findings[:MAX_SHOWN_FINDINGS] for path in _finding_paths(f.get("path"))}
        view.profile = _profile_view(profile, nodes, shown_nodes, prefix, targets)
    if raw_explain:
        _raw_paste(view, raw_explain, analysis.get("lines"), highlight=parts)
    return view


def _shown_plan(analysis: dict[str, Any], columns: list[str], shown: list[dict[str, Any]]) -> Plan:
    """The rows the page shows, as a plan for the clean copies."""
    return Plan(
        format=analysis.get("format") or "table",
        columns=columns,
        rows=[{c: _as_text(r.get(c)) for c in columns} for r in shown],
    )


def _profile_view(
    profile: Profile, nodes: list[TreeNode], shown: dict[Path, TreeNode], prefix: str, targets: set[Path]
) -> ProfileView:
    """The profile's part of the page: figures, graph, and the tree folded where it is cold."""
    slowest = None
    if profile.slowest is not None and profile.slowest.path in shown:
        timing = profile.slowest
        slowest = (node_id(prefix, timing.path), timing.label, format_ms(timing.self_ms), format_share(timing.share))
    writer = TreeWriter(profile, prefix, open_paths(profile, targets))
    graph_id = f"{prefix}icicle-title"
    return ProfileView(
        total=format_ms(profile.total_ms),
        timed=len(profile.timings),
        slowest=slowest,
        graph_svg=icicle_svg(nodes, profile, prefix, graph_id),
        graph_id=graph_id,
        tree_html=writer.tree_html(nodes)[0],
    )


def _raw_paste(view: AnalysisView, raw: str, stored: Any, highlight: bool = True) -> None:
    """The raw paste of `view`, highlighted, and marked by what became of its lines when the
    analysis says so (`stored`: its `lines`; analyses saved before they existed have none).
    Without `highlight`, only how many of its lines were not read."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")  # the line breaks the analysis counted
    lines = text.split("\n")
    spans = _line_spans(stored, len(lines))
    if not spans:
        view.raw_html = highlight_explain(raw) if highlight else ""
        return
    view.spans_unmarked = max(0, len(spans) - MAX_MARKED_SPANS)
    spans = spans[:MAX_MARKED_SPANS]
    view.spans_marked = len(spans)
    if highlight:
        view.raw_parts = _raw_parts(text, lines, spans)
        view.line_notes = _line_notes(view.raw_parts, view.prefix)
    view.lines_not_read = sum(
        1 for span in spans if span.role == "ignored" for line in lines[span.first - 1 : span.last] if line.strip()
    )


def _line_spans(stored: Any, count: int) -> list[LineSpan]:
    """The analysis's line spans, or none when they are missing or do not fit a paste of `count`
    lines (in order, apart, known roles): then the paste is shown unmarked."""
    spans: list[LineSpan] = []
    for item in stored if isinstance(stored, list) else []:
        span = _line_span(item)
        if span is None or not (spans[-1].last if spans else 0) < span.first <= span.last <= count:
            return []
        spans.append(span)
    return spans


def _line_span(item: Any) -> LineSpan | None:
    """A stored `{"first", "last", "role", "reason"}`, or None when it is not one."""
    if not isinstance(item, dict):
        return None
    first, last, role, reason = (item.get(key) for key in ("first", "last", "role", "reason"))
    if type(first) is not int or type(last) is not int or role not in LINE_ROLES or not isinstance(reason, str):
        return None
    return LineSpan(first, last, str(role), reason)


def _raw_parts(text: str, lines: list[str], spans: list[LineSpan]) -> list[RawPart]:
    """`text` (of `lines`) cut into parts at the edges of `spans`, highlighted as a whole."""
    edges = sorted({0, len(lines)} | {s.first - 1 for s in spans} | {s.last for s in spans})
    cuts: list[int] = []  # where the lines at the inner edges start in `text`
    for a, b in itertools.pairwise(edges[:-1]):
        cuts.append((cuts[-1] if cuts else 0) + sum(map(len, lines[a:b])) + b - a)
    html = highlight_explain_parts(text, cuts)
    by_first = {span.first: span for span in spans}
    parts: list[RawPart] = []
    for n, (a, b) in enumerate(itertools.pairwise(edges)):
        span = by_first.get(a + 1)
        if span is not None and span.last == b:
            parts.append(RawPart(html[n], a + 1, b, span.role, span.reason))
        else:
            parts.append(RawPart(html[n], a + 1, b))
    return parts


def _line_notes(parts: list[RawPart], prefix: str) -> list[LineNote]:
    """One note per distinct role and reason of the marked `parts`, which get its id."""
    notes: dict[tuple[str, str], LineNote] = {}
    for part in parts:
        if part.role:
            note = notes.get((part.role, part.reason))
            if note is None:
                note = notes[part.role, part.reason] = LineNote(
                    f"{prefix}line-why-{len(notes) + 1}", part.role, part.reason
                )
            part.note_id = note.id
    return sorted(notes.values(), key=lambda note: LINE_ROLES.index(note.role))


def _server_note(message: str) -> ServerNote:
    if _REWRITTEN_QUERY.match(message):
        return ServerNote(message, highlight_query(message.strip()))
    return ServerNote(message)


def _by_cell(columns: list[str], annotations: list[dict[str, Any]]) -> dict[tuple[int, str], list[dict[str, Any]]]:
    """The annotations per (row index, column); one naming no column of the plan goes to Extra
    (or to the last column)."""
    by_cell: dict[tuple[int, str], list[dict[str, Any]]] = {}
    lower_columns = {c.lower(): c for c in columns}
    fallback_column = lower_columns.get("extra") or (columns[-1] if columns else None)
    for a in annotations:
        column = lower_columns.get(str(a.get("column") or "").lower(), fallback_column)
        if isinstance(a.get("row"), int) and column is not None:
            by_cell.setdefault((a["row"], column), []).append(a)
    return by_cell


def _row_views(
    columns: list[str],
    rows: list[dict[str, Any]],
    numeric: dict[str, bool],
    by_cell: dict[tuple[int, str], list[dict[str, Any]]],
    affected: set[int],
    notes: TermNotes,
) -> list[RowView]:
    row_views = []
    for index, row in enumerate(rows):
        cells = [_cell(c, _as_text(row.get(c)), numeric[c], by_cell.get((index, c), []), notes) for c in columns]
        severities = [str(a.get("severity")) for c in columns for a in by_cell.get((index, c), [])]
        row_views.append(RowView(index, index + 1, cells, index in affected, _worst(severities)))
    return row_views


def _finding_view(
    finding: dict[str, Any], rows: list[dict[str, Any]], shown_rows: int, nodes: dict[Path, TreeNode], prefix: str
) -> FindingView:
    paths = [path for path in _finding_paths(finding.get("path")) if path in nodes][:MAX_FINDING_LINKS]
    return FindingView(
        severity=str(finding.get("severity") or "info"),
        message=str(finding.get("message") or ""),
        kind=str(finding.get("kind") or ""),
        rows=[(r, _row_label(r, rows)) for r in _shown(finding.get("rows"), shown_rows)],
        nodes=[(node_id(prefix, path), nodes[path].label) for path in paths],
    )


def _advice_views(stored: Any, rows: list[dict[str, Any]], shown_rows: int, prefix: str) -> list[AdviceView]:
    """Index advice as stored (`Advice.to_dict()`); explains saved before it existed have none."""
    views = []
    for number, item in enumerate(stored if isinstance(stored, list) else []):
        if isinstance(item, dict) and isinstance(item.get("statement"), str):
            views.append(
                AdviceView(
                    statement=item["statement"] + ";",
                    reason=str(item.get("reason") or ""),
                    rows=[(r, _row_label(r, rows)) for r in _shown(item.get("rows"), shown_rows)],
                    id=f"{prefix}advice-{number}",
                )
            )
    return views


def _finding_paths(stored: Any) -> list[Path]:
    """The tree nodes a finding points at: its `path` (child indexes from the query root), or a list of them."""
    if not isinstance(stored, list) or not stored:
        return []
    candidates = stored if isinstance(stored[0], list) else [stored]
    return [tuple(p) for p in candidates if p and all(type(n) is int and n >= 0 for n in p)]


def _tree(nodes: list[TreeNode], shown_rows: int) -> list[FlatNode]:
    """The plan tree as a flat list, without links to rows the page does not show."""
    tree = flatten(nodes)
    for item in tree:
        if item.node.row is not None and item.node.row >= shown_rows:
            item.node.row = None
    return tree


def _shown(indexes: Any, shown_rows: int) -> list[int]:
    """The row indexes a finding concerns that have a row on the page, at most MAX_FINDING_LINKS."""
    valid = [r for r in indexes or [] if isinstance(r, int) and 0 <= r < shown_rows]
    return valid[:MAX_FINDING_LINKS]


def _two_decimals(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its percentages and measured rows rounded to two decimals (19.40385628 -> 19.40)."""
    rounded = {
        c: f"{float(v):.2f}" for c in ROUNDED_COLUMNS if isinstance(v := row.get(c), str) and _LONG_DECIMAL.match(v)
    }
    return {**row, **rounded} if rounded else row


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _table_rows(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Lower-cased table name (or alias) -> the first row that reads it."""
    tables: dict[str, int] = {}
    for index, row in enumerate(rows):
        name = row.get("table")
        if isinstance(name, str) and name.strip():
            tables.setdefault(name.strip().lower(), index)
    return tables
