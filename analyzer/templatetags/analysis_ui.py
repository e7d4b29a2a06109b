"""Template helpers for the analysis partial: `{% analysis_view %}` and `|soft_breaks`."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from analyzer import glossary
from analyzer.display import AnalysisView, build_view

register = template.Library()

_BREAK_AFTER = re.compile(r"([,;])")


@register.simple_tag
def analysis_view(analysis: dict[str, Any], raw_explain: str | None = None, prefix: str = "") -> AnalysisView:
    """Everything `_analysis.html` shows; the highlighted HTML is built from escaped tokens."""
    view = build_view(analysis, raw_explain, prefix)
    view.query_html = mark_safe(view.query_html)  # noqa: S308 - every token escaped in analyzer.highlight
    view.raw_html = mark_safe(view.raw_html)  # noqa: S308 - same
    return view


@register.filter
def soft_breaks(value: str | None) -> SafeString:
    """Escape, then allow a line break after each comma and semicolon (long key lists, Extra)."""
    if value is None:
        return mark_safe("")
    parts = _BREAK_AFTER.split(str(value))
    # Split before escaping, so the semicolons of entities such as &amp; stay whole.
    return mark_safe("".join(escape(p) + ("<wbr>" if p in (",", ";") else "") for p in parts))  # noqa: S308


@register.filter
def times(count: int) -> range:
    """`{% for _ in n|times %}`: repeat n times (closing nested lists of the plan tree)."""
    try:
        return range(max(0, int(count)))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def access_severity(access_type: str | None) -> str:
    """The glossary severity of a join type such as `ALL` or `eq_ref`, for colouring tree nodes."""
    term = glossary.match("type", access_type) if access_type else None
    return term.severity if term is not None else ""


@register.filter
def web_url(url: str | None) -> str:
    """The URL when it is http(s) or site-relative, else "#": no javascript: links, whatever the data says."""
    text = str(url or "").strip()
    if text.startswith(("https://", "http://")) or (text.startswith("/") and not text.startswith("//")):
        return text
    return "#"
