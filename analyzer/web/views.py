"""HTML views of the analyzer: the analyze-without-saving page and the glossary."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods

from analyzer import ParseError, analyze
from analyzer.insight import glossary
from analyzer.web.forms import AnalyzeForm

EMPTY_PASTE = "Paste the output of EXPLAIN (table, vertical, tab-separated, comma-separated, JSON or tree) first."
COLUMN_TITLES = {
    "select_type": "select_type: what kind of SELECT each row belongs to",
    "type": "type: how the table is read (the join type)",
    "extra": "Extra: what else the server does for the row",
}


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def analysis_context(explain: str, query: str | None) -> tuple[dict, int]:
    """The template context for a paste, and the status code a full page answers with:
    `analysis` (the API dict), or `error` (and `error_line` when the parser knows it)."""
    context: dict = {"raw_explain": explain, "analysis": None, "error": None, "error_line": None}
    if not explain.strip():
        context["error"] = EMPTY_PASTE
        return context, 400
    try:
        result = analyze(explain, query=query or None, max_bytes=settings.EXPLAIN_MAX_BYTES)
    except ParseError as exc:
        context["error"] = exc.message
        context["error_line"] = exc.line
        return context, 413 if exc.too_large else 400
    context["analysis"] = result.to_dict()
    return context, 200


@require_http_methods(["GET", "POST"])
def preview(request: HttpRequest) -> HttpResponse:
    """Analyze without saving. htmx posts get the `result` partial (always 200, errors shown
    inside it, so the live preview swaps them in); plain posts get the whole page, with 400
    for a paste that holds no EXPLAIN and 413 for one over the size limit."""
    form = AnalyzeForm(request.POST if request.method == "POST" else None)
    htmx = is_htmx(request)
    context: dict = {"form": form, "analysis": None, "raw_explain": "", "error": None, "htmx": htmx}
    status = 200
    if request.method == "POST" and form.is_valid():
        explain = form.cleaned_data["explain"]
        if htmx and not explain.strip():
            pass  # live preview of an emptied text area: back to the empty state
        else:
            result, status = analysis_context(explain, form.cleaned_data["query"])
            context.update(result)
    template = "analyzer/preview.html#result" if htmx else "analyzer/preview.html"
    response = render(request, template, context, status=200 if htmx else status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_GET
def terms(request: HttpRequest) -> HttpResponse:
    """Every glossary term, grouped by column, each at its own anchor `#<slug>`."""
    groups = [
        (column, COLUMN_TITLES.get(column, column), [t for t in glossary.TERMS if t.column == column])
        for column in glossary.COLUMNS
    ]
    return render(request, "analyzer/terms.html", {"groups": groups, "count": len(glossary.TERMS)})
