"""HTML views of the analyzer: the analyze-without-saving page, a paste's profile SVG and the glossary."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from analyzer import ParseError, analyze
from analyzer.insight import glossary
from analyzer.render.icicle import profile_document
from analyzer.web.forms import AnalyzeForm

NO_PROFILE = "This plan has no measured times (EXPLAIN ANALYZE output), so there is no time profile to draw."
EMPTY_PASTE = "Paste the output of EXPLAIN (table, vertical, tab-separated, comma-separated, JSON or tree) first."
COLUMN_TITLES = {
    "select_type": "select_type: what kind of SELECT each row belongs to",
    "type": "type: how the table is read (the join type)",
    "extra": "Extra: what else the server does for the row",
}


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def error_status(exc: ParseError) -> int:
    """The status code of a paste the analyzer refused: 413 over the size limit, 422 too complex to
    read within the time budget, 400 otherwise (no EXPLAIN in it)."""
    if exc.too_large:
        return 413
    return 422 if exc.too_complex else 400


def analysis_context(explain: str, query: str | None, schema: str | None = None) -> tuple[dict, int]:
    """The template context for a paste, and the status code a full page answers with:
    `analysis` (the API dict), or `error` (and `error_line` when the parser knows it)."""
    context: dict = {"raw_explain": explain, "analysis": None, "error": None, "error_line": None}
    if not explain.strip():
        context["error"] = EMPTY_PASTE
        return context, 400
    try:
        result = analyze(
            explain,
            query=query or None,
            max_bytes=settings.EXPLAIN_MAX_BYTES,
            deadline_ms=settings.EXPLAIN_DEADLINE_MS,
            schema=_capped(schema),
        )
    except ParseError as exc:
        context["error"] = exc.message
        context["error_line"] = exc.line
        return context, error_status(exc)
    context["analysis"] = result.to_dict()
    return context, 200


def _capped(schema: str | None) -> str | None:
    """The table definitions for advice, or None when absent or over SCHEMA_MAX_BYTES (too big to read)."""
    if not schema or len(schema.encode("utf-8", "surrogatepass")) > settings.SCHEMA_MAX_BYTES:
        return None
    return schema


@require_http_methods(["GET", "HEAD", "POST"])
def preview(request: HttpRequest) -> HttpResponse:
    """Analyze without saving. htmx posts get the `result` partial (always 200, errors shown
    inside it, so the live preview swaps them in); plain posts get the whole page, with 400
    for a paste that holds no EXPLAIN, 413 for one over the size limit and 422 for one too complex
    to read in time."""
    form = AnalyzeForm(request.POST if request.method == "POST" else None)
    htmx = is_htmx(request)
    context: dict = {"form": form, "analysis": None, "raw_explain": "", "error": None, "htmx": htmx}
    status = 200
    if request.method == "POST" and form.is_valid():
        explain = form.cleaned_data["explain"]
        if htmx and not explain.strip():
            pass  # live preview of an emptied text area: back to the empty state
        else:
            result, status = analysis_context(explain, form.cleaned_data["query"], form.cleaned_data["schema"])
            context.update(result)
    template = "analyzer/preview.html#result" if htmx else "analyzer/preview.html"
    response = render(request, template, context, status=200 if htmx else status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def svg_download(svg: str | None, filename: str) -> HttpResponse:
    """`svg` as a file to save (`filename`); a plain-text 404 when there is none (no timings)."""
    if svg is None:
        return HttpResponse(NO_PROFILE, status=404, content_type="text/plain; charset=utf-8")
    response = HttpResponse(svg.encode("utf-8"), content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@csrf_exempt
@require_POST
def profile_svg(request: HttpRequest) -> HttpResponse:
    """The time profile of the posted paste as an SVG file: the preview's "Download SVG", which
    posts the paste again since nothing is saved. CSRF-exempt on purpose: it only reads what it is
    sent and answers with a file. 400, 413 or 422 for a paste that cannot be read, 404 without timings."""
    form = AnalyzeForm(request.POST)
    data = form.cleaned_data if form.is_valid() else {}
    context, status = analysis_context(data.get("explain") or "", data.get("query"))
    if context["analysis"] is None:
        return HttpResponse(context["error"], status=status, content_type="text/plain; charset=utf-8")
    return svg_download(profile_document(context["analysis"]), "explain-profile.svg")


@require_safe
def terms(request: HttpRequest) -> HttpResponse:
    """Every glossary term, grouped by column, each at its own anchor `#<slug>`."""
    groups = [
        (column, COLUMN_TITLES.get(column, column), [t for t in glossary.TERMS if t.column == column])
        for column in glossary.COLUMNS
    ]
    return render(request, "analyzer/terms.html", {"groups": groups, "count": len(glossary.TERMS)})
