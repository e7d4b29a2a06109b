"""The analyze form: the same field names as the API's JSON keys."""

from __future__ import annotations

from django import forms


class AnalyzeForm(forms.Form):
    explain = forms.CharField(
        label="EXPLAIN output",
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 14,
                "spellcheck": "false",
                "autocomplete": "off",
                "autocapitalize": "off",
                "class": "paste",
                "aria-describedby": "explain-help",
                "placeholder": "+----+-------------+-------+------+ …",
            }
        ),
    )
    query = forms.CharField(
        label="SQL query (optional)",
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "spellcheck": "false",
                "autocomplete": "off",
                "class": "sql",
                "aria-describedby": "query-help",
            }
        ),
    )
