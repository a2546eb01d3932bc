"""The table's websocket (`table_socket`): one per page, thin, and asynchronous where it is busy.

An ASGI application of its own, on the ASGI websocket protocol and the channel layer's
specification (no thread hop per frame). Accepted at once, it greets the page with the whole
current table (`tables.live.reconnect`), joins the table's public group and its seat's or the
watchers' group, then forwards the frames rendered for them as they are.
When the process drains (`tables.live.drain`: a deploy), every open page is closed with 1012,
"service restart", and its browser reconnects to another process.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext

from tables.live import catch_up, drain, pages
from tables.live.broadcast import FRAGMENT_EVENT
from tables.live.frames import WATCHERS, frames_newer, frames_release
from tables.live.presence import presence_joined, presence_left
from tables.live.reconnect import greet
from tables.metrics import SOCKETS_OPEN
from tables.plug import greeting_parts_release
from tables.state.lookup import table_by_code


def revoked_html() -> str:
    """The notice a page that came by a renewed invitation is left with."""
    return format_html(
        '<div id="notice" hx-swap-oob="true" class="notice" role="alert">{}</div>',
        gettext("Este enlace de invitación ya no sirve: pide uno nuevo a quien abrió la mesa."),
    )


def page_language(scope: dict) -> str:
    """The language the page is read in: its socket's `lang` (a page in the site's default
    language names none), if the site offers it."""
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
    return asked if asked in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _code_serves(table_id: int, code: str) -> bool:
    """Whether `code` still leads to the table (the invitation may have changed)."""
    table = table_by_code(code)
    return table is not None and table.pk == table_id


async def table_socket(scope: dict, receive: Any, send: Any) -> None:
    """The ASGI application of the table's socket (`tables.routing`)."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await TablePage(scope, send).serve(receive)


class TablePage:
    """One open table page: its viewer, the groups it joined, the newest version it was sent
    (`tables.live.catch_up` reads `version` and `awaited`)."""

    def __init__(self, scope: dict, send: Any) -> None:
        self.scope, self.base_send = scope, send
        self.code = scope["url_route"]["kwargs"]["code"]
        self.language = page_language(scope)
        self.layer = get_channel_layer()
        self.channel_name = ""
        self.groups: list[str] = []
        self.table_id: int | None = None
        self.seat_number: int | None = None
        self.version = 0
        self.awaited: int | None = None

    async def serve(self, receive: Any) -> None:
        """Greet the page, then forward its groups' frames until it closes."""
        client = frames = None
        opened = False
        try:
            if not await self.connect():
                return
            pages.page_opened(self)
            SOCKETS_OPEN.inc()
            opened = True
            if pages.draining():  # the drain began while the page was greeted
                await self.close(drain.SERVICE_RESTART)
                return
            client = asyncio.ensure_future(receive())
            frames = asyncio.ensure_future(self.layer.receive(self.channel_name))
            while True:
                await asyncio.wait({client, frames}, return_when=asyncio.FIRST_COMPLETED)
                if client.done():
                    if client.result()["type"] == "websocket.disconnect":
                        return
                    client = asyncio.ensure_future(receive())  # the page sends nothing else
                if frames.done():
                    if not await self.forward(frames.result()):
                        return
                    frames = asyncio.ensure_future(self.layer.receive(self.channel_name))
        finally:
            if opened:
                SOCKETS_OPEN.dec()
            for task in (client, frames):
                if task is not None and not task.done():
                    task.cancel()
            await self.disconnect()

    async def connect(self) -> bool:
        # Accepted at once: the handshake never waits for the database (after a restart,
        # thousands of them did, and timed out); an unknown table is closed just after.
        await self.base_send({"type": "websocket.accept"})
        greeting = await greet(self.code, self.scope["session"], self.language)
        if greeting is None:
            await self.close(4404)
            return False
        self.table_id, self.seat_number = greeting.table_id, greeting.seat_number
        self.version = greeting.version
        self.channel_name = await self.layer.new_channel()
        self.groups = [greeting.group_name, greeting.audience_group]
        for group in self.groups:
            await self.layer.group_add(group, self.channel_name)
        catch_up.watch(self)  # a change pushed before the joins: the page catches up
        presence_joined(self.table_id, self.seat_number, self.channel_name)
        await self.send(text_data=greeting.html)
        # A change this process pushed while the greeting was made reached no group yet.
        newer = frames_newer(self.table_id, self.version, self.language)
        if newer is not None:
            audience = WATCHERS if self.seat_number is None else self.seat_number
            await self.table_fragment({
                "version": newer.version, "html": newer.page_html(audience) + newer.extra,
            })
        return True

    async def disconnect(self) -> None:
        if self.table_id is None:
            return
        self.page_close()
        await self.leave_groups()
        presence_left(self.channel_name)

    def page_close(self) -> None:
        """The page is not open here any more: when it was its table's last one here, what is
        kept for the table goes."""
        if pages.page_closed(self):
            frames_release(self.table_id)
            greeting_parts_release(self.table_id)

    async def forward(self, message: dict) -> bool:
        """Handle a message of the page's groups; whether the page stays open."""
        if message["type"] == FRAGMENT_EVENT:
            await self.table_fragment(message)
            return True
        if message["type"] == "table.revoked":
            return await self.table_revoked()
        return True  # a message of a kind this page does not know: nothing to show

    async def send(self, text_data: str) -> None:
        await self.base_send({"type": "websocket.send", "text": text_data})

    async def close(self, code: int = 1000) -> None:
        await self.base_send({"type": "websocket.close", "code": code})

    async def leave_groups(self) -> None:
        for group in self.groups:
            await self.layer.group_discard(group, self.channel_name)
        self.groups = []

    async def table_fragment(self, event: dict) -> None:
        self.version = max(self.version, event.get("version", 0))
        await self.send(text_data=event["html"])

    async def table_revoked(self) -> bool:
        """The invitation changed: a page that came by the old one stops (one that came by
        the players' link, an ex-player's, goes on)."""
        if await database_sync_to_async(_code_serves)(self.table_id, self.code):
            return True
        self.page_close()  # nothing more is sent to it, not even by the catch-up
        await self.leave_groups()
        with translation.override(self.language):
            html = revoked_html()
        await self.send(text_data=html)
        await self.close()
        return False
