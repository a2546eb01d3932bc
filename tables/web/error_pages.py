"""Error answers: in the request's language, in the site's look, and never a whole page for htmx.

Pages come from the templates `400.html`, `403.html`, `404.html`, `500.html` (Django's own
handlers), `403_csrf.html` and `error.html`. To an htmx request the answer is the notice
fragment only (the page stays; `static/js/answers.js` shows any other error answer as a
notice too), and a CSRF failure says so in a header, so that the page renews its token and
sends the request again (it was refused before doing anything).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.metrics import RATE_LIMITED, post_refused
from tables.web.rate_limits import DEFAULT_REFUSAL, REFUSALS

CSRF_HEADER = "X-Csrf-Failed"


def notice_fragment(message: str, *, error: bool = True) -> str:
    """The table page's notice area with `message` (empty: cleared), swapped in by id."""
    return render_to_string("tables/table.html#notice", {"message": message, "error": error})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if request.headers.get("HX-Request"):
        message = _("La página llevaba mucho tiempo abierta: recárgala para seguir.")
        response = HttpResponse(notice_fragment(message), status=403)
    else:
        response = render(request, "403_csrf.html", status=403)
    response[CSRF_HEADER] = "1"
    return response


def too_many_requests(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Over a rate limit (`tables.web.rate_limits.per_address`): 429 and what to do."""
    post_refused(RATE_LIMITED)
    message = str(REFUSALS.get(getattr(request, "limit_group", ""), DEFAULT_REFUSAL))
    if request.headers.get("HX-Request"):
        return HttpResponse(notice_fragment(message), status=429)
    context = {"title": _("Un momento"), "message": message}
    return render(request, "error.html", context, status=429)


@require_GET
def csrf_renew(request: HttpRequest) -> JsonResponse:
    """A fresh CSRF token (and cookie) for a page whose token stopped working."""
    response = JsonResponse({"token": get_token(request)})
    response["Cache-Control"] = "no-store"
    return response
