"""Sockets for the tests: the table's websocket app wrapped as config/asgi.py wraps it
(sessions from the signed cookie), and a viewer's cookie taken from their test client."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.sessions import SessionMiddlewareStack
from channels.testing import WebsocketCommunicator
from django.conf import settings

from tables.models import Table
from tables.routing import websocket_urlpatterns
from tests.tables.helpers import Person

application = SessionMiddlewareStack(URLRouter(websocket_urlpatterns))


def in_event_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test body in one event loop (the communicators live in it)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        async_to_sync(test)(*args, **kwargs)

    return run


async def connect(
    table: Table, viewer: Person | None = None, code: str | None = None
) -> WebsocketCommunicator:
    """`viewer`'s socket on the table's page at `code` (the invitation unless told)."""
    headers = []
    if viewer is not None and settings.SESSION_COOKIE_NAME in viewer.client.cookies:
        cookie = viewer.client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/mesa/{code or table.code}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def received(socket: WebsocketCommunicator, count: int) -> str:
    """The next `count` messages, joined; then the socket must have nothing more to say."""
    messages = [await socket.receive_from(timeout=5) for _ in range(count)]
    assert await socket.receive_nothing(timeout=0.05)
    return "".join(messages)
