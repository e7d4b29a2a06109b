"""Which builder makes the plan model of a parsed paste: nested plans map their own nodes, tabular
output (and JSON the readers could not walk) is nested from its rows."""

from __future__ import annotations

from analyzer.model import Plan, PlanNode
from analyzer.readers.nesting import tabular_tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def plan_model(plan: Plan) -> PlanNode:
    """The root of `plan`'s model."""
    if plan.tree is not None:
        return plan.tree  # the reader built it
    nested = plan.plan
    if nested is None:
        return tabular_tree(plan.rows)
    # Only nested plans need the document readers' mappings: imported here, not for tabular output.
    from analyzer.readers.documents.document_model import document_tree, operations_tree
    from analyzer.readers.documents.json_plan import v2_node

    if plan.format == "tree" and isinstance(nested, list):
        return operations_tree(nested, plan.rows)
    if plan.format == "json" and isinstance(nested, dict):
        if "query_block" in nested:
            return document_tree(nested, plan.rows)
        root = nested.get("query_plan", nested)
        if isinstance(root, dict):
            return operations_tree([v2_node(root)], plan.rows)
    return tabular_tree(plan.rows)


def stored_model(analysis: dict[str, Any]) -> PlanNode:
    """The model of an analysis dict (`Analysis.to_dict()`, as saved explains store it): its `tree`,
    or, for one stored before the model existed, the model rebuilt from its rows and nested plan."""
    node = PlanNode.from_dict(analysis.get("tree"))
    if node is not None:
        return node
    rows = [row for row in analysis.get("rows") or [] if isinstance(row, dict)]
    plan = Plan(format=str(analysis.get("format") or "table"), rows=rows, plan=analysis.get("plan"))
    try:
        return plan_model(plan)
    except (KeyError, TypeError, ValueError, AttributeError):
        # A stored nested plan of an unexpected shape: its rows still give the model.
        return tabular_tree(rows)
