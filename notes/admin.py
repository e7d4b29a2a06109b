from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.db import models

from notes.models import Note


class IndentedJSONField(forms.JSONField):
    """Shows the structured data indented, so staff can read and edit the tables."""

    def prepare_value(self, value):
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, indent=2, ensure_ascii=False, cls=self.encoder)


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
        (
            "Structured data (JSON, validated on save)",
            {
                "fields": ["links", "facts", "tables"],
                "description": "Links: [{label, url}]. Facts: [{title, facts: [{name, value, code?}]}]. "
                "Tables: see notes/schema.py for the shape of a table.",
            },
        ),
    ]
    formfield_overrides = {
        models.JSONField: {"form_class": IndentedJSONField, "widget": forms.Textarea(attrs={"rows": 16, "cols": 100})},
    }
