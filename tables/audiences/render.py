"""The one render path: the table's fragments, for HTTP responses and websocket pushes alike.

Every fragment is a `{% partialdef %}` of `tables/table.html`, carries its element id, the
table version it shows and `hx-swap-oob`, so htmx swaps it by id wherever it arrives from.
A fragment is rendered from a context `tables.audiences.visible` built (what its audience may
see, decided before any template runs): contexts are built once, then rendered once.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

PAGE = "tables/table.html"


def _render(partial: str, context: dict[str, Any], request: HttpRequest | None) -> str:
    if request is None:
        # A push serves many browsers: no per-browser CSRF token in its forms (htmx sends the
        # page's token in a header); forms rendered for one request carry it for no-JS use.
        context = {**context, "csrf_token": "NOTPROVIDED"}
    return render_to_string(f"{PAGE}#{partial}", context, request=request)


def render_board(context: dict[str, Any], request: HttpRequest | None = None) -> str:
    return _render("board", context, request)


def render_panel(context: dict[str, Any], request: HttpRequest | None = None) -> str:
    return _render("panel", context, request)
