"""Who a request comes from, and how often they may do a thing (rate limits).

The counting is django-ratelimit's, in Django's cache (`settings.CACHES`: Redis or the
database, shared by every process), so a limit holds whichever process takes a request. A
limit binds what a client cannot shed: a seat for a seated player, otherwise the address the
request comes from (behind a trusted proxy, the address that proxy saw). Rates are in
`settings.RATE_LIMITS`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

# What a refusal says, per limit.
REFUSALS = {
    "table_open": "Se abrieron demasiadas mesas desde tu conexión. Espera un rato y vuelve "
    "a intentarlo.",
    "seat_claim": "Demasiados intentos de sentarse desde tu conexión. Espera un rato y vuelve "
    "a intentarlo.",
    "chat": "Vas muy rápido: espera unos segundos antes de escribir otra vez.",
    "chat_spectators": "Los que miran están escribiendo demasiado: espera unos segundos.",
    "admin_login": "Demasiados intentos de entrar. Espera unos minutos y vuelve a intentarlo.",
}
DEFAULT_REFUSAL = "Demasiados pedidos seguidos. Espera un momento y vuelve a intentarlo."


def _networks(entries: list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(settings.TRUSTED_PROXIES))


def client_address(request: HttpRequest) -> str:
    """The client's address: the connecting one, or, when that is a trusted proxy, the last
    address in X-Forwarded-For that is not a trusted proxy (what the client cannot forge)."""
    address = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return "0.0.0.0"  # a unix socket or no peer: no address to tell clients apart
    if not _trusted(address):
        return address
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for hop in reversed([h for h in hops if h]):
        if not _trusted(hop):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return address  # garbage from the proxy's client: the proxy itself
    return address


def client_network(request: HttpRequest) -> str:
    """The client's address, or for IPv6 its /64 network (one client holds a whole /64, as
    django-ratelimit's own "ip" key assumes)."""
    ip = ipaddress.ip_address(client_address(request))
    return str(ipaddress.ip_network(f"{ip}/{64 if ip.version == 6 else 32}", strict=False))


def address_key(request: HttpRequest) -> str:
    """The client's network as a keyed hash: stored with a spectator's chat messages and
    mutes, so that they bind the address without the address itself being kept."""
    return salted_hmac("ocholoco.address", client_network(request)).hexdigest()[:32]


def _rate(group: str, request: HttpRequest) -> str:
    return settings.RATE_LIMITS[group]


def over_limit(request: HttpRequest, group: str, key: str) -> bool:
    """Count one more of `group` for `key`; whether it goes over the group's rate."""
    return is_ratelimited(
        request, group=group, key=lambda _group, _request: key, rate=_rate, increment=True
    )


def per_address(group: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view whose POSTs count against the client address's budget for `group`; over it,
    django-ratelimit's middleware answers with `tables.error_pages.too_many_requests`."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        limited = ratelimit(group=group, key="ip", rate=_rate, method="POST")(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            request.limit_group = group  # type: ignore[attr-defined]
            return limited(request, *args, **kwargs)

        return wrapper

    return decorator
