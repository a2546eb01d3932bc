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
    """The table's seats by number (seats prefetched with the table are taken as they are).
    Seats order by their table first, which costs a join with the tables and a sort on their
    creation time; one table's seats need only their number."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return list(table.seats.all())
    seats = _seats_of(table.pk)
    for seat in seats:
        seat.table = table  # as `table.seats` gives them: no query to reach their table
    return seats


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
