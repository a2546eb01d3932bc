"""The table's events told in the active language: a sentence for each event of the log that
is not a move (the chat's lines, "Mientras no estabas"), what happened while a page was away,
and the whole public log of the round in course."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext, pgettext

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
        return data.get("name") or _someone()

    who = name_of(event.seat)
    match event.kind:
        case "opened":
            return _("%(who)s abrió la mesa.") % {"who": who}
        case "seated":
            return _("%(who)s se sentó a la mesa.") % {"who": who}
        case "robot_added":
            return _("Se sumó %(robot)s, un robot.") % {"robot": data.get("name", who)}
        case "robot_removed":
            return _("Salió el robot %(robot)s.") % {"robot": data.get("name", who)}
        case "left":
            return _("%(who)s se levantó de la mesa.") % {"who": data.get("name", who)}
        case "abandoned":
            return _("%(who)s abandonó: un robot juega su lugar.") % {"who": who}
        case "host_changed":
            return _("Ahora %(who)s maneja la mesa.") % {"who": who}
        case "match_started":
            return _("Empezó la partida.")
        case "round_started":
            dealer = name_of(data.get("dealer"))
            return _("Empezó la ronda %(round)s: reparte %(dealer)s.") % {
                "round": data.get("round", ""), "dealer": dealer,
            }  # fmt: skip
        case "round_over":
            points = {int(n): p for n, p in data.get("points", {}).items()}
            blocked = bool(data.get("blocked"))
            if data.get("scoring") == "penalty":
                added = ", ".join(f"{name_of(n)} +{p}" for n, p in sorted(points.items()) if p)
                if not added:
                    if blocked:
                        return _("La mesa se bloqueó: Fin de la ronda. Puntos en contra: ninguno.")
                    return _("Fin de la ronda. Puntos en contra: ninguno.")
                if blocked:
                    said = _("La mesa se bloqueó: Fin de la ronda. Puntos en contra: %(added)s.")
                else:
                    said = _("Fin de la ronda. Puntos en contra: %(added)s.")
                return said % {"added": added}
            gained = {n: p for n, p in points.items() if p}
            if not gained:
                if blocked:
                    return _("La mesa se bloqueó: La ronda terminó sin puntos.")
                return _("La ronda terminó sin puntos.")
            best = max(gained.values())
            won = [n for n in sorted(gained) if gained[n] == best]
            args = {"best": best, "winners": wording.and_list(name_of(n) for n in won)}
            if list(gained) == [you]:
                if blocked:
                    said = ngettext(
                        "La mesa se bloqueó: Ganaste la ronda con %(best)s punto.",
                        "La mesa se bloqueó: Ganaste la ronda con %(best)s puntos.",
                        best,
                    )
                else:
                    said = ngettext(
                        "Ganaste la ronda con %(best)s punto.",
                        "Ganaste la ronda con %(best)s puntos.",
                        best,
                    )
            elif len(gained) > 1:
                if blocked:
                    said = ngettext(
                        "La mesa se bloqueó: %(winners)s ganan la ronda con %(best)s punto.",
                        "La mesa se bloqueó: %(winners)s ganan la ronda con %(best)s puntos.",
                        best,
                    )
                else:
                    said = ngettext(
                        "%(winners)s ganan la ronda con %(best)s punto.",
                        "%(winners)s ganan la ronda con %(best)s puntos.",
                        best,
                    )
            elif blocked:
                said = ngettext(
                    "La mesa se bloqueó: %(winners)s ganó la ronda con %(best)s punto.",
                    "La mesa se bloqueó: %(winners)s ganó la ronda con %(best)s puntos.",
                    best,
                )
            else:
                said = ngettext(
                    "%(winners)s ganó la ronda con %(best)s punto.",
                    "%(winners)s ganó la ronda con %(best)s puntos.",
                    best,
                )
            return said % args
        case "match_over":
            won = data.get("winners", [])
            if not won:
                return _("Terminó la partida.")
            if won == [you]:
                return _("¡Ganaste la partida!")
            winners = {"winners": wording.and_list(name_of(n) for n in won)}
            if len(won) > 1:
                return _("¡%(winners)s ganan la partida!") % winners
            return _("¡%(winners)s ganó la partida!") % winners
        case "rematch":
            return _("¡Revancha! Nueva partida en la misma mesa.")
        case "closed":
            return _("La moderación cerró la mesa: %(reason)s") % {
                "reason": data.get("reason", ""),
            }  # fmt: skip
        case "replaced_by_robot":
            return _("La moderación puso un robot en el lugar de %(who)s.") % {"who": who}
        case "renamed":
            return _("La moderación cambió un nombre: ahora es %(name)s.") % {
                "name": data.get("new", who),
            }  # fmt: skip
        case "timeout":
            return _("A %(who)s se le acabó el tiempo: un robot jugó su turno.") % {"who": who}
        case "away":
            return _("%(who)s no volvió en tres turnos: un robot juega por ahora.") % {
                "who": who,
            }  # fmt: skip
        case "back":
            return _("%(who)s volvió a jugar.") % {"who": who}
        case "turn_limit":
            limit = dict(Table.TurnLimit.choices).get(data.get("seconds"), "")
            return _("Tiempo por turno: %(limit)s.") % {"limit": str(limit).lower()}
        case "archived":
            return _("La mesa se archivó tras 30 días sin jugadas.")
    return None


def _names(table: Table, seats: dict[int, Seat]) -> Callable[[int], str]:
    """The name of an engine's player at the table: "Alguien" for one this match has not."""

    def name_of(player: int) -> str:
        seat = seats.get(table.seat_in_match(player))
        return seat.name if seat else _someone()

    return name_of


def _mover(table: Table, event: TableEvent) -> int:
    """The engine's player who made a logged move (the first, for a seat not in the match)."""
    player = table.player_of_seat(event.seat)
    return 0 if player is None else player


def _someone() -> str:
    """A player whose seat is gone."""
    return pgettext("a player nobody knows", "Alguien")


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
    "seated": _lazy("Te sentaste a la mesa."),
    "abandoned": _lazy("Abandonaste: un robot juega tu lugar."),
    "host_changed": _lazy("Ahora manejas tú la mesa."),
    "timeout": _lazy("Se te acabó el tiempo: un robot jugó tu turno."),
    "away": _lazy("No volviste en tres turnos: un robot juega por ti."),
    "back": _lazy("Volviste a jugar."),
    "replaced_by_robot": _lazy("La moderación puso un robot en tu lugar."),
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
            you = str(_SAID_TO_THE_SEAT.get(event.kind, "")) if seat is not None else ""
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
