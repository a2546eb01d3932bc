"""Every change to a table by its players, its robots and its housekeeping: one function per
change, each a complete unit of work run inside `tables.changes.unit_of_work.changing` (staff
actions are `tables.changes.moderation`). What follows a change is said in
`tables.changes.consequences`: this module knows no listener. A request that cannot be honoured
raises `TableError` with a message in Spanish, and nothing changes.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction

import ocholoco
from tables.audiences import wording
from tables.changes.unit_of_work import (
    Change,
    acting_host,
    acting_seat,
    changing,
    check_name_free,
    check_version,
    clean_name,
    host_passes_on,
    seat_to_robot,
)
from tables.live.broadcast import table_revoke_watchers
from tables.metrics import ILLEGAL, MOVES_BY_PERSON, MOVES_BY_ROBOT, NOT_YOUR_TURN
from tables.models import Seat, Table, TableEvent, TableRound, hash_secret, new_table_code
from tables.state import clock, turn_clock
from tables.state.decoded import MATCH, ROUND, decoded_keep
from tables.state.lookup import tables_archived_expired
from tables.state.refusal import TableError
from tables.state.seat_secrets import seat_by_secret

ROBOT_NAMES = ["Robotina", "Chispa", "Tuerca", "Pixel", "Bit", "Cobre", "Dínamo", "Voltio"]


def _rules(key: str) -> ocholoco.RuleSet:
    try:
        return ocholoco.PRESETS[key]
    except KeyError:
        raise TableError("Esas reglas no existen.") from None


def _free_number(change: Change) -> int:
    for number in range(change.table.seat_count):
        if number not in change.seats:
            return number
    raise TableError("La mesa está completa.")


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
        why = wording.invalid_rules_sentence(invalid.reason)
        raise TableError(f"Esas reglas no se pueden jugar: {why}") from None


def table_open(
    *,
    rules_key: str,
    host_name: str,
    turn_limit: int = 0,
    custom_rules: dict[str, Any] | None = None,
    language: str = "",
) -> tuple[Table, str]:
    """ABRIR MESA: a new table with its host in seat 0. Returns the table and the seat secret.

    `rules_key` names a preset; with `custom_rules` (house rules) it is the custom set's key.
    `language`: the host's, the first its pages are read in (none: the site's default).
    """
    rules = house_rules(custom_rules) if custom_rules is not None else _rules(rules_key)
    name = clean_name(host_name)
    turn_limit = _turn_limit(turn_limit)
    secret, secret_hash = _new_secret()
    with transaction.atomic():
        table = Table.objects.create(
            rules_key=rules.key, host_seat=0, version=1, turn_limit=turn_limit,
            languages=[language] if language else [],
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
    name = clean_name(name)
    with changing(table_id) as change:
        if seat_by_secret(change.seats.values(), secret) is not None:
            raise TableError("Ya tienes un lugar en esta mesa.")
        if change.table.status != Table.Status.LOBBY:
            raise TableError("La partida ya empezó: puedes mirarla.")
        if invitation is not None and invitation != change.table.code:
            raise TableError(
                "Para sentarte hace falta el enlace de invitación: pídeselo a quien abrió la mesa."
            )
        check_name_free(change, name)
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
    with changing(table_id) as change:
        acting_host(change, secret)
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
    with changing(table_id) as change:
        acting_host(change, secret)
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
    with changing(table_id) as change:
        acting_host(change, secret)
        change.table.code = new_table_code()
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
    _game_keep(change, match_changed=True)
    change.log(
        "round_started", None, round=match.round_number, dealer=table.seat_of_player(match.dealer)
    )


def _round_record(change: Change, match: ocholoco.Match, deal: ocholoco.Deal) -> None:
    """Keep the deal (its reveal secret until the round ends) and show its commitment."""
    table = change.table
    last = table.rounds.order_by("-id").values_list("match_number", flat=True).first() or 0
    table.deal_commitment = deal.commitment
    TableRound.objects.create(
        table=table, match_number=last + 1 if match.round_number == 1 else max(last, 1),
        number=match.round_number, seats=table.seats_in_play(), dealer=match.dealer,
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
    with changing(table_id) as change:
        acting_host(change, secret)
        check_version(change, version)
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
    with changing(table_id) as change:
        acting_seat(change, secret)
        check_version(change, version)
        if change.table.status != Table.Status.ROUND_OVER:
            raise TableError("La ronda todavía no terminó.")
        _deal(change, change.match)


def match_rematch(*, table_id: int, secret: str | None, version: int | None = None) -> None:
    """REVANCHA: the same table and seats play a new match, scores back at 0."""
    with changing(table_id) as change:
        acting_seat(change, secret)
        check_version(change, version)
        if change.table.status != Table.Status.MATCH_OVER:
            raise TableError("La partida todavía no terminó.")
        change.log("rematch", None)
        _deal(change, change.match.rematch())


def _apply(change: Change, seat: Seat, move: ocholoco.Move, **extra: Any) -> None:
    """Apply a move for `seat` to the locked table, and end the round when it ends."""
    table, state = change.table, change.round
    if table.status != Table.Status.PLAYING:
        raise TableError("No hay una ronda en juego.")
    player = table.player_of_seat(seat.number)
    if player is None:
        raise TableError("No juegas en esta partida.")
    if state.turn != player:
        raise TableError("No es tu turno.", reason=NOT_YOUR_TURN)
    try:
        new_state = ocholoco.apply_move(state, move)
    except ocholoco.IllegalMove as illegal:
        raise TableError(wording.reason_sentence(illegal.reason), reason=ILLEGAL) from None
    change.round = new_state
    table.last_move_at = clock.now()
    # What the move did, as the public events it added (a penalty's count, a skip, a
    # reshuffle...): what "Mientras no estabas" tells.
    said = [ocholoco.event_to_json(e) for e in ocholoco.events_between(state, new_state)]
    change.log("move", seat.number, move=ocholoco.move_to_str(move), events=said, **extra)
    if new_state.finished:
        match = change.match = change.match.apply_round(new_state)
        _game_keep(change, match_changed=True)
        points = {
            str(table.seat_of_player(p)): new_state.round_points[p] for p in range(match.players)
        }
        winners = [table.seat_of_player(p) for p in new_state.winners]
        _round_over(change, winners=winners, points=points, blocked=new_state.blocked)
        change.log(
            "round_over", None, points=points, blocked=new_state.blocked, winners=winners,
            scoring=match.rules.scoring,
        )
        if match.finished:
            change.log("match_over", None, winners=[table.seat_of_player(p) for p in match.winners])


def _game_keep(change: Change, *, match_changed: bool = False) -> None:
    """The table's stored round (and match, when it changed) and its status, from the engine's
    state: the one place they are kept in step, after a deal, a round's end and a turn's
    moves (the round encoded once after all of them). Each is kept decoded too: the next
    move reads this JSON back."""
    table, state, match = change.table, change.round, change.match
    table.round_state = ocholoco.to_json(state)
    decoded_keep(table.pk, ROUND, table.round_state, state)
    if match_changed:
        table.match_state = ocholoco.to_json(match)
        decoded_keep(table.pk, MATCH, table.match_state, match)
    if not state.finished:
        table.status = Table.Status.PLAYING
    else:
        table.status = Table.Status.MATCH_OVER if match.finished else Table.Status.ROUND_OVER


def table_play_move(
    *, table_id: int, secret: str | None, move: str, version: int | None
) -> None:
    """A person's move (play a card, draw, take the penalty, pass) against the version seen."""
    try:
        parsed = ocholoco.parse_move(move)
    except (ValueError, KeyError):
        raise TableError("Esa jugada no existe.", reason=ILLEGAL) from None
    with changing(table_id) as change:
        seat = acting_seat(change, secret)
        if seat.abandoned:
            raise TableError("Dejaste esta partida: un robot juega tu lugar.")
        if seat.away:
            raise TableError("Un robot juega tu lugar: toca VOLVER A JUGAR para seguir tú.")
        check_version(change, version)
        _apply(change, seat, parsed)
        _game_keep(change)
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0
            seat.save()
    MOVES_BY_PERSON.inc()  # committed


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
        with changing(table_id) as change:
            if change.table.version != version:
                return False
            end = turn_clock.turn_end(change)
            then = turn_clock.Then.PLAYED_FOR if timeout else turn_clock.Then.ROBOT_MOVES
            if end is None or end.then != then:
                return False
            if timeout and end.due_in > 0:
                return False  # the person's time has not run out (it was given back)
            seat = end.seat
            if timeout:
                change.log("timeout", seat.number, name=seat.name)
            for move in moves:
                if timeout:
                    _apply(change, seat, move, by="timeout")
                else:
                    _apply(change, seat, move, robot=True)
            _game_keep(change)
            if timeout:
                if turn_clock.timeout_count(seat):
                    change.log("away", seat.number, name=seat.name)
                seat.save()
    except TableError:
        return False
    MOVES_BY_ROBOT.inc(len(moves))  # committed
    return True


def round_deal_for_robots(*, table_id: int, version: int) -> bool:
    """Robots play on: at a table where only robots are left, deal the round that follows."""
    with changing(table_id) as change:
        if change.table.version != version:
            return False
        end = turn_clock.turn_end(change)
        if end is None or end.then != turn_clock.Then.ROBOTS_DEAL:
            return False
        _deal(change, change.match)
    return True


def seat_come_back(*, table_id: int, secret: str | None) -> None:
    """VOLVER A JUGAR: the person takes their seat back from the robot that kept it."""
    with changing(table_id) as change:
        seat = acting_seat(change, secret)
        if not seat.away:
            raise TableError("Ya estás jugando tú.")
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save()
        change.log("back", seat.number, name=seat.name)


def table_set_turn_limit(*, table_id: int, secret: str | None, seconds: int) -> None:
    """The host sets how long a person has for a turn (from the next turn on)."""
    seconds = _turn_limit(seconds)
    with changing(table_id) as change:
        acting_host(change, secret)
        if turn_clock.turn_limit_set(change.table, seconds):
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
            with changing(table_id) as change:
                change.table.status = Table.Status.ARCHIVED  # its turn's clock stops
                change.log("archived", None)
        except TableError:
            continue
        count += 1
    return count


def tables_delete_archived() -> int:
    """Delete every table archived for longer than `ARCHIVED_TABLES_KEEP_DAYS` (0: none; see
    `lookup.archived_kept_until`) with all that hangs on it: seats, rounds, the log, presences,
    alerts' subscriptions and the chat (their foreign keys cascade; the moderation record
    stays, without its table). A table that is not archived is never touched. Each table goes
    in a transaction of its own. Returns how many."""
    old = tables_archived_expired()
    count = 0
    for table_id in old.values_list("pk", flat=True):
        with transaction.atomic():
            deleted, _ = old.filter(pk=table_id).delete()
        count += bool(deleted)
    return count


def seat_abandon(*, table_id: int, secret: str | None) -> None:
    """ABANDONAR: the person leaves the match; a robot plays the seat from now on.

    The seat keeps its name and score; the browser loses the seat and may watch. If the host
    leaves, the host role passes to the next person in seat order.
    """
    with changing(table_id) as change:
        seat = acting_seat(change, secret)
        table = change.table
        if table.status == Table.Status.LOBBY:
            seat.delete()
            change.log("left", seat.number, name=seat.name)
            del change.seats[seat.number]
            host_passes_on(change, seat)
        else:
            seat_to_robot(change, seat, "abandoned")
