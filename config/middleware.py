"""Cheaper stand-ins for two middleware of settings.MIDDLEWARE that did work on every request.

- `ContentSecurityPolicy`: django-csp's middleware builds the policy header from the settings on
  every response. The site's policy is the same for every page (no nonce, no per-view policy), so
  it is built once; a response or request that asks for something else still goes through
  django-csp.
- `LazyMessages`: Django's messages middleware builds the message storage (cookie and session
  backends, a cookie signer) for every request, though few pages read or add a message: here it
  is built on first use, and a storage never used has nothing to save.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty

# What asks django-csp for a policy of its own: a view's decorators (on the response), a nonce
# used while rendering (on the request).
_RESPONSE_POLICY_ATTRIBUTES = tuple(
    f"_csp_{name}{suffix}" for name in ("config", "update", "replace", "exempt") for suffix in ("", "_ro")
)


class ContentSecurityPolicy(CSPMiddleware):
    def __init__(self, get_response: Callable) -> None:
        super().__init__(get_response)
        self._headers = self._site_headers()

    @staticmethod
    def _site_headers() -> list[tuple[str, str, tuple[str, ...]]]:
        """The site-wide headers as django-csp writes them, with the path prefixes each skips."""
        headers = []
        for header, name, report_only in (
            (HEADER, "CONTENT_SECURITY_POLICY", False),
            (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
        ):
            policy = build_policy(report_only=report_only)
            if policy:
                prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
                headers.append((header, policy, tuple(prefixes)))
        return headers

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _RESPONSE_POLICY_ATTRIBUTES
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages, as django-csp leaves them
        for header, policy, prefixes in self._headers:
            if header not in response and not request.path_info.startswith(prefixes):
                response[header] = policy
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


class LazyMessages(MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(partial(default_storage, request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        storage = getattr(request, "_messages", None)
        if isinstance(storage, SimpleLazyObject) and storage._wrapped is empty:  # type: ignore[attr-defined]
            return response  # never read nor added to: nothing to save
        return super().process_response(request, response)
