"""Moderation: staff review abuse reports and hide or delete the reported explains."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from pastebin.models import AbuseReport, DeletedSlug, Explain
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
        self.message_user(request, f"{count} explain(s) hidden.", messages.SUCCESS)

    @admin.action(description="Show the selected explains again")
    def unhide(self, request: HttpRequest, queryset: QuerySet[Explain]) -> None:
        count = queryset.update(hidden=False)
        self.message_user(request, f"{count} explain(s) shown again.", messages.SUCCESS)

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
        self.message_user(request, f"{count} explain(s) hidden.", messages.SUCCESS)

    @admin.action(description="Delete the reported explains (and these reports)")
    def delete_explains(self, request: HttpRequest, queryset: QuerySet[AbuseReport]) -> None:
        count = _delete_with_tombstones(Explain.objects.filter(reports__in=queryset).distinct())
        self.message_user(request, f"{count} explain(s) deleted.", messages.SUCCESS)

    @admin.action(description="Mark as resolved")
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[AbuseReport]) -> None:
        queryset.update(resolved=True)


@admin.register(DeletedSlug)
class DeletedSlugAdmin(admin.ModelAdmin):
    list_display = ["slug", "deleted_at", "reason"]
    readonly_fields = ["slug", "deleted_at", "reason"]
