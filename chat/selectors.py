"""Reads for the chat: its history (messages and the table's events, merged by time), the
line each table event shows, and what one viewer's chat column may offer them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from chat.models import ChatMessage, ChatMute, ChatSettings
from tables.audiences.narration import event_text as table_event_text
from tables.models import Seat, Table, TableEvent

HISTORY_LIMIT = 200
# The table events the chat shows, in a quieter style (moves and deals are the board's).
SHOWN_EVENTS = {
    "opened", "seated", "robot_added", "robot_removed", "left", "abandoned", "host_changed",
    "match_started", "round_over", "match_over", "rematch", "closed", "replaced_by_robot",
    "renamed", "timeout", "away", "back", "turn_limit", "archived",
}  # fmt: skip


@dataclass
class Line:
    """One line of the chat: a message (`message`) or a table event (`text`)."""

    id: str
    at: datetime
    message: ChatMessage | None = None
    text: str = ""


def event_text(event: TableEvent, seats: dict[int, Seat]) -> str | None:
    """The chat line for a table event, or None for the events the chat does not show."""
    return table_event_text(event, seats) if event.kind in SHOWN_EVENTS else None


def event_lines(events: Iterable[TableEvent], seats: dict[int, Seat]) -> list[Line]:
    lines = []
    for event in events:
        text = event_text(event, seats)
        if text is not None:
            lines.append(Line(id=f"chat-ev-{event.pk}", at=event.created_at, text=text))
    return lines


def message_line(message: ChatMessage) -> Line:
    return Line(id=f"chat-msg-{message.pk}", at=message.created_at, message=message)


def chat_history(table: Table, seats: dict[int, Seat] | None = None) -> list[Line]:
    """The latest messages (hidden ones too: they show as empty placeholders) and the events
    of the same period, oldest first."""
    if seats is None:
        seats = {s.number: s for s in table.seats.all()}
    messages = list(ChatMessage.objects.filter(table=table)[:HISTORY_LIMIT])
    events = TableEvent.objects.filter(table=table, kind__in=SHOWN_EVENTS)
    if len(messages) == HISTORY_LIMIT:
        events = events.filter(created_at__gte=messages[-1].created_at)
    lines = [message_line(m) for m in messages] + event_lines(events, seats)
    return sorted(lines, key=lambda line: line.at)


def spectators_can_write(table: Table) -> bool:
    chat_settings = ChatSettings.objects.filter(table=table).first()
    return chat_settings is None or chat_settings.spectators_can_write


def is_muted(table: Table, *, seat_number: int | None, address_key: str) -> bool:
    mutes = ChatMute.objects.filter(table=table)
    if seat_number is not None:
        return mutes.filter(seat_number=seat_number).exists()
    return bool(address_key) and mutes.filter(address=address_key, seat_number=None).exists()


def gate_text(table: Table, *, spectator: bool) -> str:
    """Why this kind of viewer cannot write now ("" when they can)."""
    if table.status == Table.Status.CLOSED:
        return _("La mesa está cerrada: %(reason)s") % {"reason": table.closed_reason}
    if table.status == Table.Status.ARCHIVED:
        return _("La mesa está archivada: se puede leer, pero ya no escribir.")
    if spectator and not spectators_can_write(table):
        return _("Quien abrió la mesa apagó el chat para quienes miran.")
    return ""


def column_context(
    table: Table, seat: Seat | None, *, address_key: str, spectator_name: str
) -> dict[str, Any]:
    """What one viewer's chat column shows: the history, and what they may do in it."""
    seats = {s.number: s for s in table.seats.all()}
    gate = gate_text(table, spectator=seat is None)
    if not gate and is_muted(
        table, seat_number=seat.number if seat else None, address_key=address_key
    ):
        gate = _("La moderación te silenció en el chat de esta mesa.")
    return {
        "table": table,
        "lines": chat_history(table, seats),
        "seat": seat,
        "gate": gate,
        "is_host": seat is not None and seat.number == table.host_seat,
        "spectators_can_write": spectators_can_write(table),
        "spectator_name": spectator_name,
    }
