"""The table's events told in Spanish: a sentence for each event of the log that is not a move
(the chat's lines, "Mientras no estabas"), what happened while a page was away, and the whole
public log of the round in course."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import ngettext

import ocholoco
from tables.audiences import wording
from tables.models import Seat, Table, TableEvent
from tables.state.snapshot import TableSnapshot


def event_text(event: TableEvent, seats: dict[int, Seat]) -> str | None:
    """One sentence for a table event that is not a move (the chat's lines, and "Mientras no
    estabas"), or None for the events that tell nobody anything (a link renewed...)."""
    return _event_text(event, seats, you=None)


def _event_text(event: TableEvent, seats: dict[int, Seat], you: int | None) -> str | None:
    """`event_text`; a round or a match won by seat `you` said to that seat ("Ganaste la
    ronda con 12 puntos.")."""
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
        case "round_started":
            dealer = name_of(data.get("dealer"))
            return f"Empezó la ronda {data.get('round', '')}: reparte {dealer}."
        case "round_over":
            points = {int(n): p for n, p in data.get("points", {}).items()}
            blocked = "La mesa se bloqueó: " if data.get("blocked") else ""
            if data.get("scoring") == "penalty":
                added = ", ".join(f"{name_of(n)} +{p}" for n, p in sorted(points.items()) if p)
                return f"{blocked}Fin de la ronda. Puntos en contra: {added or 'ninguno'}."
            gained = {n: p for n, p in points.items() if p}
            if not gained:
                return f"{blocked}La ronda terminó sin puntos."
            best = max(gained.values())
            won = [n for n in sorted(gained) if gained[n] == best]
            if list(gained) == [you]:
                said = ngettext(
                    "Ganaste la ronda con %(best)s punto.",
                    "Ganaste la ronda con %(best)s puntos.",
                    best,
                ) % {"best": best}
            else:
                winners = wording.and_list(name_of(n) for n in won)
                verb = "ganan" if len(gained) > 1 else "ganó"
                said = f"{winners} {verb} la ronda con {best} punto{'s' if best != 1 else ''}."
            return f"{blocked}{said}"
        case "match_over":
            won = data.get("winners", [])
            verb = "ganan" if len(won) > 1 else "ganó"
            if not won:
                return "Terminó la partida."
            if won == [you]:
                return "¡Ganaste la partida!"
            return f"¡{wording.and_list(name_of(n) for n in won)} {verb} la partida!"
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


def _names(table: Table, seats: dict[int, Seat]) -> Callable[[int], str]:
    """The name of an engine's player at the table: "Alguien" for one this match has not."""

    def name_of(player: int) -> str:
        seat = seats.get(table.seat_in_match(player))
        return seat.name if seat else "Alguien"

    return name_of


def _mover(table: Table, event: TableEvent) -> int:
    """The engine's player who made a logged move (the first, for a seat not in the match)."""
    player = table.player_of_seat(event.seat)
    return 0 if player is None else player


def _move_events(event: TableEvent, player: int) -> list[ocholoco.Event]:
    """The public events a logged move caused (a penalty's count, a skip, the last card...).
    A move logged before moves kept them is told as the move alone."""
    if "events" in event.data:
        return [ocholoco.event_from_json(e) for e in event.data["events"]]
    move = ocholoco.parse_move(event.data.get("move", ""))
    if isinstance(move, ocholoco.Play):
        return [ocholoco.Event("play", player, move.card, move.suit)]
    return [ocholoco.Event("draw" if isinstance(move, ocholoco.Draw) else "pass", player, count=1)]


def away_summary(table: Table, since_version: int, limit: int = 12) -> list[str]:
    """'Mientras no estabas': what happened at the table after `since_version`, from its log,
    one sentence each. Consecutive draws by one player read as one ("Ana robó 3 cartas")."""
    seats = {s.number: s for s in table.seats.all()}
    name_of = _names(table, seats)
    lines: list[str] = []
    drawing: list[int] = []  # [player, count] of the draws in course

    def flush() -> None:
        if drawing:
            player, count = drawing
            lines.append(wording.draws_sentence(name_of(player), count))
            drawing.clear()

    for event in table.events.filter(version__gt=since_version).order_by("id"):
        if event.kind != "move":
            text = event_text(event, seats)
            if text:
                flush()
                lines.append(text.rstrip("."))
            continue
        for told in _move_events(event, _mover(table, event)):
            if told.kind == "draw":
                if drawing and drawing[0] == told.player:
                    drawing[1] += 1
                else:
                    flush()
                    drawing.extend([told.player, 1])
                continue
            flush()
            lines.append(wording.event_sentence(told, name_of))
    flush()
    if len(lines) > limit:
        return ["…", *lines[-limit:]]
    return lines


def round_log(snapshot: TableSnapshot) -> list[str]:
    """Every public event of the round in course (or just ended), oldest first."""
    if snapshot.round is None:
        return []
    return [
        wording.event_sentence(event, lambda player: snapshot.seat_of_player(player).name)
        for event in snapshot.round.history
    ]


# --- The game log, as each viewer hears it ---------------------------------------------------
# Every event of the table becomes lines of the page's game log (a `role="log"` region): each
# line with the seat whose it is and, for that seat's own page, the line said to them.

# Non-move events said to the seat they are about.
_SAID_TO_THE_SEAT = {
    "seated": "Te sentaste a la mesa.",
    "abandoned": "Abandonaste: un robot juega tu lugar.",
    "host_changed": "Ahora manejas tú la mesa.",
    "timeout": "Se te acabó el tiempo: un robot jugó tu turno.",
    "away": "No volviste en tres turnos: un robot juega por ti.",
    "back": "Volviste a jugar.",
    "replaced_by_robot": "La moderación puso un robot en tu lugar.",
}


def log_lines(
    events: Iterable[TableEvent], snapshot: TableSnapshot
) -> list[dict[str, Any]]:
    """The game log's lines for `events` (oldest first), each a dict: `key` (unique and
    increasing within the table), `version`, `seat` (whose line it is, or None), `text` (as
    everyone hears it) and `you` (as that seat hears it, or "")."""
    seats, table = snapshot.seats, snapshot.table
    players = len(table.seats_in_play())
    rules = snapshot.match.rules if snapshot.match is not None else None
    name_of = _names(table, seats)
    lines: list[dict[str, Any]] = []
    events = list(events)
    # The round in course is the one the last "round_started" of these events started.
    starts = [e for e in events if e.kind == "round_started"]
    opening = starts[-1] if starts and snapshot.round is not None else None

    told_of: dict[int, int] = {}  # lines told so far of each event

    def add(event: TableEvent, seat: int | None, text: str, you: str = "") -> None:
        n = told_of[event.pk] = told_of.get(event.pk, -1) + 1
        lines.append({
            "key": f"{event.pk}.{n}", "version": event.version, "seat": seat,
            "text": text, "you": you,
        })

    for event in events:
        if event.kind == "move":
            for told in _move_events(event, _mover(table, event)):
                seat = table.seat_in_match(told.player)
                reverses = (
                    told.kind == "play"
                    and rules is not None
                    and rules.reverses(told.card.rank, players)
                )
                text = wording.event_sentence(told, name_of, reverses=reverses)
                you = wording.event_sentence(told, name_of, told.player, reverses=reverses)
                add(event, seat, text + ".", you + "." if you != text else "")
            continue
        text = event_text(event, seats)
        if text:
            seat = event.seat
            you = _SAID_TO_THE_SEAT.get(event.kind, "") if seat is not None else ""
            if event.kind in ("round_over", "match_over"):
                seat = _winner(event, seats)
                you = _event_text(event, seats, you=seat) if seat is not None else ""
            add(event, seat, text, you)
        if event is opening:
            # The card that opens the pile (and any 8 turned back into the stock).
            for told in snapshot.round.history:
                if told.kind not in ("open", "back"):
                    break
                add(event, None, wording.event_sentence(told, name_of) + ".")
    return lines


def _winner(event: TableEvent, seats: dict[int, Seat]) -> int | None:
    """The seat that alone won a match, or alone scored in a round (not scored by penalty),
    if the same person still holds it."""
    data = event.data
    if event.kind == "match_over":
        winners = data.get("winners", [])
    elif data.get("scoring") == "penalty":
        return None
    else:
        winners = [int(n) for n, p in data.get("points", {}).items() if p]
    seat = seats.get(winners[0]) if len(winners) == 1 else None
    if seat is None or seat.created_at > event.created_at:
        return None
    return seat.number


def table_log_lines(table: Table, since_version: int, limit: int = 300) -> list[dict[str, Any]]:
    """The game log's lines of every event after `since_version` (at most the last `limit`),
    read from the table's log: what a page that missed some versions has not heard."""
    events = list(
        table.events.filter(version__gt=since_version).order_by("-id")[:limit]
    )[::-1]
    return log_lines(events, TableSnapshot.load(table))
