"""The data the analyzer produces: a parsed plan, its annotations and findings.

Pure dataclasses, no Django. `Analysis.to_dict()` is the JSON contract of
`POST /api/v1/analyze/` (see README).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMATS = ("table", "vertical", "tsv", "json", "tree")
SEVERITIES = ("good", "info", "warning", "bad")

Row = dict[str, "str | None"]


class ParseError(ValueError):
    """The text holds no EXPLAIN we can read, or is too large. `line` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None, *, too_large: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.too_large = too_large


@dataclass
class Plan:
    """One EXPLAIN result as parsed from a paste.

    `columns` are the header's names lower-cased, in order; each row maps those names to
    the cell exactly as printed (a string) or None for NULL. For json and tree input,
    `plan` holds the nested plan and `rows` a flattened per-table view of it.
    """

    format: str
    columns: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    plan: Any = None
    tables: list[str] = field(default_factory=list)
    query: str | None = None
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    truncated: bool = False
    affected_rows: list[int] = field(default_factory=list)


@dataclass
class Annotation:
    row: int
    column: str
    term: str
    severity: str
    title: str
    explanation: str
    url: str
    slug: str = ""


@dataclass
class Finding:
    severity: str
    message: str
    rows: list[int] = field(default_factory=list)
    kind: str = ""


@dataclass
class Analysis:
    plan: Plan
    annotations: list[Annotation] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        return {
            "format": p.format,
            "columns": list(p.columns),
            "rows": [dict(row) for row in p.rows],
            "plan": p.plan,
            "tables": list(p.tables),
            "query": p.query,
            "warnings": list(p.warnings),
            "truncated": p.truncated,
            "affected_rows": list(p.affected_rows),
            "annotations": [a.__dict__.copy() for a in self.annotations],
            "findings": [f.__dict__.copy() for f in self.findings],
            "notices": list(p.notices),
        }
