"""The permalink page of a saved explain, rendered once and served from the cache.

A saved explain's analysis never changes until it is analyzed again (a new parser version), so
its analysis section (`analyzer/_analysis.html`, the costly part of the page) is rendered once per
(explain, parser version, template version) and kept in Django's default cache. The rest of the
page (title, dates, the creator's delete token and buttons for a visitor with a session) is small
and rendered around it. Whether the explain is still live is read from the database, or from what
the worker process remembers of live explains (pastebin/live.py), on every request, so a deleted,
hidden or expired explain is never served from the cache.

For a visitor without a session the whole page is kept, as it is and gzipped: it holds no secret,
since the one form with a CSRF token ("This was read wrong") is loaded on its own when opened. Its
ETag stands for everything the page is made of, so a browser revalidating it gets a 304 without
any rendering.

The collapsed parts of the analysis (the clean copies and the highlighted paste, half of a plan's
page) are not in the page: opening one loads it (htmx) from its own URL (`part_urls`), rendered
once per (explain, parser version, template version) like the section, and served by `views.part`
with the same liveness check.
"""

from __future__ import annotations

import gzip
import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.gzip import re_accepts_gzip
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from redis.exceptions import RedisError

from analyzer.wording import plural
from config.unavailable import failures
from pastebin import live
from pastebin.models import Explain

T = TypeVar("T")
# A day: enough to serve a popular explain from memory, short enough for the cache to forget the rest.
CACHE_SECONDS = 24 * 3600
# Everything the analysis section is rendered from, besides the explain itself.
_RENDERING_SOURCES = ("templates/analyzer", "analyzer/web/templatetags", "analyzer/render", "analyzer/wording.py")


def _template_version() -> str:
    """A digest of the templates and code that render the analysis section: any change to them
    makes every cached section stale."""
    digest = hashlib.sha256()
    for source in _RENDERING_SOURCES:
        path = Path(settings.BASE_DIR) / source
        for file in sorted(path.rglob("*") if path.is_dir() else [path]):
            if file.suffix in (".html", ".py"):
                digest.update(file.relative_to(settings.BASE_DIR).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


TEMPLATE_VERSION = _template_version()


def cache_key(slug: str, parser_version: str) -> str:
    return f"permalink:{slug}:{parser_version}:{TEMPLATE_VERSION}"


def analysis_section(explain: Explain) -> tuple[SafeString, str]:
    """The analysis section's HTML and the paste's format, from the cache or rendered now (the
    explain may come with its paste and analysis deferred: they are read only on a miss)."""

    def render() -> tuple[str, str]:
        analysis, raw_explain = Explain.objects.filter(pk=explain.pk).values_list("analysis", "raw_explain").get()
        context = {
            "analysis": analysis,
            "raw_explain": raw_explain,
            "profile_svg_url": reverse("pastebin:profile-svg", args=[explain.slug]),
            "part_urls": part_urls(explain.slug),
        }
        return render_to_string("analyzer/_analysis.html", context), str(analysis.get("format") or "")

    html, paste_format = _cached(cache_key(explain.slug, explain.parser_version), render)
    return mark_safe(html), paste_format  # noqa: S308 - rendered by our own template, escaped there


# The parts of the analysis loaded when opened, and their headings on a page of their own.
PARTS = {
    "table": "Clean copy as a table",
    "vertical": "Clean copy as vertical output",
    "pasted": "The paste, highlighted",
}


def part_urls(slug: str) -> dict[str, str]:
    return {name: reverse("pastebin:part", args=[slug, name]) for name in PARTS}


def part_key(slug: str, parser_version: str, name: str) -> str:
    return f"permalink-part:{slug}:{parser_version}:{TEMPLATE_VERSION}:{name}"


def part(explain: Explain, name: str) -> SafeString:
    """The HTML of the part `name` (a key of PARTS) of the explain's analysis, from the cache or
    rendered now (its paste and analysis may be deferred: they are read only on a miss)."""

    def render() -> str:
        analysis, raw_explain = Explain.objects.filter(pk=explain.pk).values_list("analysis", "raw_explain").get()
        return render_to_string("analyzer/part.html", {"analysis": analysis, "raw_explain": raw_explain, "part": name})

    html = _cached(part_key(explain.slug, explain.parser_version, name), render)
    return mark_safe(html)  # noqa: S308 - rendered by our own template, escaped there


@dataclass(frozen=True)
class Page:
    """A whole page as UTF-8, and gzipped."""

    body: bytes
    gzipped: bytes


def page(key: str, render: Callable[[], str]) -> Page:
    """The whole page of a visitor without a session: rendered once by `render` and gzipped once
    (it holds no secret: see config/compression.py), cached under `key`."""

    def build() -> Page:
        body = render().encode()
        return Page(body, gzip.compress(body, compresslevel=6, mtime=0))

    return _cached(key, build)


def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the client takes a gzipped answer, as Django's GZipMiddleware decides it."""
    return bool(re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def _cached(key: str, build: Callable[[], T]) -> T:
    """The value cached under `key`, built and cached on a miss. A cache that is down costs the
    rendering, not the page: the value is built, and the failure logged as one sampled line."""
    try:
        value = cache.get(key)
    except RedisError as exc:
        failures.record(f"cache get {key}", exc)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(key, value, CACHE_SECONDS)
        except RedisError as exc:
            failures.record(f"cache set {key}", exc)
    return value


def summary_key(slug: str, parser_version: str) -> str:
    return f"summary:{slug}:{parser_version}"


def share_summary(explain: Explain) -> str:
    """What a link preview says of the explain (`og:description`): its rows and findings counted by
    severity, never a word of the paste. Cached like the section (the analysis is read on a miss)."""

    def describe() -> str:
        analysis = Explain.objects.filter(pk=explain.pk).values_list("analysis", flat=True).get()
        return describe_analysis(analysis if isinstance(analysis, dict) else {})

    return _cached(summary_key(explain.slug, explain.parser_version), describe)


def describe_analysis(analysis: dict) -> str:
    """`EXPLAIN of 11 rows: 13 findings (3 bad, 5 warnings, 5 info).`"""
    rows = analysis.get("rows") or []
    findings = [f for f in analysis.get("findings") or [] if isinstance(f, dict)]
    counts = Counter(str(f.get("severity")) for f in findings)
    words = {"bad": "bad", "warning": "warning", "info": "info", "good": "good"}
    parts = [
        plural(counts[level], word) if level == "warning" else f"{counts[level]} {word}"
        for level, word in words.items()
        if counts[level]
    ]
    detail = f" ({', '.join(parts)})" if parts else ""
    return f"EXPLAIN of {plural(len(rows), 'row')}: {plural(len(findings), 'finding')}{detail}."


def forget(slug: str, parser_version: str) -> None:
    """Drop the cached section, summary and parts of a deleted or changed explain, and what this
    process remembers of explains (other processes hear of the change from PostgreSQL)."""
    live.forget_all()
    try:
        keys = [cache_key(slug, parser_version), summary_key(slug, parser_version)]
        cache.delete_many(keys + [part_key(slug, parser_version, name) for name in PARTS])
    except RedisError as exc:  # the entry ages out; a deleted explain is never served anyway
        failures.record(f"cache delete {slug}", exc)


def etag(*parts: object) -> str:
    """A strong ETag for a page made of `parts` (reprs of what the page shows)."""
    digest = hashlib.sha256("\0".join(map(repr, parts)).encode()).hexdigest()[:32]
    return f'"{digest}"'
