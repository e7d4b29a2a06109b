"""The analyze form: the same field names as the API's JSON keys."""

from __future__ import annotations

from django import forms


class TextareaField(forms.CharField):
    """Text typed or pasted into a <textarea>, as it was there: not stripped, and with LF line breaks.

    A textarea holds its lines with LF, whatever was pasted into it, and the browser sends every line
    break as CRLF when it submits the form (HTML's form encoding). Turning CRLF back into LF gives
    the text the user saw, so the analyzer does not report a repair the paste never needed.
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(strip=False, **kwargs)

    def to_python(self, value: object) -> str:
        return str(super().to_python(value)).replace("\r\n", "\n")


SCHEMA_LABEL = "Table definitions (optional): SHOW CREATE TABLE output"


class AnalyzeForm(forms.Form):
    explain = TextareaField(
        label="EXPLAIN output",
        required=False,
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
    query = TextareaField(
        label="SQL query (optional)",
        required=False,
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
    schema = TextareaField(
        label=SCHEMA_LABEL,
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "spellcheck": "false",
                "autocomplete": "off",
                "class": "sql",
                "aria-describedby": "schema-help",
                "placeholder": "CREATE TABLE `orders` ( …",
            }
        ),
    )
