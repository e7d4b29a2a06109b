"""Web pages: paste form, hand-off analysis, permalink, raw text, profile SVG, delete, reports, recent, search."""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import parse_etags, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.timesince import timeuntil
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from analyzer.insight.compare import compare as compare_analyses
from analyzer.render.icicle import profile_document
from analyzer.render.view import MAX_SHOWN_ROWS
from analyzer.web.views import is_htmx, svg_download
from pastebin import clock, expiry, listing, lookup, permalink
from pastebin.examples import EXAMPLE, example_text
from pastebin.forms import EditForm, ExplainForm, MisreadForm, MisreadPasteForm, ReportForm
from pastebin.listing import Listed
from pastebin.misread import file_report
from pastebin.models import AbuseReport, Explain, Visibility
from pastebin.saving import SaveError, delete_explain, run_analysis, save_explain, update_explain
from pastebin.search import search_public
from pastebin.slugs import SLUG_RE
from pastebin.throttles import CreateRateThrottle, ManageRateThrottle, MisreadRateThrottle, ReportRateThrottle
from pastebin.tokens import token_matches

SESSION_TOKENS = "pastebin_delete_tokens"
SESSION_TOKENS_KEPT = 50
SESSION_NEW = "pastebin_just_saved"
PAGE_SIZE = 20


def noindex(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Saved explains stay out of search engines: `X-Robots-Tag` here, `<meta name=robots>` in the page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapper


def _remember_token(request: HttpRequest, slug: str, token: str) -> None:
    tokens = dict(request.session.get(SESSION_TOKENS, {}))
    tokens[slug] = token
    request.session[SESSION_TOKENS] = dict(list(tokens.items())[-SESSION_TOKENS_KEPT:])


def _session_token(request: HttpRequest, slug: str) -> str | None:
    return request.session.get(SESSION_TOKENS, {}).get(slug)


def _gone(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "pastebin/gone.html", {"message": message}, status=410)


def _live_or_gone(request: HttpRequest, slug: str, defer: tuple[str, ...] = ()) -> Explain | HttpResponse:
    try:
        return lookup.get_live_explain(slug, defer)
    except lookup.Gone as exc:
        return _gone(request, exc.message)
    except Explain.DoesNotExist as exc:
        raise Http404("There is no saved explain with this address.") from exc


def throttled(request: HttpRequest, throttle: CreateRateThrottle) -> int | None:
    """Seconds to wait when `request` is over the throttle's rate (and counts it otherwise)."""
    if throttle.allow_request(request, None):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def retry_after(response: HttpResponse, wait: int) -> HttpResponse:
    response["Retry-After"] = str(wait)
    return response


def _error_status(form: ExplainForm) -> int:
    return 413 if form.has_error("explain", code="too_large") else 400


def _form_page(request: HttpRequest, form: ExplainForm, status: int = 200, **context) -> HttpResponse:
    return render(request, "pastebin/home.html", {"form": form, "example": EXAMPLE, **context}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """GET: the paste form. POST: save the explain and go to its permalink."""
    if request.method in ("GET", "HEAD"):
        return _form_page(request, ExplainForm(initial={"improves_on": request.GET.get("improves_on", "")[:32]}))
    form = ExplainForm(request.POST)
    wait = throttled(request, CreateRateThrottle())  # the same budget per address as the API's creation
    if wait:
        form.is_valid()
        form.add_error(None, f"Too many explains saved from your address; try again in {wait} seconds.")
        return retry_after(_form_page(request, form, status=429), wait)
    if not form.is_valid():
        return _form_page(request, form, status=_error_status(form))
    data = form.cleaned_data
    try:
        saved = save_explain(
            data["explain"],
            query=data["query"],
            schema=data["schema"],
            title=data["title"],
            expires=data["expires"],
            visibility=data["visibility"],
            anonymize_names=data["anonymize"],
            improves_on=data["improves_on"],
        )
    except SaveError as exc:
        form.add_error("explain", exc.message)
        return _form_page(request, form, status=exc.status)
    _remember_token(request, saved.explain.slug, saved.delete_token)
    request.session[SESSION_NEW] = saved.explain.slug
    return redirect(saved.explain)


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def analyze(request: HttpRequest) -> HttpResponse:
    """Hand-off from other tools: analyze `raw_explain` (or `explain`, or the home page's example
    named by `example`) without saving anything.

    CSRF-exempt on purpose: it only reads its input and shows a page; the save form it shows
    posts to `/`, which is CSRF-protected.
    """
    source = request.POST if request.method == "POST" else request.GET
    text = source.get("raw_explain") or source.get("explain") or example_text(source.get("example"))
    if request.method != "POST" and not text:
        return redirect("pastebin:home")
    fields = {name: source.get(name, "") for name in ("query", "schema", "title", "improves_on")}
    fields["expires"] = source.get("expires") or expiry.DEFAULT_EXPIRY
    fields["visibility"] = source.get("visibility") or Visibility.UNLISTED
    if source.get("anonymize"):
        fields["anonymize"] = "on"
    form = ExplainForm({**fields, "explain": text})
    if not form.is_valid():
        return _form_page(request, form, status=_error_status(form))
    text = form.cleaned_data["explain"]  # as the sending form's textarea held it
    try:
        analysis = run_analysis(text, form.cleaned_data["query"], form.cleaned_data["schema"])
    except SaveError as exc:
        form.add_error("explain", exc.message)
        return _form_page(request, form, status=exc.status)
    response = render(
        request, "pastebin/analyze.html", {"form": form, "analysis": analysis.to_dict(), "raw_explain": text}
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@noindex
@require_safe
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The permalink page. Its analysis section comes from the cache (pastebin/permalink.py), and
    for a visitor without a session the whole page does, gzipped or not, ETag and 304 included."""
    found = lookup.page_explain(slug)
    reason = lookup.gone_reason(found and found[0], slug)
    if reason:
        return _gone(request, reason)
    if found is None:
        raise Http404("There is no saved explain with this address.")
    explain, improvements = found
    if _has_visitor_state(request):
        return _personal_page(request, explain, improvements)
    shown = _page_parts(request, explain, improvements)
    gzipped = permalink.accepts_gzip(request)
    tag = permalink.etag(*shown, gzipped)
    if tag in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:

        def render_page() -> str:
            return render_to_string("pastebin/detail.html", _detail_context(request, explain, improvements), request)

        page = permalink.page(f"page:{permalink.etag(*shown)}", render_page)
        response = HttpResponse(page.gzipped if gzipped else page.body)
        if gzipped:
            response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return _revalidated(response, tag, explain, improvements)


def _personal_page(request: HttpRequest, explain: Explain, improvements: list[Explain]) -> HttpResponse:
    """The page of a visitor with a session: it may show the creator's delete button, the delete
    token once right after saving, and messages."""
    new_token = _session_token(request, explain.slug) if request.session.get(SESSION_NEW) == explain.slug else None
    if new_token:
        del request.session[SESSION_NEW]
    context = _detail_context(
        request,
        explain,
        improvements,
        can_manage=_session_token(request, explain.slug) is not None,
        new_token=new_token,
    )
    response = render(request, "pastebin/detail.html", context)
    if new_token:  # keep the page that shows the token out of every cache
        patch_cache_control(response, private=True, no_store=True)
        return response
    return _revalidated(response, None, explain, improvements)


def _detail_context(request: HttpRequest, explain: Explain, improvements: list[Explain], **extra: object) -> dict:
    analysis_html, paste_format = permalink.analysis_section(explain)
    return {
        "explain": explain,
        "share_summary": permalink.share_summary(explain),
        "analysis_html": analysis_html,
        "paste_format": paste_format,
        "improvements": improvements,
        "permalink": request.build_absolute_uri(explain.get_absolute_url()),
        "misread_url": reverse("pastebin:misread-saved", args=[explain.slug]),
        **extra,
    }


def _has_visitor_state(request: HttpRequest) -> bool:
    """A session (a creator's delete token) or pending messages make the page this visitor's own."""
    return settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES


def _page_parts(request: HttpRequest, explain: Explain, improvements: list[Explain]) -> tuple:
    """Everything a session-less visitor's page is made of: the explain and its versions, what is
    shown around it (the relative expiry, the improvements) and the site's address."""
    improves_on = explain.improves_on
    return (
        permalink.TEMPLATE_VERSION,
        explain.slug,
        explain.parser_version,
        explain.title,
        explain.visibility,
        explain.anonymized,
        explain.updated_at,
        explain.expires_at,
        explain.expires_at and timeuntil(explain.expires_at),
        improves_on and (improves_on.slug, improves_on.title),
        [(newer.slug, newer.title) for newer in improvements],
        request.build_absolute_uri("/"),
    )


def _revalidated(
    response: HttpResponse, tag: str | None, explain: Explain, improvements: list[Explain]
) -> HttpResponse:
    """Caching headers of a permalink page: only a browser may keep it (the explain is unlisted unless
    made public), and it revalidates it on every visit (the explain may be deleted any time)."""
    patch_cache_control(response, private=True, no_cache=True)
    if tag is not None:
        response["ETag"] = tag
        changed = max(
            [explain.created_at, explain.updated_at or explain.created_at, *(n.created_at for n in improvements)]
        )
        response["Last-Modified"] = http_date(changed.timestamp())
    return response


@noindex
@require_safe
def part(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """A collapsed part of the permalink's analysis (a clean copy, the highlighted paste): the bare
    HTML for htmx, which loads it into the page when it is opened, or a page of its own, which the
    permalink links to for browsers without JavaScript. 404 when the explain is not live."""
    explain = lookup.find_explain(slug, defer=lookup.HEAVY_FIELDS)
    if explain is None or lookup.gone_reason(explain, slug):
        raise Http404("There is no saved explain with this address.")
    bare = is_htmx(request)
    tag = permalink.etag(permalink.TEMPLATE_VERSION, slug, explain.parser_version, explain.title, name, bare)
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    elif bare:
        response = HttpResponse(permalink.part(explain, name))
    else:
        context = {"explain": explain, "heading": permalink.PARTS[name], "part_html": permalink.part(explain, name)}
        response = render(request, "pastebin/part.html", context)
    patch_vary_headers(response, ["HX-Request"])
    patch_cache_control(response, private=True, no_cache=True)  # unlisted, and gone once deleted or expired
    response["ETag"] = tag
    return response


def slug_from(text: str) -> str | None:
    """The slug in a slug or a permalink URL (`…/e/<slug>/…`), or None when there is none."""
    text = text.strip()
    if "/e/" in text:
        text = text.split("/e/", 1)[1].split("/", 1)[0]
    text = text.strip("/ ")
    return text if SLUG_RE.match(text) else None


@require_safe
def compare_start(request: HttpRequest) -> HttpResponse:
    """The permalink's compare form: `?a=<slug>&b=<slug or permalink URL>` leads to the compare page.
    A `b` that names no other live explain gets the form back with the error beside the field: in
    place for htmx, else on a page of its own."""
    first = slug_from(request.GET.get("a", ""))
    if first is None:
        raise Http404("There is no saved explain with this address.")
    given = request.GET.get("b", "")
    second = slug_from(given)
    error = _compare_error(first, second)
    if error is None:
        target = reverse("pastebin:compare", kwargs={"slug_a": first, "slug_b": second})
        if is_htmx(request):
            return HttpResponse(headers={"HX-Redirect": target})
        return redirect(target)
    context = {"slug": first, "compare_value": given[:300], "compare_error": error}
    if is_htmx(request):  # swapped in place of the form (htmx swaps only 2xx answers)
        return render(request, "pastebin/_compare_form.html", context)
    return render(request, "pastebin/compare_start.html", context, status=400)


def _compare_error(first: str, second: str | None) -> str | None:
    """Why the other explain cannot be compared with `first`, or None."""
    if second is None:
        return "This is neither a link to a saved explain (…/e/<slug>/) nor a slug: paste the other explain's link."
    if second == first:
        return "That is this explain: give the link or the slug of another saved explain."
    try:
        lookup.get_live_explain(second, defer=lookup.HEAVY_FIELDS)
    except lookup.Gone as exc:
        return f"{second}: {exc.message}"
    except Explain.DoesNotExist:
        return f"There is no saved explain {second}."
    return None


@noindex
@require_safe
def compare(request: HttpRequest, slug_a: str, slug_b: str) -> HttpResponse:
    """Two saved explains side by side, and what changed from the first (before) to the second (after)."""
    before = _live_or_gone(request, slug_a)
    if isinstance(before, HttpResponse):
        return before
    after = _live_or_gone(request, slug_b)
    if isinstance(after, HttpResponse):
        return after
    diff = compare_analyses(before.analysis, after.analysis)
    shown = shown_tables(diff["tables"], MAX_SHOWN_ROWS)
    return render(
        request,
        "pastebin/compare.html",
        {
            "before": before,
            "after": after,
            "diff": diff,
            "tables": shown,
            "hidden": len(diff["tables"]) - len(shown),
            "timed": None not in (diff["time_ms"]["before"], diff["time_ms"]["after"]),
        },
    )


def shown_tables(tables: list[dict], limit: int) -> list[dict]:
    """At most `limit` tables of a comparison, changed ones first picked, in plan order; rows past
    the analyses' shown rows lose their links (a 1 MiB paste can hold 20,000 tables)."""
    if len(tables) > limit:
        picked = sorted(range(len(tables)), key=lambda i: tables[i]["status"] == "same")[:limit]
        tables = [tables[i] for i in sorted(picked)]
    return [
        {**t, **{k: None for k in ("before_row", "after_row") if t[k] is not None and t[k] >= limit}} for t in tables
    ]


@noindex
@require_safe
def raw(request: HttpRequest, slug: str) -> HttpResponse:
    """The paste exactly as stored, as UTF-8 text."""
    text = lookup.live_raw_text(slug)
    if text is None:  # 404 or 410, and why (or saved a moment ago)
        found = _live_or_gone(request, slug, defer=lookup.HEAVY_FIELDS)
        if isinstance(found, HttpResponse):
            return found
        text = found.raw_explain
    response = HttpResponse(text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = f'inline; filename="explain-{slug}.txt"'
    return response


@noindex
@require_safe
def profile_svg(request: HttpRequest, slug: str) -> HttpResponse:
    """The time profile (icicle graph and plan tree) of a saved EXPLAIN ANALYZE as an SVG file;
    404 when the explain has no timings."""
    found = _live_or_gone(request, slug)
    if isinstance(found, HttpResponse):
        return found
    return svg_download(profile_document(found.analysis, found.title), f"explain-{found.slug}-profile.svg")


def _stored_or_gone(request: HttpRequest, slug: str) -> Explain | HttpResponse:
    """Any stored explain, live or not (its creator may delete an expired one), or its 410 / 404."""
    explain = lookup.find_explain(slug)
    if explain is None:
        reason = lookup.gone_reason(None, slug)
        if reason:
            return _gone(request, reason)
        raise Http404("There is no saved explain with this address.")
    return explain


def _manage_token(request: HttpRequest, slug: str) -> str | None:
    """The delete token typed into the form, else the one this browser's session keeps."""
    return request.POST.get("token", "").strip() or _session_token(request, slug)


def _token_error(token: str | None) -> str:
    return "The delete token is wrong." if token else "This browser has no delete token for it; enter the token."


def _private(response: HttpResponse) -> HttpResponse:
    """Pages with the creator's forms, or with a form's CSRF token: never kept by any cache."""
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@sensitive_post_parameters("token")  # never in error reports
def delete(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the confirmation step (asking for the token when this browser does not keep it).
    POST: delete with the token kept in this browser's session, or typed into the form."""
    found = _stored_or_gone(request, slug)
    if isinstance(found, HttpResponse):
        return found
    explain = found
    context = {"explain": explain, "has_token": _session_token(request, slug) is not None}
    if request.method != "POST":
        return _private(render(request, "pastebin/delete.html", context))
    wait = throttled(request, ManageRateThrottle())
    if wait:
        context["error"] = f"Too many attempts from your address; try again in {wait} seconds."
        return retry_after(_private(render(request, "pastebin/delete.html", context, status=429)), wait)
    token = _manage_token(request, slug)
    if not token_matches(token, explain.delete_token_hash):
        context.update(token_error=_token_error(token), has_token=False)
        return _private(render(request, "pastebin/delete.html", context, status=403))
    delete_explain(explain)
    tokens = dict(request.session.get(SESSION_TOKENS, {}))
    tokens.pop(slug, None)
    request.session[SESSION_TOKENS] = tokens
    messages.success(request, "The explain was deleted.")
    return redirect("pastebin:home")


@require_http_methods(["GET", "HEAD", "POST"])
@sensitive_post_parameters("token")
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Its creator changes the title, the visibility or the expiry, with the delete token kept in
    this browser's session or typed into the form."""
    found = _live_or_gone(request, slug, defer=lookup.HEAVY_FIELDS)
    if isinstance(found, HttpResponse):
        return found
    explain = found
    has_token = _session_token(request, slug) is not None
    if request.method != "POST":
        form = EditForm(explain=explain)
        return _private(
            render(request, "pastebin/edit.html", {"explain": explain, "form": form, "has_token": has_token})
        )
    form = EditForm(request.POST, explain=explain)
    wait = throttled(request, ManageRateThrottle())
    if wait:
        form.is_valid()
        form.add_error(None, f"Too many attempts from your address; try again in {wait} seconds.")
        page = render(
            request, "pastebin/edit.html", {"explain": explain, "form": form, "has_token": has_token}, status=429
        )
        return retry_after(_private(page), wait)
    status = _edit_attempt(request, explain, form)
    if status is None:
        messages.success(request, "The changes were saved.")
        return redirect(explain)
    page = render(
        request, "pastebin/edit.html", {"explain": explain, "form": form, "has_token": has_token}, status=status
    )
    return _private(page)


def _edit_attempt(request: HttpRequest, explain: Explain, form: EditForm) -> int | None:
    """Apply the form's changes; None when done, else the status of the page that shows the form's errors."""
    valid = form.is_valid()
    token = _manage_token(request, explain.slug)
    if not token_matches(token, explain.delete_token_hash):
        form.add_error("token", _token_error(token))
        return 403
    if not valid:
        return 400
    data = form.cleaned_data
    try:
        update_explain(explain, title=data["title"], visibility=data["visibility"], expires=data["expires"] or None)
    except SaveError as exc:
        form.add_error("title", exc.message)
        return exc.status
    return None


@noindex
@require_http_methods(["GET", "HEAD", "POST"])
def report(request: HttpRequest, slug: str) -> HttpResponse:
    found = _live_or_gone(request, slug)
    if isinstance(found, HttpResponse):
        return found
    form = ReportForm(request.POST or None)
    if request.method == "POST":
        wait = throttled(request, ReportRateThrottle())
        if wait:
            form.is_valid()
            form.add_error(None, f"Too many reports from your address; try again in {wait} seconds.")
            page = render(request, "pastebin/report.html", {"explain": found, "form": form}, status=429)
            return retry_after(page, wait)
        if not form.is_valid():
            return render(request, "pastebin/report.html", {"explain": found, "form": form}, status=400)
        AbuseReport.objects.create(explain=found, created_at=clock.now(), **form.cleaned_data)
        messages.success(request, "Thank you: the report was sent to the moderators.")
        return redirect(found)
    return render(request, "pastebin/report.html", {"explain": found, "form": form})


MISREAD_THANKS = "Thank you: the paste was sent to the maintainers, who will look at how it was read."


@noindex
@require_http_methods(["GET", "HEAD", "POST"])
def misread_saved(request: HttpRequest, slug: str) -> HttpResponse:
    """The "This was read wrong" form of a saved explain: sent alone to htmx, which puts it in the
    permalink when its section is opened, or on a page of its own (GET); the report it files (POST,
    which reads the paste; showing the form reads none of the large columns)."""
    found = _live_or_gone(request, slug, defer=() if request.method == "POST" else lookup.HEAVY_FIELDS)
    if isinstance(found, HttpResponse):
        return found
    if request.method == "POST":
        return _file_misread(request, MisreadForm(request.POST), found)
    context = {"misread_form": MisreadForm(), "explain": found, "opened": True}
    template = "pastebin/_misread_fields.html" if is_htmx(request) else "pastebin/misread.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return _private(response)


@noindex
@require_POST
def misread(request: HttpRequest) -> HttpResponse:
    """The "This was read wrong" form under an unsaved analysis: report the paste sent with the form."""
    return _file_misread(request, MisreadPasteForm(request.POST), None)


def _file_misread(request: HttpRequest, form: MisreadForm, explain: Explain | None) -> HttpResponse:
    wait = throttled(request, MisreadRateThrottle())
    if wait:
        form.is_valid()
        form.add_error(None, f"Too many reports from your address; try again in {wait} seconds.")
        return retry_after(_misread_answer(request, form, explain, status=429), wait)
    if not form.is_valid():
        too_large = form.has_error("explain", code="too_large")
        return _misread_answer(request, form, explain, status=413 if too_large else 400)
    data = form.cleaned_data
    try:
        file_report(
            explain.raw_explain if explain else data["explain"],
            comment=data["comment"],
            anonymize_names=data["anonymize"],
            explain=explain,
        )
    except SaveError as exc:
        form.add_error(None, exc.message)
        return _misread_answer(request, form, explain, status=exc.status)
    if is_htmx(request):
        return _misread_answer(request, form, explain, sent=True)
    messages.success(request, MISREAD_THANKS)
    return redirect(explain or "pastebin:home")


def _misread_answer(
    request: HttpRequest, form: MisreadForm, explain: Explain | None, status: int = 200, sent: bool = False
) -> HttpResponse:
    """The form again with its errors, or the thanks: in place for htmx, else on a page of its own."""
    context = {
        "misread_form": form,
        "explain": explain,
        "raw_explain": form.data.get(form.add_prefix("explain"), "") if explain is None else "",
        "sent": sent,
        "thanks": MISREAD_THANKS,
    }
    template = "pastebin/_misread_form.html" if is_htmx(request) else "pastebin/misread.html"
    return render(request, template, context, status=status)


def encode_cursor(explain: Listed) -> str:
    raw = f"{explain.created_at.isoformat()}|{explain.slug}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Raises ValueError for a cursor this site did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, slug = raw.split("|", 1)
        moment = datetime.fromisoformat(when)
        if moment.tzinfo is None or not SLUG_RE.match(slug):
            raise ValueError(cursor)
        return moment.astimezone(UTC), slug
    except (binascii.Error, UnicodeDecodeError, OverflowError) as exc:  # OverflowError: beyond years 1 to 9999 in UTC
        raise ValueError(cursor) from exc


def _cursor(request: HttpRequest) -> tuple[datetime, str] | None:
    """The page's `?after=` cursor (created time + slug of the last explain shown before), if any;
    ValueError for one this site did not make."""
    cursor = request.GET.get("after", "")
    return decode_cursor(cursor) if cursor else None


def _page(explains: list[Listed]) -> tuple[list[Listed], str | None]:
    """The first `PAGE_SIZE` of `explains` (fetched one more than that), and the cursor of the next
    page if there is one."""
    page = explains[:PAGE_SIZE]
    return page, encode_cursor(page[-1]) if len(explains) > PAGE_SIZE else None


@require_safe
def recent(request: HttpRequest) -> HttpResponse:
    """Public explains, newest first; `?after=` is a cursor (created time + slug), not an offset."""
    try:
        before = _cursor(request)
    except ValueError:
        return HttpResponseBadRequest("This page link is not valid; start again from /recent/.")
    explains = Explain.objects.public().order_by("-created_at", "-slug").before(before)
    page, next_cursor = _page(listing.from_queryset(explains[: PAGE_SIZE + 1]))
    return render(request, "pastebin/recent.html", {"items": listing.items(page), "next_cursor": next_cursor})


@contextmanager
def statement_timeout(milliseconds: int) -> Iterator[None]:
    """On PostgreSQL, no statement in the block may run longer than `milliseconds` (it fails with
    an OperationalError, which is answered 503); elsewhere the block runs as it is."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('statement_timeout', %s, true)", [str(milliseconds)])
        yield


@require_safe
def search(request: HttpRequest) -> HttpResponse:
    """Public explains matching `?q=`, newest first, a page at a time (`?after=` as for recent)."""
    text = request.GET.get("q", "").strip()[:200].replace("\x00", "")
    try:
        before = _cursor(request)
    except ValueError:
        return HttpResponseBadRequest("This page link is not valid; search again.")
    with statement_timeout(settings.DB_SEARCH_TIMEOUT_MS):
        found = search_public(text, PAGE_SIZE + 1, before) if text else []
    results, next_cursor = _page(found)
    context = {"q": text, "items": listing.items(results), "next_cursor": next_cursor, "older": before is not None}
    return render(request, "pastebin/search.html", context)
