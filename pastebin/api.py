"""REST API for saved explains: create, read, list public ones, change or delete with the token."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import UTC

from django.db import transaction
from django.http import HttpResponse
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, parsers, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from analyzer.web.api import (
    CurlFormParser,
    LimitedJSONParser,
    PlainTextParser,
    PlainTextRenderer,
    TooComplex,
    read_explain,
    read_schema,
    too_large_error,
)
from analyzer.web.renderers import Joined, JSONRenderer
from pastebin import idempotency, lookup, serializers
from pastebin.models import Explain, IdempotencyRecord
from pastebin.saving import SaveError, delete_explain, save_explain, update_explain
from pastebin.throttles import CreateRateThrottle, ManageRateThrottle
from pastebin.tokens import token_matches


class AnyBodyAsTextParser(PlainTextParser):
    """A body of any other declared type is read as the raw paste too."""

    media_type = "*/*"


class GoneError(exceptions.APIException):
    status_code = status.HTTP_410_GONE
    default_detail = "This explain is gone."
    default_code = "gone"


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This request conflicts with an earlier one."
    default_code = "conflict"


class NewestFirst(CursorPagination):
    page_size = 20
    max_page_size = 100
    page_size_query_param = "page_size"
    ordering = ("-created_at", "-slug")

    def decode_cursor(self, request):
        """DRF's cursor, refused with 404 when its position is not a time with its offset, between
        the years 1 and 9999 in UTC, as the positions DRF writes are (a forged cursor would 500)."""
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                moment = parse_datetime(cursor.position)
                valid = moment is not None and moment.tzinfo is not None
                if valid:
                    moment.astimezone(UTC)
            except (ValueError, OverflowError):
                valid = False
            if not valid:
                raise exceptions.NotFound(self.invalid_cursor_message)
        return cursor


def wants_plain_link(request: Request) -> bool:
    """Answer a creation with just the permalink: when asked for with `Accept: text/plain`, and
    for `curl --data-binary @plan.txt URL`, which sends its form content type and `Accept: */*`."""
    if isinstance(request.accepted_renderer, PlainTextRenderer):
        return True
    accept = request.META.get("HTTP_ACCEPT", "").strip()
    content_type = request.content_type.split(";")[0].strip().lower()
    return accept in ("", "*/*") and content_type == "application/x-www-form-urlencoded"


def _save_error(exc: SaveError) -> exceptions.APIException:
    if exc.too_large:
        return too_large_error()
    return TooComplex(exc.message) if exc.too_complex else exceptions.ParseError(exc.message)


CREATE_DESCRIPTION = """Save an explain and get its permalink.

Send the paste as the `text/plain` body (options `query`, `schema`, `title`, `expires`, `visibility`,
`anonymize`, `improves_on` as query parameters), or as JSON. With `Accept: text/plain` the answer
is the permalink and a newline. The `delete_token` is shown only in this answer (and in its replays)."""

KEY_DESCRIPTION = """Makes retrying safe: the same key with the same request (paste, query, options, content
type) within 24 hours answers the first 201 again, with its delete token, instead of saving twice;
the same key with another request is a 409. 1 to 255 printable ASCII characters: send a random UUID
per paste, and keep it secret like the delete token."""


class ExplainListCreate(generics.ListCreateAPIView):
    parser_classes = [PlainTextParser, LimitedJSONParser, CurlFormParser, AnyBodyAsTextParser]
    serializer_class = serializers.ExplainCreateInput  # describes POST to OPTIONS (without one, OPTIONS was a 500)
    renderer_classes = [JSONRenderer, PlainTextRenderer]
    pagination_class = NewestFirst
    stored_answer: IdempotencyRecord | None = None

    def get_queryset(self):
        return Explain.objects.public().listed()

    def get_throttles(self):
        return [CreateRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        summary="List public explains, newest first",
        parameters=[OpenApiParameter("cursor", str, description="Opaque cursor from `next`/`previous`.")],
        responses={200: serializers.ExplainSummaryOutput(many=True)},
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([serializers.listed_data(e, request) for e in page])

    def check_throttles(self, request: Request) -> None:
        """A request whose key has a stored answer saves nothing (`post` replays or refuses it),
        so it is not counted against the creation rate."""
        self.stored_answer = idempotency.find(request.headers.get(idempotency.KEY_HEADER))
        if self.stored_answer is None:
            super().check_throttles(request)

    @extend_schema(
        summary="Save an explain",
        description=CREATE_DESCRIPTION,
        request={"text/plain": str, "application/json": serializers.ExplainCreateInput},
        parameters=[
            OpenApiParameter(name, str, required=False, description=f"With a text/plain body: `{name}`.")
            for name in ("query", *serializers.OPTION_NAMES)
        ]
        + [
            OpenApiParameter(idempotency.KEY_HEADER, str, OpenApiParameter.HEADER, description=KEY_DESCRIPTION),
            OpenApiParameter(
                idempotency.REPLAYED_HEADER,
                str,
                OpenApiParameter.HEADER,
                enum=["true"],
                response=[201],
                description="Present when the answer is the replay of an earlier request with the same key.",
            ),
        ],
        responses={
            201: serializers.ExplainCreatedOutput,
            400: serializers.ErrorOutput,
            409: serializers.ErrorOutput,
            413: serializers.ErrorOutput,
            422: serializers.ErrorOutput,
            429: serializers.ErrorOutput,
        },
    )
    def post(self, request: Request, *args, **kwargs) -> Response | HttpResponse:
        key = _idempotency_key(request)
        text, query = read_explain(request)
        schema = read_schema(request)
        source = request.data if isinstance(request.data, dict) else request.query_params
        fields = _request_fields(request, text, query, source) | {"schema": schema}
        attempt = idempotency.Attempt.start(key, fields) if key else None
        if attempt and self.stored_answer:
            return _replay(request, attempt, self.stored_answer)
        options = serializers.read_options(source)
        try:
            data = _save(request, text, query, options | {"schema": schema}, attempt)
        except idempotency.KeyTaken:
            return _replay(request, attempt, idempotency.find(key))
        return _created(request, data)


def _idempotency_key(request: Request) -> str | None:
    """The `Idempotency-Key` header, None when absent; 400 when it is not a valid key."""
    key = request.headers.get(idempotency.KEY_HEADER)
    if key is not None and not idempotency.valid_key(key):
        raise exceptions.ParseError(idempotency.KEY_ERROR)
    return key


def _request_fields(request: Request, text: str, query: str | None, source) -> dict:
    """What makes two requests with a key the same: the paste, the query, the options given
    (as sent, before validation) and the content type."""
    return {
        "content_type": request.content_type.split(";")[0].strip().lower(),
        "explain": text,
        "query": query,
        "options": {name: source.get(name) for name in serializers.OPTION_NAMES if name in source},
    }


def _save(
    request: Request, text: str, query: str | None, values: dict, attempt: idempotency.Attempt | None
) -> dict | Joined:
    """Save the explain and, with a key, the record of its answer, in one transaction (without
    one, the explain's insert is a single statement); the answer's data."""
    with transaction.atomic() if attempt else nullcontext():
        try:
            saved = save_explain(
                text,
                query=query,
                title=values["title"],
                expires=values["expires"],
                visibility=values["visibility"],
                anonymize_names=values["anonymize"],
                improves_on=values["improves_on"],
                schema=values["schema"],
            )
        except SaveError as exc:
            raise _save_error(exc) from exc
        if attempt:
            attempt.remember(saved.explain, saved.delete_token)
            # A replay reads the analysis back from the database, where PostgreSQL's jsonb orders
            # the keys its own way: the first answer reads it back too, so both are byte for byte one.
            saved.explain.refresh_from_db(fields=["analysis"])
            return serializers.created_data(saved.explain, saved.delete_token, request)
    return Joined(serializers.created_head(saved.explain, saved.delete_token, request), saved.encoded_analysis)


def _replay(
    request: Request, attempt: idempotency.Attempt, record: IdempotencyRecord | None
) -> Response | HttpResponse:
    """The stored first answer, or 409 when the key was used for another request (or the first
    request's record has since gone, which leaves nothing to replay)."""
    if record is None:
        raise Conflict("A request with this Idempotency-Key is in progress or just expired; retry it.")
    try:
        token = attempt.replay(record)
    except idempotency.DifferentRequest as exc:
        raise Conflict(
            "This Idempotency-Key was already used for a different request (paste, options or content type); "
            "send a new key for a new explain."
        ) from exc
    data = serializers.created_data(record.explain, token, request)
    return _created(request, data, {idempotency.REPLAYED_HEADER: "true"})


def _created(request: Request, data: dict | Joined, extra_headers: dict | None = None) -> Response | HttpResponse:
    """The 201 answer: the permalink as text, or the JSON, with a Location header."""
    url = (data.head if isinstance(data, Joined) else data)["url"]
    headers = {"Location": url, **(extra_headers or {})}
    if wants_plain_link(request):
        return HttpResponse(url + "\n", status=201, content_type="text/plain; charset=utf-8", headers=headers)
    return Response(data, status=status.HTTP_201_CREATED, headers=headers)


TOKEN_HEADER = "X-Delete-Token"


def _errors(*codes: int) -> dict[int, type[serializers.ErrorOutput]]:
    """The error answers of an endpoint, for its OpenAPI description."""
    return dict.fromkeys(codes, serializers.ErrorOutput)


class ExplainDetail(generics.RetrieveDestroyAPIView):
    renderer_classes = [JSONRenderer]
    parser_classes = [LimitedJSONParser, parsers.FormParser]
    serializer_class = serializers.ExplainEditInput  # describes PATCH to OPTIONS

    def get_throttles(self):
        """Changing and deleting share `MANAGE_RATE` per client address, with the pages' forms."""
        return [ManageRateThrottle()] if self.request.method in ("PATCH", "DELETE") else []

    @extend_schema(
        summary="Read a saved explain",
        responses={200: serializers.ExplainDetailOutput, 404: serializers.ErrorOutput, 410: serializers.ErrorOutput},
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            explain = lookup.get_live_explain(slug)
        except lookup.Gone as exc:
            raise GoneError(exc.message) from exc
        except Explain.DoesNotExist as exc:
            raise exceptions.NotFound("There is no saved explain with this slug.") from exc
        improvements = list(explain.improvements.live().values_list("slug", flat=True))
        return Response(serializers.detail_data(explain, request, improvements))

    @extend_schema(
        summary="Delete a saved explain",
        description="Needs the `X-Delete-Token` header with the token given at creation. "
        "An expired or hidden explain can still be deleted with its token; without it the answer is 410.",
        parameters=[OpenApiParameter("X-Delete-Token", str, OpenApiParameter.HEADER, required=True)],
        responses={204: OpenApiResponse(description="Deleted."), **_errors(403, 404, 410, 429)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        explain = lookup.find_explain(slug)
        token = request.headers.get(TOKEN_HEADER, "").strip()
        if explain is not None and token_matches(token, explain.delete_token_hash):
            delete_explain(explain)
            return Response(status=status.HTTP_204_NO_CONTENT)
        raise _refusal(explain, slug, token)

    @extend_schema(
        summary="Change a saved explain's title, visibility or expiry",
        description="Needs the `X-Delete-Token` header with the token given at creation. Send any of `title`, "
        "`visibility` and `expires` (counted from now) as JSON or a form; the answer is the explain as `GET` "
        "gives it. An expired, deleted or hidden explain cannot be changed (410).",
        request=serializers.ExplainEditInput,
        parameters=[OpenApiParameter(TOKEN_HEADER, str, OpenApiParameter.HEADER, required=True)],
        responses={200: serializers.ExplainDetailOutput, **_errors(400, 403, 404, 410, 429)},
    )
    def patch(self, request: Request, slug: str) -> Response:
        explain = lookup.find_explain(slug)
        token = request.headers.get(TOKEN_HEADER, "").strip()
        if explain is None or lookup.gone_reason(explain, slug) or not token_matches(token, explain.delete_token_hash):
            raise _refusal(explain, slug, token)
        data = request.data if isinstance(request.data, dict) else {}
        edit = serializers.ExplainEditInput(data=data)
        edit.is_valid(raise_exception=True)
        values = edit.validated_data
        try:
            update_explain(
                explain, title=values.get("title"), visibility=values.get("visibility"), expires=values.get("expires")
            )
        except SaveError as exc:
            raise exceptions.ParseError(exc.message) from exc
        improvements = list(explain.improvements.live().values_list("slug", flat=True))
        return Response(serializers.detail_data(explain, request, improvements))


def _refusal(explain: Explain | None, slug: str, token: str) -> exceptions.APIException:
    """Why the explain cannot be changed or deleted: gone (410), unknown (404), no or a wrong token (403)."""
    reason = lookup.gone_reason(explain, slug)
    if reason:
        return GoneError(reason)
    if explain is None:
        return exceptions.NotFound("There is no saved explain with this slug.")
    if not token:
        return exceptions.PermissionDenied(f"Send the delete token in the {TOKEN_HEADER} header.")
    return exceptions.PermissionDenied("The delete token is wrong.")
