"""The plan tree the analysis page shows: the plan model laid out as nested lists.

Pure functions, no Django. `build_tree(analysis)` takes the `Analysis.to_dict()` dict (as saved
explains store it), reads its plan model and returns root `TreeNode`s with the figures as text;
`flatten(nodes)` lists them in document order with the nesting information a template needs to
print nested lists without recursion. The `query` root is not shown: its children are the roots.
A node's `path` is the child indexes leading to it from the `query` root (as the profile and
findings name nodes).
Very large or deep plans are cut at `MAX_NODES` / `MAX_DEPTH` (the table view still has every row).
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.model import PlanNode
from analyzer.readers.nesting import UNION_TABLE
from analyzer.readers.plan_model import stored_model
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 48
MAX_NODES = 2000
# Formats whose rows are the paste's own cells: figures are shown as printed.
_TABULAR = ("table", "vertical", "tsv", "csv")


@dataclass
class TreeNode:
    label: str
    kind: str = "step"  # select, table, union, step
    table: str | None = None
    access: str | None = None
    rows: str | None = None
    actual_rows: str | None = None
    time: str | None = None
    loops: str | None = None
    row: int | None = None  # index into analysis["rows"], for links to #row-N
    detail: str | None = None
    children: list[TreeNode] = field(default_factory=list)
    path: tuple[int, ...] = ()
    cost: float | None = None
    condition: str | None = None
    never_executed: bool = False  # EXPLAIN ANALYZE ran the plan but never this step (no loops)


@dataclass
class FlatNode:
    node: TreeNode
    depth: int
    opens: bool  # the node has children: a nested list follows
    closes: int  # nested lists to close after this node


def build_tree(analysis: dict[str, Any]) -> list[TreeNode]:
    """Root nodes of the plan tree (empty when there is nothing to show)."""
    rows = [row if isinstance(row, dict) else {} for row in analysis.get("rows") or []]
    printed = rows if (analysis.get("format") or "table") in _TABULAR else []
    budget = [MAX_NODES]
    return _shown(stored_model(analysis).children, printed, budget, ())


def _shown(
    nodes: list[PlanNode], printed: list[dict[str, Any]], budget: list[int], path: tuple[int, ...]
) -> list[TreeNode]:
    out = []
    for index, node in enumerate(nodes):
        if budget[0] <= 0 or len(path) >= MAX_DEPTH:
            break
        budget[0] -= 1
        shown = _tree_node(node, printed[node.row] if node.row is not None and node.row < len(printed) else None)
        shown.path = (*path, index)
        shown.children = _shown(node.children, printed, budget, shown.path)
        out.append(shown)
    return out


def _tree_node(node: PlanNode, row: dict[str, Any] | None) -> TreeNode:
    """One node as the page shows it; a tabular row's figures and Extra as printed."""
    return TreeNode(
        label=node.label,
        kind=_kind(node),
        table=node.table,
        access=node.access_type,
        rows=_text(row.get("rows")) if row is not None else _number(node.rows_estimated),
        actual_rows=_text(row.get("r_rows")) if row is not None else _number(node.rows_actual),
        time=_time(node),
        loops=_text(node.loops if node.loops is not None else node.r_loops),
        row=node.row,
        detail=_text(row.get("extra")) if row is not None else None,
        cost=node.cost,
        condition=node.condition,
        never_executed=node.loops == 0 and node.time_last_ms is None,
    )


def _kind(node: PlanNode) -> str:
    if node.operation == "select":
        return "select"
    if node.table and UNION_TABLE.match(node.table):
        return "union"
    return "table" if node.table else "step"


def _time(node: PlanNode) -> str | None:
    """Measured time in ms: "first..last" per loop (EXPLAIN ANALYZE), else MariaDB's total (or, on
    a table, the time spent reading it)."""
    if node.time_first_ms is not None and node.time_last_ms is not None:
        return f"{_number(node.time_first_ms)}..{_number(node.time_last_ms)}"
    return _number(node.r_total_time_ms if node.r_total_time_ms is not None else node.r_table_time_ms)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _number(value: float | None) -> str | None:
    """Readable numbers: 5.0 -> "5", 0.29089892 -> "0.291", 2980000.0 -> "2980000"."""
    if value is None:
        return None
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.3f}".rstrip("0").rstrip(".")


def flatten(nodes: Iterable[TreeNode]) -> list[FlatNode]:
    """Depth-first list of nodes; `closes` says how many `</ul></li>` follow a leaf."""
    out: list[FlatNode] = []

    def visit(node: TreeNode, depth: int) -> None:
        out.append(FlatNode(node, depth, bool(node.children), 0))
        for child in node.children:
            visit(child, depth + 1)

    for root in nodes:
        visit(root, 0)
    for i, item in enumerate(out):
        if not item.opens:
            next_depth = out[i + 1].depth if i + 1 < len(out) else 0
            item.closes = item.depth - next_depth
    return out


def count(nodes: Iterable[TreeNode]) -> int:
    return sum(1 + count(n.children) for n in nodes)
