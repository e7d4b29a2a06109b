"""Placeholder annotator. Being replaced by the glossary-driven annotator."""

from __future__ import annotations

from analyzer.plan import Annotation, Finding, Plan


def annotate(plan: Plan) -> tuple[list[Annotation], list[Finding]]:
    return [], []
