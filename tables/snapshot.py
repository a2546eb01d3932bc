"""A table as a change or a render reads it: its row, its seats and its decoded game state,
loaded once (`TableSnapshot`); and one change as it was applied (`AppliedChange`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

import ocholoco
from tables.models import Seat, Table, TableEvent


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
        round_state = _decoded(table.pk, ROUND, table.round_state)
        match = _decoded(table.pk, MATCH, table.match_state)
        return cls(table=table, seats=seats, round=round_state, match=match)

    @functools.cached_property
    def invitation_url(self) -> str:
        """The table's invitation link, the same in every audience's panel."""
        return reverse("table", kwargs={"code": self.table.code})

    def player_of(self, seat_number: int) -> int | None:
        seats = self.table.match_seats
        return seats.index(seat_number) if seat_number in seats else None


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


# --- Decoded game states ---------------------------------------------------------------------
# A table's next change, and each page that (re)connects, read the JSON its last change wrote:
# decoding it again cost more than a tenth of a move's own work. The engine's values are
# immutable, so one decoded state serves every reader; a kept state is used only for JSON equal
# to the JSON it stands for (compared in C, in a few microseconds), so a table changed by another
# process, or by hand, is decoded afresh.

ROUND, MATCH = "round", "match"
KEPT_STATES = 4000  # a round and a match for each of 2,000 tables (a few MB)

_kept: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}


def _decoded(table_id: int, kind: str, data: dict[str, Any] | None) -> Any:
    if not data:
        return None
    kept = _kept.get((table_id, kind))
    if kept is not None and kept[0] == data:
        return kept[1]
    value = ocholoco.from_json(data)
    decoded_keep(table_id, kind, data, value)
    return value


def decoded_keep(table_id: int, kind: str, data: dict[str, Any], value: Any) -> None:
    """`data` is `ocholoco.to_json(value)`, as a change saved it: the next read takes `value`."""
    if len(_kept) >= KEPT_STATES:
        _kept.clear()
    _kept[(table_id, kind)] = (data, value)


def decoded_release(table_id: int) -> None:
    """The table went quiet here: its states go (the next read decodes them)."""
    _kept.pop((table_id, ROUND), None)
    _kept.pop((table_id, MATCH), None)


def decoded_forget() -> None:
    _kept.clear()


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
