"""The table's websocket: one per page, thin, and asynchronous where it is busy.

On connect the viewer proves their seat (from the session) and joins the table's public group
(chat messages) and either their seat's group or the watchers' group; then they get the whole
current table, so a dropped connection or a restart never leaves a stale page. After that the
consumer forwards the frames `tables.publish` rendered for its groups, as they are.

Forwarding is most of what a consumer does (every viewer, every move), so it runs on the event
loop without a thread hop (measured: a synchronous consumer spent a thread hop per frame);
the database work of connecting and leaving runs in a thread.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tables import resync
from tables.identity import proven_seat
from tables.models import Table
from tables.page_parts import greeting_parts_html
from tables.presence import presence_join, presence_leave
from tables.publish import FRAGMENT_EVENT, viewer_html
from tables.selectors import table_by_code

REVOKED_HTML = (
    '<div id="notice" hx-swap-oob="true" class="notice" role="alert">'
    "Este enlace de invitación ya no sirve: pide uno nuevo a quien abrió la mesa.</div>"
)


def _viewer(code: str, session) -> tuple[Table, int | None] | None:
    """The table `code` leads to (its invitation or its players' code) and the seat this
    browser proves there (None: a watcher)."""
    table = table_by_code(code)
    if table is None:
        return None
    seat = proven_seat(session, table, table.seats.all())
    return table, seat.number if seat else None


def _code_serves(table_id: int, code: str) -> bool:
    """Whether `code` still leads to the table (the invitation may have changed)."""
    table = table_by_code(code)
    return table is not None and table.pk == table_id


def _greeting(table: Table, seat_number: int | None, channel_name: str) -> tuple[int, str]:
    """Presence, and the whole current table for this viewer (and what other apps add, as the
    chat's log): (version, html)."""
    presence_join(table=table, seat_number=seat_number, channel_name=channel_name)
    version, html = viewer_html(table.pk, seat_number)
    return version, html + greeting_parts_html(table)


class TableConsumer(AsyncWebsocketConsumer):
    groups: list[str]

    async def connect(self) -> None:
        self.groups = []
        self.table_id = None
        self.code = self.scope["url_route"]["kwargs"]["code"]
        viewer = await database_sync_to_async(_viewer)(self.code, self.scope["session"])
        if viewer is None:
            await self.close(code=4404)
            return
        table, self.seat_number = viewer
        self.table_id = table.pk
        audience = (
            table.watchers_group_name if self.seat_number is None
            else table.seat_group_name(self.seat_number)
        )
        self.groups = [table.group_name, audience]
        # Join first, then read: a change committed meanwhile is either in the greeting or
        # pushed after it (the page drops an older frame).
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.version, html = await database_sync_to_async(_greeting)(
            table, self.seat_number, self.channel_name
        )
        resync.watch(self)
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        resync.unwatch(self)
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.table_id is not None:
            await database_sync_to_async(presence_leave)(channel_name=self.channel_name)

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections in a thread before every message; a
        # frame touches no database, so it skips that thread hop (six or more per move).
        if message["type"] == FRAGMENT_EVENT:
            await self.table_fragment(message)
        else:
            await super().dispatch(message)

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
