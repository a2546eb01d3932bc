"""Thin views for the chat: read the request, call one service in `chat.services`, answer.

With htmx a post answers with the chat's error element (empty, or the reason with a 409);
the new message itself arrives over the table's socket like everyone else's. Without
JavaScript the forms work too: the answer is a redirect back to the table's chat.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, MutableMapping
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from chat import services
from chat.selectors import column_context, spectators_can_write
from tables.identity import seat_secret
from tables.models import Seat, Table
from tables.services import TableError

BROWSER_KEY = "browser"
NAME_KEY = "chat_name"


def browser_id(session: MutableMapping[str, Any]) -> str:
    """This browser's random id, kept in its session (the chat's rate limit and mutes)."""
    if not session.get(BROWSER_KEY):
        session[BROWSER_KEY] = secrets.token_urlsafe(12)
    return session[BROWSER_KEY]


def chat_column(request: HttpRequest, table: Table, seat: Seat | None) -> dict[str, Any]:
    """The `chat` context of the table page."""
    return column_context(
        table, seat,
        browser=request.session.get(BROWSER_KEY, ""),
        spectator_name=request.session.get(NAME_KEY, ""),
    )


def _answer(
    request: HttpRequest, table: Table, error: str | None, extra: Callable[[], str] | None = None
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(reverse("table", kwargs={"code": table.code}) + "#chat")
    html = render_to_string("chat/column.html#error", {"error": error, "oob": True})
    if extra is not None:
        html += extra()
    return HttpResponse(html, status=409 if error else 200)


@require_POST
def message_post(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    name = request.POST.get("name", "")
    try:
        services.message_post(
            table_id=table.pk, secret=seat_secret(request.session, table),
            browser=browser_id(request.session), text=request.POST.get("text", ""), name=name,
        )
    except TableError as refused:
        return _answer(request, table, refused.message)
    if name:
        request.session[NAME_KEY] = services.spectator_name(name)
    return _answer(request, table, None)


@require_POST
def spectators_set(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    error = None
    try:
        services.spectators_chat_set(
            table_id=table.pk, secret=seat_secret(request.session, table),
            allowed="1" in request.POST.getlist("allowed"),
        )
    except TableError as refused:
        error = refused.message

    def toggle() -> str:
        # The switch as it really is now (a refused change puts it back).
        context = {"table": table, "allowed": spectators_can_write(table), "oob": True}
        return render_to_string("chat/column.html#spectators", context, request=request)

    return _answer(request, table, error, toggle)
