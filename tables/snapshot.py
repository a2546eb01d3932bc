"""A table as a change or a render reads it: its row, its seats and its decoded game state,
loaded once (`TableSnapshot`); and one change as it was applied (`AppliedChange`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

import ocholoco
from tables.models import Seat, Table, TableEvent
from tables.prepared import Prepared


@dataclass
class TableSnapshot:
    """A table with its seats and decoded game state, loaded once per render."""

    table: Table
    seats: dict[int, Seat]
    round: Any = None
    match: Any = None

    @classmethod
    def load(cls, table: Table) -> TableSnapshot:
        seats = {s.number: s for s in _seats(table)}
        round_state = ocholoco.from_json(table.round_state) if table.round_state else None
        match = ocholoco.from_json(table.match_state) if table.match_state else None
        return cls(table=table, seats=seats, round=round_state, match=match)

    @functools.cached_property
    def invitation_url(self) -> str:
        """The table's invitation link, the same in every audience's panel."""
        return reverse("table", kwargs={"code": self.table.code})

    def player_of(self, seat_number: int) -> int | None:
        seats = self.table.match_seats
        return seats.index(seat_number) if seat_number in seats else None


def _seats(table: Table) -> list[Seat]:
    """The table's seats by number (seats prefetched with the table are taken as they are).
    Seats order by their table first, which costs a join with the tables and a sort on their
    creation time; one table's seats need only their number."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return list(table.seats.all())
    seats = _seats_of(table.pk)
    for seat in seats:
        seat.table = table  # as `table.seats` gives them: no query to reach their table
    return seats


_seats_of = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id).order_by("number"))


@dataclass(frozen=True)
class AppliedChange:
    """One table change as it was applied, in its transaction and before the commit: the table
    after it, the events it logged, whose turn began. What `tables.dispatch` hands to the
    recorders (inside the transaction) and to the frame parts (after the commit)."""

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
