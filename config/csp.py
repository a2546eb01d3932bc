"""django-csp's middleware, with the header of a response nobody adjusted built once.

django-csp builds the Content-Security-Policy header anew for every response, twice (the policy
and the report-only one), from the settings: 3.4% of the instructions of a move's request
(callgrind). Our policy is the same for every response but those a view's decorator adjusts
(`@csp_update`, `@csp_exempt`...) or that use a nonce; those go through django-csp's own code,
unchanged.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase

# The attributes django-csp's decorators set on a response to change or drop its policy.
ADJUSTED_BY = (
    "_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
    "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro",
)
# Django's debug pages, which django-csp leaves without a policy when DEBUG is on.
DEBUG_PAGES = (404, 500)


@cache
def plain_headers() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(header, policy, paths it is not sent on) for each policy the settings give."""
    headers = []
    for header, name, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
    ):
        policy = build_policy(report_only=report_only)
        if policy:
            excluded = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            headers.append((header, policy, tuple(excluded)))
    return tuple(headers)


def _forget(*, setting: str, **kwargs: object) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        plain_headers.cache_clear()


setting_changed.connect(_forget)


class CSPMiddleware(BaseCSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        adjusted = any(hasattr(response, name) for name in ADJUSTED_BY)
        if adjusted or getattr(request, "_csp_nonce", None) is not None:
            return super().process_response(request, response)
        if response.status_code in DEBUG_PAGES and settings.DEBUG:
            return response
        for header, policy, excluded in plain_headers():
            if header not in response and not request.path_info.startswith(excluded):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
