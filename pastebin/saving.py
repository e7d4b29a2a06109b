"""Saving an explain: analyze (and maybe anonymize) the paste, pick a free slug, store it.

Shared by the home form and the REST API, which validate their input first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import DEFERRED

import analyzer
from analyzer.web import answers
from analyzer.web.renderers import JSONRenderer
from config import prepared
from pastebin import clock, expiry, permalink
from pastebin.anonymize import AnonymizeError, anonymize
from pastebin.models import DeletedSlug, Explain, Visibility, joined_search_text, table_names
from pastebin.slugs import new_slug
from pastebin.tokens import hash_token, new_token

SLUG_ATTEMPTS = 8
NUL_MESSAGE = "The text contains a NUL character (\\x00), which cannot be stored; remove it and try again."


class SaveError(ValueError):
    """Input that cannot be saved. `too_large` maps to HTTP 413, `too_complex` (the analyzer could
    not read the paste within its time budget) to 422, anything else to 400."""

    def __init__(self, message: str, *, too_large: bool = False, too_complex: bool = False):
        super().__init__(message)
        self.message = message
        self.too_large = too_large
        self.too_complex = too_complex

    @property
    def status(self) -> int:
        """The HTTP status code of the refusal."""
        if self.too_large:
            return 413
        return 422 if self.too_complex else 400


@dataclass
class Saved:
    explain: Explain
    delete_token: str  # shown once to the creator, never stored in clear
    encoded_analysis: bytes  # the analysis as the API sends it


@dataclass(frozen=True)
class Analysed:
    """An analysis as saving needs it: its JSON as the API sends it (which PostgreSQL stores as it
    is), the names of the tables it reads (for the search text), and the analysis itself when it
    was made or decoded here, None when both the others were read back from the recent answers
    (decoding it cost a tenth of a save)."""

    encoded: bytes
    table_names: str
    data: dict | None

    def decoded(self) -> dict:
        return self.data if self.data is not None else orjson.loads(self.encoded)


def check_storable(value: str) -> None:
    """Refuse what no database column can hold: NUL characters and lone UTF-16 surrogates."""
    if "\x00" in value:
        raise SaveError(NUL_MESSAGE)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SaveError("The text is not valid Unicode (it contains a lone surrogate escape).") from exc


def run_analysis(text: str, query: str | None, schema: str | None = None) -> analyzer.Analysis:
    """`analyzer.analyze` with the site's size limit and time budget, its `ParseError` turned into `SaveError`."""
    check_input(text, query, schema)
    try:
        return analyzer.analyze(
            text,
            query=query,
            max_bytes=settings.EXPLAIN_MAX_BYTES,
            deadline_ms=settings.EXPLAIN_DEADLINE_MS,
            schema=schema or None,
        )
    except analyzer.ParseError as exc:
        raise SaveError(exc.message, too_large=exc.too_large, too_complex=exc.too_complex) from exc


def check_input(text: str, query: str | None, schema: str | None) -> None:
    """Refuse what cannot be stored (NUL, lone surrogates) and a query or schema over its limit."""
    check_storable(text)
    if query:
        check_storable(query)
        if len(query.encode("utf-8")) > settings.EXPLAIN_MAX_BYTES:
            raise SaveError(
                f"The query is larger than the limit of {settings.EXPLAIN_MAX_BYTES} bytes.", too_large=True
            )
    if schema:
        check_storable(schema)
        if len(schema.encode("utf-8")) > settings.SCHEMA_MAX_BYTES:
            raise SaveError(
                f"The schema is larger than the limit of {settings.SCHEMA_MAX_BYTES} bytes.", too_large=True
            )


def analysis_data(text: str, query: str | None, schema: str | None = None) -> Analysed:
    """The analysis of `run_analysis(…)` as saving needs it, read back from the analyze API's recent
    answers when this process analyzed the same input lately (its JSON, which encoding again cost a
    tenth of a save, and the names of its tables), else kept there. The input is checked first
    either way: the analyze API answers pastes that cannot be stored."""
    check_input(text, query, schema)
    key = answers.json_key(text, query, schema)
    names_key = answers.digest(text, query, schema, "table names", answers.limits())
    encoded, names = answers.answers.get(key), answers.answers.get(names_key)
    if encoded is not None and names is not None:
        return Analysed(encoded, names.decode(), None)
    if encoded is None:
        data = run_analysis(text, query, schema).to_dict()
        encoded = JSONRenderer().render(data)
        answers.answers.put(key, encoded)
    else:
        data = orjson.loads(encoded)
    names = table_names(data)
    answers.answers.put(names_key, names.encode())
    return Analysed(encoded, names, data)


def save_explain(
    text: str,
    *,
    query: str | None = None,
    title: str = "",
    expires: str = expiry.DEFAULT_EXPIRY,
    visibility: str = Visibility.UNLISTED,
    anonymize_names: bool = False,
    improves_on: Explain | None = None,
    make_slug: Callable[[], str] = new_slug,
    schema: str | None = None,
) -> Saved:
    """Analyze and store a paste. Raises `SaveError` when it holds no explain, is too large or has NUL.

    With `anonymize_names`, the stored paste and query are the anonymized ones and the original
    text is not kept anywhere; nor is `schema` (the tables' definitions, full of names), so the
    advice is then not checked against existing indexes.
    """
    check_storable(title)
    query = query if query and query.strip() else None
    schema = schema if schema and schema.strip() and not anonymize_names else None
    analysed = analysis_data(text, query, schema)
    if anonymize_names:
        try:
            renamed = anonymize(text, analysed.decoded(), query, settings.EXPLAIN_DEADLINE_MS)
        except AnonymizeError as exc:
            raise SaveError(f"This paste could not be anonymized: {exc}") from exc
        except analyzer.ParseError as exc:
            raise SaveError(f"This paste could not be anonymized: {exc.message}", too_complex=True) from exc
        text, query = renamed.explain, renamed.query
        try:
            analysed = analysis_data(text, query)
        except SaveError as exc:
            raise SaveError(f"This paste could not be anonymized ({exc.message}).") from exc
    token = new_token()
    created = clock.now()
    explain = Explain(
        title=title.strip(),
        raw_explain=text,
        query=query or "",
        schema=schema or "",
        # Left to be read back from the database if asked for, where it is stored as sent.
        analysis=DEFERRED if analysed.data is None and _stores_json_as_sent() else analysed.decoded(),
        parser_version=analyzer.PARSER_VERSION,
        created_at=created,
        expires_at=expiry.expires_at(expires, created),
        visibility=visibility,
        improves_on=improves_on,
        delete_token_hash=hash_token(token),
        anonymized=anonymize_names,
    )
    _insert_with_free_slug(explain, make_slug, analysed)
    return Saved(explain=explain, delete_token=token, encoded_analysis=analysed.encoded)


def _stores_json_as_sent() -> bool:
    """Whether the database stores the analysis from its JSON as sent (PostgreSQL's jsonb); the
    others store the text the field writes, which reanalysis compares with its own."""
    return connection.vendor == "postgresql"


def _insert_with_free_slug(explain: Explain, make_slug: Callable[[], str], analysed: Analysed) -> None:
    """Insert under a random slug, drawing again on the (astronomically rare) collision with a
    stored explain or a deleted one's tombstone (whose permalink stays gone)."""
    explain.search_text = joined_search_text(explain.title, explain.query, analysed.table_names)
    for _ in range(SLUG_ATTEMPTS):
        explain.slug = make_slug()
        if _insert_unless_taken(explain, analysed.encoded):
            explain._state.adding, explain._state.db = False, connection.alias
            return
    raise RuntimeError(f"No free slug after {SLUG_ATTEMPTS} attempts.")


def _insert_unless_taken(explain: Explain, encoded_analysis: bytes) -> bool:
    """Insert `explain` (its analysis also as the JSON `encoded_analysis`) in one statement, unless its
    slug is taken or has a tombstone; whether it was. (The ORM would take four round trips: the
    tombstone check, and a savepoint around the insert to catch a taken slug.)"""
    fields = Explain._meta.concrete_fields
    name = connection.ops.quote_name
    jsonb = _stores_json_as_sent()
    placeholders, values = [], []
    for field in fields:
        if jsonb and field.attname == "analysis":
            placeholders.append("%s::jsonb")
            values.append(encoded_analysis.decode())
        else:
            placeholders.append("%s")
            values.append(field.get_db_prep_save(field.pre_save(explain, True), connection))
    statement = (
        f"INSERT INTO {name(Explain._meta.db_table)} ({', '.join(name(field.column) for field in fields)}) "
        f"SELECT {', '.join(placeholders)} "
        f"WHERE NOT EXISTS (SELECT 1 FROM {name(DeletedSlug._meta.db_table)} WHERE slug = %s) "
        "ON CONFLICT (slug) DO NOTHING RETURNING slug"
    )
    try:
        return bool(prepared.rows(statement, [*values, explain.slug]))
    except IntegrityError as exc:  # on PostgreSQL, when what it improves on was deleted meanwhile
        if explain.improves_on_id is None:
            raise
        raise SaveError("The explain this one improves on has just been deleted.") from exc


def delete_explain(explain: Explain, reason: str = "deleted") -> None:
    """Delete an explain and leave a tombstone, so its permalink says 410 Gone."""
    slug, parser_version = explain.slug, explain.parser_version
    with transaction.atomic():
        DeletedSlug.objects.get_or_create(slug=slug, defaults={"deleted_at": clock.now(), "reason": reason})
        explain.delete()
    permalink.forget(slug, parser_version)


MAX_TITLE = 200


def update_explain(
    explain: Explain, *, title: str | None = None, visibility: str | None = None, expires: str | None = None
) -> None:
    """Change what its creator may change: the title (checked like a new one's), the visibility and
    the expiry (`expires` counted from now, as `expiry.expires_at` computes it). None leaves a field
    as it is. The permalink's cached section goes, and the page's cache key and ETag change with
    `updated_at`. Raises `SaveError` for a title no column can hold."""
    now = clock.now()
    fields = []
    if title is not None:
        check_storable(title)
        if len(title.strip()) > MAX_TITLE:
            raise SaveError(f"The title is longer than {MAX_TITLE} characters.")
        explain.title = title.strip()
        fields += ["title", "search_text"]  # `save()` builds the search text again
    if visibility is not None:
        if visibility not in Visibility.values:
            raise SaveError("The visibility is unlisted or public.")
        explain.visibility = visibility
        fields.append("visibility")
    if expires is not None:
        if expires not in expiry.EXPIRY_CHOICES:
            raise SaveError(f"The expiry is one of {expiry.ALLOWED_TEXT}.")
        explain.expires_at = expiry.expires_at(expires, now)
        fields.append("expires_at")
    if not fields:
        return
    explain.updated_at = now
    explain.save(update_fields=[*fields, "updated_at"])
    permalink.forget(explain.slug, explain.parser_version)
