"""Step labels written before the arrows of a tree plan: a gutter to take off.

People who explain a `FORMAT=TREE` or `EXPLAIN ANALYZE` plan step by step write a label before
each node's arrow: `A -> Table scan on <temporary> …`, `B     -> Aggregate …`, also `1.`, `2)`,
`(a)`, `[3]` or `①`. A long node wrapped onto a line of its own keeps no label. The labels are
blanked out (spaces of the same width), so the arrows keep their columns relative to each other
and to the wrapped lines, and the tree reader sees the plan as printed.

Only a gutter is taken off: at least two labelled arrow lines, the labels distinct and all at the
same column, in a paste that shows a plan's figures (`(cost=`, `(actual time=`, `(rows=`,
`(never executed)`). Prose with an arrow after a word (`A -> B means …`) is left as it is.
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.repair.scan import any_line, matching_lines
from analyzer.wording import plural

# The blanks before a label, the label, then the arrow. A label of letters or digits has a space
# before the arrow; one in brackets, after a dot or a parenthesis, or a circled one need not.
_LABELS = (
    r"[A-Za-z]{1,2}(?=[ \t]+->)|\d{1,3}(?=[ \t]+->)"
    r"|(?:[A-Za-z]{1,2}|\d{1,3})[.):]|\((?:[A-Za-z]{1,2}|\d{1,3})\)|\[(?:[A-Za-z]{1,2}|\d{1,3})\]"
    r"|[\u2460-\u24ff\u2776-\u2793\u3251-\u325f\u32b1-\u32bf]"
)
_LABELLED = lazy_regex(rf"^([ \t]*)({_LABELS})[ \t]*->")
_LABELLED_SEARCH = rf"^[^\S\n]*(?:{_LABELS})[^\S\n]*->"
# The figures of a plan's node, somewhere in the paste.
_FIGURES = r"\((?:cost=|actual time=|actual rows=|rows=\d|never executed\))"
# Fewer labelled lines could be prose.
_LEAST = 2


def strip_step_labels(lines: list[str], numbers: list[int], notices: list[str]) -> list[str]:
    """`lines` with the step labels before the arrows of a tree plan blanked out (see the module's
    docstring), or `lines` itself when they hold none."""
    check_deadline()
    found = matching_lines(lines, _LABELLED_SEARCH)
    if len(found) < _LEAST or not any_line(lines, _FIGURES):
        return lines
    matches = [(i, match) for i in found if (match := _LABELLED.match(lines[i]))]
    labels = [match.group(2) for _, match in matches]
    if len({match.group(1) for _, match in matches}) > 1 or len(set(labels)) < len(labels):
        return lines  # labels at different columns, or the same one twice: no gutter of steps
    out = list(lines)
    for i, match in matches:
        out[i] = match.group(1) + " " * len(match.group(2)) + lines[i][match.end(2) :]
    shown = f"'{labels[0]}' to '{labels[-1]}'"
    notices.append(
        f"Removed the step labels ({shown}) written before the arrows of {plural(len(matches), 'plan line')} "
        f"(from line {numbers[matches[0][0]]})."
    )
    return out
