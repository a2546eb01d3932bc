"""Sockets for the tests: the table's websocket app wrapped as config/asgi.py wraps it
(sessions from the signed cookie), and a viewer's cookie taken from their test client.

"Nothing more arrives" is checked with a marker, never by waiting a while: a marker sent to
the table's group after the change reaches each socket after whatever the change sent it (a
channel delivers in order), so the socket's next message must be that marker.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.sessions import SessionMiddlewareStack
from channels.testing import WebsocketCommunicator
from django.conf import settings

from tables.live.broadcast import FRAGMENT_EVENT
from tables.models import Table
from tables.routing import websocket_urlpatterns
from tests.tables.helpers import Person

application = SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
# Bounds the wait for a message that must come: generous, so a busy machine never trips it.
ARRIVES = 30
MARKER = '<template data-test-marker="'


def in_event_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test body in one event loop (the communicators live in it)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        async_to_sync(test)(*args, **kwargs)

    return run


async def connect(
    table: Table, viewer: Person | None = None, code: str | None = None, language: str = ""
) -> WebsocketCommunicator:
    """`viewer`'s socket on the table's page at `code` (the invitation unless told), on a page
    read in `language` (the site's default unless told)."""
    headers = []
    if viewer is not None and settings.SESSION_COOKIE_NAME in viewer.client.cookies:
        cookie = viewer.client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    path = f"/ws/mesa/{code or table.code}/" + (f"?lang={language}" if language else "")
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected
    socket.table_group = table.group_name_in(language or None)  # where `nothing_more` sends
    return socket


async def next_message(socket: WebsocketCommunicator) -> str:
    """The socket's next message from the product (markers other checks sent are skipped)."""
    while True:
        message = await socket.receive_from(timeout=ARRIVES)
        if not message.startswith(MARKER):
            return message


async def nothing_more(socket: WebsocketCommunicator) -> None:
    """The socket has nothing more to say: a marker sent now to the table's group (every
    socket of the table is in it) comes next, after whatever was sent before it."""
    marker = f'{MARKER}{uuid.uuid4().hex}"></template>'
    await get_channel_layer().group_send(
        socket.table_group, {"type": FRAGMENT_EVENT, "html": marker}
    )
    while True:
        message = await socket.receive_from(timeout=ARRIVES)
        if message == marker:
            return
        assert message.startswith(MARKER), f"more arrived: {message[:300]}"


async def received(socket: WebsocketCommunicator, count: int) -> str:
    """The next `count` messages, joined; then the socket must have nothing more to say."""
    messages = [await next_message(socket) for _ in range(count)]
    await nothing_more(socket)
    return "".join(messages)
