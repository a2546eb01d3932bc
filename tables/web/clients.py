"""Who a request comes from: the client's address (behind a trusted proxy, the address that
proxy saw), its network, and that network as a keyed hash the chat may keep."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from django.utils.crypto import salted_hmac


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
