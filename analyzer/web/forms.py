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
SCHEMA_PLACEHOLDER = "CREATE TABLE `orders` ( …"


def code_area(rows: int, css_class: str, help_id: str | None = None, placeholder: str | None = None) -> forms.Textarea:
    """A textarea for code: no spelling checks, completion or capitals."""
    attrs: dict[str, object] = {"rows": rows, "spellcheck": "false", "autocomplete": "off", "autocapitalize": "off"}
    attrs["class"] = css_class
    if help_id:
        attrs["aria-describedby"] = help_id
    if placeholder:
        attrs["placeholder"] = placeholder
    return forms.Textarea(attrs=attrs)


class AnalyzeForm(forms.Form):
    explain = TextareaField(
        label="EXPLAIN output",
        required=False,
        widget=code_area(14, "paste", "explain-help", "+----+-------------+-------+------+ …"),
    )
    query = TextareaField(label="SQL query (optional)", required=False, widget=code_area(3, "sql", "query-help"))
    schema = TextareaField(
        label=SCHEMA_LABEL, required=False, widget=code_area(6, "sql", "schema-help", SCHEMA_PLACEHOLDER)
    )
