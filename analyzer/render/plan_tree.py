"""The plan as a tree: which SELECT contains which table, subquery, derived table or union.

Pure functions, no Django. `build_tree(analysis)` takes the `Analysis.to_dict()` dict and
returns a list of root `TreeNode`s; `flatten(nodes)` lists them in document order with the
nesting information a template needs to print nested lists without recursion.

Tabular EXPLAIN (table, vertical, tsv) has no explicit nesting, so the tree is rebuilt from
`id` and `select_type`: rows sharing an `id` form one SELECT in join order; a table named
`<derivedN>` or `<subqueryN>` contains SELECT N, `<unionA,B,…>` contains SELECTs A, B, …;
other subqueries hang under the closest SELECT printed before them with a smaller id.
For JSON and tree input the nested `plan` is walked generically, so small changes in
its shape do not break the view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 48
MAX_NODES = 2000

# MySQL abbreviates long lists as `<union1,2,3,...>`.
_UNION = re.compile(r"^<(union|intersect|except)([\d,]+)(?:,?\.\.\.)?>$", re.IGNORECASE)
_REFERENCE = re.compile(r"^<(derived|subquery|materialize)(\d+)>$", re.IGNORECASE)


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


@dataclass
class FlatNode:
    node: TreeNode
    depth: int
    opens: bool  # the node has children: a nested list follows
    closes: int  # nested lists to close after this node


def build_tree(analysis: dict[str, Any]) -> list[TreeNode]:
    """Root nodes of the plan tree (empty when there is nothing to show)."""
    rows = analysis.get("rows") or []
    plan = analysis.get("plan")
    if isinstance(plan, (dict, list)):
        walker = _PlanWalker(rows)
        nodes = walker.walk(plan, "plan", 0)
        if nodes:
            return nodes
    return _tree_from_rows(rows)


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


# --- tabular input -------------------------------------------------------------------------


@dataclass
class _Block:
    key: str
    select_id: int | None
    select_type: str
    rows: list[int] = field(default_factory=list)
    position: int = 0


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _blocks(rows: list[dict[str, Any]]) -> dict[str, _Block]:
    blocks: dict[str, _Block] = {}
    for index, row in enumerate(rows):
        select_id = _int(row.get("id"))
        key = f"s{select_id}" if select_id is not None else f"r{index}"
        if key not in blocks:
            select_type = _text(row.get("select_type")) or ""
            blocks[key] = _Block(key, select_id, select_type, position=len(blocks))
        blocks[key].rows.append(index)
    return blocks


def _referenced_ids(table: str | None) -> list[int]:
    if not table:
        return []
    if match := _REFERENCE.match(table):
        return [int(match.group(2))]
    if match := _UNION.match(table):
        return [int(n) for n in match.group(2).split(",") if n]
    return []


def _table_node(row: dict[str, Any], index: int) -> TreeNode:
    table = _text(row.get("table"))
    union = bool(table and _UNION.match(table))
    return TreeNode(
        label=table or "(no table)",
        kind="union" if union else "table",
        table=table,
        access=_text(row.get("type")),
        rows=_text(row.get("rows")),
        actual_rows=_text(row.get("r_rows")),
        row=index,
        detail=_text(row.get("extra")),
    )


def _select_label(block: _Block) -> str:
    if block.select_id is None:
        return block.select_type or "result"
    kind = block.select_type or "SELECT"
    return f"#{block.select_id} {kind}"


def _tree_from_rows(rows: list[dict[str, Any]]) -> list[TreeNode]:
    if not rows:
        return []
    blocks = _blocks(rows)
    by_id = {b.select_id: b for b in blocks.values() if b.select_id is not None}

    # Which block contains which: through table names first.
    # Unions first, so that `<derived2>` over `<union2,3>` contains the union, not just SELECT 2.
    parent: dict[str, tuple[str, int]] = {}  # child block key -> (parent block key, row index)
    for unions_pass in (True, False):
        for block in blocks.values():
            for index in block.rows:
                table = _text(rows[index].get("table"))
                if bool(table and _UNION.match(table)) != unions_pass:
                    continue
                for ref in _referenced_ids(table):
                    child = by_id.get(ref)
                    if child is not None and child.key in parent and not unions_pass:
                        holder = blocks[parent[child.key][0]]
                        child = holder if holder.select_id is None else child
                    if child is not None and child.key != block.key and child.key not in parent:
                        parent[child.key] = (block.key, index)

    # Subqueries that no table names: under the closest earlier block with a smaller id.
    ordered = sorted(blocks.values(), key=lambda b: b.position)
    for i, block in enumerate(ordered):
        if block.key in parent or i == 0 or block.select_id is None:
            continue
        if not _is_subquery(block.select_type):
            continue
        for earlier in reversed(ordered[:i]):
            if earlier.select_id is not None and earlier.select_id < block.select_id:
                parent[block.key] = (earlier.key, earlier.rows[-1])
                break

    _break_cycles(parent)
    children_of_row: dict[int, list[str]] = {}
    children_of_block: dict[str, list[str]] = {}
    for child_key, (parent_key, index) in parent.items():
        table = _text(rows[index].get("table"))
        if _referenced_ids(table):
            children_of_row.setdefault(index, []).append(child_key)
        else:
            children_of_block.setdefault(parent_key, []).append(child_key)

    budget = [MAX_NODES]

    def block_node(block: _Block, depth: int) -> TreeNode:
        node = TreeNode(label=_select_label(block), kind="select")
        if block.select_id is None and len(block.rows) == 1:
            # A UNION RESULT row is its own block: show the row itself as the node.
            node = _table_node(rows[block.rows[0]], block.rows[0])
            node.children = [
                block_node(blocks[k], depth + 1)
                for k in _sorted(children_of_row.get(block.rows[0]), blocks)
                if _spend(budget, depth)
            ]
            return node
        for index in block.rows:
            if not _spend(budget, depth):
                break
            table = _table_node(rows[index], index)
            table.children = [
                block_node(blocks[k], depth + 1)
                for k in _sorted(children_of_row.get(index), blocks)
                if _spend(budget, depth)
            ]
            node.children.append(table)
        node.children += [
            block_node(blocks[k], depth + 1)
            for k in _sorted(children_of_block.get(block.key), blocks)
            if _spend(budget, depth)
        ]
        return node

    roots = [b for b in ordered if b.key not in parent]
    return [block_node(b, 0) for b in roots]


def _spend(budget: list[int], depth: int) -> bool:
    if budget[0] <= 0 or depth >= MAX_DEPTH:
        return False
    budget[0] -= 1
    return True


def _sorted(keys: list[str] | None, blocks: dict[str, _Block]) -> list[str]:
    return sorted(keys or [], key=lambda k: blocks[k].position)


def _is_subquery(select_type: str) -> bool:
    words = select_type.upper()
    return any(w in words for w in ("SUBQUERY", "DERIVED", "MATERIALIZED"))


def _break_cycles(parent: dict[str, tuple[str, int]]) -> None:
    """Hostile or damaged input can name a block as its own ancestor; cut such links."""
    for start in list(parent):
        seen = {start}
        key = start
        while key in parent:
            key = parent[key][0]
            if key in seen:
                del parent[start]
                break
            seen.add(key)


# --- nested plans (JSON, tree) ------------------------------------------------------------

# Keys holding lists or wrappers of child nodes that need no node of their own.
_TRANSPARENT = {
    "plan",
    "nested_loop",
    "inputs",
    "children",
    "nodes",
    "steps",
    "query_specifications",
    "table",
    "query_block",
    "subqueries",
}
# Keys whose dict or list values are data, not child nodes.
_SKIP = {
    "cost_info",
    "used_columns",
    "possible_keys",
    "used_key_parts",
    "key_columns",
    "ref",
    "r_engine_stats",
    "r_keys",
    "ranges",
    "windows",
    "warnings",
    "tables",
    "columns",
    "rows_data",
}
_LABEL_KEYS = ("operation", "label", "name")
_TABLE_KEYS = ("table_name", "table", "alias")
_ACCESS_KEYS = ("access_type", "type", "access")
_ROWS_KEYS = ("rows", "estimated_rows", "rows_examined_per_scan", "est_rows")
_ACTUAL_KEYS = ("r_rows", "actual_rows")
_TIME_KEYS = (
    "r_total_time_ms",
    "r_table_time_ms",
    "actual_time",
    "actual_last_row_ms",
    "actual_time_last",
    "time_ms",
    "time",
)
_LOOPS_KEYS = ("r_loops", "actual_loops", "loops")


def _scalar(value: Any) -> str | None:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, float):
        return _number(value)
    text = str(value).strip()
    return text[:200] or None


def _number(value: float) -> str:
    """Readable numbers: 5.0 -> "5", 0.29089892 -> "0.291", 2980000.0 -> "2980000"."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.3f}".rstrip("0").rstrip(".")


def _time(node: dict[str, Any]) -> str | None:
    """Measured time in ms: "first..last" when the plan gives both (EXPLAIN ANALYZE), else the total."""
    first, last = node.get("actual_time_first"), node.get("actual_time_last")
    if isinstance(first, (int, float)) and isinstance(last, (int, float)) and not isinstance(first, bool):
        return f"{_scalar(float(first))}..{_scalar(float(last))}"
    return _first(node, _TIME_KEYS)


def _first(node: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        if key in node and (value := _scalar(node[key])) is not None:
            return value
    return None


def _humanize(key: str) -> str:
    return key.replace("_", " ").replace("-", " ").strip() or "step"


class _PlanWalker:
    def __init__(self, rows: list[dict[str, Any]]):
        self.budget = MAX_NODES
        # Table name -> row indexes not yet linked, so each node links to its own row.
        self.row_for_table: dict[str, list[int]] = {}
        for index, row in enumerate(rows):
            name = _text(row.get("table"))
            if name:
                self.row_for_table.setdefault(name, []).append(index)

    def walk(self, value: Any, key: str, depth: int) -> list[TreeNode]:
        if depth >= MAX_DEPTH or self.budget <= 0:
            return []
        if isinstance(value, list):
            out: list[TreeNode] = []
            for item in value:
                out += self.walk(item, key, depth)
            return out
        if not isinstance(value, dict):
            return []
        return self._walk_dict(value, key, depth)

    def _walk_dict(self, value: dict[str, Any], key: str, depth: int) -> list[TreeNode]:
        label = _first(value, _LABEL_KEYS)
        table = _first(value, _TABLE_KEYS)
        select_id = _scalar(value.get("select_id"))
        own = label or table or select_id
        if own:
            self.budget -= 1
        children: list[TreeNode] = []
        for child_key, child in value.items():
            if child_key in _SKIP or not isinstance(child, (dict, list)):
                continue
            children += self.walk(child, child_key, depth + 1)
        if not own:
            if key in _TRANSPARENT or not children:
                return children
            self.budget -= 1
            return [TreeNode(label=_humanize(key), kind="step", children=children)]
        if table:
            kind = "union" if _UNION.match(table) else "table"
            label = label or table
        elif select_id and "operation" not in value:
            kind, label = "select", f"#{select_id} SELECT"
        else:
            kind = "step"
        node = TreeNode(
            label=label or "step",
            kind=kind,
            table=table,
            access=_first(value, _ACCESS_KEYS),
            rows=_first(value, _ROWS_KEYS),
            actual_rows=_first(value, _ACTUAL_KEYS),
            time=_time(value),
            loops=_first(value, _LOOPS_KEYS),
            row=self._row_index(table),
            detail=_scalar(value.get("message")) if kind != "step" else None,
            children=children,
        )
        return [node]

    def _row_index(self, table: str | None) -> int | None:
        if not table:
            return None
        indexes = self.row_for_table.get(table)
        return indexes.pop(0) if indexes else None


def iter_nodes(nodes: Iterable[TreeNode]) -> Iterator[TreeNode]:
    for node in nodes:
        yield node
        yield from iter_nodes(node.children)
