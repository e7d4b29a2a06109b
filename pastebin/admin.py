"""Moderation: staff review abuse reports and hide or delete the reported explains, and triage the
pastes people say the analyzer read wrong."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.db.models.functions import Substr
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from analyzer.wording import plural
from pastebin.models import AbuseReport, DeletedSlug, Explain, MisreadReport, MisreadStatus
from pastebin.saving import delete_explain


def _delete_with_tombstones(explains: QuerySet[Explain]) -> int:
    count = 0
    for explain in explains:
        delete_explain(explain, reason="moderated")
        count += 1
    return count


@admin.register(Explain)
class ExplainAdmin(admin.ModelAdmin):
    list_display = ["slug", "title", "visibility", "created_at", "expires_at", "hidden", "anonymized"]
    list_filter = ["visibility", "hidden", "anonymized"]
    search_fields = ["slug", "title"]
    readonly_fields = ["slug", "raw_explain", "query", "analysis", "parser_version", "created_at", "improves_on"]
    fields = [
        "slug",
        "title",
        "visibility",
        "hidden",
        "expires_at",
        "created_at",
        "improves_on",
        "query",
        "raw_explain",
        "parser_version",
        "analysis",
    ]
    actions = ["hide", "unhide"]

    @admin.action(description="Hide the selected explains (their links answer 410)")
    def hide(self, request: HttpRequest, queryset: QuerySet[Explain]) -> None:
        count = queryset.update(hidden=True)
        self.message_user(request, f"{plural(count, 'explain')} hidden.", messages.SUCCESS)

    @admin.action(description="Show the selected explains again")
    def unhide(self, request: HttpRequest, queryset: QuerySet[Explain]) -> None:
        count = queryset.update(hidden=False)
        self.message_user(request, f"{plural(count, 'explain')} shown again.", messages.SUCCESS)

    # Deleting here (one or the "delete selected" action) leaves a tombstone, so the link answers 410.
    def delete_model(self, request: HttpRequest, obj: Explain) -> None:
        delete_explain(obj, reason="moderated")

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Explain]) -> None:
        _delete_with_tombstones(queryset)


@admin.register(AbuseReport)
class AbuseReportAdmin(admin.ModelAdmin):
    list_display = ["explain", "created_at", "resolved", "reason"]
    list_filter = ["resolved"]
    list_select_related = ["explain"]
    readonly_fields = ["explain", "reason", "contact", "created_at"]
    actions = ["hide_explains", "delete_explains", "mark_resolved"]

    @admin.action(description="Hide the reported explains and resolve the reports")
    def hide_explains(self, request: HttpRequest, queryset: QuerySet[AbuseReport]) -> None:
        count = Explain.objects.filter(reports__in=queryset).update(hidden=True)
        queryset.update(resolved=True)
        self.message_user(request, f"{plural(count, 'explain')} hidden.", messages.SUCCESS)

    @admin.action(description="Delete the reported explains (and these reports)")
    def delete_explains(self, request: HttpRequest, queryset: QuerySet[AbuseReport]) -> None:
        count = _delete_with_tombstones(Explain.objects.filter(reports__in=queryset).distinct())
        self.message_user(request, f"{plural(count, 'explain')} deleted.", messages.SUCCESS)

    @admin.action(description="Mark as resolved")
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[AbuseReport]) -> None:
        queryset.update(resolved=True)


def _one_line(text: str, length: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= length else flat[: length - 1] + "…"


def _excerpt(text: str, length: int) -> str:
    """The start of a paste on one line, without its border lines (`+----+----+`)."""
    return _one_line(" ".join(line for line in text.splitlines() if any(c.isalnum() for c in line)), length)


@admin.register(MisreadReport)
class MisreadReportAdmin(admin.ModelAdmin):
    """The queue of "This was read wrong" reports; `manage.py export_misread_reports` writes them out
    as corpus cases. Only the status is editable."""

    list_display = ["__str__", "created_at", "status", "read_format", "excerpt", "short_comment", "permalink"]
    list_filter = ["status", "read_format", "anonymized"]
    date_hierarchy = "created_at"
    search_fields = ["comment"]
    fields = [
        "status",
        "created_at",
        "permalink",
        "explain",
        "comment",
        "anonymized",
        "parser_version",
        "read_format",
        "read_rows",
        "read_truncated",
        "paste",
    ]
    readonly_fields = [name for name in fields if name != "status"]
    actions = ["mark_triaged", "mark_added", "mark_dismissed"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[MisreadReport]:
        # A paste can be 1 MiB: the list reads only its start, the change page loads the rest.
        return super().get_queryset(request).defer("text").annotate(text_start=Substr("text", 1, 1000))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from the site's visitors only

    @admin.display(description="paste")
    def excerpt(self, report: MisreadReport) -> str:
        return _excerpt(report.text_start, 80)

    @admin.display(description="comment")
    def short_comment(self, report: MisreadReport) -> str:
        return _one_line(report.comment, 80)

    @admin.display(description="permalink")
    def permalink(self, report: MisreadReport) -> str:
        if not report.explain_id:
            return "-"
        return format_html(
            '<a href="{}">{}</a>', reverse("pastebin:detail", args=[report.explain_id]), report.explain_id
        )

    @admin.display(description="paste, as stored")
    def paste(self, report: MisreadReport) -> str:
        return format_html('<pre class="misread-paste">{}</pre>', report.text)

    def _mark(self, request: HttpRequest, queryset: QuerySet[MisreadReport], status: MisreadStatus) -> None:
        count = queryset.update(status=status)
        self.message_user(request, f"{plural(count, 'report')} marked “{status.label}”.", messages.SUCCESS)

    @admin.action(description="Mark as triaged")
    def mark_triaged(self, request: HttpRequest, queryset: QuerySet[MisreadReport]) -> None:
        self._mark(request, queryset, MisreadStatus.TRIAGED)

    @admin.action(description="Mark as added to the corpus")
    def mark_added(self, request: HttpRequest, queryset: QuerySet[MisreadReport]) -> None:
        self._mark(request, queryset, MisreadStatus.ADDED)

    @admin.action(description="Mark as dismissed")
    def mark_dismissed(self, request: HttpRequest, queryset: QuerySet[MisreadReport]) -> None:
        self._mark(request, queryset, MisreadStatus.DISMISSED)


@admin.register(DeletedSlug)
class DeletedSlugAdmin(admin.ModelAdmin):
    list_display = ["slug", "deleted_at", "reason"]
    readonly_fields = ["slug", "deleted_at", "reason"]
