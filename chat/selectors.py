"""Reads for the chat: its history (messages and the table's events, merged by time), the
line each table event shows, and what one viewer's chat column may offer them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from chat.models import ChatMessage, ChatMute, ChatSettings
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


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " y " + items[-1]


def event_text(event: TableEvent, seats: dict[int, Seat]) -> str | None:
    """The chat line for a table event, or None for the events the chat does not show."""
    if event.kind not in SHOWN_EVENTS:
        return None
    data = event.data

    def name_of(number: int | None) -> str:
        seat = seats.get(number) if number is not None else None
        # A seat's current name (a moderator may have changed an offensive one), unless the
        # seat was taken again by someone else after the event.
        if seat is not None and seat.created_at <= event.created_at:
            return seat.name
        return data.get("name") or "Alguien"

    who = name_of(event.seat)
    match event.kind:
        case "opened":
            return f"{who} abrió la mesa."
        case "seated":
            return f"{who} se sentó a la mesa."
        case "robot_added":
            return f"Se sumó {data.get('name', who)}, un robot."
        case "robot_removed":
            return f"Salió el robot {data.get('name', who)}."
        case "left":
            return f"{data.get('name', who)} se levantó de la mesa."
        case "abandoned":
            return f"{who} abandonó: un robot juega su lugar."
        case "host_changed":
            return f"Ahora {who} maneja la mesa."
        case "match_started":
            return "Empezó la partida."
        case "round_over":
            points = {int(n): p for n, p in data.get("points", {}).items()}
            blocked = "La mesa se bloqueó: " if data.get("blocked") else ""
            if data.get("scoring") == "penalty":
                added = ", ".join(f"{name_of(n)} +{p}" for n, p in sorted(points.items()) if p)
                return f"{blocked}Fin de la ronda. Puntos en contra: {added or 'ninguno'}."
            gained = {n: p for n, p in points.items() if p}
            if not gained:
                return "La ronda terminó sin puntos."
            best = max(gained.values())
            winners = _names([name_of(n) for n in sorted(gained) if gained[n] == best])
            verb = "ganan" if len(gained) > 1 else "ganó"
            return f"{blocked}{winners} {verb} la ronda con {best} puntos."
        case "match_over":
            winners = [name_of(n) for n in data.get("winners", [])]
            verb = "ganan" if len(winners) > 1 else "ganó"
            return f"¡{_names(winners)} {verb} la partida!" if winners else "Terminó la partida."
        case "rematch":
            return "¡Revancha! Nueva partida en la misma mesa."
        case "closed":
            return f"La moderación cerró la mesa: {data.get('reason', '')}"
        case "replaced_by_robot":
            return f"La moderación puso un robot en el lugar de {who}."
        case "renamed":
            return f"La moderación cambió un nombre: ahora es {data.get('new', who)}."
        case "timeout":
            return f"A {who} se le acabó el tiempo: un robot jugó su turno."
        case "away":
            return f"{who} no volvió en tres turnos: un robot juega por ahora."
        case "back":
            return f"{who} volvió a jugar."
        case "turn_limit":
            limit = dict(Table.TurnLimit.choices).get(data.get("seconds"), "")
            return f"Tiempo por turno: {limit.lower()}."
        case "archived":
            return "La mesa se archivó tras 30 días sin jugadas."
    return None


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


def is_muted(table: Table, *, seat_number: int | None, browser: str) -> bool:
    mutes = ChatMute.objects.filter(table=table)
    if seat_number is not None:
        return mutes.filter(seat_number=seat_number).exists()
    return bool(browser) and mutes.filter(browser=browser, seat_number=None).exists()


def gate_text(table: Table, *, spectator: bool) -> str:
    """Why this kind of viewer cannot write now ("" when they can)."""
    if table.status == Table.Status.CLOSED:
        return f"La mesa está cerrada: {table.closed_reason}"
    if table.status == Table.Status.ARCHIVED:
        return "La mesa está archivada: se puede leer, pero ya no escribir."
    if spectator and not spectators_can_write(table):
        return "Quien abrió la mesa apagó el chat para quienes miran."
    return ""


def column_context(
    table: Table, seat: Seat | None, *, browser: str, spectator_name: str
) -> dict[str, Any]:
    """What one viewer's chat column shows: the history, and what they may do in it."""
    seats = {s.number: s for s in table.seats.all()}
    gate = gate_text(table, spectator=seat is None)
    if not gate and is_muted(
        table, seat_number=seat.number if seat else None, browser=browser
    ):
        gate = "La moderación te silenció en el chat de esta mesa."
    return {
        "table": table,
        "lines": chat_history(table, seats),
        "seat": seat,
        "gate": gate,
        "is_host": seat is not None and seat.number == table.host_seat,
        "spectators_can_write": spectators_can_write(table),
        "spectator_name": spectator_name,
    }
