"""Every change to a table: one function per change, each a complete unit of work.

Each service locks the table row (`select_for_update`) for its whole transaction, checks who
is acting and what they ask for, applies it (the rules come from `ocholoco`), saves the new
snapshots, appends the events to the table's log, bumps the table's version and hands the
changed table to `tables.dispatch`, the one place that says what follows (a robot's next turn,
alerts, the pushes once committed). This module knows no listener.

A request that cannot be honoured raises `TableError` with a message in Spanish for the
player; the transaction rolls back, so nothing changes.
"""

from __future__ import annotations

import copy
import random
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction

import ocholoco
from tables import clock
from tables.dispatch import table_changed
from tables.models import Seat, Table, TableEvent, TableRound, hash_secret
from tables.publish import table_revoke_watchers
from tables.snapshot import AppliedChange, TableSnapshot

NAME_MAX = 24
MODERATION_REASON_MAX = 200
ROBOT_NAMES = ["Robotina", "Chispa", "Tuerca", "Pixel", "Bit", "Cobre", "Dínamo", "Voltio"]


class TableError(Exception):
    """A request the table refuses; the message is for the player, in Spanish."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Change:
    """What one service call does to its locked table, collected and then saved at once.

    The game state is decoded once, when the table is locked; a service that changes it sets
    `round` / `match` (and the table's JSON) so that nothing is decoded twice.
    """

    table: Table
    seats: dict[int, Seat]
    round: ocholoco.Round | None = None
    match: ocholoco.Match | None = None
    events: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)

    def log(self, kind: str, seat: int | None = None, **data: Any) -> None:
        self.events.append((kind, seat, data))

    def turn_key(self) -> tuple[str, int | None]:
        """Whose turn it is, as far as the turn limit is concerned (status, seat to move)."""
        table = self.table
        if table.status != Table.Status.PLAYING or self.round is None:
            return (table.status, None)
        return (table.status, table.match_seats[self.round.turn])


@contextmanager
def _changing(table_id: int) -> Iterator[Change]:
    """Lock the table, let the caller change it, then save, log and dispatch what follows.

    Locks the table's row (`select_for_update`) for the whole transaction.
    """
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            raise TableError("Esa mesa no existe.") from None
        if table.status == Table.Status.CLOSED:
            raise TableError("Esta mesa está cerrada.")
        if table.status == Table.Status.ARCHIVED:
            raise TableError("Esta mesa está archivada: se puede mirar, pero ya no se juega.")
        snapshot = TableSnapshot.load(table)
        change = Change(
            table=table, seats=snapshot.seats, round=snapshot.round, match=snapshot.match
        )
        before = _field_values(table)
        turn_before = change.turn_key()
        yield change
        if not change.events:
            return
        turn_after = change.turn_key()
        if turn_after != turn_before or not table.turn_deadline:
            _set_turn_deadline(change)
        table.version += 1
        # Only what the change changed is written (a move: the round, the version, the times).
        now = _field_values(table)
        table.save(update_fields=[name for name, value in now.items() if value != before[name]])
        events = TableEvent.objects.bulk_create(
            TableEvent(table=table, version=table.version, kind=kind, seat=seat, data=data)
            for kind, seat, data in change.events
        )
        # The turn just passed to a person: they may need an alert (one per turn).
        turn_passed_to = turn_after[1] if turn_after != turn_before else None
        table_changed(
            AppliedChange(
                snapshot=TableSnapshot(
                    table=table, seats=change.seats, round=change.round, match=change.match
                ),
                events=events,
                turn_passed_to=turn_passed_to,
            )
        )


def _field_values(table: Table) -> dict[str, Any]:
    """The table's stored fields as they are now (`updated_at` always counts as changed). A
    service replaces a JSON value (`round_state = to_json(...)`), never edits it in place."""
    values = {
        field.attname: copy.copy(getattr(table, field.attname))
        for field in Table._meta.concrete_fields
        if not field.primary_key
    }
    values["updated_at"] = object()
    return values


def _set_turn_deadline(change: Change) -> None:
    """A new turn for a person starts their time; robots and other states have none."""
    table = change.table
    _, number = change.turn_key()
    person = number is not None and not change.seats[number].plays_as_robot
    table.turn_deadline = (
        clock.now() + timedelta(seconds=table.turn_limit)
        if person and table.turn_limit
        else None
    )


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise TableError("Escribe tu nombre.")
    if len(name) > NAME_MAX:
        raise TableError(f"El nombre puede tener hasta {NAME_MAX} caracteres.")
    return name


def _rules(key: str) -> ocholoco.RuleSet:
    try:
        return ocholoco.PRESETS[key]
    except KeyError:
        raise TableError("Esas reglas no existen.") from None


def _acting_seat(change: Change, secret: str | None) -> Seat:
    """The seat this browser proves with its secret, or a refusal."""
    if secret:
        for seat in change.seats.values():
            if seat.secret_matches(secret):
                return seat
    raise TableError("No tienes un lugar en esta mesa.")


def _acting_host(change: Change, secret: str | None) -> Seat:
    seat = _acting_seat(change, secret)
    if seat.number != change.table.host_seat:
        raise TableError("Solo quien abrió la mesa puede hacer eso.")
    return seat


def _check_version(change: Change, version: int | None) -> None:
    if version is not None and version > change.table.version:
        raise TableError("Esa versión de la mesa no existe. Recarga la página y vuelve a probar.")
    if version is not None and version != change.table.version:
        raise TableError("La mesa cambió mientras elegías. Mira de nuevo y vuelve a intentarlo.")


def _free_number(change: Change) -> int:
    for number in range(change.table.seat_count):
        if number not in change.seats:
            return number
    raise TableError("La mesa está completa.")


def _check_name_free(change: Change, name: str) -> None:
    if any(s.name.casefold() == name.casefold() for s in change.seats.values()):
        raise TableError("Ya hay alguien con ese nombre en la mesa.")


def _new_secret() -> tuple[str, str]:
    secret = secrets.token_urlsafe(24)
    return secret, hash_secret(secret)


# --- Opening and seating -------------------------------------------------------------------


def _turn_limit(seconds: int | None) -> int:
    if seconds not in Table.TurnLimit.values:
        raise TableError("Ese límite de tiempo no existe.")
    return seconds


def house_rules(options: dict[str, Any]) -> ocholoco.RuleSet:
    """'Reglas de la casa': a rule set from the form's options, or a refusal in Spanish."""
    try:
        return ocholoco.ruleset_from_options(options)
    except ocholoco.InvalidRules as invalid:
        raise TableError(f"Esas reglas no se pueden jugar: {invalid}") from None


def table_open(
    *,
    rules_key: str,
    host_name: str,
    turn_limit: int = 0,
    custom_rules: dict[str, Any] | None = None,
) -> tuple[Table, str]:
    """ABRIR MESA: a new table with its host in seat 0. Returns the table and the seat secret.

    `rules_key` names a preset; with `custom_rules` (house rules) it is the custom set's key.
    """
    rules = house_rules(custom_rules) if custom_rules is not None else _rules(rules_key)
    name = _clean_name(host_name)
    turn_limit = _turn_limit(turn_limit)
    secret, secret_hash = _new_secret()
    with transaction.atomic():
        table = Table.objects.create(
            rules_key=rules.key, host_seat=0, version=1, turn_limit=turn_limit,
            rules_custom=ocholoco.rules_to_json(rules) if custom_rules is not None else None,
        )
        Seat.objects.create(table=table, number=0, name=name, secret_hash=secret_hash)
        TableEvent.objects.create(
            table=table, version=1, kind="opened", seat=0, data={"name": name, "rules": rules.key}
        )
    return table, secret


def seat_claim(
    *, table_id: int, name: str, secret: str | None = None, invitation: str | None = None
) -> tuple[Seat, str]:
    """A visitor with the link takes the first free seat before the match starts.

    `invitation` is the code the visitor came by: only the table's current invitation seats
    anyone (checked under the lock, so a link renewed a moment ago seats nobody)."""
    name = _clean_name(name)
    with _changing(table_id) as change:
        if secret and any(s.secret_matches(secret) for s in change.seats.values()):
            raise TableError("Ya tienes un lugar en esta mesa.")
        if change.table.status != Table.Status.LOBBY:
            raise TableError("La partida ya empezó: puedes mirarla.")
        if invitation is not None and invitation != change.table.code:
            raise TableError(
                "Para sentarte hace falta el enlace de invitación: pídeselo a quien abrió la mesa."
            )
        _check_name_free(change, name)
        number = _free_number(change)
        new_secret, secret_hash = _new_secret()
        seat = change.seats[number] = Seat.objects.create(
            table=change.table, number=number, name=name, secret_hash=secret_hash
        )
        change.log("seated", number, name=name)
    return seat, new_secret


def seat_add_robot(
    *, table_id: int, secret: str | None, level: str = Seat.Level.NORMAL, number: int | None = None
) -> Seat:
    """AGREGAR ROBOT: the host puts a robot in a free seat before the match starts."""
    if level not in Seat.Level.values:
        raise TableError("Ese nivel de robot no existe.")
    with _changing(table_id) as change:
        _acting_host(change, secret)
        if change.table.status != Table.Status.LOBBY:
            raise TableError("Los robots se agregan antes de empezar la partida.")
        if number is None:
            number = _free_number(change)
        elif not 0 <= number < change.table.seat_count:
            raise TableError("Ese lugar no existe.")
        elif number in change.seats:
            raise TableError("Ese lugar ya está ocupado.")
        taken = {s.name for s in change.seats.values()}
        name = next((n for n in ROBOT_NAMES if n not in taken), f"Robot {number + 1}")
        seat = change.seats[number] = Seat.objects.create(
            table=change.table, number=number, name=name, kind=Seat.Kind.ROBOT, robot_level=level
        )
        change.log("robot_added", number, name=name, level=level)
    return seat


def seat_remove_robot(*, table_id: int, secret: str | None, number: int) -> None:
    """The host takes a robot out of its seat before the match starts."""
    with _changing(table_id) as change:
        _acting_host(change, secret)
        if change.table.status != Table.Status.LOBBY:
            raise TableError("La partida ya empezó.")
        seat = change.seats.get(number)
        if seat is None or not seat.is_robot:
            raise TableError("En ese lugar no hay un robot.")
        seat.delete()
        del change.seats[number]
        change.log("robot_removed", number, name=seat.name)


def table_renew_link(*, table_id: int, secret: str | None) -> Table:
    """The host makes a fresh invitation link; the old one stops working."""
    with _changing(table_id) as change:
        _acting_host(change, secret)
        change.table.code = Table._meta.get_field("code").default()
        change.log("link_renewed")
        table_id = change.table.pk
        transaction.on_commit(lambda: table_revoke_watchers(table_id))
    return change.table


def seat_reclaim(*, secret: str) -> Seat:
    """'Volver a mi lugar': find the seat a private link's secret belongs to."""
    seat = Seat.objects.select_related("table").filter(secret_hash=hash_secret(secret)).first()
    if seat is None or not secret:
        raise TableError("Ese enlace no corresponde a ningún lugar.")
    return seat


# --- The match -----------------------------------------------------------------------------


def _deal(change: Change, match: ocholoco.Match) -> None:
    """Deal the match's current round from a new committed deal (one SHA-256 per deal)."""
    table = change.table
    deal = ocholoco.shuffled_deal(match.rules, match.players, random.SystemRandom())
    state = match.deal(deck=deal.deck, salt=deal.salt)
    change.round, change.match = state, match
    _round_record(change, match, deal)
    table.round_state = ocholoco.to_json(state)
    table.match_state = ocholoco.to_json(match)
    table.status = Table.Status.PLAYING
    change.log(
        "round_started", None, round=match.round_number, dealer=table.match_seats[match.dealer]
    )


def _round_record(change: Change, match: ocholoco.Match, deal: ocholoco.Deal) -> None:
    """Keep the deal (its reveal secret until the round ends) and show its commitment."""
    table = change.table
    last = table.rounds.order_by("-id").values_list("match_number", flat=True).first() or 0
    table.deal_commitment = deal.commitment
    TableRound.objects.create(
        table=table, match_number=last + 1 if match.round_number == 1 else max(last, 1),
        number=match.round_number, seats=list(table.match_seats), dealer=match.dealer,
        reveal=deal.reveal, commitment=table.deal_commitment, start_version=table.version,
    )


def _round_over(
    change: Change, *, winners: list[int], points: dict[str, int], blocked: bool
) -> None:
    """The round's record says how it ended; from now on its reveal and replay are shown."""
    # Rounds are dealt one after the other: only the last one can be unfinished.
    change.table.rounds.filter(finished=False).update(
        finished=True, winners=winners, points=points, blocked=blocked
    )


def match_start(*, table_id: int, secret: str | None, version: int | None = None) -> None:
    """EMPEZAR LA PARTIDA: the host starts with whoever is seated; empty seats are left out."""
    with _changing(table_id) as change:
        _acting_host(change, secret)
        _check_version(change, version)
        table = change.table
        if table.status != Table.Status.LOBBY:
            raise TableError("La partida ya empezó.")
        numbers = sorted(change.seats)
        rules = table.rules
        if len(numbers) < max(2, rules.min_players):
            raise TableError("Hacen falta al menos dos jugadores para empezar.")
        table.match_seats = numbers
        match = ocholoco.new_match(rules, len(numbers))
        change.log("match_started", None, seats=numbers)
        _deal(change, match)


def round_next(*, table_id: int, secret: str | None, version: int | None = None) -> None:
    """SIGUIENTE RONDA: any seated person deals the next round after one ended."""
    with _changing(table_id) as change:
        _acting_seat(change, secret)
        _check_version(change, version)
        if change.table.status != Table.Status.ROUND_OVER:
            raise TableError("La ronda todavía no terminó.")
        _deal(change, change.match)


def match_rematch(*, table_id: int, secret: str | None, version: int | None = None) -> None:
    """REVANCHA: the same table and seats play a new match, scores back at 0."""
    with _changing(table_id) as change:
        _acting_seat(change, secret)
        _check_version(change, version)
        if change.table.status != Table.Status.MATCH_OVER:
            raise TableError("La partida todavía no terminó.")
        change.log("rematch", None)
        _deal(change, change.match.rematch())


def _apply(change: Change, seat: Seat, move: ocholoco.Move, **extra: Any) -> None:
    """Apply a move for `seat` to the locked table, and end the round when it ends."""
    table, state = change.table, change.round
    if table.status != Table.Status.PLAYING:
        raise TableError("No hay una ronda en juego.")
    if seat.number not in table.match_seats:
        raise TableError("No juegas en esta partida.")
    player = table.match_seats.index(seat.number)
    if state.turn != player:
        raise TableError("No es tu turno.")
    try:
        new_state = ocholoco.apply_move(state, move)
    except ocholoco.IllegalMove as illegal:
        raise TableError(str(illegal)) from None
    change.round = new_state
    table.last_move_at = clock.now()
    # What the move did, as the public events it added (a penalty's count, a skip, a
    # reshuffle...): what "Mientras no estabas" tells.
    said = [ocholoco.event_to_json(e) for e in ocholoco.events_between(state, new_state)]
    change.log("move", seat.number, move=ocholoco.move_to_str(move), events=said, **extra)
    if new_state.finished:
        match = change.match = change.match.apply_round(new_state)
        table.match_state = ocholoco.to_json(match)
        table.status = Table.Status.MATCH_OVER if match.finished else Table.Status.ROUND_OVER
        seats = table.match_seats
        points = {str(seats[p]): new_state.round_points[p] for p in range(match.players)}
        winners = [seats[p] for p in new_state.winners]
        _round_over(change, winners=winners, points=points, blocked=new_state.blocked)
        change.log(
            "round_over", None, points=points, blocked=new_state.blocked, winners=winners,
            scoring=match.rules.scoring,
        )
        if match.finished:
            change.log("match_over", None, winners=[table.match_seats[p] for p in match.winners])


def _save_round(change: Change) -> None:
    """The round as the moves left it, encoded once after all of them."""
    change.table.round_state = ocholoco.to_json(change.round)


def table_play_move(
    *, table_id: int, secret: str | None, move: str, version: int | None
) -> None:
    """A person's move (play a card, draw, take the penalty, pass) against the version seen."""
    try:
        parsed = ocholoco.parse_move(move)
    except (ValueError, KeyError):
        raise TableError("Esa jugada no existe.") from None
    with _changing(table_id) as change:
        seat = _acting_seat(change, secret)
        if seat.abandoned:
            raise TableError("Dejaste esta partida: un robot juega tu lugar.")
        if seat.away:
            raise TableError("Un robot juega tu lugar: toca VOLVER A JUGAR para seguir tú.")
        _check_version(change, version)
        _apply(change, seat, parsed)
        _save_round(change)
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0
            seat.save()


def turn_play_for(
    *, table_id: int, version: int, moves: Sequence[ocholoco.Move], timeout: bool = False
) -> bool:
    """Moves a robot decided, outside the lock, on the table as it was at `version`.

    A robot's seat makes one move. For a person whose time ran out (`timeout`), a robot plays
    their whole turn (marked in the log); after three such turns in a row the robot keeps the
    seat until the person takes it back. A duplicate or late call (another worker played it,
    someone moved, the time was given back) changes nothing. Returns whether it played.
    """
    try:
        with _changing(table_id) as change:
            table = change.table
            if table.version != version or table.status != Table.Status.PLAYING:
                return False
            seat = change.seats[table.match_seats[change.round.turn]]
            if timeout:
                if seat.plays_as_robot or not table.turn_deadline:
                    return False
                if clock.now() < table.turn_deadline:
                    return False
                change.log("timeout", seat.number, name=seat.name)
            elif not seat.plays_as_robot:
                return False
            for move in moves:
                if timeout:
                    _apply(change, seat, move, by="timeout")
                else:
                    _apply(change, seat, move, robot=True)
            _save_round(change)
            if timeout:
                seat.timeouts_in_row += 1
                if seat.timeouts_in_row >= 3:
                    seat.away = True
                    change.log("away", seat.number, name=seat.name)
                seat.save()
    except TableError:
        return False
    return True


def round_deal_for_robots(*, table_id: int, version: int) -> bool:
    """Robots play on: at a table where only robots are left, deal the round that follows."""
    with _changing(table_id) as change:
        table = change.table
        if table.version != version or table.status != Table.Status.ROUND_OVER:
            return False
        if not all(change.seats[n].plays_as_robot for n in table.match_seats):
            return False
        _deal(change, change.match)
    return True


def seat_come_back(*, table_id: int, secret: str | None) -> None:
    """VOLVER A JUGAR: the person takes their seat back from the robot that kept it."""
    with _changing(table_id) as change:
        seat = _acting_seat(change, secret)
        if not seat.away:
            raise TableError("Ya estás jugando tú.")
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save()
        change.log("back", seat.number, name=seat.name)


def table_set_turn_limit(*, table_id: int, secret: str | None, seconds: int) -> None:
    """The host sets how long a person has for a turn (from the next turn on)."""
    seconds = _turn_limit(seconds)
    with _changing(table_id) as change:
        _acting_host(change, secret)
        if change.table.turn_limit == seconds:
            return
        change.table.turn_limit = seconds
        change.table.turn_deadline = None  # recomputed for the turn in course
        change.log("turn_limit", None, seconds=seconds)


def tables_archive_stale() -> int:
    """Archive every table with no change for `Table.ARCHIVE_AFTER_DAYS`. Returns how many."""
    cutoff = clock.now() - timedelta(days=Table.ARCHIVE_AFTER_DAYS)
    stale = Table.objects.filter(updated_at__lt=cutoff).exclude(
        status__in=[Table.Status.CLOSED, Table.Status.ARCHIVED]
    )
    count = 0
    for table_id in stale.values_list("pk", flat=True):
        try:
            with _changing(table_id) as change:
                change.table.status = Table.Status.ARCHIVED
                change.table.turn_deadline = None
                change.log("archived", None)
        except TableError:
            continue
        count += 1
    return count


def _seat_to_robot(change: Change, seat: Seat, event: str) -> None:
    """A Normal robot plays `seat` for the rest of the match: its person's browser no longer
    proves it; the name and the score stay. The host role passes on if it was theirs."""
    seat.abandoned = True
    seat.secret_hash = ""
    seat.robot_level = Seat.Level.NORMAL
    seat.save()
    change.log(event, seat.number, name=seat.name)
    _host_passes_on(change, seat)


def seat_abandon(*, table_id: int, secret: str | None) -> None:
    """ABANDONAR: the person leaves the match; a robot plays the seat from now on.

    The seat keeps its name and score; the browser loses the seat and may watch. If the host
    leaves, the host role passes to the next person in seat order.
    """
    with _changing(table_id) as change:
        seat = _acting_seat(change, secret)
        table = change.table
        if table.status == Table.Status.LOBBY:
            seat.delete()
            change.log("left", seat.number, name=seat.name)
            del change.seats[seat.number]
            _host_passes_on(change, seat)
        else:
            _seat_to_robot(change, seat, "abandoned")


# --- Moderation ----------------------------------------------------------------------------
# Staff actions from the Django admin. They change the table through `_changing`, like a move:
# locked, logged, versioned and published the same way. Each one also logs a "moderated"
# event (who, what, why), which the moderation record (`chat`) keeps, in the same transaction.


def moderation_reason(*, actor: Any, reason: str) -> str:
    """A staff member's reason for a moderation action, tidied; or a refusal."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise TableError("Escribe el motivo.")
    if len(reason) > MODERATION_REASON_MAX:
        raise TableError(f"El motivo puede tener hasta {MODERATION_REASON_MAX} caracteres.")
    if actor is None or not actor.is_staff:
        raise TableError("Solo la moderación puede hacer eso.")
    return reason


def _moderated(change: Change, action: str, *, actor: Any, reason: str, target: str) -> str:
    reason = moderation_reason(actor=actor, reason=reason)
    change.log("moderated", None, action=action, actor=actor.pk, target=target[:200], reason=reason)
    return reason


def _moderated_seat(change: Change, number: int) -> Seat:
    seat = change.seats.get(number)
    if seat is None:
        raise TableError("En ese lugar no hay nadie.")
    return seat


def _host_passes_on(change: Change, seat: Seat) -> None:
    """If `seat` was the host's, the next person after it in seat order becomes the host."""
    table = change.table
    if seat.number != table.host_seat:
        return
    people = sorted(
        (s.number for s in change.seats.values() if not s.plays_as_robot),
        key=lambda number: (number - seat.number) % table.seat_count,
    )
    if people:
        table.host_seat = people[0]
        change.log("host_changed", people[0])


def table_close(*, table_id: int, reason: str, actor: Any) -> None:
    """Close the table for good: it stays visible, read-only, with the reason."""
    with _changing(table_id) as change:
        table = change.table
        reason = _moderated(change, "close", actor=actor, reason=reason, target=str(table))
        table.status = Table.Status.CLOSED
        table.closed_reason = reason
        change.log("closed", None, reason=reason)


def seat_replace_with_robot(*, table_id: int, number: int, reason: str, actor: Any) -> None:
    """A robot plays the seat from now on, as if its person had left (name and score stay)."""
    with _changing(table_id) as change:
        seat = _moderated_seat(change, number)
        if seat.plays_as_robot:
            raise TableError("En ese lugar ya juega un robot.")
        _moderated(change, "replace", actor=actor, reason=reason, target=str(seat))
        _seat_to_robot(change, seat, "replaced_by_robot")


def seat_rename(*, table_id: int, number: int, name: str, reason: str, actor: Any) -> None:
    """Give a seat another name (an offensive one); its chat messages show the new one."""
    name = _clean_name(name)
    with _changing(table_id) as change:
        seat = _moderated_seat(change, number)
        if seat.name == name:
            raise TableError("Ese ya es su nombre.")
        if seat.name.casefold() != name.casefold():  # else only the capitals change
            _check_name_free(change, name)
        old = seat.name
        target = f"Lugar {number + 1}: «{old}» → «{name}»"
        _moderated(change, "rename", actor=actor, reason=reason, target=target)
        seat.name = name
        seat.save()
        change.log("renamed", number, old=old, new=name)


# --- Alerts ------------------------------------------------------------------------------


def push_subscribe(*, table_id: int, secret: str | None, subscription: dict[str, Any]) -> None:
    """'Avisarme cuando me toque': keep this browser's Web Push subscription for its seat."""
    from tables.models import PushSubscription

    try:
        endpoint = str(subscription["endpoint"])
        p256dh = str(subscription["keys"]["p256dh"])
        auth = str(subscription["keys"]["auth"])
    except (KeyError, TypeError):
        raise TableError("No se pudo activar los avisos: suscripción no válida.") from None
    if not endpoint.startswith(("https://", "http://")) or len(endpoint) > 1000:
        raise TableError("No se pudo activar los avisos: suscripción no válida.")
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError("Esa mesa no existe.")
        seat = next((s for s in table.seats.all() if secret and s.secret_matches(secret)), None)
        if seat is None:
            raise TableError("No tienes un lugar en esta mesa.")
        PushSubscription.objects.update_or_create(
            seat=seat, endpoint=endpoint, defaults={"p256dh": p256dh, "auth": auth}
        )
        if not seat.alerts:
            seat.alerts = True
            seat.save(update_fields=["alerts"])
