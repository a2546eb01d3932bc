"""The one render path: the table's fragments, for HTTP responses and websocket pushes alike.

Every fragment is a `{% partialdef %}` of `tables/table.html`, carries its element id, the
table version it shows and `hx-swap-oob`, so htmx swaps it by id wherever it arrives from.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from tables.audiences.visible import board_context, panel_context, round_summary
from tables.models import Seat
from tables.state.snapshot import TableSnapshot

PAGE = "tables/table.html"


def _render(partial: str, context: dict[str, Any], request: HttpRequest | None) -> str:
    if request is None:
        # A push serves many browsers: no per-browser CSRF token in its forms (htmx sends the
        # page's token in a header); forms rendered for one request carry it for no-JS use.
        context["csrf_token"] = "NOTPROVIDED"
    return render_to_string(f"{PAGE}#{partial}", context, request=request)


def render_board(snapshot: TableSnapshot, request: HttpRequest | None = None) -> str:
    return _render("board", board_context(snapshot), request)


def render_panel(
    snapshot: TableSnapshot,
    seat: Seat | None,
    summary: dict[str, Any] | None = None,
    request: HttpRequest | None = None,
) -> str:
    return _render("panel", panel_context(snapshot, seat, summary), request)


def render_for_viewer(
    snapshot: TableSnapshot, seat: Seat | None, request: HttpRequest | None = None
) -> str:
    """Everything one viewer needs to bring their page up to date (on connect, after a post)."""
    summary = round_summary(snapshot)
    return render_board(snapshot, request) + render_panel(snapshot, seat, summary, request)
