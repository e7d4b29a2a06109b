from django.contrib import admin

from notes.models import Note


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "date", "product", "version", "updated"]
    list_filter = ["kind"]
    search_fields = ["title", "summary", "body", "product", "version"]
    prepopulated_fields = {"slug": ["title"]}
    date_hierarchy = "date"
    fieldsets = [
        (None, {"fields": ["kind", "title", "slug", "date", "date_precision", "summary", "body"]}),
        ("Release", {"fields": ["product", "version"]}),
        ("Structured data (JSON)", {"fields": ["links", "facts", "tables"]}),
    ]
