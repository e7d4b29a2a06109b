"""`POST /api/v1/analyze/`: analyze a paste without saving it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpResponse, QueryDict
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, parsers, renderers, serializers, status
from rest_framework.request import Request
from rest_framework.views import APIView

from analyzer import ParseError, analyze
from analyzer.render.text import format_report
from analyzer.web import answers
from analyzer.web.renderers import JSONRenderer
from analyzer.web.schema import AnalysisOutput


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The paste is too large."
    default_code = "too_large"


class TooComplex(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "The paste is too complex to read."
    default_code = "too_complex"


def too_large_error() -> PayloadTooLarge:
    return PayloadTooLarge(f"The paste is larger than the limit of {settings.EXPLAIN_MAX_BYTES} bytes.")


def declared_length(parser_context: dict | None) -> int:
    """The request's Content-Length header as a number (0 when absent or not a number)."""
    request = parser_context.get("request") if parser_context else None
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except ValueError:
        return 0


class PlainTextParser(parsers.BaseParser):
    """Reads a `text/plain` body as UTF-8, refusing bodies over EXPLAIN_MAX_BYTES with 413."""

    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None) -> str:
        limit = settings.EXPLAIN_MAX_BYTES
        if declared_length(parser_context) > limit:
            raise too_large_error()  # refused before reading a body that claims to be too large
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:
            raise too_large_error()
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError("The body is not valid UTF-8 text.") from exc


class CurlFormParser(PlainTextParser):
    """`curl --data-binary @plan.txt URL` labels the paste `application/x-www-form-urlencoded`.

    Such a body is the raw paste, unless it is a real form whose `explain` field holds it.
    """

    media_type = "application/x-www-form-urlencoded"

    def parse(self, stream, media_type=None, parser_context=None) -> str | dict:
        text = super().parse(stream, media_type, parser_context)
        if text.startswith("explain="):
            try:
                fields = QueryDict(text)
            except SuspiciousOperation as exc:
                raise exceptions.ParseError("The form body has too many fields.") from exc
            return {key: fields.get(key) for key in fields}
        return text


class LimitedJSONParser(parsers.JSONParser):
    """JSON bodies, refused with 413 when far over the paste limit (escapes can double a paste)."""

    def parse(self, stream, media_type=None, parser_context=None):
        if declared_length(parser_context) > 2 * settings.EXPLAIN_MAX_BYTES + 64 * 1024:
            raise too_large_error()
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise exceptions.ParseError("The JSON body is nested too deeply.") from exc


class PlainTextRenderer(renderers.BaseRenderer):
    """Renders an analysis report, or an error, as text for a terminal."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        if isinstance(data, dict) and "error" in data:
            return f"error: {data['error']}\n".encode()
        return str(data).encode("utf-8")


class AnalyzeInput(serializers.Serializer):
    explain = serializers.CharField(trim_whitespace=False, allow_blank=True)
    query = serializers.CharField(required=False, allow_blank=True, allow_null=True, trim_whitespace=False)
    schema = serializers.CharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        trim_whitespace=False,
        help_text="SHOW CREATE TABLE (or SHOW INDEX) output for the plan's tables: index advice is checked against it.",
    )


class ExplainInput(AnalyzeInput):
    """The same fields, the paste required (the pastebin's creation)."""

    explain = serializers.CharField(trim_whitespace=False, help_text="The EXPLAIN output, as pasted.")


def read_schema(request: Request) -> str | None:
    """The optional `schema` (table definitions for index advice): a JSON field, or the query
    string with a text/plain body; 400 when it is not text, 413 over SCHEMA_MAX_BYTES."""
    data: Any = request.data
    value = data.get("schema") if isinstance(data, dict) else request.query_params.get("schema")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise exceptions.ValidationError({"schema": ["Send the table definitions as text."]})
    if len(value.encode("utf-8", "surrogatepass")) > settings.SCHEMA_MAX_BYTES:
        raise PayloadTooLarge(f"The schema is larger than the limit of {settings.SCHEMA_MAX_BYTES} bytes.")
    return value


def read_explain(request: Request) -> tuple[str, str | None]:
    """The paste and optional query from a text/plain or JSON body (shared by the pastebin API)."""
    try:
        data: Any = request.data
    except RequestDataTooBig as exc:  # DRF reads JSON bodies through Django's capped request.body
        raise too_large_error() from exc
    if isinstance(data, str):
        return data, request.query_params.get("query") or None
    if not isinstance(data, dict):
        raise exceptions.ParseError('Send the paste as text/plain, or JSON {"explain": "…", "query": "…"}.')
    form = AnalyzeInput(data=data)
    if not form.is_valid():
        raise exceptions.ValidationError(form.errors)
    explain = form.validated_data["explain"]
    if len(explain.encode("utf-8", "surrogatepass")) > settings.EXPLAIN_MAX_BYTES:
        raise too_large_error()
    return explain, form.validated_data.get("query") or None


def analyze_or_error(text: str, query: str | None, schema: str | None = None):
    """Run the analyzer, turning `ParseError` into the API's 400, 413 or 422 (too complex to read in time)."""
    try:
        return analyze(
            text,
            query=query,
            max_bytes=settings.EXPLAIN_MAX_BYTES,
            deadline_ms=settings.EXPLAIN_DEADLINE_MS,
            schema=schema,
        )
    except ParseError as exc:
        if exc.too_large:
            raise too_large_error() from exc
        if exc.too_complex:
            raise TooComplex(exc.message) from exc
        raise exceptions.ParseError(exc.message) from exc


class AnalyzeView(APIView):
    parser_classes = [PlainTextParser, LimitedJSONParser, CurlFormParser]
    renderer_classes = [JSONRenderer, PlainTextRenderer]

    @extend_schema(
        summary="Analyze an EXPLAIN paste (nothing is saved)",
        request={"text/plain": str, "application/json": AnalyzeInput},
        responses={200: AnalysisOutput, 400: dict, 413: dict, 415: dict, 422: dict},
        examples=[
            OpenApiExample(
                "JSON body",
                value={"explain": "+----+ …", "query": "SELECT …", "schema": "CREATE TABLE …"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> HttpResponse:
        text, query = read_explain(request)
        schema = read_schema(request)
        renderer = request.accepted_renderer
        key = answers.digest(text, query, schema, renderer.format, request.accepted_media_type, answers.limits())
        body = answers.answers.get(key)
        if body is None:
            analysis = analyze_or_error(text, query, schema)
            data = format_report(analysis) if isinstance(renderer, PlainTextRenderer) else analysis.to_dict()
            body = renderer.render(data, request.accepted_media_type, self.get_renderer_context())
            answers.answers.put(key, body)
        charset = f"; charset={renderer.charset}" if renderer.charset else ""
        return HttpResponse(body, content_type=f"{renderer.media_type}{charset}")
