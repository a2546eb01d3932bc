"""The table's websocket: one per page, thin, and asynchronous where it is busy.

On connect the socket is accepted at once; the viewer proves their seat (from the session) and
gets the whole current table (`tables.greeting`, sockets connecting together greeted in one
database hop), so a dropped connection or a restart never leaves a stale page; they join the
table's public group (chat messages) and either their seat's group or the watchers' group.
After that the consumer forwards the frames `tables.publish` rendered for its groups, as they
are. Presence is written in batches (`tables.presence`).

Forwarding is most of what a consumer does (every viewer, every move), so it is asynchronous:
a synchronous consumer spent a thread of its own on every frame.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tables import resync
from tables.greeting import greet
from tables.page_parts import greeting_parts_forget
from tables.presence import presence_joined, presence_left
from tables.publish import WATCHERS, frames_release, latest_frames
from tables.selectors import table_by_code

REVOKED_HTML = (
    '<div id="notice" hx-swap-oob="true" class="notice" role="alert">'
    "Este enlace de invitación ya no sirve: pide uno nuevo a quien abrió la mesa.</div>"
)


def _code_serves(table_id: int, code: str) -> bool:
    """Whether `code` still leads to the table (the invitation may have changed)."""
    table = table_by_code(code)
    return table is not None and table.pk == table_id


class TableConsumer(AsyncWebsocketConsumer):
    groups: list[str]

    async def connect(self) -> None:
        self.groups = []
        self.table_id = None
        self.code = self.scope["url_route"]["kwargs"]["code"]
        # Accepted at once: the handshake never waits for the database (after a restart,
        # thousands of them did, and timed out); an unknown table is closed just after.
        await self.accept()
        greeting = await greet(self.code, self.scope["session"])
        if greeting is None:
            await self.close(code=4404)
            return
        self.table_id, self.seat_number = greeting.table_id, greeting.seat_number
        self.version = greeting.version
        self.groups = [greeting.group_name, greeting.audience_group]
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        resync.watch(self)  # a change pushed before the joins: the page catches up
        presence_joined(self.table_id, self.seat_number, self.channel_name)
        await self.send(text_data=greeting.html)
        # A change this process pushed while the greeting was made reached no group yet.
        newer = latest_frames(self.table_id)
        if newer is not None and newer.version > self.version:
            await self.table_fragment({
                "version": newer.version,
                "html": newer.page_html(
                    WATCHERS if self.seat_number is None else self.seat_number
                ) + newer.extra,
            })

    async def disconnect(self, code: int) -> None:
        if resync.unwatch(self):  # the table's last page here: what is kept for it goes
            frames_release(self.table_id)
            greeting_parts_forget(self.table_id)
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.table_id is not None:
            presence_left(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Moves arrive by HTTP POST; the socket only pushes.
        pass

    async def table_fragment(self, event: dict) -> None:
        self.version = max(self.version, event.get("version", 0))
        await self.send(text_data=event["html"])

    async def table_revoked(self, event: dict) -> None:
        """The invitation changed: a page that came by the old one stops (one that came by
        the players' link, an ex-player's, goes on)."""
        if await database_sync_to_async(_code_serves)(self.table_id, self.code):
            return
        resync.unwatch(self)
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups = []
        await self.send(text_data=REVOKED_HTML)
        await self.close()
