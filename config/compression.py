"""Gzip for HTML pages that hold no secret.

Compressing a page that reflects what a visitor sent next to a secret lets an attacker guess the
secret from the compressed sizes (BREACH). So pages whose rendering used the CSRF token, pages
kept out of caches because they show a secret once (a new delete token), and every non-HTML
answer (the API, whose 201 carries a delete token; static files are compressed ahead by
whitenoise) are sent as they are.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import cc_delim_re


class SafeGZipMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if not _compressible(request, response):
            return response
        return super().process_response(request, response)


def _compressible(request: HttpRequest, response: HttpResponse) -> bool:
    if not response.get("Content-Type", "").startswith("text/html"):
        return False
    if "CSRF_COOKIE_NEEDS_UPDATE" in request.META:  # set by get_token(), the CSRF token's only source
        return False
    directives = {d.strip().lower() for d in cc_delim_re.split(response.get("Cache-Control", ""))}
    return "no-store" not in directives
