"""The invitation seen from outside the table: what a chat app's preview fetch gets, the
preview's picture, and the invitation's QR code.

A link-preview fetch (`tables.invitation.crawlers`) of an invitation gets a small page of its own:
the Open Graph and Twitter card tags and the same words in its body, nothing else. It reads the
table and changes nothing: no seat, no socket (so it is never counted as watching), no session and
no cookie, no rate limit counted. A link that no longer leads to a table (the host renewed the
invitation) answers the same way, with a preview that says the link has changed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import override
from django.views.decorators.http import require_GET

from tables.invitation.crawlers import is_link_preview
from tables.invitation.picture import preview_png
from tables.invitation.preview import InvitationPreview, invitation_meta, invitation_preview
from tables.invitation.qr import invitation_qr_svg
from tables.models import Table
from tables.state.lookup import table_by_code
from tables.state.snapshot import TableSnapshot

# A person whose browser a user-agent list takes for a link preview follows the preview page's
# link, which carries this: they get the table's own page.
PERSON = "entrar"
YEAR = 365 * 24 * 3600


def _preview_of(table: Table | None) -> InvitationPreview:
    return invitation_preview(TableSnapshot.load(table) if table is not None else None)


def link_previews(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The invitation's page view, answering link-preview fetches with the preview page."""

    @wraps(view)
    def wrapper(request: HttpRequest, code: str) -> HttpResponse:
        if is_link_preview(request) and PERSON not in request.GET:
            response = invitation_preview_page(request, code)
        else:
            response = view(request, code)
        patch_vary_headers(response, ["User-Agent"])
        return response

    return wrapper


def invitation_preview_page(request: HttpRequest, code: str) -> HttpResponse:
    table = table_by_code(code)
    preview = _preview_of(table)
    context = {"meta": invitation_meta(request, table, code, preview), "preview": preview,
               "person": PERSON, "found": table is not None}
    if not preview.language:
        return render(request, "tables/invitation_preview.html", context)
    with override(preview.language):  # a chat app's fetch: the page in the host's language
        return render(request, "tables/invitation_preview.html", context)


@require_GET
def preview_image(request: HttpRequest, code: str, key: str) -> HttpResponse:
    """The preview's picture. Its address holds the key of what it shows: a key the table has
    left behind is sent on to the current picture; the current one is drawn once and cached
    by everyone for a year, since nothing else will ever be at its address."""
    preview = _preview_of(Table.objects.filter(code=code).first())
    if key != preview.key:
        response = redirect("preview_image", code=code, key=preview.key)
        patch_cache_control(response, public=True, max_age=60)
        return response
    response = HttpResponse(preview_png(preview), content_type="image/png")
    patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    return response


@require_GET
def invitation_qr(request: HttpRequest, code: str) -> HttpResponse:
    """The QR code of the invitation `code` (for the players: only they are shown it)."""
    table = Table.objects.filter(code=code).first()
    if table is None:
        return render(request, "tables/missing.html", status=404)
    url = request.build_absolute_uri(reverse("table", kwargs={"code": table.code}))
    response = HttpResponse(invitation_qr_svg(url), content_type="image/svg+xml")
    patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    return response
