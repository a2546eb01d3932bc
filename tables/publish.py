"""Push a table's new state to everyone watching it, rendered once per audience.

The public board is rendered once for every viewer; each seat's panel once, to that seat's
group only; the watchers' panel once, to the watchers' group. A browser joins the group of a
seat only after proving it (see `tables.consumers`).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.models import Table
from tables.render import render_board, render_panel
from tables.selectors import TableSnapshot, round_summary

FRAGMENT_EVENT = "table.fragment"


def send_fragment(group: str, html: str) -> None:
    """HTML for every page in `group`; their sockets forward it as it is."""
    async_to_sync(get_channel_layer().group_send)(group, {"type": FRAGMENT_EVENT, "html": html})


def _send(group: str, html: str) -> None:
    send_fragment(group, html)


def table_publish(table_id: int) -> None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    snapshot = TableSnapshot.load(table)
    summary = round_summary(snapshot)
    _send(table.group_name, render_board(snapshot))
    _send(table.watchers_group_name, render_panel(snapshot, None, summary))
    for number, seat in snapshot.seats.items():
        if seat.is_robot:
            continue
        # A seat whose person left gets the watchers' panel: nobody can prove it any more.
        shown = None if seat.abandoned else seat
        _send(table.seat_group_name(number), render_panel(snapshot, shown, summary))


def table_revoke_watchers(table_id: int) -> None:
    """The invitation link changed: the watchers who came by the old one stop watching."""
    table = Table.objects.filter(pk=table_id).first()
    if table is not None:
        async_to_sync(get_channel_layer().group_send)(
            table.watchers_group_name, {"type": "table.revoked"}
        )
