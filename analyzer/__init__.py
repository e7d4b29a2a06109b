"""EXPLAIN parser and annotator. Pure Python: importing this package needs no Django.

    >>> from analyzer import analyze
    >>> analyze(text).to_dict()      # the /api/v1/analyze/ JSON

`parse()` turns a paste into a `Plan` (or raises `ParseError`), `annotate()` adds the
glossary annotations and plan-level findings, `analyze()` does both.
"""

from analyzer.insight.annotations import annotate
from analyzer.model import Analysis, Annotation, Finding, ParseError, Plan
from analyzer.pipeline import DEFAULT_MAX_BYTES, PARSER_VERSION, analyze
from analyzer.readers.dispatch import parse

__all__ = [
    "DEFAULT_MAX_BYTES",
    "PARSER_VERSION",
    "Analysis",
    "Annotation",
    "Finding",
    "ParseError",
    "Plan",
    "analyze",
    "annotate",
    "parse",
]
