"""Annotations: each select_type, type and Extra item of a plan explained through the glossary.

`annotate(plan)` returns the annotations of every printed row (read from the plan model's node for
that row) and the plan's findings (`analyzer.insight.findings`). Pure functions, no Django; a value
the glossary does not know gets no annotation, and nothing here raises on odd cells.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.deadline import check_deadline
from analyzer.insight import glossary
from analyzer.insight.findings import findings, is_work_table
from analyzer.insight.rows import row_nodes
from analyzer.model import Annotation, Finding, Plan, PlanNode, Profile, Server


def annotate(
    plan: Plan, timing: Profile | None = None, server: Server | None = None
) -> tuple[list[Annotation], list[Finding]]:
    """Annotate every row of `plan` and list its findings, most severe first.

    Annotations cover the select_type, the type (both parts of MariaDB's `ref|filter`) and each
    "; "-separated Extra item; items the glossary does not know get no annotation. `timing` is the
    plan's profile, whose slowest steps become findings. Each annotation's `url` is the term's page
    in the documentation of `server` (`insight.server.detect`), of its version for MySQL's manual.
    """
    nodes = row_nodes(plan)
    terms = _Terms(server or Server())
    annotations: list[Annotation] = []
    for index, node in enumerate(nodes):
        check_deadline()
        annotations.extend(_annotate_row(index, node, terms))
    return annotations, findings(plan, nodes, timing)


class _Terms:
    """The glossary's term for a printed value and its page for `server`, each looked up once
    however many rows print the value."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._found: dict[tuple[str, str], tuple[glossary.Term, str] | None] = {}

    def find(self, column: str, value: str) -> tuple[glossary.Term, str] | None:
        key = (column, value)
        if key not in self._found:
            term = glossary.match(column, value)
            self._found[key] = None if term is None else (term, term.url_for(self.server.flavour, self.server.version))
        return self._found[key]


def _annotation(
    index: int, column: str, printed: str, terms: _Terms, match_value: str | None = None
) -> Annotation | None:
    found = terms.find(column, match_value if match_value is not None else printed)
    if found is None:
        return None
    term, url = found
    return Annotation(
        row=index,
        column=column,
        term=printed,
        severity=term.severity,
        title=term.title,
        explanation=term.explanation,
        url=url,
        slug=term.slug,
    )


def _annotate_row(index: int, node: PlanNode, terms: _Terms) -> Iterable[Annotation]:
    candidates: list[Annotation | None] = []
    if node.select_type:
        candidates.append(_annotation(index, "select_type", node.select_type, terms))
    access = node.access_type
    parts = [part.strip() for part in (access or "").split("|") if part.strip()]
    if len(parts) > 1 and parts[-1].lower() == "filter":
        # MariaDB's rowid filter: explain the access method and the filter separately.
        candidates.append(_annotation(index, "type", parts[0], terms))
        candidates.append(_annotation(index, "type", parts[-1], terms, access))
    elif access:
        scan = _annotation(index, "type", access, terms)
        if scan is not None and is_work_table(node) and scan.severity in ("bad", "warning"):
            # Reading back a UNION result or a derived table in full is how those work tables are used.
            scan.severity = "info"
        candidates.append(scan)
    for item in node.extra:
        candidates.append(_annotation(index, "extra", item, terms))
    return [a for a in candidates if a is not None]
