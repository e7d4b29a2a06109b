"""API input validation and the JSON shapes of saved explains."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from analyzer.web.api import ExplainInput
from pastebin import expiry
from pastebin.models import Explain, Visibility, slug_path
from pastebin.saving import NUL_MESSAGE
from pastebin.slugs import SLUG_RE

VISIBILITY_VALUES = [choice.value for choice in Visibility]
OPTION_NAMES = ("title", "expires", "visibility", "anonymize", "improves_on")  # the fields of ExplainOptions


def choice_error(values: list[str]) -> dict[str, str]:
    return {"invalid_choice": f'"{{input}}" is not allowed; use one of: {", ".join(values)}.'}


class ExplainOptions(serializers.Serializer):
    """Everything but the paste and query: from the JSON body, or the query string of a text/plain body."""

    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    expires = serializers.ChoiceField(
        choices=list(expiry.EXPIRY_CHOICES),
        default=expiry.DEFAULT_EXPIRY,
        error_messages=choice_error(list(expiry.EXPIRY_CHOICES)),
        help_text=f"How long to keep it: {expiry.ALLOWED_TEXT} (default {expiry.DEFAULT_EXPIRY}).",
    )
    visibility = serializers.ChoiceField(
        choices=VISIBILITY_VALUES,
        default=Visibility.UNLISTED.value,
        error_messages=choice_error(VISIBILITY_VALUES),
        help_text="unlisted (default: only people with the link) or public (listed in recent and search).",
    )
    anonymize = serializers.BooleanField(
        required=False, default=False, help_text="Replace table, index, column and alias names (t1, idx1, col1 …)."
    )
    improves_on = serializers.CharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        default=None,
        help_text="Slug of the explain this one improves on.",
    )

    def validate_title(self, value: str) -> str:
        if "\x00" in value:
            raise serializers.ValidationError(NUL_MESSAGE)
        return value

    def validate_improves_on(self, value: str | None) -> Explain | None:
        if not value:
            return None
        explain = Explain.objects.live().filter(slug=value.strip()).first() if SLUG_RE.match(value.strip()) else None
        if explain is None:
            raise serializers.ValidationError(f'There is no saved explain "{value}" to improve on.')
        return explain


# What a save that gives no option gets: the default of each, as the serializer has it.
DEFAULT_OPTIONS = {name: ExplainOptions._declared_fields[name].default for name in OPTION_NAMES}


def read_options(source) -> dict[str, Any]:
    """The validated options of a new explain from `source` (a JSON body or a query string): their
    defaults when it gives none, as most saves do (validating nothing with the serializer cost a
    tenth of a save), else what `ExplainOptions` makes of them; a 400 for an invalid one."""
    if not any(name in source for name in OPTION_NAMES):
        return dict(DEFAULT_OPTIONS)
    options = ExplainOptions(data=source)
    options.is_valid(raise_exception=True)
    return dict(options.validated_data)


class ExplainEditInput(serializers.Serializer):
    """The body of `PATCH /api/v1/explains/<slug>/`: what its creator may change, each optional."""

    title = serializers.CharField(required=False, allow_blank=True, max_length=200, trim_whitespace=False)
    # The refusals do not repeat the value: it may hold what no answer can encode (a lone surrogate).
    visibility = serializers.ChoiceField(
        choices=VISIBILITY_VALUES,
        required=False,
        error_messages={"invalid_choice": f"Use one of: {', '.join(VISIBILITY_VALUES)}."},
        help_text="unlisted (only people with the link) or public (listed in recent and search).",
    )
    expires = serializers.ChoiceField(
        choices=list(expiry.EXPIRY_CHOICES),
        required=False,
        error_messages={"invalid_choice": f"Use one of: {expiry.ALLOWED_TEXT}."},
        help_text=f"Delete it this long from now: {expiry.ALLOWED_TEXT}.",
    )

    def validate_title(self, value: str) -> str:
        if "\x00" in value:
            raise serializers.ValidationError(NUL_MESSAGE)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = self.initial_data if isinstance(self.initial_data, dict) else {}
        unknown = sorted(
            str(name).encode("utf-8", "backslashreplace").decode()[:50] for name in given if name not in self.fields
        )
        if unknown:
            raise serializers.ValidationError(
                f"Only title, visibility and expires can be changed, not {', '.join(unknown)}."
            )
        if not attrs:
            raise serializers.ValidationError("Send at least one of title, visibility and expires.")
        return attrs


class ExplainCreateInput(ExplainOptions, ExplainInput):
    """The JSON body of `POST /api/v1/explains/` (documentation; parsing goes through `read_explain`).
    Its `schema` is not kept when the explain is anonymized."""


LINKS = {"url": "pastebin:detail", "raw_url": "pastebin:raw", "api_url": "pastebin:api-detail"}


def links(explain: Explain, request: Request) -> dict[str, str]:
    """The explain's permalink, raw view and API addresses."""
    origin = request.build_absolute_uri("/")[:-1]
    found = {}
    for key, name in LINKS.items():
        before, after = slug_path(name)
        found[key] = origin + before + explain.slug + after
    return found


def _when(value) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def created_data(explain: Explain, delete_token: str, request: Request) -> dict[str, Any]:
    """The 201 answer: where to find it, how to delete it, and the analysis fields of /api/v1/analyze/."""
    return {**created_head(explain, delete_token, request), **explain.analysis}


def created_head(explain: Explain, delete_token: str, request: Request) -> dict[str, Any]:
    """The 201 answer but the analysis fields, which follow (and share no key with these)."""
    return {
        "slug": explain.slug,
        **links(explain, request),
        "delete_token": delete_token,
        "created_at": _when(explain.created_at),
        "expires_at": _when(explain.expires_at),
        "visibility": explain.visibility,
        "title": explain.title,
        "anonymized": explain.anonymized,
        "improves_on": explain.improves_on.slug if explain.improves_on else None,
    }


def summary_data(explain: Explain, request: Request, analysis: dict[str, Any]) -> dict[str, Any]:
    """One entry of the public list; `analysis` holds at least the analysis's `query`, `format` and
    `tables`."""
    return {
        "slug": explain.slug,
        **links(explain, request),
        "title": explain.title,
        "query": explain.query or analysis.get("query"),
        "format": analysis.get("format"),
        "tables": analysis.get("tables") or [],
        "created_at": _when(explain.created_at),
        "expires_at": _when(explain.expires_at),
        "visibility": explain.visibility,
    }


def listed_data(explain: Explain, request: Request) -> dict[str, Any]:
    """One entry of the public list, from an explain loaded by `ExplainQuerySet.listed`."""
    analysis = {"query": explain.analysis_query, "format": explain.analysis_format, "tables": explain.analysis_tables}
    return summary_data(explain, request, analysis)


def detail_data(explain: Explain, request: Request, improvements: list[str]) -> dict[str, Any]:
    """The saved explain: the paste exactly as stored, its query, title, dates and analysis."""
    return {
        **summary_data(explain, request, explain.analysis),
        "explain": explain.raw_explain,
        "schema": explain.schema,
        "anonymized": explain.anonymized,
        "improves_on": explain.improves_on.slug if explain.improves_on else None,
        "improved_by": improvements,
        "parser_version": explain.parser_version,
        "analysis": explain.analysis,
    }


class ExplainCreatedOutput(serializers.Serializer):
    """Schema of the 201 answer (plus every field of the analyze API)."""

    slug = serializers.CharField()
    url = serializers.URLField()
    raw_url = serializers.URLField()
    api_url = serializers.URLField()
    delete_token = serializers.CharField(help_text="Shown only now: keep it to delete the explain later.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    visibility = serializers.CharField()
    format = serializers.CharField()
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField())
    findings = serializers.ListField(child=serializers.DictField())
    annotations = serializers.ListField(child=serializers.DictField())


class ExplainSummaryOutput(serializers.Serializer):
    slug = serializers.CharField()
    url = serializers.URLField()
    raw_url = serializers.URLField()
    api_url = serializers.URLField()
    title = serializers.CharField()
    query = serializers.CharField(allow_null=True)
    format = serializers.CharField()
    tables = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    visibility = serializers.CharField()


class ExplainDetailOutput(ExplainSummaryOutput):
    explain = serializers.CharField(help_text="The paste exactly as saved.")
    schema = serializers.CharField(help_text="The table definitions sent with it for index advice (may be empty).")
    anonymized = serializers.BooleanField()
    improves_on = serializers.CharField(allow_null=True)
    improved_by = serializers.ListField(child=serializers.CharField())
    parser_version = serializers.CharField()
    analysis = serializers.DictField()


class ErrorOutput(serializers.Serializer):
    error = serializers.CharField()
