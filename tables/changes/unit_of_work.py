"""The unit of work every table change goes through (`changing`), and the checks and steps the
services share: who is acting, at which version, a name, a seat a robot takes over.

`changing` locks the table row (`SELECT ... FOR UPDATE`) for the whole transaction, loads the table
once, lets the service change it, then saves only what changed, appends the events to the table's
log, bumps the version and hands the applied change to `tables.changes.consequences`, the one place
that says what follows. A refusal (`TableError`) rolls it all back.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.db.models import Field
from django.utils import timezone

import ocholoco
from tables.changes.consequences import table_changed
from tables.metrics import STALE_VERSION
from tables.models import Seat, Table, TableEvent
from tables.state import turn_clock
from tables.state.refusal import TableError
from tables.state.seat_secrets import seat_by_secret
from tables.state.snapshot import AppliedChange, TableSnapshot

NAME_MAX = 24


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
        """Whose turn it is (status, seat to move): a change that alters it passes the turn."""
        table = self.table
        if table.status != Table.Status.PLAYING or self.round is None:
            return (table.status, None)
        return (table.status, table.seat_of_player(self.round.turn))


@contextmanager
def changing(table_id: int) -> Iterator[Change]:
    """Lock the table, let the caller change it, then save, log and dispatch what follows.

    Locks the table's row (`SELECT ... FOR UPDATE`) for the whole transaction.
    """
    with transaction.atomic():
        table = _table_locked(table_id)
        if table is None:
            raise TableError("Esa mesa no existe.")
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
        turn_clock.deadline_update(change, turn_passed=turn_after != turn_before)
        table.version += 1
        _save_changed(table, before)
        # One INSERT per event, which gives each its id on any database: a change logs one (a
        # round's end, a seat given up: two or three), and one row's `create` costs less than
        # `bulk_create`'s.
        events = [
            TableEvent.objects.create(
                table=table, version=table.version, kind=kind, seat=seat, data=data
            )
            for kind, seat, data in change.events
        ]
        # The turn just passed to a person: they may need an alert (one per turn).
        turn_passed_to = turn_after[1] if turn_after != turn_before else None
        table_changed(
            AppliedChange(
                snapshot=TableSnapshot(
                    table=table, seats=change.seats, round=change.round, match=change.match,
                    events=tuple(events),
                ),
                events=events,
                turn_passed_to=turn_passed_to,
            )
        )


def _table_locked(table_id: int) -> Table | None:
    """The table's row, whole, locked until the transaction ends: the statement Django writes
    for `select_for_update()`, as SQL of our own (Django took several times as long to write
    the queryset's as to run it). SQLite locks no rows: a change's transaction (IMMEDIATE) holds
    the database's write lock from its start."""
    lock = "" if connection.vendor == "sqlite" else " FOR UPDATE"
    return next(iter(Table.objects.raw(_TABLE_SQL + lock, [table_id])), None)


_TABLE_SQL = "SELECT * FROM tables_table WHERE id = %s"


@functools.cache
def _stored_fields() -> tuple[str, ...]:
    """The names of the table's own columns but its id and `updated_at` (Django's documented
    Model _meta API)."""
    return tuple(
        field.name
        for field in Table._meta.get_fields()
        if field.concrete and not field.primary_key and field.name != "updated_at"
    )


def _field_values(table: Table) -> dict[str, Any]:
    """The table's stored fields as they are now. A service replaces a JSON value
    (`round_state = to_json(...)`), never edits it in place."""
    return {name: copy.copy(getattr(table, name)) for name in _stored_fields()}


def _save_changed(table: Table, before: dict[str, Any]) -> None:
    """Write the fields that differ from `before` (a move: the round, the version, the time of
    the last move) and `updated_at`, as `save(update_fields=...)` would, without its signals
    (nothing listens to them for tables); a row that is not there fails the change."""
    changed = {
        name: value for name, value in _field_values(table).items() if value != before[name]
    }
    table.updated_at = changed["updated_at"] = timezone.now()  # as auto_now would
    # Our own UPDATE, each value made ready for the database by its field
    # (`Field.get_db_prep_save`, the documented door): Django took longer to write the SQL of
    # `QuerySet.update()` than to run it.
    fields = [_table_field(name) for name in changed]
    columns = ", ".join(f'"{field.name}" = %s' for field in fields)  # no db_column
    values = [field.get_db_prep_save(changed[field.name], connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE tables_table SET {columns} WHERE id = %s", [*values, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"Table {table.pk} was not updated")


@functools.cache
def _table_field(name: str) -> Field:
    return Table._meta.get_field(name)


def clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise TableError("Escribe tu nombre.")
    if len(name) > NAME_MAX:
        raise TableError(f"El nombre puede tener hasta {NAME_MAX} caracteres.")
    return name


def acting_seat(change: Change, secret: str | None) -> Seat:
    """The seat this browser proves with its secret, or a refusal."""
    seat = seat_by_secret(change.seats.values(), secret)
    if seat is None:
        raise TableError("No tienes un lugar en esta mesa.")
    return seat


def acting_host(change: Change, secret: str | None) -> Seat:
    seat = acting_seat(change, secret)
    if seat.number != change.table.host_seat:
        raise TableError("Solo quien abrió la mesa puede hacer eso.")
    return seat


def check_version(change: Change, version: int | None) -> None:
    if version is not None and version > change.table.version:
        raise TableError(
            "Esa versión de la mesa no existe. Recarga la página y vuelve a probar.",
            reason=STALE_VERSION,
        )
    if version is not None and version != change.table.version:
        raise TableError(
            "La mesa cambió mientras elegías. Mira de nuevo y vuelve a intentarlo.",
            reason=STALE_VERSION,
        )


def check_name_free(change: Change, name: str) -> None:
    if any(s.name.casefold() == name.casefold() for s in change.seats.values()):
        raise TableError("Ya hay alguien con ese nombre en la mesa.")


def seat_to_robot(change: Change, seat: Seat, event: str) -> None:
    """A Normal robot plays `seat` for the rest of the match: its person's browser no longer
    proves it; the name and the score stay. The host role passes on if it was theirs."""
    seat.abandoned = True
    seat.secret_hash = ""
    seat.robot_level = Seat.Level.NORMAL
    seat.save()
    change.log(event, seat.number, name=seat.name)
    host_passes_on(change, seat)


def host_passes_on(change: Change, seat: Seat) -> None:
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
