"""EXPLAIN analyzer. Pure Python: importing this package needs no Django (only `analyzer.web` does).

    >>> from analyzer import analyze
    >>> analyze(text).to_dict()      # the /api/v1/analyze/ JSON

A paste flows through rooms named for their step: `repair` (undo the damage), `readers` (find the
EXPLAIN and read it into the plan model of `model`), `insight` (glossary, annotations, findings,
compare) and `render` (text, the web page's view). `parse()` turns a paste into a `Plan` with its
model (or raises `ParseError`), `annotate()` adds annotations and findings, `analyze()` does both.
See docs/architecture.md.

Importing the package loads none of that: each name below is imported on first access (PEP 562),
and the readers, renderers and data files only when a paste needs them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from analyzer.deadline import DEFAULT_DEADLINE_MS
    from analyzer.insight.annotations import annotate
    from analyzer.model import Analysis, Annotation, Finding, ParseError, Plan, PlanNode
    from analyzer.pipeline import DEFAULT_MAX_BYTES, PARSER_VERSION, analyze, parse

# The module each public name comes from.
_HOMES = {
    "DEFAULT_DEADLINE_MS": "analyzer.deadline",
    "DEFAULT_MAX_BYTES": "analyzer.pipeline",
    "PARSER_VERSION": "analyzer.pipeline",
    "Analysis": "analyzer.model",
    "Annotation": "analyzer.model",
    "Finding": "analyzer.model",
    "ParseError": "analyzer.model",
    "Plan": "analyzer.model",
    "PlanNode": "analyzer.model",
    "analyze": "analyzer.pipeline",
    "annotate": "analyzer.insight.annotations",
    "parse": "analyzer.pipeline",
}

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


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first access and then kept as a global."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
