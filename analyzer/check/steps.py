"""The steps of a tree plan held against what MySQL prints: a join reads two inputs, a filter, sort,
limit, aggregate or materialization reads one, a lookup on a derived table's key sits over the
materialization that builds it, and the top of the plan runs once (`loops=1`). A plan that breaks
one of these is an excerpt of a larger one: the reading is `truncated`, the steps named. A step with
more inputs than it reads (a join with three) shows that the indentation was changed rather: the
nesting is then a guess, and the reading `uncertain`."""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.model import Plan
from analyzer.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Steps that join two inputs (the build side of a hash join is its `Hash` step).
_JOIN = lazy_regex(r"Nested loop |(?:^|\s)[Hh]ash (?:join|antijoin|semijoin|left join)|Batched key access")
# Steps that read rows from the steps under them.
_READERS = frozenset(
    {
        "Select", "Filter", "Sort", "Aggregate using temporary table", "Group aggregate", "Group (no aggregates)",
        "Aggregate", "Index merge", "Batch input rows", "Hash", "Weedout", "Remove duplicates", "Union materialize",
        "Materialize", "Temporary table", "Stream results", "Limit", "Offset", "Window aggregate", "Append",
    }
)  # fmt: skip
# A materialization MySQL prints once, under its first reader, and only names under the others.
_ELSEWHERE = "(query plan printed elsewhere)"


def check_steps(plan: Plan) -> None:
    """Flag a tree plan truncated when its steps show that it is a part of a larger plan."""
    if plan.format != "tree" or not isinstance(plan.plan, list) or not plan.plan:
        return
    if plan.uncertain or (len(plan.plan) > 1 and not any(root.get("children") for root in plan.plan)):
        return  # how the steps nest is a guess, or the paste lost the tree's indentation
    short: list[str] = []
    crowded: list[str] = []
    for root in plan.plan:
        _walk(root, short, crowded)
    if crowded:
        plan.uncertain = True
        plan.notices.append(
            f"How the plan's steps nest does not fit what MySQL prints ({'; '.join(crowded[:3])}, more than "
            "such a step reads): the indentation may have been changed, so which step is under which is a guess."
        )
        return
    top = plan.plan[0]
    loops = top.get("loops")
    if isinstance(loops, int) and loops > 1:
        short.insert(0, f"its top step runs {loops} times, where the top of a plan runs once")
    if not short:
        return
    plan.truncated = True
    shown = "; ".join(short[:3]) + (f"; and {plural(len(short) - 3, 'more step')}" if len(short) > 3 else "")
    plan.notices.append(f"The plan shown is a part of a larger one: {shown}.")


def _walk(node: dict[str, Any], short: list[str], crowded: list[str]) -> None:
    children = node.get("children") or []
    inputs = [child for child in children if child.get("kind") != "Select"]  # subqueries are no input
    missing = _missing_inputs(node, len(children))
    if missing:
        short.append(f"'{_label(node)}' shows {len(children)} of the {missing} inputs it reads")
    elif len(inputs) > _most_inputs(node):
        crowded.append(f"'{_label(node)}' has {len(inputs)} inputs")
    for child in children:
        _walk(child, short, crowded)


def _most_inputs(node: dict[str, Any]) -> int:
    """How many inputs a step reads at most (a union or an index merge reads any number)."""
    kind = str(node.get("kind") or "")
    if _JOIN.search(kind):
        return 2
    if kind in _READERS and kind not in ("Append", "Union materialize", "Index merge", "Select"):
        return 1
    return 10**6


def _missing_inputs(node: dict[str, Any], count: int) -> int | None:
    """How many inputs the step reads, when it shows fewer; else None."""
    kind = node.get("kind")
    operation = str(node.get("operation") or "")
    if _JOIN.search(str(kind or "")):
        return 2 if count < 2 else None
    if kind in _READERS and not operation.endswith(_ELSEWHERE):
        return 1 if count < 1 else None
    if (node.get("index") or "").startswith("<auto") and count < 1:
        return 1  # the lookup's key is on a derived table: its materialization goes under it
    return None


def _label(node: dict[str, Any]) -> str:
    operation = str(node.get("operation") or node.get("kind") or "")
    return operation if len(operation) <= 50 else operation[:49] + "\u2026"
