"""EXPLAIN analyzer. Pure Python: importing this package needs no Django (only `analyzer.web` does).

    >>> from analyzer import analyze
    >>> analyze(text).to_dict()      # the /api/v1/analyze/ JSON

A paste flows through rooms named for their step: `repair` (undo the damage), `readers` (find the
EXPLAIN and read it into the plan model of `model`), `insight` (glossary, annotations, findings,
compare) and `render` (text, the web page's view). `parse()` turns a paste into a `Plan` with its
model (or raises `ParseError`), `annotate()` adds annotations and findings, `analyze()` does both.
See docs/architecture.md.
"""


from analyzer.deadline import DEFAULT_DEADLINE_MS
from analyzer.insight.annotations import annotate
from analyzer.model import Analysis, Annotation, Finding, ParseError, Plan, PlanNode
from analyzer.pipeline import DEFAULT_MAX_BYTES, PARSER_VERSION, analyze
from analyzer.readers.dispatch import parse

__all__ = [
    "DEFAULT_DEADLINE_MS",
    "DEFAULT_MAX_BYTES",
    "PARSER_VERSION",
    "Analysis",
    "Annotation",
    "Finding",
    "ParseError",
    "Plan",
    "PlanNode",
    "analyze",
    "annotate",
    "parse",
]
