"""The pipeline: a paste goes through repair → read → check → model → insight, in that order, under
one time budget. The one entry point the web views, the API and the CLI call.

- repair (`analyzer.repair.cleanup.clean`): undo what terminals, mail clients and editors did;
- read (`analyzer.readers.dispatch.read`): find the EXPLAIN and read it into a `Plan`;
- check (`analyzer.check.check`): hold the reading against what a server can print;
- model (`analyzer.readers.plan_model.plan_model`): the typed plan tree every format becomes;
- insight: the time profile, the server, annotations, findings and index advice.
"""

from __future__ import annotations

from analyzer.check import check
from analyzer.collector import fewer_collections
from analyzer.deadline import DEFAULT_DEADLINE_MS, deadline
from analyzer.insight.annotations import annotate
from analyzer.insight.profile import profile
from analyzer.insight.server import detect
from analyzer.model import Advice, Analysis, Finding, ParseError, Plan
from analyzer.readers.dispatch import EXPECTED, read
from analyzer.readers.line_roles import query_given
from analyzer.readers.plan_model import plan_model
from analyzer.repair.cleanup import clean

# Bump when a parser or annotator change alters the output for the same input;
# stored explains record the version that analyzed them.
PARSER_VERSION = "7"
DEFAULT_MAX_BYTES = 1024 * 1024


def parse(text: str, max_bytes: int = DEFAULT_MAX_BYTES, deadline_ms: int | None = DEFAULT_DEADLINE_MS) -> Plan:
    """Repair, read and check a paste and build its plan model (`Plan.tree`). Raises `ParseError`
    (and nothing else) when no EXPLAIN can be read, with `too_large=True` when `text` is over
    `max_bytes` bytes of UTF-8, and `too_complex=True` when reading it takes more than `deadline_ms`
    milliseconds of CPU time (None: no limit)."""
    with deadline(deadline_ms), fewer_collections():
        return _plan(text, max_bytes)


def analyze(
    text: str,
    query: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    deadline_ms: int | None = DEFAULT_DEADLINE_MS,
    schema: str | None = None,
) -> Analysis:
    """Parse and annotate a paste. Raises `ParseError` as `parse()` does, the time budget covering
    the insight too.

    A `query` given by the caller wins over one found in the paste. `schema` is the tables'
    `SHOW CREATE TABLE` (or `SHOW INDEX`) output, which index advice checks its advice against.
    """
    with deadline(deadline_ms), fewer_collections():
        plan = _plan(text, max_bytes)
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


def _plan(text: str, max_bytes: int) -> Plan:
    """Repair → read → check → model, each reader bug turned into a `ParseError` that is logged."""
    if not isinstance(text, str):
        raise ParseError(f"The paste must be text; {EXPECTED}.")
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ParseError(f"The paste is larger than the limit of {max_bytes} bytes.", too_large=True)
    if not text.strip():
        raise ParseError(f"The paste is empty: {EXPECTED}.")
    try:
        plan = read(clean(text))
        check(plan, text)
        if not plan.tables:
            plan.tables = list(dict.fromkeys(name for row in plan.rows if (name := row.get("table"))))
        plan.tree = plan_model(plan)
        return plan
    except ParseError:
        raise
    except Exception as exc:  # a reader bug must still give the caller a clean 4xx, and be seen
        import logging  # here: it costs more to import than reading a paste

        logging.getLogger("analyzer").exception("Internal error reading a paste of %d characters", len(text))
        raise ParseError(f"This paste could not be read ({type(exc).__name__}); {EXPECTED}.") from exc


def _advise(plan: Plan, schema: str | None) -> tuple[list[Advice], list[Finding]]:
    """Index advice, which needs the query: without one, its module is not even imported."""
    if not plan.query:
        return [], []
    from analyzer.insight.advice import advise

    try:
        return advise(plan, plan.query, schema)
    except ParseError:
        raise  # the deadline
    except Exception:  # a bug: the analysis stands without advice, and the log says why
        import logging

        logging.getLogger("analyzer").exception("Internal error working out index advice")
        plan.notices.append("Index advice could not be worked out for this query (an internal error, logged).")
        return [], []
