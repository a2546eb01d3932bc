"""The Content-Security-Policy header: django-csp's, whether built once or for the response."""

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.csp import CSPMiddleware

POLICY = {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'", NONCE]}}


def answer(view=None, path="/mesa/x/", middleware=CSPMiddleware):
    """The response of `view` (a plain page by default) through `middleware`, as served."""
    view = view or (lambda request: HttpResponse("hola"))
    return middleware(view)(RequestFactory().get(path))


def test_a_plain_page_gets_django_csps_header():
    header = answer()[HEADER]
    assert header == answer(middleware=DjangoCSPMiddleware)[HEADER]
    assert "default-src 'self'" in header and "object-src 'none'" in header
    assert answer()[HEADER] == header  # and again, as kept
    assert HEADER_REPORT_ONLY not in answer()


def test_a_change_of_settings_is_followed():
    before = answer()[HEADER]
    with override_settings(CONTENT_SECURITY_POLICY=POLICY, CONTENT_SECURITY_POLICY_REPORT_ONLY={
        "EXCLUDE_URL_PREFIXES": ["/admin/"], "DIRECTIVES": {"img-src": ["'self'"]},
    }):
        response = answer()
        assert set(response[HEADER].split("; ")) == {"default-src 'self'", "script-src 'self'"}
        assert set(response[HEADER_REPORT_ONLY].split("; ")) == {
            "default-src 'self'", "img-src 'self'",
        }
        assert HEADER_REPORT_ONLY not in answer(path="/admin/")
    assert answer()[HEADER] == before


def test_a_views_own_policy_and_exemption_are_kept():
    @csp_update({"img-src": ["https://example.invalid"]})
    def updated(request):
        return HttpResponse("hola")

    @csp_exempt()
    def exempt(request):
        return HttpResponse("hola")

    assert "img-src 'self' data: https://example.invalid" in answer(updated)[HEADER]
    assert HEADER not in answer(exempt)
    assert answer(lambda request: HttpResponse(headers={HEADER: "x"}))[HEADER] == "x"


@override_settings(CONTENT_SECURITY_POLICY=POLICY)
def test_a_nonce_used_is_in_the_header_and_none_after_it():
    seen = {}

    def with_nonce(request):
        seen["nonce"] = str(request.csp_nonce)
        return HttpResponse("hola")

    header = answer(with_nonce)[HEADER]
    assert f"'nonce-{seen['nonce']}'" in header
    assert "'nonce-" not in answer()[HEADER]
    request = RequestFactory().get("/")
    CSPMiddleware(lambda request: HttpResponse("hola"))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
