"""The plan model of nested plans: MySQL `FORMAT=TREE` / `EXPLAIN ANALYZE`, MySQL JSON (version 1
and 2) and MariaDB JSON (`EXPLAIN` and `ANALYZE FORMAT=JSON`).

Tree output and MySQL's JSON version 2 come as operation nodes (see `tree_plan`); each becomes one
`PlanNode`, its kind mapped to an operation and a join algorithm. Version 1 and MariaDB documents
are walked key by key: a `query_block` is a select, a dict with `table_name` a table, and wrappers
(`ordering_operation`, `filesort`, `temporary_table`, `materialized_from_subquery`, …) become the
step they name; other containers (`nested_loop`, `query_specifications`, subquery lists) are passed
through, their contents becoming children of the node above. Nodes link to the printed rows the readers flattened them into (`PlanNode.row`).
"""

from __future__ import annotations

from analyzer.model import MAX_NODE_DEPTH, PlanNode, Row
from analyzer.readers import cells
from analyzer.readers.documents.tree_plan import ACCESS_TYPES, flatten_with_sources, select_heading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Tree kinds (see `tree_plan`) that are no table access, as (operation, join algorithm).
_TREE_KINDS: dict[str, tuple[str, str | None]] = {
    "Select": ("subquery", None),
    "Filter": ("filter", None),
    "Sort": ("sort", None),
    "Aggregate using temporary table": ("aggregate", None),
    "Group aggregate": ("aggregate", None),
    "Group (no aggregates)": ("aggregate", None),
    "Aggregate": ("aggregate", None),
    "Hash join": ("join", "hash"),
    "Batched key access join": ("join", "batched_key_access"),
    "Union materialize": ("union", None),
    "Append": ("union", None),
    "Materialize": ("materialize", None),
    "Temporary table": ("temporary", None),
    "Limit": ("limit", None),
    "Offset": ("limit", None),
    "Window aggregate": ("window", None),
    "Index merge": ("table", None),
}

# Version 1 / MariaDB wrapper keys and the operation they stand for.
_WRAPPERS = {
    "ordering_operation": "sort",
    "filesort": "sort",
    "grouping_operation": "aggregate",
    "temporary_table": "temporary",
    "materialized_from_subquery": "materialize",
    "materialized": "materialize",
    "union_result": "union",
    "intersect_result": "union",
    "except_result": "union",
    "recursive_union": "union",
    "window_functions_computation": "window",
    "duplicates_removal": "other",
    "read_sorted_file": "other",
}
# Containers of subqueries (MySQL version 1 names, MariaDB `subqueries`): each entry is a subquery.
# The JSON reader flattens them by the same list.
SUBQUERY_LISTS = {
    "subqueries",
    "attached_subqueries",
    "optimized_away_subqueries",
    "select_list_subqueries",
    "having_subqueries",
    "order_by_subqueries",
    "group_by_subqueries",
    "update_value_subqueries",
    "insert_values_subqueries",
    "insert_update_subqueries",
}
# Keys whose dict or list values are data, not steps of the plan.
_DATA = {
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
    "sorts",
    "index_merge",
    "rowid_filter",
}


# --- tree output and JSON version 2 --------------------------------------------------------------


def operations_tree(roots: list[dict[str, Any]], rows: list[Row], sources: list[dict[str, Any]] | None = None) -> PlanNode:
    """The model of operation nodes (tree output, JSON version 2), linked to their flattened rows.
    `sources` are the nodes the rows were flattened from (`flatten_with_sources`), when the caller has them."""
    if sources is None:
        sources = flatten_with_sources(roots)[3]
    row_of = {id(source): index for index, source in enumerate(sources)}
    root = PlanNode(operation="query", label="query")
    root.children = [_operation(node, rows, row_of, 0) for node in roots]
    return root


def _operation(node: dict[str, Any], rows: list[Row], row_of: dict[int, int], depth: int) -> PlanNode:
    kind = str(node.get("kind") or "Operation")
    operation, algorithm = _tree_operation(kind)
    label = str(node.get("operation") or kind)
    row = row_of.get(id(node))
    printed = rows[row] if row is not None and row < len(rows) else {}
    model = PlanNode(
        operation=operation,
        label=label,
        join_algorithm=algorithm,
        select_id=cells.integer(printed.get("id")),
        select_type=cells.text(printed.get("select_type")),
        table=cells.text(printed.get("table", node.get("table"))),
        access_type=cells.text(printed.get("type")) or ACCESS_TYPES.get(kind),
        key=cells.text(printed.get("key", node.get("index"))),
        rows_estimated=_float(node.get("rows")),
        cost=_float(node.get("cost")),
        rows_actual=_float(node.get("actual_rows")),
        loops=cells.integer(node.get("loops")),
        time_first_ms=_float(node.get("actual_time_first")),
        time_last_ms=_float(node.get("actual_time_last")),
        condition=node.get("condition") if isinstance(node.get("condition"), str) else None,
        extra=cells.extra_items(printed.get("extra")),
        row=row,
    )
    if operation == "table":
        model.join_algorithm = cells.join_buffer_algorithm(model.extra)
    if kind == "Select":
        model.select_id, model.select_type = select_heading(label)
    children = node.get("children")
    if depth < MAX_NODE_DEPTH and isinstance(children, list):
        model.children = [_operation(child, rows, row_of, depth + 1) for child in children if isinstance(child, dict)]
    return model


def _tree_operation(kind: str) -> tuple[str, str | None]:
    if kind in _TREE_KINDS:
        return _TREE_KINDS[kind]
    if kind.startswith("Nested loop"):
        return "join", "nested_loop"
    if " scan" in kind or "lookup" in kind or kind in ("Constant row", "Full-text index search"):
        return "table", None
    return "other", None


# --- JSON version 1 and MariaDB ------------------------------------------------------------------


def document_tree(document: dict[str, Any], rows: list[Row], sources: list[dict[str, Any]] | None = None) -> PlanNode:
    """The model of a version 1 or MariaDB JSON document (`{"query_block": …}`). `sources` are the
    document's dicts each row was flattened from (the JSON reader gives them); without them (an
    analysis stored before the model existed) a table links to the next row of the same name."""
    walker = _DocumentWalker(rows, sources)
    root = PlanNode(operation="query", label="query")
    root.children = walker.walk(document, "document", 0)
    return root


class _DocumentWalker:
    def __init__(self, rows: list[Row], sources: list[dict[str, Any]] | None):
        self.rows = rows
        self.row_of = {id(source): index for index, source in enumerate(sources)} if sources is not None else None
        # Table name -> indexes of its rows not yet linked, when there are no sources.
        self.unlinked: dict[str, list[int]] = {}
        for index, row in enumerate(rows if sources is None else []):
            name = cells.text(row.get("table"))
            if name:
                self.unlinked.setdefault(name, []).append(index)

    def walk(self, value: Any, key: str, depth: int) -> list[PlanNode]:
        if depth >= MAX_NODE_DEPTH:
            return []
        if isinstance(value, list):
            nodes = [node for item in value for node in self.walk(item, key, depth)]
            if key == "nested_loop":
                # Each table after the first is joined to those before it; a buffer names how.
                for node in nodes[1:]:
                    if node.operation == "table" and node.join_algorithm is None:
                        node.join_algorithm = "nested_loop"
            return nodes
        if not isinstance(value, dict):
            return []
        children = self._children(value, depth)
        if "table_name" in value:
            return [self._table(value, key, children)]
        if key == "table" and isinstance(value.get("message"), str):
            return [self._message(value, value["message"])]
        if "select_id" in value and key in ("query_block", "document"):
            return [self._select(value, children)]
        if key in _WRAPPERS:
            return [self._wrapper(value, key, children)]
        if key in SUBQUERY_LISTS:
            label = "dependent subquery" if value.get("dependent") is True else "subquery"
            return [PlanNode(operation="subquery", label=label, children=children)]
        if key == "block-nl-join":
            _join_buffer_condition(value, children)
        return children

    def _children(self, value: dict[str, Any], depth: int) -> list[PlanNode]:
        out: list[PlanNode] = []
        for key, child in value.items():
            base = key.split("#", 1)[0]
            if base not in _DATA and isinstance(child, dict | list):
                out += self.walk(child, base, depth + 1)
        return out

    def _select(self, value: dict[str, Any], children: list[PlanNode]) -> PlanNode:
        select_id = cells.integer(value.get("select_id"))
        cost = value.get("cost_info", {}).get("query_cost") if isinstance(value.get("cost_info"), dict) else None
        members = (n for child in children for n in child.walk() if n.row is not None and n.select_id == select_id)
        if isinstance(value.get("message"), str):
            # MySQL: "No tables used", "Impossible WHERE" on the query block, printed as its row.
            children = [self._message(value, value["message"]), *children]
        return PlanNode(
            operation="select",
            label=f"#{select_id} SELECT" if select_id is not None else "SELECT",
            select_id=select_id,
            select_type=next((n.select_type for n in members), None),
            cost=cells.number(cost if cost is not None else value.get("cost")),
            loops=cells.integer(value.get("r_loops")),
            r_loops=cells.integer(value.get("r_loops")),
            r_total_time_ms=cells.number(value.get("r_total_time_ms")),
            children=children,
        )

    def _wrapper(self, value: dict[str, Any], key: str, children: list[PlanNode]) -> PlanNode:
        return PlanNode(
            operation=_WRAPPERS[key],
            label=key.replace("_", " "),
            r_loops=cells.integer(value.get("r_loops")),
            r_total_time_ms=cells.number(value.get("r_total_time_ms")),
            children=children,
        )

    def _table(self, value: dict[str, Any], key: str, children: list[PlanNode]) -> PlanNode:
        """A table read. Its printed row (which the reader may have given a wrapper's figures) wins
        for the cells tabular EXPLAIN shows; the rest comes from the document."""
        table = cells.text(value.get("table_name"))
        row = self._link(value, table)
        printed = self.rows[row] if row is not None else {}

        def figure(column: str, *keys: str) -> float | None:
            if column in printed:
                return cells.number(printed[column])
            return next((cells.number(value[k]) for k in keys if k in value), None)

        node = PlanNode(
            operation="union" if key in _WRAPPERS and _WRAPPERS[key] == "union" else "table",
            label=table or "(no table)",
            select_id=cells.integer(printed.get("id")),
            select_type=cells.text(printed.get("select_type")),
            table=table,
            access_type=cells.text(printed.get("type", value.get("access_type"))),
            key=cells.text(printed.get("key", value.get("key"))),
            key_length=cells.integer(printed.get("key_len", value.get("key_length"))),
            ref=cells.items(value.get("ref")),
            possible_keys=cells.items(value.get("possible_keys")),
            rows_estimated=figure("rows", "rows_examined_per_scan", "rows"),
            filtered=figure("filtered", "filtered"),
            cost=_table_cost(value),
            rows_actual=figure("r_rows", "r_rows"),
            loops=cells.integer(value.get("r_loops")),
            r_rows=figure("r_rows", "r_rows"),
            r_filtered=figure("r_filtered", "r_filtered"),
            r_loops=cells.integer(value.get("r_loops")),
            r_total_time_ms=cells.number(value.get("r_total_time_ms")),
            r_table_time_ms=cells.number(value.get("r_table_time_ms")),
            r_other_time_ms=cells.number(value.get("r_other_time_ms")),
            condition=cells.text(value.get("attached_condition")),
            extra=cells.extra_items(printed.get("extra")),
            row=row,
            children=children,
        )
        node.join_algorithm = cells.join_buffer_algorithm(node.extra)
        return node

    def _message(self, value: dict[str, Any], message: str) -> PlanNode:
        """The table-less row MySQL and MariaDB print with a reason (`No tables used`) in Extra."""
        row = self.row_of.get(id(value)) if self.row_of is not None else None
        printed = self.rows[row] if row is not None else {}
        return PlanNode(
            operation="other",
            label=message,
            select_id=cells.integer(printed.get("id")),
            select_type=cells.text(printed.get("select_type")),
            extra=cells.extra_items(printed.get("extra")),
            row=row,
        )

    def _link(self, value: dict[str, Any], table: str | None) -> int | None:
        if self.row_of is not None:
            return self.row_of.get(id(value))
        indexes = self.unlinked.get(table or "")
        return indexes.pop(0) if indexes else None


def _join_buffer_condition(value: dict[str, Any], children: list[PlanNode]) -> None:
    """MariaDB puts the condition checked on rows from the join buffer on the `block-nl-join`
    around the table: it is that table's condition. The time spent unpacking the buffered rows and
    checking that condition (`r_unpack_time_ms`, `r_other_time_ms`) is added to the table's
    `r_other_time_ms`, so that ANALYZE's time of the join is not lost."""
    condition = cells.text(value.get("attached_condition"))
    spent = [ms for key in ("r_unpack_time_ms", "r_other_time_ms") if (ms := cells.number(value.get(key))) is not None]
    for node in children:
        if node.operation == "table" and node.condition is None:
            node.condition = condition
        if node.operation == "table" and spent:
            node.r_other_time_ms = (node.r_other_time_ms or 0.0) + sum(spent)


def _table_cost(value: dict[str, Any]) -> float | None:
    """MySQL's `cost_info.prefix_cost` (the cost up to and with this table), MariaDB 11's `cost`."""
    info = value.get("cost_info")
    if isinstance(info, dict) and "prefix_cost" in info:
        return cells.number(info["prefix_cost"])
    return cells.number(value.get("cost"))


def _float(value: object) -> float | None:
    return cells.number(value) if isinstance(value, int | float) else None
