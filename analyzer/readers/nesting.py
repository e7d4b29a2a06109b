"""The plan model of tabular EXPLAIN output (table, vertical, tab-separated), built from its rows.

Tabular output has no explicit nesting, so the tree is rebuilt from `id` and `select_type`: rows
sharing an `id` form one SELECT, in join order; a table named `<derivedN>` or `<subqueryN>`
contains SELECT N, `<unionA,B,…>` contains SELECTs A, B, …; other subqueries hang under the
closest SELECT printed before them with a smaller id. Every row becomes exactly one node
(`PlanNode.row`), so nothing printed is left out of the model.
"""

from __future__ import annotations

import re

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import MAX_NODE_DEPTH, PlanNode, Row
from analyzer.readers import cells
from analyzer.structs import dataclass, field

# MySQL abbreviates long lists as `<union1,2,3,...>`.
UNION_TABLE = lazy_regex(r"^<(union|intersect|except)([\d,]+)(?:,?\.\.\.)?>$", re.IGNORECASE)
_REFERENCE = lazy_regex(r"^<(derived|subquery|materialize)(\d+)>$", re.IGNORECASE)
_SUBQUERY_WORDS = ("SUBQUERY", "DERIVED", "MATERIALIZED")


@dataclass
class _Block:
    """One SELECT of the plan: the rows sharing its id, in join order."""

    key: str
    select_id: int | None
    select_type: str
    rows: list[int] = field(default_factory=list)
    position: int = 0


@dataclass
class _Links:
    """Which block holds which: under one of its rows (a `<derivedN>` table) or under the block."""

    parent: dict[str, tuple[str, int]] = field(default_factory=dict)
    under_row: dict[int, list[str]] = field(default_factory=dict)
    under_block: dict[str, list[str]] = field(default_factory=dict)


def table_node(row: Row, index: int, select_id: int | None = None) -> PlanNode:
    """The model node of one printed row: its figures typed, its Extra items listed. `select_id`
    saves reading the row's id again when the caller already has it."""
    check_deadline()
    table = cells.text(row.get("table"))
    extra = cells.extra_items(row.get("extra"))
    union = bool(table and table.startswith("<") and UNION_TABLE.match(table))
    actual = cells.number(row.get("r_rows"))
    return PlanNode(
        operation="union" if union else "table" if table else "other",
        label=table or "(no table)",
        select_id=select_id if select_id is not None else cells.integer(row.get("id")),
        select_type=cells.text(row.get("select_type")),
        table=table,
        access_type=cells.text(row.get("type")),
        key=cells.text(row.get("key")),
        key_length=cells.integer(row.get("key_len")),
        ref=cells.items(row.get("ref")),
        possible_keys=cells.items(row.get("possible_keys")),
        rows_estimated=cells.number(row.get("rows")),
        filtered=cells.number(row.get("filtered")),
        rows_actual=actual,
        r_rows=actual,
        r_filtered=cells.number(row.get("r_filtered")),
        extra=extra,
        join_algorithm=cells.join_buffer_algorithm(extra),
        row=index,
    )


def tabular_tree(rows: list[Row]) -> PlanNode:
    """The root of the plan model of tabular rows: a `query` node over the outermost SELECTs."""
    root = PlanNode(operation="query", label="query")
    if not rows:
        return root
    single = not any("id" in row for row in rows)
    blocks = _blocks(rows, single)
    links = _links(rows, blocks)
    ordered = sorted(blocks.values(), key=lambda b: b.position)
    builder = _Builder(rows, blocks, links)
    root.children = [builder.block(b, 0) for b in ordered if b.key not in links.parent]
    for block in builder.deferred:  # grows while it is read: deferred blocks defer deeper ones
        root.children.append(builder.block(block, 0))
    return root


def _blocks(rows: list[Row], single: bool) -> dict[str, _Block]:
    """The SELECTs by key: `s<id>`, or one per id-less row (`r<index>`), or one for all rows
    when the paste has no `id` column at all."""
    blocks: dict[str, _Block] = {}
    for index, row in enumerate(rows):
        select_id = cells.integer(row.get("id"))
        key = "all" if single else f"s{select_id}" if select_id is not None else f"r{index}"
        if key not in blocks:
            select_type = cells.text(row.get("select_type")) or ""
            blocks[key] = _Block(key, select_id, select_type, position=len(blocks))
        blocks[key].rows.append(index)
    return blocks


def referenced_ids(table: str | None) -> list[int]:
    """The select ids a work table names: `<derived2>` -> [2], `<union1,3>` -> [1, 3]."""
    if not table:
        return []
    if match := _REFERENCE.match(table):
        return [int(match.group(2))]
    if match := UNION_TABLE.match(table):
        return [int(n) for n in match.group(2).split(",") if n]
    return []


def _links(rows: list[Row], blocks: dict[str, _Block]) -> _Links:
    links = _Links()
    _link_named(rows, blocks, links.parent)
    _link_unnamed_subqueries(blocks, links.parent)
    _break_cycles(links.parent)
    for child_key, (parent_key, index) in links.parent.items():
        if referenced_ids(cells.text(rows[index].get("table"))):
            links.under_row.setdefault(index, []).append(child_key)
        else:
            links.under_block.setdefault(parent_key, []).append(child_key)
    return links


def _link_named(rows: list[Row], blocks: dict[str, _Block], parent: dict[str, tuple[str, int]]) -> None:
    """Blocks named by a work table go under that table's row. Unions first, so that `<derived2>`
    over `<union2,3>` contains the union, not just SELECT 2."""
    by_id = {b.select_id: b for b in blocks.values() if b.select_id is not None}
    work_tables = [
        (block, index, table)
        for block in blocks.values()
        for index in block.rows
        if (table := cells.text(rows[index].get("table"))) and table.startswith("<")
    ]
    for unions_pass in (True, False):
        for block, index, table in work_tables:
            if bool(UNION_TABLE.match(table)) != unions_pass:
                continue
            for ref in referenced_ids(table):
                child = by_id.get(ref)
                if child is not None and child.key in parent and not unions_pass:
                    holder = blocks[parent[child.key][0]]
                    child = holder if holder.select_id is None else child
                if child is not None and child.key != block.key and child.key not in parent:
                    parent[child.key] = (block.key, index)


def _link_unnamed_subqueries(blocks: dict[str, _Block], parent: dict[str, tuple[str, int]]) -> None:
    """Subqueries that no table names go under the closest earlier block with a smaller id (found
    with a stack of earlier blocks whose ids rise, so in one pass)."""
    earlier: list[_Block] = []
    for block in sorted(blocks.values(), key=lambda b: b.position):
        if block.select_id is None:
            continue
        while earlier and earlier[-1].select_id is not None and earlier[-1].select_id >= block.select_id:
            earlier.pop()
        unnamed = block.key not in parent and any(word in block.select_type.upper() for word in _SUBQUERY_WORDS)
        if unnamed and earlier:
            parent[block.key] = (earlier[-1].key, earlier[-1].rows[-1])
        earlier.append(block)


def _break_cycles(parent: dict[str, tuple[str, int]]) -> None:
    """Hostile or damaged input can name a block as its own ancestor; cut such links. Each chain
    is walked once: a block known to lead to a root ends the walk."""
    rooted: set[str] = set()
    for start in list(parent):
        path: set[str] = set()
        key = start
        while key in parent and key not in rooted:
            if key in path:
                del parent[key]
                break
            path.add(key)
            key = parent[key][0]
        rooted.update(path)


class _Builder:
    """Turns linked blocks into nodes. A block nested deeper than the model allows is placed at
    the top level instead (queued in `deferred`), so no row is ever left out."""

    def __init__(self, rows: list[Row], blocks: dict[str, _Block], links: _Links):
        self.rows, self.blocks, self.links = rows, blocks, links
        self.deferred: list[_Block] = []

    def block(self, block: _Block, depth: int) -> PlanNode:
        if block.select_id is None and len(block.rows) == 1 and block.key != "all":
            # A UNION RESULT row is its own block: the row itself is the node.
            index = block.rows[0]
            node = table_node(self.rows[index], index)
            node.children = self._nested(self.links.under_row.get(index), depth)
            return node
        node = PlanNode(
            operation="select",
            label=_select_label(block),
            select_id=block.select_id,
            select_type=block.select_type or None,
        )
        for position, index in enumerate(block.rows):
            table = table_node(self.rows[index], index, block.select_id)
            if position and table.join_algorithm is None and table.operation == "table":
                table.join_algorithm = "nested_loop"
            table.children = self._nested(self.links.under_row.get(index), depth)
            node.children.append(table)
        node.children += self._nested(self.links.under_block.get(block.key), depth)
        return node

    def _nested(self, keys: list[str] | None, depth: int) -> list[PlanNode]:
        if not keys:
            return []
        blocks = sorted((self.blocks[k] for k in keys or []), key=lambda b: b.position)
        if depth + 1 >= MAX_NODE_DEPTH // 4:
            self.deferred += blocks
            return []
        return [self.block(b, depth + 1) for b in blocks]


def _select_label(block: _Block) -> str:
    if block.select_id is None:
        return block.select_type or "result"
    return f"#{block.select_id} {block.select_type or 'SELECT'}"
