"""A table as a change or a render reads it: its row, its seats and its decoded game state,
loaded once (`TableSnapshot`); and one change as it was applied (`AppliedChange`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from tables.models import Seat, Table, TableEvent
from tables.state.decoded import MATCH, ROUND, decoded_state


@dataclass
class TableSnapshot:
    """A table with its seats and decoded game state, loaded once per render."""

    table: Table
    seats: dict[int, Seat]
    round: Any = None
    match: Any = None
    # The log entries of the change this snapshot is the result of (empty when loaded): what
    # the board's game log gets for this version.
    events: tuple[TableEvent, ...] = ()

    @classmethod
    def load(cls, table: Table, seats: Iterable[Seat] | None = None) -> TableSnapshot:
        """`seats`: the table's, if they were read with it (prefetched); else they are read."""
        seats = {s.number: s for s in (_seats(table) if seats is None else seats)}
        round_state = decoded_state(table.pk, ROUND, table.round_state)
        match = decoded_state(table.pk, MATCH, table.match_state)
        return cls(table=table, seats=seats, round=round_state, match=match)

    @functools.cached_property
    def invitation_url(self) -> str:
        """The table's invitation link, the same in every audience's panel."""
        return reverse("table", kwargs={"code": self.table.code})

    def seat_of_player(self, player: int) -> Seat:
        """The seat of the engine's `player` (`Table.seat_of_player`)."""
        return self.seats[self.table.seat_of_player(player)]


def _seats(table: Table) -> list[Seat]:
    """The table's seats by number. Every move reads them: as a raw query, since Django took
    several times as long to write a queryset's SQL as to run it (and seats order by their
    table first, which costs a join with the tables and a sort on their creation time, when
    one table's seats need only their number)."""
    seats = list(Seat.objects.raw(_SEATS_SQL, [table.pk]))
    for seat in seats:
        seat.table = table  # as `table.seats` gives them: no query to reach their table
    return seats


_SEATS_SQL = "SELECT * FROM tables_seat WHERE table_id = %s ORDER BY number"


@dataclass(frozen=True)
class AppliedChange:
    """One table change as it was applied, in its transaction and before the commit: the table
    after it, the events it logged, whose turn began. What `tables.changes.consequences` hands to
    the recorders (inside the transaction) and to the frame parts (after the commit)."""

    snapshot: TableSnapshot
    events: list[TableEvent]
    # A person whose turn began with this change (their seat number), for alerts.
    turn_passed_to: int | None = None
    kinds: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", frozenset(e.kind for e in self.events))

    @property
    def table(self) -> Table:
        return self.snapshot.table

    @property
    def version(self) -> int:
        return self.snapshot.table.version
