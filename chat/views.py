"""Thin views for the chat: read the request, call one service in `chat.services`, answer.

With htmx a post answers with the chat's error element (empty, the reason with a 409, or a 429
over the limit); the message itself arrives over the table's socket. Without JavaScript the
answer is a redirect back to the chat. Limits bind the person: a seated player's seat, or a
spectator's address and all the table's spectators together (`tables.web.rate_limits`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from chat import services
from chat.selectors import column_context, spectators_can_write
from tables.metrics import RATE_LIMITED, post_refused
from tables.models import Seat, Table
from tables.state.lookup import table_or_404
from tables.state.refusal import TableError
from tables.state.seat_secrets import page_code, proven_seat, seat_secret
from tables.web.clients import address_key, client_network
from tables.web.rate_limits import REFUSALS, over_limit

NAME_KEY = "chat_name"


def chat_column(request: HttpRequest, table: Table, seat: Seat | None) -> dict[str, Any]:
    """One viewer's chat column: the table page's `chat` part (registered in `chat.apps`)."""
    return column_context(
        table, seat,
        address_key=address_key(request),
        spectator_name=request.session.get(NAME_KEY, ""),
    )


def _over_chat_limit(request: HttpRequest, table: Table, seat: Seat | None) -> str | None:
    """Count this message against its writer; the refusal if it is one too many."""
    if seat is not None:
        return REFUSALS["chat"] if over_limit(request, "chat", f"seat:{seat.pk}") else None
    if over_limit(request, "chat", f"address:{client_network(request)}"):
        return REFUSALS["chat"]
    if over_limit(request, "chat_spectators", f"table:{table.pk}"):
        return REFUSALS["chat_spectators"]
    return None


def _answer(
    request: HttpRequest,
    table: Table,
    code: str,
    error: str | None,
    extra: Callable[[], str] | None = None,
    status: int = 409,
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        page = page_code(request.session, table, code)
        return redirect(reverse("table", kwargs={"code": page}) + "#chat")
    html = render_to_string("chat/column.html#error", {"error": error or "", "oob": True})
    if extra is not None:
        html += extra()
    return HttpResponse(html, status=status if error else 200)


@require_POST
def message_post(request: HttpRequest, code: str) -> HttpResponse:
    table = table_or_404(code)
    secret = seat_secret(request.session, table)
    too_fast = _over_chat_limit(
        request, table, proven_seat(request.session, table, table.seats.all())
    )
    if too_fast:
        post_refused(RATE_LIMITED)
        return _answer(request, table, code, too_fast, status=429)
    name = request.POST.get("name", "")
    try:
        services.message_post(
            table_id=table.pk, secret=secret, address_key=address_key(request),
            text=request.POST.get("text", ""), name=name,
        )
    except TableError as refused:
        post_refused(refused.reason)
        return _answer(request, table, code, refused.message)
    if name:
        request.session[NAME_KEY] = services.spectator_name(name)
    return _answer(request, table, code, None)


@require_POST
def spectators_set(request: HttpRequest, code: str) -> HttpResponse:
    table = table_or_404(code)
    error = None
    try:
        services.spectators_chat_set(
            table_id=table.pk, secret=seat_secret(request.session, table),
            allowed="1" in request.POST.getlist("allowed"),
        )
    except TableError as refused:
        post_refused(refused.reason)
        error = refused.message

    def toggle() -> str:
        # The switch as it really is now (a refused change puts it back).
        context = {"table": table, "allowed": spectators_can_write(table), "oob": True}
        return render_to_string("chat/column.html#spectators", context, request=request)

    return _answer(request, table, code, error, toggle)
