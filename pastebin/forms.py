"""Web forms: the paste form on the home page, the abuse report and "This was read wrong"."""

from __future__ import annotations

from django import forms
from django.conf import settings

from analyzer.web.forms import SCHEMA_LABEL, SCHEMA_PLACEHOLDER, TextareaField, code_area
from pastebin import expiry
from pastebin.models import Explain, Visibility
from pastebin.saving import NUL_MESSAGE
from pastebin.slugs import SLUG_RE


def _no_nul(value: str) -> None:
    if "\x00" in value:
        raise forms.ValidationError(NUL_MESSAGE)


def check_paste_size(text: str) -> None:
    """Refuse a paste over the site's size limit (`EXPLAIN_MAX_BYTES`), with the code `too_large`."""
    if len(text.encode("utf-8", "surrogatepass")) > settings.EXPLAIN_MAX_BYTES:
        raise forms.ValidationError(
            f"The paste is larger than the limit of {settings.EXPLAIN_MAX_BYTES} bytes.", code="too_large"
        )


class RawTextField(TextareaField):
    """A textarea's text as the user had it (see `TextareaField`), with NUL refused up front."""

    def to_python(self, value):
        if isinstance(value, str):
            _no_nul(value)
        return super().to_python(value)


class ExplainForm(forms.Form):
    explain = RawTextField(
        label="EXPLAIN output",
        widget=forms.Textarea(
            attrs={
                "rows": 14,
                "cols": 100,
                "spellcheck": "false",
                "autocomplete": "off",
                "autocapitalize": "off",
                "class": "paste live-input",
                "placeholder": "+----+-------------+-------+------+ …",
            }
        ),
        help_text="Table, vertical (\\G), tab-separated, JSON or tree output, as pasted from your client.",
        error_messages={"required": "Paste the output of EXPLAIN first."},
    )
    query = RawTextField(
        label="SQL query (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 100, "spellcheck": "false", "class": "sql live-input"}),
    )
    schema = RawTextField(
        label=SCHEMA_LABEL,
        required=False,
        widget=code_area(6, "sql live-input", "schema-help", SCHEMA_PLACEHOLDER),
    )
    title = forms.CharField(label="Title (optional)", required=False, max_length=200)
    expires = forms.ChoiceField(
        label="Delete after",
        choices=list(expiry.EXPIRY_LABELS.items()),
        initial=expiry.DEFAULT_EXPIRY,
        error_messages={
            "invalid_choice": f"%(value)s is not a valid expiry; choose one of {expiry.ALLOWED_TEXT}.",
        },
    )
    visibility = forms.ChoiceField(
        label="Who can see it",
        choices=Visibility.choices,
        initial=Visibility.UNLISTED,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "%(value)s is not a valid visibility; choose unlisted or public."},
    )
    anonymize = forms.BooleanField(
        label="Anonymize: replace names (t1, idx1, col1 …) and values ('str1', 1 …) before saving",
        required=False,
    )
    improves_on = forms.CharField(
        label="Improves on (slug of an earlier explain, optional)", required=False, max_length=32
    )

    def clean_explain(self) -> str:
        text = self.cleaned_data["explain"]
        check_paste_size(text)
        if not text.strip():
            raise forms.ValidationError("Paste the output of EXPLAIN first.")
        return text

    def clean_improves_on(self) -> Explain | None:
        slug = self.cleaned_data["improves_on"].strip()
        if not slug:
            return None
        explain = Explain.objects.live().filter(slug=slug).first() if SLUG_RE.match(slug) else None
        if explain is None:
            raise forms.ValidationError(f"There is no saved explain {slug} to improve on.")
        return explain


class ReportForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong with this explain?",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 5, "cols": 80}),
    )
    contact = forms.CharField(label="Your e-mail (optional)", required=False, max_length=200)


class MisreadForm(forms.Form):
    """The "This was read wrong" form under a saved explain's analysis (the paste is the stored one).

    The template `pastebin/_misread_form.html` writes the fields by hand, under this prefix, so that
    the analyzer's own preview can show the form without building it.
    """

    prefix = "misread"

    comment = RawTextField(required=False, max_length=2000)
    anonymize = forms.BooleanField(required=False)


class MisreadPasteForm(MisreadForm):
    """The "This was read wrong" form under an analysis that was not saved: the paste comes with it."""

    explain = RawTextField(required=False)

    def clean_explain(self) -> str:
        text = self.cleaned_data["explain"]
        check_paste_size(text)
        if not text.strip():
            raise forms.ValidationError("There is no paste to send: analyze one first.")
        return text
