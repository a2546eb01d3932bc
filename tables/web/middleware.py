"""A database that cannot be reached (PostgreSQL restarting) answers "try again", never a 500.

A change either committed or rolled back as a whole (one transaction), so trying again is safe:
a move that did commit is refused the second time as made against an old version, and the page
shows the table as it is.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _lazy

logger = logging.getLogger(__name__)

TRY_AGAIN = _lazy("No pudimos llegar a la mesa guardada: inténtalo de nuevo en unos segundos.")


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning("Database unavailable: %s", exception)
        if request.headers.get("HX-Request"):
            html = render_to_string(
                "tables/table.html#notice", {"message": TRY_AGAIN, "error": True}
            )
            response = HttpResponse(html, status=503)
        else:
            response = render(request, "tables/missing.html", {"message": TRY_AGAIN}, status=503)
        response["Retry-After"] = "2"
        return response
