"""`/favicon.ico`: browsers and chat apps ask for it at the root whatever the page says.

The file is `static/favicon.svg` drawn at 16, 32 and 48 pixels (PNG images in an ICO container).
It is read once, served with a long public cache lifetime and an ETag, and revalidated with a 304.
"""

from __future__ import annotations

import hashlib
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import condition, require_safe

CACHE_SECONDS = 7 * 24 * 3600  # a week: the address never changes, the picture seldom does


@cache
def icon() -> tuple[bytes, str]:
    """The icon's bytes and their ETag."""
    data = (settings.BASE_DIR / "static" / "favicon.ico").read_bytes()
    return data, f'"{hashlib.sha256(data).hexdigest()[:32]}"'


@require_safe
@condition(etag_func=lambda request: icon()[1])
def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(icon()[0], content_type="image/x-icon")
    response["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response
