"""The table's websocket: one per page, thin and synchronous.

On connect the viewer proves their seat (from the session) and joins the table's public group
and either their seat's group or the watchers' group; then they get the whole current table,
so a dropped connection or a restart never leaves a stale page. After that the consumer only
forwards the fragments `tables.publish` rendered for its groups.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from chat.publish import render_log
from chat.services import presence_join, presence_leave
from tables.identity import proven_seat
from tables.models import Table
from tables.render import render_for_viewer
from tables.selectors import TableSnapshot

REVOKED_HTML = (
    '<div id="notice" hx-swap-oob="true" class="notice" role="alert">'
    "Este enlace de invitación ya no sirve: pide uno nuevo a quien abrió la mesa.</div>"
)


class TableConsumer(WebsocketConsumer):
    groups: list[str]

    def connect(self) -> None:
        self.groups = []
        code = self.scope["url_route"]["kwargs"]["code"]
        table = Table.objects.filter(code=code).first()
        if table is None:
            self.close(code=4404)
            return
        snapshot = TableSnapshot.load(table)
        seat = proven_seat(self.scope["session"], table, snapshot.seats.values())
        self.groups = [
            table.group_name,
            table.seat_group_name(seat.number) if seat else table.watchers_group_name,
        ]
        for group in self.groups:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.accept()
        presence_join(table=table, seat=seat, channel_name=self.channel_name)
        self.send(text_data=render_for_viewer(snapshot, seat) + render_log(table))

    def disconnect(self, code: int) -> None:
        presence_leave(channel_name=self.channel_name)
        for group in self.groups:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Moves arrive by HTTP POST (DESIGN.md); the socket only pushes.
        pass

    def table_fragment(self, event: dict) -> None:
        self.send(text_data=event["html"])

    def table_revoked(self, event: dict) -> None:
        self.send(text_data=REVOKED_HTML)
        self.close()
