"""A turn's clock: the one owner of when a table's turn ends and what happens then.

A person's turn at a table with a turn limit ends at its deadline (`Table.turn_deadline`, set
here as the turn starts, by `deadline_update`, which every change runs); then the seat-keeping
robot plays their whole turn for them (`Then.PLAYED_FOR`), and after three such turns in a row
it keeps the seat (`timeout_count`). A robot's turn ends `ROBOT_DELAY` after the change that
began it, so that people can follow it (`Then.ROBOT_MOVES`); a round's end at a table where
only robots are left, `ROBOTS_NEXT_ROUND_DELAY` after it (`Then.ROBOTS_DEAL`). `turn_end` says
which and when: the robots' task asks it, then asks the robots for the moves. After a restore
every clock is given back the downtime (`turn_clocks_shift`). Nothing else writes a deadline
or reads a turn limit (`tests/tables/test_turn_clock.py`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.db.models import F

import ocholoco
from tables.models import Seat, Table
from tables.state import clock
from tables.state.lookup import seats_prefetch
from tables.state.snapshot import TableSnapshot

# Seconds a table with only robots left waits on a round's end before dealing the next.
ROBOTS_NEXT_ROUND_DELAY = 5.0
# Turns in a row played for a person whose time ran out, after which the robot keeps the seat.
TIMEOUTS_TO_AWAY = 3


class AtTable(Protocol):
    """A table with its seats and its round: a change's (`Change`) or a snapshot's."""

    @property
    def table(self) -> Table: ...
    @property
    def seats(self) -> dict[int, Seat]: ...
    @property
    def round(self) -> ocholoco.Round | None: ...


class Then(enum.Enum):
    """What happens when a table's turn ends."""

    ROBOT_MOVES = "robot_moves"  # a robot's seat: it makes one move
    PLAYED_FOR = "played_for"  # a person's time ran out: a robot plays their whole turn
    ROBOTS_DEAL = "robots_deal"  # only robots are left after a round: the next one is dealt


@dataclass(frozen=True)
class TurnEnd:
    """When a table's turn ends (`at`, in `due_in` seconds: none when it has passed) and what
    happens then, for which seat (none for a deal)."""

    then: Then
    due_in: float
    at: datetime
    seat: Seat | None = None


def turn_end(at_table: AtTable) -> TurnEnd | None:
    """When the table's turn ends and what happens then, or None: nothing happens by itself
    (a person to move with no turn limit, a table not in play)."""
    table, now = at_table.table, clock.now()
    if table.status == Table.Status.ROUND_OVER and all(
        at_table.seats[number].plays_as_robot for number in table.seats_in_play()
    ):
        return _end(Then.ROBOTS_DEAL, ROBOTS_NEXT_ROUND_DELAY, now)  # nobody taps SIGUIENTE
    seat = _seat_to_move(at_table)
    if seat is None:
        return None
    if seat.plays_as_robot:
        return _end(Then.ROBOT_MOVES, settings.ROBOT_DELAY, now, seat)
    if table.turn_deadline is None:
        return None
    due_in = max(0.0, (table.turn_deadline - now).total_seconds())
    return _end(Then.PLAYED_FOR, due_in, now, seat)


def _end(then: Then, due_in: float, now: datetime, seat: Seat | None = None) -> TurnEnd:
    return TurnEnd(then=then, due_in=due_in, at=now + timedelta(seconds=due_in), seat=seat)


def _seat_to_move(at_table: AtTable) -> Seat | None:
    """The seat whose turn it is in a round in play, or None."""
    table, state = at_table.table, at_table.round
    if table.status != Table.Status.PLAYING or state is None:
        return None
    return at_table.seats.get(table.seat_of_player(state.turn))


def late_by(due: datetime) -> float:
    """Seconds since `due` (negative before it): how late a robot's task runs."""
    return (clock.now() - due).total_seconds()


def deadline_update(at_table: AtTable, *, turn_passed: bool) -> None:
    """As a change is saved: a turn that passed to another seat, or one with no deadline yet,
    starts its time. A person's turn ends the table's turn limit from now; a robot's turn and
    a table not in play have no deadline. The same turn's time runs on."""
    table = at_table.table
    if not turn_passed and table.turn_deadline:
        return
    seat = _seat_to_move(at_table)
    person = seat is not None and not seat.plays_as_robot
    table.turn_deadline = (
        clock.now() + timedelta(seconds=table.turn_limit)
        if person and table.turn_limit
        else None
    )


def turn_limit_set(table: Table, seconds: int) -> bool:
    """The host's turn limit, from the turn in course on (its time starts again as the change
    is saved). Returns whether it changed."""
    if table.turn_limit == seconds:
        return False
    table.turn_limit = seconds
    table.turn_deadline = None  # `deadline_update` starts it again
    return True


def timeout_count(seat: Seat) -> bool:
    """A person's turn ran out and was played for them: counted (the caller saves the seat).
    Returns whether the robot now keeps the seat (`away`) until the person takes it back."""
    seat.timeouts_in_row += 1
    if seat.timeouts_in_row < TIMEOUTS_TO_AWAY:
        return False
    seat.away = True
    return True


def tables_awaiting_turn() -> list[tuple[int, int, TurnEnd]]:
    """(table id, version, its turn's end) of every table in play whose turn ends by itself:
    a robot to move, a person with a turn limit, robots to deal on."""
    pending = []
    in_play = [Table.Status.PLAYING, Table.Status.ROUND_OVER]
    for table in Table.objects.filter(status__in=in_play).prefetch_related(seats_prefetch()):
        end = turn_end(TableSnapshot.load(table, table.seats_by_number))
        if end is not None:
            pending.append((table.pk, table.version, end))
    return pending


def turn_clocks_shift(*, by: timedelta) -> int:
    """The site was down for `by`: every turn's deadline moves that much later, so that the
    downtime times no one out (a restore: `tables.backups.services.downtime_shift`). Not a
    table change (no version, no event). Returns how many tables had a clock running."""
    return Table.objects.filter(turn_deadline__isnull=False).update(
        turn_deadline=F("turn_deadline") + by
    )
