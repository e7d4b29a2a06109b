"""The data the analyzer produces: the plan model, the parsed paste, its annotations and findings.

Pure dataclasses, no Django. Every reader produces the same model: a tree of `PlanNode`s under
one root (`operation="query"`), with typed figures (numbers are floats or ints, None when the
paste does not give them) and a link (`row`) to the printed row the table view shows.
`Analysis.to_dict()` is the JSON contract of `POST /api/v1/analyze/` (see README); its `tree`
key is `PlanNode.to_dict()` of the root, and `PlanNode.from_dict()` reads it back from a stored
analysis.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter

from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMATS = ("table", "vertical", "tsv", "csv", "json", "tree")
SEVERITIES = ("good", "info", "warning", "bad")

Row = dict[str, "str | None"]
# Column order of tabular EXPLAIN across servers (lower-cased); `rows` and `Extra` are in every variant.
EXPLAIN_COLUMN_ORDER = (
    "id",
    "select_type",
    "table",
    "partitions",
    "type",
    "possible_keys",
    "key",
    "key_len",
    "ref",
    "rows",
    "r_rows",
    "filtered",
    "r_filtered",
    "extra",
)

# What a node does. A `table` node reads one table (its `access_type` says how); a `join` node
# joins its children with `join_algorithm`; a tabular plan has no join nodes, so each table node
# after the first of its select carries the algorithm that joins it to the tables before it. A
# `subquery` node is where tree and JSON output hang a subquery into the outer plan (`Select #2
# (subquery in condition)`, `attached_subqueries`); tabular output only has the subquery's `select`
# node, its select_type saying what it is.
OPERATIONS = (
    "query",
    "select",
    "table",
    "join",
    "sort",
    "temporary",
    "aggregate",
    "materialize",
    "union",
    "subquery",
    "filter",
    "limit",
    "window",
    "other",
)
JOIN_ALGORITHMS = ("nested_loop", "block_nested_loop", "hash", "batched_key_access")
# What became of a line of the paste (`LineSpan.role`): read as the plan (the EXPLAIN result set, or
# the JSON or tree document, with the client's box or record around it), read as warnings (SHOW
# WARNINGS, the client's `Note (Code …)` lines), the statement the query was taken from, or ignored.
LINE_ROLES = ("plan", "warnings", "query", "ignored")
# Nesting deeper than this is not modelled (the readers refuse such plans long before).
MAX_NODE_DEPTH = 200


class ParseError(ValueError):
    """The text holds no EXPLAIN we can read, is too large (`too_large`), or would take too long to
    read (`too_complex`: its reading ran out of the time budget of `analyzer.deadline`). `line` is
    1-based when known."""

    def __init__(self, message: str, line: int | None = None, *, too_large: bool = False, too_complex: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.too_large = too_large
        self.too_complex = too_complex


@dataclass(slots=True)
class PlanNode:
    """One step of a plan. `label` is the operation as printed (tree output) or a short
        description (tabular output); `extra` holds the Extra items one by one; `row` is the index of
        the printed row in `Plan.rows` this node stands for, if any. Times are milliseconds per loop,
        as MySQL prints them; MariaDB's `r_*` figures are kept under their own names (on a table,
    `r_table_time_ms` is the time spent reading it and `r_other_time_ms` the time spent on the rest,
    such as checking its condition; for a table joined through MariaDB's join buffer, that includes
    the buffer's `r_unpack_time_ms` and `r_other_time_ms`)."""

    operation: str
    label: str
    join_algorithm: str | None = None
    select_id: int | None = None
    select_type: str | None = None
    table: str | None = None
    access_type: str | None = None
    key: str | None = None
    key_length: int | None = None
    ref: list[str] = field(default_factory=list)
    possible_keys: list[str] = field(default_factory=list)
    rows_estimated: float | None = None
    filtered: float | None = None
    cost: float | None = None
    rows_actual: float | None = None
    loops: int | None = None
    time_first_ms: float | None = None
    time_last_ms: float | None = None
    r_rows: float | None = None
    r_filtered: float | None = None
    r_loops: int | None = None
    r_total_time_ms: float | None = None
    r_table_time_ms: float | None = None
    r_other_time_ms: float | None = None
    condition: str | None = None
    extra: list[str] = field(default_factory=list)
    row: int | None = None
    children: list[PlanNode] = field(default_factory=list)

    def walk(self) -> Iterator[PlanNode]:
        """This node and every node under it, depth first, in plan order (iterative: no recursion limit)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def walk_paths(self) -> Iterator[tuple[tuple[int, ...], PlanNode]]:
        """Like `walk()`, each node with its path: the child indexes that lead to it from this node."""
        stack: list[tuple[tuple[int, ...], PlanNode]] = [((), self)]
        while stack:
            path, node = stack.pop()
            yield path, node
            children = node.children
            for index in range(len(children) - 1, -1, -1):
                stack.append((path + (index,), children[index]))

    def by_row(self) -> dict[int, PlanNode]:
        """The nodes that stand for a printed row, by row index."""
        return {node.row: node for node in self.walk() if node.row is not None}

    def to_dict(self) -> dict[str, Any]:
        """Nested plain dicts and lists (the API's `tree`); every field is present, None when absent."""
        out: dict[str, Any] = dict(zip(_NODE_FIELDS, _node_values(self), strict=True))
        for name in _LIST_FIELDS:  # copies, as the API's lists must not be the node's own
            value = out[name]
            if isinstance(value, list):
                out[name] = list(value)
        out["children"] = [child.to_dict() for child in self.children]
        return out

    @classmethod
    def from_dict(cls, data: object, depth: int = 0) -> PlanNode | None:
        """The node `to_dict()` made, or None when `data` is not one; odd fields become None."""
        if not isinstance(data, dict) or depth > MAX_NODE_DEPTH:
            return None
        operation, label = data.get("operation"), data.get("label")
        if not isinstance(operation, str) or not isinstance(label, str):
            return None
        node = cls(operation=operation, label=label)
        for name in _NODE_FIELDS[2:]:
            setattr(node, name, _typed(name, data.get(name)))
        children = data.get("children")
        for child in children if isinstance(children, list) else []:
            converted = cls.from_dict(child, depth + 1)
            if converted is not None:
                node.children.append(converted)
        return node


def _typed(name: str, value: object) -> Any:
    """A stored field's value if it has the field's type, else its empty value."""
    kind = _NODE_TYPES[name]
    if kind is list:
        return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
    if isinstance(value, bool):
        return None
    if kind is float and isinstance(value, int | float):
        return float(value)
    return value if isinstance(value, kind) else None


_NODE_TYPES: dict[str, type] = {
    "operation": str,
    "label": str,
    "join_algorithm": str,
    "select_id": int,
    "select_type": str,
    "table": str,
    "access_type": str,
    "key": str,
    "key_length": int,
    "ref": list,
    "possible_keys": list,
    "rows_estimated": float,
    "filtered": float,
    "cost": float,
    "rows_actual": float,
    "loops": int,
    "time_first_ms": float,
    "time_last_ms": float,
    "r_rows": float,
    "r_filtered": float,
    "r_loops": int,
    "r_total_time_ms": float,
    "r_table_time_ms": float,
    "r_other_time_ms": float,
    "condition": str,
    "extra": list,
    "row": int,
}
_NODE_FIELDS = tuple(_NODE_TYPES)
_LIST_FIELDS = tuple(name for name, kind in _NODE_TYPES.items() if kind is list)
_node_values = attrgetter(*_NODE_FIELDS)  # every field's value in one call, for `PlanNode.to_dict()`


@dataclass(frozen=True, slots=True)
class LineSpan:
    """Lines `first` to `last` (1-based, as the paste's own line breaks count them, CRLF as one)
    and what became of them: `role` is one of `LINE_ROLES`, `reason` says why in a few words."""

    first: int
    last: int
    role: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """The API's `{"first", "last", "role", "reason"}`."""
        return {"first": self.first, "last": self.last, "role": self.role, "reason": self.reason}


@dataclass
class Plan:
    """One EXPLAIN result as parsed from a paste.

    `columns` are the header's names lower-cased, in order; each row maps those names to
    the cell exactly as printed (a string) or None for NULL. For json and tree input,
    `plan` holds the nested plan as the paste gave it and `rows` a flattened per-table view of
    it. `tree` is the plan model every format is read into. `variant` names the statement and
    server that printed it when the output shows them ("MariaDB ANALYZE FORMAT=JSON"). `lines`
    says which lines of the paste were read as what, in order; a line in no span is empty, and no
    spans at all means not known.
    """

    format: str
    variant: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    plan: Any = None
    tables: list[str] = field(default_factory=list)
    query: str | None = None
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    truncated: bool = False
    uncertain: bool = False
    affected_rows: list[int] = field(default_factory=list)
    tree: PlanNode | None = None
    lines: list[LineSpan] = field(default_factory=list)


FLAVOURS = ("mysql", "mariadb")


@dataclass(frozen=True)
class Server:
    """The server that printed a paste, as far as it shows (`insight.server.detect`): `flavour` is
    "mysql", "mariadb" or None, `version` its "major.minor" ("10.11", "8.0") or None."""

    flavour: str | None = None
    version: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The API's `server`."""
        return {"flavour": self.flavour, "version": self.version}


@dataclass
class Annotation:
    row: int
    column: str
    term: str
    severity: str
    title: str
    explanation: str
    url: str
    slug: str = ""


@dataclass
class Finding:
    """What is wrong (or right) with a plan. `rows` are the printed rows it is about (for the table
    view); `path` is the node of the plan tree it is about, as child indexes from the root of
    `Plan.tree`, or None when it is about several nodes or none in particular."""

    severity: str
    message: str
    rows: list[int] = field(default_factory=list)
    kind: str = ""
    path: list[int] | None = None


@dataclass
class Advice:
    """An index to add (`insight.advice`): the complete statement, why, the printed rows it helps
    and the existing indexes it makes redundant."""

    table: str
    columns: list[str]
    statement: str
    reason: str
    rows: list[int] = field(default_factory=list)
    redundant: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "columns": list(self.columns),
            "statement": self.statement,
            "reason": self.reason,
            "rows": list(self.rows),
            "redundant": list(self.redundant),
        }


@dataclass(slots=True)
class ProfileNode:
    """One timed node of a plan: where it is (`path` from the root of `Plan.tree`), what it is, and
    its time in milliseconds over all its loops, with the steps under it (`total_ms`) and without
    them (`self_ms`); `share` is `self_ms` over the plan's total. `estimate_factor` is actual rows
    over estimated rows (per loop both), None when either is missing or zero."""

    path: tuple[int, ...]
    label: str
    table: str | None
    loops: int
    total_ms: float
    self_ms: float
    share: float
    rows_estimated: float | None
    rows_actual: float | None
    estimate_factor: float | None

    def to_dict(self) -> dict[str, Any]:
        """The API's profile entry; the path as a list."""
        return {
            "path": list(self.path),
            "label": self.label,
            "table": self.table,
            "loops": self.loops,
            "total_ms": self.total_ms,
            "self_ms": self.self_ms,
            "share": self.share,
            "rows_estimated": self.rows_estimated,
            "rows_actual": self.rows_actual,
            "estimate_factor": self.estimate_factor,
        }


@dataclass(slots=True)
class Profile:
    """Where the time of an analyzed plan went (`insight.profile`): its total in milliseconds and
    one entry per timed node, most self time first."""

    total_ms: float
    nodes: list[ProfileNode]

    def to_dict(self) -> dict[str, Any]:
        """The API's `profile`."""
        return {"total_ms": self.total_ms, "nodes": [node.to_dict() for node in self.nodes]}


@dataclass
class Analysis:
    plan: Plan
    annotations: list[Annotation] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    profile: Profile | None = None
    advice: list[Advice] = field(default_factory=list)
    server: Server = field(default_factory=Server)

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        return {
            "format": p.format,
            "variant": p.variant,
            "server": self.server.to_dict(),
            "columns": list(p.columns),
            "rows": [dict(row) for row in p.rows],
            "plan": p.plan,
            "tables": list(p.tables),
            "query": p.query,
            "warnings": list(p.warnings),
            "truncated": p.truncated,
            "uncertain": p.uncertain,
            "affected_rows": list(p.affected_rows),
            "annotations": [a.__dict__.copy() for a in self.annotations],
            "findings": [f.__dict__.copy() for f in self.findings],
            "profile": self.profile.to_dict() if self.profile is not None else None,
            "advice": [item.to_dict() for item in self.advice],
            "notices": list(p.notices),
            "lines": [span.to_dict() for span in p.lines],
            "tree": p.tree.to_dict() if p.tree is not None else None,
        }
