"""The model node of each printed row, the unit annotations and row findings speak about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzer.model import Plan, PlanNode
from analyzer.readers.nesting import table_node, tabular_tree


def row_nodes(plan: Plan) -> list[PlanNode]:
    """One node per row of `plan.rows`, in order: the model's node linked to the row, or (for a
    row no node stands for, or a plan built by hand without a model) the row read on its own."""
    tree = plan.tree if plan.tree is not None else tabular_tree(_mappings(plan.rows))
    linked = tree.by_row()
    nodes = []
    for index, row in enumerate(plan.rows):
        node = linked.get(index)
        if node is None:
            node = table_node(row, index) if isinstance(row, Mapping) else PlanNode("other", "(no row)", row=index)
        nodes.append(node)
    return nodes


def _mappings(rows: Sequence[object]) -> list[dict[str, str | None]]:
    return [dict(row) if isinstance(row, Mapping) else {} for row in rows]
