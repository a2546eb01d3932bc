"""How often a client may do a thing (rate limits).

The counting is django-ratelimit's, in Django's cache (`settings.CACHES`: Redis or the
database, shared by every process), so a limit holds whichever process takes a request. A
limit binds what a client cannot shed: a seat for a seated player, otherwise the client's
address (`tables.web.clients`). Rates are in `settings.RATE_LIMITS`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _lazy
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

# What a refusal says, per limit.
REFUSALS = {
    "table_open": _lazy(
        "Se abrieron demasiadas mesas desde tu conexión. Espera un rato y vuelve a intentarlo."
    ),
    "seat_claim": _lazy(
        "Demasiados intentos de sentarse desde tu conexión. Espera un rato y vuelve a"
        " intentarlo."
    ),
    "chat": _lazy("Vas muy rápido: espera unos segundos antes de escribir otra vez."),
    "chat_spectators": _lazy("Los que miran están escribiendo demasiado: espera unos segundos."),
    "admin_login": _lazy(
        "Demasiados intentos de entrar. Espera unos minutos y vuelve a intentarlo."
    ),
}
DEFAULT_REFUSAL = _lazy("Demasiados pedidos seguidos. Espera un momento y vuelve a intentarlo.")



def _rate(group: str, request: HttpRequest) -> str:
    return settings.RATE_LIMITS[group]


def over_limit(request: HttpRequest, group: str, key: str) -> bool:
    """Count one more of `group` for `key`; whether it goes over the group's rate."""
    return is_ratelimited(
        request, group=group, key=lambda _group, _request: key, rate=_rate, increment=True
    )


def per_address(group: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view whose POSTs count against the client address's budget for `group`; over it,
    django-ratelimit's middleware answers with `tables.web.error_pages.too_many_requests`."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        limited = ratelimit(group=group, key="ip", rate=_rate, method="POST")(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            request.limit_group = group  # type: ignore[attr-defined]
            return limited(request, *args, **kwargs)

        return wrapper

    return decorator
