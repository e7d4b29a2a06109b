"""The pipeline: repair and read a paste into its plan model (`readers`), then profile its timings,
annotate it and find its problems (`insight`). The one entry point the web views, the API and the
CLI call."""

from __future__ import annotations

from analyzer.collector import fewer_collections
from analyzer.deadline import DEFAULT_DEADLINE_MS, deadline
from analyzer.insight.annotations import annotate
from analyzer.insight.profile import profile
from analyzer.insight.server import detect
from analyzer.model import Advice, Analysis, Finding, Plan
from analyzer.readers.dispatch import parse
from analyzer.readers.line_roles import query_given

# Bump when a parser or annotator change alters the output for the same input;
# stored explains record the version that analyzed them.
PARSER_VERSION = "6"
DEFAULT_MAX_BYTES = 1024 * 1024


def analyze(
    text: str,
    query: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    deadline_ms: int | None = DEFAULT_DEADLINE_MS,
    schema: str | None = None,
) -> Analysis:
    """Parse and annotate a paste. Raises `ParseError` for text with no EXPLAIN, over `max_bytes`, or
    taking longer than `deadline_ms` milliseconds of CPU time to read and annotate (see `parse()`).

    A `query` given by the caller wins over one found in the paste. `schema` is the tables'
    `SHOW CREATE TABLE` (or `SHOW INDEX`) output, which index advice checks its advice against.
    """
    with deadline(deadline_ms), fewer_collections():
        plan = parse(text, max_bytes=max_bytes, deadline_ms=deadline_ms)
        if not plan.tables:
            plan.tables = list(dict.fromkeys(name for row in plan.rows if (name := row.get("table"))))
        if query and query.strip():
            plan.query = query.strip()
            plan.lines = query_given(plan.lines)
        timing = profile(plan.tree) if plan.tree is not None else None
        server = detect(text, plan)
        annotations, findings = annotate(plan, timing, server)
        advice, blocked = _advise(plan, schema)
    if blocked:
        from analyzer.insight.findings import SEVERITY_ORDER

        findings = sorted(findings + blocked, key=lambda f: SEVERITY_ORDER.get(f.severity, 9))
    return Analysis(
        plan=plan, annotations=annotations, findings=findings, profile=timing, advice=advice, server=server
    )


def _advise(plan: Plan, schema: str | None) -> tuple[list[Advice], list[Finding]]:
    """Index advice, which needs the query: without one, its module is not even imported."""
    if not plan.query:
        return [], []
    from analyzer.insight.advice import advise
    from analyzer.model import ParseError

    try:
        return advise(plan, plan.query, schema)
    except ParseError:
        raise  # the deadline
    except Exception:  # a bug: the analysis stands without advice, and the log says why
        import logging

        logging.getLogger("analyzer").exception("Internal error working out index advice")
        plan.notices.append("Index advice could not be worked out for this query (an internal error, logged).")
        return [], []
